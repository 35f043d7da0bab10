"""At start-up the status line asked engine.recall_status() on the loop, and its first
call imported the recall stack (numpy, the tokenizer, the pipeline, the backfill) there:
~0.1 s of the loop before the first frame at 100k entries (issue 14, found by the stack
sampler: facade/core.py recall_service -> importlib). The app now asks through
engine.prepare_recall(), which imports them in a thread. A fresh interpreter shows which
thread imported them (this one has already)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import asyncio, sys, threading
seen = []
class Spy:  # notes whether the main (the app's loop) thread imports the recall service
    def find_spec(self, name, path=None, target=None):
        if name == "engine.recall.service":
            seen.append(threading.current_thread() is threading.main_thread())
        return None
sys.meta_path.insert(0, Spy())
sys.path.insert(0, "tests/tui")
from conftest import frozen_clock, wait_until
from echo_memory_tui.app import EchoMemoryApp

async def main():
    app = EchoMemoryApp(sys.argv[1], clock=frozen_clock, live=False, warm_recall=False)
    async with app.run_test(size=(140, 44)) as pilot:
        await wait_until(pilot, lambda: app.status.model == "embeddings not loaded", timeout=30, what="model state")
        print(seen)

asyncio.run(main())
"""


def test_the_status_line_learns_the_model_state_without_importing_recall_on_the_loop(demo_db):
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(demo_db)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "[False]"
