"""The browser reaches any row by seeking, not by LIMIT … OFFSET over the table (issue 14):
`G`, a dragged scrollbar, a sort change and a filter each show the same rows a plain
sorted listing has at those positions, and no read the browser makes steps over more
than a ladder step of rows (the SQL it sends is traced)."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import pytest

from echo_memory_tui.widgets.browser import LADDER_STEP, EntryBrowser
from engine import EntryFilter, MemoryEngine, MemoryTier

from .conftest import SIZE, frozen_clock, wait_until

ENTRIES = 2 * LADDER_STEP + 700  # the middle of it is reachable only through the ladder


async def _build(path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from benchmarks.tui_bench import synthetic_entries
    from engine import Actor

    engine = await MemoryEngine.open(path, clock=frozen_clock, actor=Actor.person("test"))
    try:
        await engine.import_entries(list(synthetic_entries(ENTRIES)), actor="test", verbatim=True, trust_provenance=True)
    finally:
        await engine.close()


@pytest.fixture(scope="module")
def big_template(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("paging-big") / "big.db"
    asyncio.run(_build(path))
    return path


@pytest.fixture
def big_db(big_template: Path, tmp_path: Path) -> Path:
    target = tmp_path / "big.db"
    shutil.copy(big_template, target)
    return target


def on_screen(browser: EntryBrowser) -> list[str]:
    top = int(browser.scroll_y)
    rows = [browser.row_at(i) for i in range(top, min(browser.total, top + browser.size.height - 1))]
    return [r.entry.id if r else "…" for r in rows]


async def settled(pilot, browser: EntryBrowser) -> None:
    await wait_until(pilot, lambda: browser.total > 0 and "…" not in on_screen(browser), timeout=30, what="rows drawn")


async def test_every_jump_shows_the_sorted_rows_without_a_long_offset(big_db, make_app):
    app = make_app(big_db)
    async with app.run_test(size=SIZE) as pilot:
        browser = app.query_one(EntryBrowser)
        await settled(pilot, browser)
        engine = app.engine
        statements: list[str] = []
        await engine.store.conn.set_trace_callback(statements.append)

        async def expect(flt: EntryFilter) -> None:
            full = await engine.list_entries(flt, order_by=browser.sort, descending=browser.descending)
            top = int(browser.scroll_y)
            assert on_screen(browser) == [e.id for e in full[top : top + len(on_screen(browser))]]

        await pilot.press("G")
        await settled(pilot, browser)
        assert browser.cursor == ENTRIES - 1
        await expect(EntryFilter())
        browser.scroll_to(y=ENTRIES // 2 + 37, animate=False)  # a scrollbar drag to the middle
        await settled(pilot, browser)
        await expect(EntryFilter())
        browser.sort_by("importance")
        await settled(pilot, browser)
        await pilot.press("G")
        await settled(pilot, browser)
        await expect(EntryFilter())
        flt = EntryFilter(tier=MemoryTier.SEMANTIC)
        browser.set_filter(flt)
        await settled(pilot, browser)
        await pilot.press("G")
        await settled(pilot, browser)
        await expect(flt)
        await engine.store.conn.set_trace_callback(None)
        offsets = [int(n) for sql in statements for n in re.findall(r"OFFSET (\d+)", sql)]
        assert offsets and max(offsets) < LADDER_STEP, [s for s in statements if "OFFSET" in s][-3:]
