"""Where every benchmark's numbers go: one JSON file per benchmark under
benchmarks/results/, committed, so each number in the README has a file behind it.

A result file is {"run": {...}, "results": {...}}: the run says which code (git
revision, dirty or not), when (UTC), on what (cores, memory, Python) and under what
load (the load average before and after: a loaded machine's numbers say little about
an idle one), and with which command it can be made again."""

from __future__ import annotations

import json
import os
import platform
import shlex
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


def run_info(command: str, load_before: list[float], seconds: float) -> dict[str, Any]:
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
        "load_before": load_before,
        "load_after": load_average(),
    }


def command_line(module: str, argv: list[str]) -> str:
    """The command that made a run, as a user would type it again."""
    return shlex.join(["python", "-m", module, *argv])


def measure(measure_fn: Callable[[], dict[str, Any]], command: str) -> dict[str, Any]:
    """Run one benchmark and wrap its results with the run block."""
    before, started = load_average(), time.perf_counter()
    results = measure_fn()
    return {"run": run_info(command, before, time.perf_counter() - started), "results": results}


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
