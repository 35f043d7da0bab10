"""Another process imports 10k entries while the app is open (defect 9): a busy
database is retried and reported as busy, never as a refusal; after the import the
app shows the true counts without a restart and a pin succeeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine import EntryFilter, MemoryEngine

from .conftest import frozen_clock, ready, select_key, wait_until

ROOT = Path(__file__).resolve().parents[2]


def start_import(db: Path, folder: Path, n: int = 10_000) -> subprocess.Popen:
    source = folder / "bulk.jsonl"
    with open(source, "w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(
                json.dumps({"key": f"bulk/item-{i}", "content": f"Bulk fact {i} about widget {i}.", "type": "environment"}) + "\n"
            )
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "--db", str(db), "import", str(source)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def true_total(db: Path) -> int:
    engine = await MemoryEngine.open(db, read_only=True, clock=frozen_clock)
    try:
        return await engine.count_entries(EntryFilter())
    finally:
        await engine.close()


async def test_app_converges_after_another_process_imports_10k(demo_db, make_app, tmp_path):
    app = make_app(demo_db, live=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        entry = await select_key(pilot, "ledger/db")
        importer = start_import(demo_db, tmp_path)
        pinned_during = False
        while importer.poll() is None:
            if not pinned_during:
                await pilot.press("p")  # a write while the other process holds the lock
                pinned_during = True
            await pilot.pause(0.2)
        out, err = importer.communicate()
        assert importer.returncode == 0, err
        total = await true_total(demo_db)
        browser = app.memory_view.browser
        # the browser is filtered to ledger/db; the status line counts everything
        await wait_until(
            pilot,
            lambda: (
                app.stats and app.status.entries == total - app.stats["tiers"].get("episodic", 0) or app.status.entries == total
            ),
            timeout=15,
            what="true counts",
        )
        await wait_until(
            pilot,
            lambda: browser.current_entry() is not None and browser.current_entry().pinned,
            timeout=15,
            what="the pin made during the import landed",
        )
        await pilot.press("p")  # and a pin (here: unpin) after the import succeeds
        await wait_until(pilot, lambda: not browser.current_entry().pinned, timeout=15, what="unpinned")
        titles = [n.title for n in app._notifications]
        assert not any(t.startswith("Refused") for t in titles), titles
    engine = await MemoryEngine.open(demo_db, read_only=True, clock=frozen_clock)
    try:
        actions = [r.action for r in await engine.audit(entry.id)]
    finally:
        await engine.close()
    assert actions.count("pin") == 1 and actions.count("unpin") == 1


async def test_a_busy_database_is_retried_and_reported_as_busy(demo_db, make_app):
    import sqlite3

    failures = {"left": 2}

    async def flaky(path, settings, read_only, clock):
        """The real engine whose pin meets a locked database twice (another process's
        import holds the write lock), then gets through."""
        engine = await MemoryEngine.open(path, settings, read_only=read_only, clock=clock)
        real = engine.pin

        async def pin(entry_id, actor="user"):
            if failures["left"]:
                failures["left"] -= 1
                raise sqlite3.OperationalError("database is locked")
            return await real(entry_id, actor=actor)

        engine.pin = pin
        return engine

    app = make_app(demo_db, engine_factory=flaky)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await select_key(pilot, "ledger/db")
        await pilot.press("p")
        await wait_until(
            pilot,
            lambda: "busy" in app.status.error or any("busy" in str(n.message) for n in app._notifications),
            what="busy shown",
        )
        browser = app.memory_view.browser
        await wait_until(pilot, lambda: browser.current_entry().pinned, timeout=15, what="pinned after retries")
        titles = [n.title for n in app._notifications]
        assert not any(t.startswith("Refused") for t in titles), titles
        await wait_until(pilot, lambda: "busy" not in app.status.error, what="busy cleared")
    assert failures["left"] == 0
