"""The recall stack's modules (numpy, the tokenizer, the pipeline, the backfill) imported
on the caller's event loop the first time anything asked about recall: the app's loop
held ~0.1 s at start-up (issue 14, named by the stack sampler: facade/core.py
recall_service -> importlib). prepare_recall and warm_recall import them in a thread;
a fresh interpreter shows which thread did (this process has imported them already)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

SCRIPT = r"""
import asyncio, sys, threading
seen = []
class Spy:  # notes the thread that imports the recall service module
    def find_spec(self, name, path=None, target=None):
        if name == "engine.recall.service":
            seen.append(threading.current_thread() is threading.main_thread())
        return None
sys.meta_path.insert(0, Spy())
from engine import MemoryEngine

async def main():
    engine = await MemoryEngine.open(sys.argv[1], embedder_factory=lambda name, **kw: __import__(
        "tests.engine.recall.helpers", fromlist=["FakeEmbedder"]).FakeEmbedder(name))
    try:
        status = await engine.{call}()
        print(seen, status.state)
    finally:
        await engine.close()

asyncio.run(main())
"""


def run(call: str, db: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT.replace("{call}", call), str(db)], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip().splitlines()[-1]


def test_warming_recall_imports_the_recall_stack_off_the_event_loop(tmp_path):
    assert run("warm_recall", tmp_path / "m.db") == "[False] ready"  # imported once, not on the loop's thread


def test_preparing_recall_imports_off_the_loop_and_loads_nothing(tmp_path):
    assert run("prepare_recall", tmp_path / "m.db") == "[False] not_loaded"
