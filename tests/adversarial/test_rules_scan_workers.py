"""An import killed mid-batch (SIGKILL) must not leave the scanner's worker
processes behind: they exit when the process that started them dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = """
import multiprocessing, sys, time
import engine.scanner as scanner
scanner._POOL_MIN_TEXTS = 4
scanner.scan_many([f"note {n}: lunch with Sam" for n in range(40)], processes=2)
print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as fh:  # a zombie waits only for its reaper
        return fh.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_scanner_workers_exit_when_their_importer_is_killed():
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(pid) for pid in proc.stdout.readline().split()]
        assert workers and all(_alive(pid) for pid in workers)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 60  # the workers notice at once; the bound only stops a hang
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers), "scanner workers outlived the killed importer"
