"""A sort change re-orders the same rows, so the browser does not count them again
(issue 14: at 1M entries the count is an index pass of ~0.1 s on every `o`); a filter
changes which rows there are, so it does."""

from __future__ import annotations

from echo_memory_tui.widgets.browser import EntryBrowser
from engine import EntryFilter, MemoryTier

from .conftest import ready, wait_until


async def test_a_sort_change_shows_the_sorted_rows_without_counting_them_again(demo_db, make_app, monkeypatch):
    app = make_app(demo_db)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        browser = app.query_one(EntryBrowser)
        browser.focus()
        total = browser.total
        engine = app.engine
        counted: list[EntryFilter] = []
        real_count = engine.count_entries

        async def count(flt=None):
            counted.append(flt)
            return await real_count(flt)

        monkeypatch.setattr(engine, "count_entries", count)

        async def shows_sorted(sort: str, descending: bool) -> None:
            await wait_until(
                pilot, lambda: (browser.sort, browser.descending) == (sort, descending) and browser.rows_ready(), what=sort
            )
            want = await engine.list_entries(EntryFilter(), order_by=sort, descending=descending)
            shown = [browser.row_at(i) for i in range(min(total, browser.size.height - 1))]
            assert [r.entry.id for r in shown if r] == [e.id for e in want[: len(shown)]]
            assert browser.total == total and browser.parent.border_subtitle.startswith(f"1 / {total:,}")

        await pilot.press("o")  # updated -> key, ascending
        await shows_sorted("key", False)
        await pilot.press("O")
        await shows_sorted("key", True)
        assert counted == []

        browser.set_filter(EntryFilter(tier=MemoryTier.ARCHIVAL))  # a filter does change the count
        archival = len(await engine.list_entries(EntryFilter(tier=MemoryTier.ARCHIVAL)))
        await wait_until(pilot, lambda: browser.total == archival and browser.rows_ready(), what="filtered")
        assert len(counted) == 1


async def test_a_filter_typed_and_submitted_at_once_is_read_once(demo_db, make_app, monkeypatch):
    """A pasted filter and Enter: the submit applies it, and the typing's debounce, firing
    150 ms later, must not apply it again (a second count and page, at 1M ~0.3 s more
    before the rows settle, the first answer dropped as stale)."""
    from textual.widgets import Input

    app = make_app(demo_db)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        browser = app.query_one(EntryBrowser)
        engine = app.engine
        counted: list[EntryFilter] = []
        real_count = engine.count_entries

        async def count(flt=None):
            counted.append(flt)
            return await real_count(flt)

        monkeypatch.setattr(engine, "count_entries", count)
        await pilot.press("slash")
        field = app.memory_view.query_one("#filter", Input)
        await wait_until(pilot, lambda: app.focused is field, what="filter focused")
        field.insert_text_at_cursor("tier:archival")  # as a paste lands: one change, then Enter
        await pilot.press("enter")
        archival = len(await engine.list_entries(EntryFilter(tier=MemoryTier.ARCHIVAL)))
        await wait_until(pilot, lambda: browser.total == archival and browser.rows_ready(), what="filtered")
        await pilot.pause(0.5)  # past the typing's debounce
        assert counted == [EntryFilter(tier=MemoryTier.ARCHIVAL)]


async def test_going_back_to_a_filter_reuses_its_count_until_the_store_changes(demo_db, make_app, monkeypatch):
    """Esc after a filter shows every entry again: their count was taken a moment ago (at 1M
    another ~0.1 s index pass). A change to the store (a write, a live reload) drops what
    was counted: the next filter counts again, and shows the new total."""
    app = make_app(demo_db)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        browser = app.query_one(EntryBrowser)
        total = browser.total
        engine = app.engine
        counted: list[EntryFilter] = []
        real_count = engine.count_entries

        async def count(flt=None):
            counted.append(flt)
            return await real_count(flt)

        monkeypatch.setattr(engine, "count_entries", count)
        archival = EntryFilter(tier=MemoryTier.ARCHIVAL)
        browser.set_filter(archival)
        await wait_until(pilot, lambda: browser.total < total and browser.rows_ready(), what="filtered")
        browser.set_filter(EntryFilter())
        await wait_until(pilot, lambda: browser.total == total and browser.rows_ready(), what="every entry again")
        assert counted == [archival]

        before = await real_count(archival)
        semantic = (await engine.list_entries(EntryFilter(tier=MemoryTier.SEMANTIC), limit=1))[0]
        await engine.archive(semantic.id)  # a write: the archival count grows by one
        app.refresh_all()
        await wait_until(pilot, lambda: len(counted) == 2 and browser.rows_ready(), what="recounted in place")
        browser.set_filter(archival)
        await wait_until(pilot, lambda: browser.total == before + 1 and browser.rows_ready(), what="archival again")
        assert len(counted) == 3 and counted[-1] == archival


async def test_enter_in_the_filter_draws_the_filtered_rows_before_the_footer_is_rebuilt(demo_db, make_app, monkeypatch):
    """Enter moves the focus back to the browser, which changes the footer's keys: its
    rebuild (a whole-screen layout) waits for the filtered rows instead of holding them."""
    from textual.widgets import Footer, Input

    app = make_app(demo_db)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        browser = app.query_one(EntryBrowser)
        footer = app.query_one(Footer)
        await pilot.press("slash")
        field = app.memory_view.query_one("#filter", Input)
        await wait_until(pilot, lambda: app.focused is field, what="filter focused")
        await pilot.pause(0.2)  # the footer has the filter's keys
        order: list[str] = []
        total = browser.total
        real_recompose, real_check = footer.recompose, browser._check_settled

        async def recompose():
            order.append("footer")
            await real_recompose()

        def check_settled():  # the browser looks whether its rows are all there
            if browser.total < total and browser.rows_ready() and "rows" not in order:
                order.append("rows")
            real_check()

        monkeypatch.setattr(footer, "recompose", recompose)
        monkeypatch.setattr(browser, "_check_settled", check_settled)
        field.insert_text_at_cursor("tier:archival")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "footer" in order and "rows" in order and browser.rows_ready(), what="both")
        assert order.index("rows") < order.index("footer"), order
        assert app.focused is browser
