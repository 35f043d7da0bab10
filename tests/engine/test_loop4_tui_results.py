"""The TUI bench as a committed artifact (issue 14): benchmarks/tui_bench.py writes its
numbers with the same run block as the engine benchmarks (revision, dirty flag, date,
machine, load, command), and the README's app and loop-stall tables are generated from
that file, every number in them read from it. The bench runs for real here, on a small
store in a pseudo-terminal (one app start, a few keys, no stall scenarios)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import readme_tables, results_io

from .test_bench_readme_tables import NUMBER, leaves
from .test_bench_results import check_run_block

REPO = Path(__file__).resolve().parents[2]
ARGV = ["--sizes", "400", "--runs", "1", "--presses", "2", "--settle-rounds", "1", "--no-lag"]
MARKERS = "\n".join(f"<!-- bench:{name} -->\n<!-- /bench:{name} -->" for name in ("tui", "tui-stalls"))


@pytest.fixture(scope="module")
def tui_run(tmp_path_factory) -> tuple[dict, Path]:
    folder = tmp_path_factory.mktemp("tui-bench")
    out = folder / "results" / "tui.json"
    argv = [*ARGV, "--cache", str(folder / "cache"), "--out", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.tui_bench", *argv], cwd=REPO, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    document = json.loads(out.read_text())
    assert document["run"]["command"] == results_io.command_line("benchmarks.tui_bench", argv)
    return document, folder


def test_the_tui_bench_writes_a_result_file_with_its_run_block(tui_run):
    document, _ = tui_run
    check_run_block(document["run"])
    result = document["results"]["400"]
    assert result["entries"] == 400
    assert result["first_rows_ms"]["median"] >= result["first_frame_ms"]["median"] > 0
    for key in ("G", "g", "sort", "filter", "clear_filter"):  # timed to the rows drawn, each one seen
        assert result["rows_settled"][f"{key}_settled_ms"]["n"] == 1


def test_the_readme_app_tables_are_generated_from_tui_json(tui_run, tmp_path):
    document, folder = tui_run
    results = tmp_path / "results"
    shutil.copytree(results_io.RESULTS, results)
    shutil.copy(folder / "results" / "tui.json", results / "tui.json")
    # the README without its app tables: a result file needs them
    readme = re.sub(
        r"<!-- (bench:tui(?:-stalls)?) -->.*?<!-- /\1 -->\n?", "", readme_tables.README.read_text(encoding="utf-8"), flags=re.S
    )
    with pytest.raises(ValueError, match="no <!-- bench:tui -->"):  # a result file needs its table
        readme_tables.rewrite(readme, results)
    text = readme_tables.rewrite(readme + "\n" + MARKERS + "\n", results)
    body = re.search(r"<!-- bench:tui -->(.*?)<!-- /bench:tui -->", text, re.S).group(1)
    settled = document["results"]["400"]["rows_settled"]["G_settled_ms"]["median"]
    assert f"| `G` settled (rows drawn), median / p95 | {readme_tables.fmt(settled)} / " in body
    assert "revision " + document["run"]["git_revision"] in body
    stalls = re.search(r"<!-- bench:tui-stalls -->(.*?)<!-- /bench:tui-stalls -->", text, re.S).group(1)
    assert "| scenario | lateness max / p95 | loop busy, max | lasted |" in stalls
    known = leaves(document)  # and the committed 1M run, whose column the table also shows
    for extra in sorted(results.glob("tui-*.json")):
        known += leaves(json.loads(extra.read_text(encoding="utf-8")))
    # not numbers: code, source marks, the date, and revisions (a hash can be all digits: 4389784)
    unmeasured = re.sub(r"`[^`]*`|\[\d+\]|revision [0-9a-f]+", "", body.replace(document["run"]["date"], ""))
    for token in NUMBER.findall(unmeasured):
        value, places = float(token.replace(",", "")), len(token.partition(".")[2])
        assert any(abs(x - value) <= 0.5 * 10**-places + 1e-9 for x in known), f"{token} is in no result file"
