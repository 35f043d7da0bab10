"""Live reload: another process writes to the store (the real CLI, in a
subprocess); the app refreshes counts and lists in place, keeping the cursor
on the same entry; a key pauses it."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from echo_memory_tui.widgets.browser import EntryBrowser

from .conftest import SIZE, ready, wait_until

CLI = Path(sys.executable).with_name("echo-memory")


async def cli_add(db: Path, key: str, content: str) -> None:
    proc = await asyncio.create_subprocess_exec(
        str(CLI),
        "--db",
        str(db),
        "add",
        "--key",
        key,
        "--content",
        content,
        "--source",
        "user_stated",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()


async def test_second_process_write_shows_up_in_place(demo_db, make_app):
    app = make_app(demo_db, live=True)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: app.status.live == "live", what="watching")
        browser = app.query_one(EntryBrowser)
        for _ in range(3):
            await pilot.press("j")
        before = browser.current_entry()
        total, semantic = browser.total, app.stats["tiers"]["semantic"]
        await asyncio.sleep(0.3)  # let the watcher settle on the files
        await cli_add(demo_db, "orbit/ci", "orbit-web CI runs on GitHub Actions with pnpm.")
        await wait_until(pilot, lambda: browser.total == total + 1, timeout=15, what="new entry counted")
        await wait_until(pilot, lambda: app.stats["tiers"]["semantic"] == semantic + 1, what="pyramid recounted")
        assert browser.current_entry().id == before.id  # the cursor stayed on its entry
        keys = [browser.row_at(i).entry.key for i in range(browser.total) if browser.row_at(i)]
        assert "orbit/ci" in keys


async def test_pause_holds_changes_until_resumed(demo_db, make_app):
    app = make_app(demo_db, live=True)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: app.status.live == "live", what="watching")
        browser = app.query_one(EntryBrowser)
        total = browser.total
        await pilot.press("L")
        assert app.status.live == "paused"
        await asyncio.sleep(0.3)
        await cli_add(demo_db, "orbit/lint", "orbit-web lints with Biome.")
        await wait_until(pilot, lambda: app.status.pending > 0, timeout=15, what="change held")
        assert browser.total == total
        await pilot.press("L")
        await wait_until(pilot, lambda: browser.total == total + 1, what="applied on resume")
        assert app.status.pending == 0
