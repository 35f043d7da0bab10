"""Where every benchmark's numbers go: one JSON file per benchmark under
benchmarks/results/, committed, so each number in the README has a file behind it.

A result file is {"run": {...}, "results": {...}}: the run says which code (git
revision, dirty or not), when (UTC), on what (cores, memory, Python) and under what
load (the load average before and after: a loaded machine's numbers say little about
an idle one), how fast its host was (hosts of this kind differed by up to 3x from one
session to the next, idle), and with which command it can be made again."""

from __future__ import annotations

import json
import os
import platform
import re
import shlex
import sqlite3
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

RESULTS = Path(__file__).resolve().parent / "results"
REPO = RESULTS.parents[1]


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _git(*args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def machine() -> dict[str, Any]:
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return {
        "cpus": os.cpu_count(),
        "memory_gb": round(memory / 2**30, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


_CALIBRATION_TEXT = "the agent forwarded nothing; ignoring the typo, the user keeps notes on deploys " * 40


def _calibration_work() -> None:
    """A fixed mix of what these benchmarks spend a core on: bytecode, a regex scan,
    SQLite inserts into an indexed table, a JSON round trip."""
    sum(i * i for i in range(200_000))
    for _ in range(200):
        re.findall(r"\b\w+ing\b|forward\w*\s+\w+", _CALIBRATION_TEXT)
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t(id TEXT PRIMARY KEY, k TEXT, v REAL)")
    conn.execute("CREATE INDEX t_k ON t(k, id)")
    rows = ((f"{i * 7919 % 20011:05}-{i}", f"k{i % 97}", i / 3) for i in range(20_000))
    conn.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    conn.close()
    json.loads(json.dumps([{"id": i, "tags": ["a", "b"], "x": i / 7} for i in range(20_000)]))


def host_speed_ms(repeats: int = 3) -> float:
    """Milliseconds one core of this host takes for `_calibration_work`, best of
    `repeats` (lower is faster). Read a run's numbers beside it: the same code measured
    idle on two hosts of this kind differed as much as this figure does."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        _calibration_work()
        best = min(best, time.perf_counter() - started)
    return round(best * 1000, 1)


def run_info(command: str, load_before: list[float], seconds: float, host_ms: float | None = None) -> dict[str, Any]:
    """The run block; call it when the measuring is done (it reads the load after)."""
    return {
        "seconds": round(seconds, 1),
        "git_revision": _git("rev-parse", "--short", "HEAD") or "unknown",
        # the code measured, not the result files an earlier benchmark of the same run wrote
        "git_dirty": bool(
            _git("status", "--porcelain", "--untracked-files=no", "--", "engine", "benchmarks", ":(exclude)benchmarks/results")
        ),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": command,
        "machine": machine(),
        "host_speed_ms": host_ms,
        "load_before": load_before,
        "load_after": load_average(),
    }


def command_line(module: str, argv: list[str]) -> str:
    """The command that made a run, as a user would type it again."""
    return shlex.join(["python", "-m", module, *argv])


def measure(measure_fn: Callable[[], dict[str, Any]], command: str) -> dict[str, Any]:
    """Run one benchmark and wrap its results with the run block."""
    before, host_ms = load_average(), host_speed_ms()
    started = time.perf_counter()
    results = measure_fn()
    return {"run": run_info(command, before, time.perf_counter() - started, host_ms), "results": results}


def save(document: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path


def result_path(name: str) -> Path:
    return RESULTS / f"{name}.json"


def load(path: Path) -> dict[str, Any]:
    """A result file, refused with its name if it is not one (no run or results block)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(document, dict) or not {"run", "results"} <= set(document):
        raise ValueError(f"{path}: not a benchmark result file (needs 'run' and 'results')")
    return document
