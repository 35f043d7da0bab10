"""Benchmark result files (issue 14): every run says which code, when, on what machine
and under what load, and how to make it again, whichever benchmark wrote it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import engine_bench, readme_tables, results_io
from benchmarks import run as bench_run

REPO = Path(__file__).resolve().parents[2]


def check_run_block(run: dict) -> None:
    assert run["git_revision"] != "unknown" and len(run["git_revision"]) >= 7
    assert isinstance(run["git_dirty"], bool)
    assert run["date"].endswith("+00:00")  # UTC
    assert run["machine"]["cpus"] >= 1 and run["machine"]["memory_gb"] > 0
    assert len(run["load_before"]) == 3 and len(run["load_after"]) == 3
    assert run["host_speed_ms"] > 0  # the same fixed work timed on this host: runs on two hosts compare
    assert run["seconds"] >= 0


def test_make_bench_writes_each_result_file_with_its_run_block(tmp_path, monkeypatch):
    monkeypatch.setattr(results_io, "RESULTS", tmp_path)
    monkeypatch.setitem(bench_run.BENCHMARKS, "write-path", lambda sizes: asyncio.run(engine_bench.run(20)))
    assert bench_run.main(["write-path", "--tag", "small"]) == 0
    document = json.loads((tmp_path / "write-path-small.json").read_text())
    check_run_block(document["run"])
    assert document["run"]["command"] == "python -m benchmarks.run write-path --sizes 10000 100000 --tag small"
    assert document["results"]["single_write"]["writes"] == 20


def test_an_unknown_benchmark_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as exc:
        bench_run.main(["recall", "recal"])
    assert exc.value.code == 2
    assert "unknown benchmark recal" in capsys.readouterr().err


def test_the_import_benchmark_writes_the_same_run_block(tmp_path):
    out = tmp_path / "import.json"
    argv = ["--sizes", "60", "--sample", "10", "--out", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.import_bench", *argv], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    document = json.loads(out.read_text())
    check_run_block(document["run"])
    assert document["run"]["command"] == results_io.command_line("benchmarks.import_bench", argv)
    assert document["results"]["60"]["gated_bulk"]["entries_per_s"] > 0


@pytest.mark.slow
def test_the_backfill_benchmark_writes_the_same_run_block(tmp_path):
    out = tmp_path / "backfill.json"
    argv = ["--entries", "64", "--baseline-entries", "32", "--out", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.backfill_bench", *argv], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    document = json.loads(out.read_text())
    check_run_block(document["run"])
    assert document["results"]["64"]["embedded"] == 64 and document["results"]["64"]["stored"] == 64


def test_a_file_that_is_not_a_result_is_refused_with_its_name(tmp_path, capsys):
    results = tmp_path / "results"
    results.mkdir()
    (results / "write-path.json").write_text('{"single_write": {}}')
    readme = tmp_path / "README.md"
    readme.write_text("".join(f"<!-- bench:{n} -->\n<!-- /bench:{n} -->\n" for n in readme_tables.SECTIONS))
    assert readme_tables.main(["--readme", str(readme), "--results", str(results)]) == 2
    assert "write-path.json: not a benchmark result file" in capsys.readouterr().err
