"""The progress line of `import` and `eval`: drawn on stderr when it is a terminal,
never into a pipe and never under --json (the result stays clean for scripts)."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from engine.cli import main
from engine.progress import Progress

REPO = Path(__file__).resolve().parents[2]
RUN_CLI = "import sys; from engine.cli import main; sys.exit(main(sys.argv[1:]))"


def test_the_line_counts_rate_and_eta():
    ticks = iter([0.0, 2.0, 4.0])
    out = io.StringIO()
    bar = Progress("import", "entries", enabled=True, stream=out, clock=lambda: next(ticks))
    bar(1000, 4000)
    bar(4000, 4000)
    bar.close()
    first, last = out.getvalue().split("\r")[1:]
    assert "1,000/4,000 25%" in first and "500 entries/s" in first and "ETA 6s" in first
    assert "4,000/4,000 100%" in last and "in 4s" in last and last.endswith("\n")


def test_nothing_is_drawn_when_disabled():
    out = io.StringIO()
    bar = Progress("import", "entries", enabled=False, stream=out)
    bar(1, 2)
    bar.close()
    assert out.getvalue() == ""


def jsonl(path: Path, n: int) -> Path:
    path.write_text("".join(json.dumps({"id": f"p{i}", "key": f"p/{i}", "content": f"fact {i}"}) + "\n" for i in range(n)))
    return path


def run_import(tmp_path: Path, *extra: str, tty: bool) -> tuple[str, str]:
    """(stdout, stderr) of `import` with stderr on a pseudo-terminal or a pipe."""
    src = jsonl(tmp_path / "in.jsonl", 300)
    argv = [sys.executable, "-c", RUN_CLI, "--db", str(tmp_path / "m.db"), "import", str(src), *extra]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    if not tty:
        done = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
        return done.stdout, done.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=slave, cwd=REPO, env=env, text=True)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    out = proc.communicate(timeout=120)[0]
    os.close(master)
    return out, err.decode()


def test_import_draws_progress_on_a_terminal(tmp_path):
    out, err = run_import(tmp_path, tty=True)
    assert "landed 300" in out
    assert "300/300 100%" in err and "entries/s" in err


def test_import_draws_nothing_into_a_pipe_or_under_json(tmp_path):
    out, err = run_import(tmp_path, tty=False)
    assert "landed 300" in out and err == ""
    out, err = run_import(tmp_path, "--json", tty=True)
    assert json.loads(out)["unchanged"] == 300
    assert "entries/s" not in err


def test_eval_draws_nothing_into_a_pipe(tmp_path, monkeypatch, capsys):
    async def fake_run(path, granularity, limit, overrides, *, progress, embedder_factory):
        progress(1, 2)
        progress(2, 2)
        return {"hybrid": {"recall@5": 1.0}}

    monkeypatch.setattr("engine.recall.evaluation.run_longmemeval", fake_run)
    assert main(["eval", "--longmemeval", str(tmp_path / "lme.json")]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert json.loads(captured.out) == {"hybrid": {"recall@5": 1.0}}
