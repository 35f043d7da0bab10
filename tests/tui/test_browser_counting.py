"""The browser draws a long list's first page before its count. At a million entries,
from a cold disk, `count(*)` walks a 32 MB index for ~0.9 s, and the rows waited for it.
Here the count is held back until the test lets it go: the rows are on screen meanwhile,
the title says the list is being counted, and keys pressed in that time still count."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from echo_memory_tui.widgets.browser import PAGE_SIZE, EntryBrowser
from engine import MemoryEngine

from .conftest import SIZE, build_synthetic, wait_until

ENTRIES = 3 * PAGE_SIZE + 50


@pytest.fixture(scope="module")
def long_template(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("counting") / "long.db"
    asyncio.run(build_synthetic(path, ENTRIES))
    return path


@pytest.fixture
def long_db(long_template: Path, tmp_path: Path) -> Path:
    target = tmp_path / "long.db"
    shutil.copy(long_template, target)
    return target


@pytest.fixture
def held_count(monkeypatch) -> asyncio.Event:
    """Every count the engine is asked for waits until the returned event is set (from
    the app's start: its first load is the one a cold disk slows)."""
    release = asyncio.Event()
    count = MemoryEngine.count_entries

    async def slow_count(self, flt=None):
        await release.wait()
        return await count(self, flt)

    monkeypatch.setattr(MemoryEngine, "count_entries", slow_count)
    return release


def subtitle(browser: EntryBrowser) -> str:
    return str(browser.parent.border_subtitle)


async def test_the_first_page_is_drawn_while_the_list_is_counted(long_db, make_app, held_count):
    app = make_app(long_db)
    async with app.run_test(size=SIZE) as pilot:
        browser = app.query_one(EntryBrowser)
        await wait_until(pilot, lambda: browser.row_at(0) is not None, what="the first page")
        assert browser.counting and not browser.rows_ready()
        newest = await app.engine.list_entries(order_by="updated_at", descending=True, limit=PAGE_SIZE)
        assert [browser.row_at(i).entry.id for i in range(PAGE_SIZE)] == [e.id for e in newest]
        assert "counting…" in subtitle(browser)
        held_count.set()
        await wait_until(pilot, lambda: browser.rows_ready(), what="the count")
        assert f"1 / {ENTRIES:,}" in subtitle(browser) and browser.total == ENTRIES


@pytest.mark.parametrize("keys, row", [(("j", "j", "j"), 3), (("G",), ENTRIES - 1), (("G", "k"), PAGE_SIZE - 2)])
async def test_keys_pressed_while_counting_count_once_it_arrives(long_db, make_app, held_count, keys, row):
    """j moves within the first page and stays where it went; G lands on the list's last
    row, not the first page's, once the count is in (unless the cursor left it since)."""
    app = make_app(long_db)
    async with app.run_test(size=SIZE) as pilot:
        browser = app.query_one(EntryBrowser)
        await wait_until(pilot, lambda: browser.row_at(0) is not None and browser.has_focus, what="the first page")
        await pilot.press(*keys)
        assert browser.counting  # the keys landed before the count
        held_count.set()
        await wait_until(pilot, lambda: browser.rows_ready(), what="the count")
        assert browser.cursor == row


async def test_a_list_shorter_than_a_page_needs_no_count(demo_db, make_app, held_count):
    app = make_app(demo_db)  # held_count is never set: a count would never come back
    async with app.run_test(size=SIZE) as pilot:
        browser = app.query_one(EntryBrowser)
        await wait_until(pilot, lambda: browser.rows_ready(), what="the rows")
        assert 0 < browser.total < PAGE_SIZE and f"1 / {browser.total}" in subtitle(browser)
