"""A live reload after every outside commit must not hold the app's loop (issue 14: a burst
of 1,000 writes from another process stalled it 63 ms at 100k). Two costs came back on
every reload: the browser computed each row's 181-point decay curve to show one number,
and the detail, tabs and pyramid were given their unchanged content again, each update
laying the whole screen out again."""

from __future__ import annotations

from textual.widget import Widget

from echo_memory_tui.widgets.browser import EntryBrowser
from echo_memory_tui.widgets.detail import EntryDetail

from .conftest import ready, wait_until


async def test_a_page_of_rows_shows_each_rows_importance_without_its_decay_curve(demo_db, make_app, monkeypatch):
    app = make_app(demo_db)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(pilot)
        browser = app.query_one(EntryBrowser)
        engine = app.engine
        explained: list[str] = []
        real = engine.explain_decay

        def explain(entry, *args, **kwargs):
            explained.append(entry.id)
            return real(entry, *args, **kwargs)

        monkeypatch.setattr(engine, "explain_decay", explain)
        generation = browser._generation
        browser.reload(keep=True)
        await wait_until(pilot, lambda: browser._generation != generation and browser.rows_ready(), what="reloaded")
        await pilot.pause(0.3)
        rows = [browser.row_at(i) for i in range(browser.total)]
        assert len([r for r in rows if r]) > 10
        assert len(explained) <= 2  # the detail's own entry at most, never once per row
        for row in rows:
            if row is not None:
                assert row.eff == engine.effective_importance(row.entry)


async def test_a_reload_that_changes_nothing_lays_nothing_out(demo_db, make_app, monkeypatch):
    app = make_app(demo_db)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(pilot)
        detail = app.query_one(EntryDetail)
        await pilot.pause(1.0)  # the first counts and sources have landed
        laid_out: list[str] = []
        real = Widget.refresh

        def refresh(self, *regions, repaint=True, layout=False, recompose=False):
            if layout:
                laid_out.append(type(self).__name__)
            return real(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

        monkeypatch.setattr(Widget, "refresh", refresh)
        shown = detail.data
        for _ in range(3):  # three live reloads of changes that left every entry as it was
            app.refresh_all([], source="live")
            await pilot.pause(0.1)
        await wait_until(pilot, lambda: detail.data is not shown, what="detail reloaded")
        await pilot.pause(1.5)  # past the counts' pause
        assert laid_out == []
