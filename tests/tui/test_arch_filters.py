"""Nonsense typed in the Episodes and Memory filters is a message under the
field, never a crash (issue 10: `since:99999999d` killed the app with
WorkerFailed: OverflowError); `tier:sem` works like `type:env`."""

from __future__ import annotations

from textual.widgets import Input, Static

from .conftest import ready, wait_until


async def test_an_absurd_span_in_the_episodes_filter_is_a_message(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("5", "slash")
        await wait_until(pilot, lambda: app._view_widget("episodes").query("#ep-error"), what="episodes view")
        view = app._view_widget("episodes")
        view.query_one("#ep-filter", Input).value = "since:99999999d"
        await pilot.press("enter")
        error = view.query_one("#ep-error", Static)
        await wait_until(pilot, lambda: "before year 1" in str(error.render()), what="message under the filter")
        assert app.is_running
