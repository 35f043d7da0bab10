"""A job line (decay preview or apply, the embedding backlog) appears over the view's
bottom border instead of shrinking the view: the rows on screen stay where they are,
and the screen is not laid out and redrawn again for it (at 140x44 that held the
loop ~0.1-0.2 s each time a job started or ended, issue 14)."""

from __future__ import annotations

import pytest

from echo_memory_tui.widgets.browser import EntryBrowser
from echo_memory_tui.widgets.status import StatusBar

from .conftest import ready, wait_until


def screen_rows(app) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("size", [(140, 44), (80, 24)])
async def test_a_job_line_moves_no_row_of_the_view(demo_db, make_app, size):
    app = make_app(demo_db)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        browser = app.query_one(EntryBrowser)
        before, region = screen_rows(app), browser.region
        job = app.start_job("Decay apply")
        job.update(10, 100)
        await pilot.pause()
        after = screen_rows(app)
        line = app.jobs.region
        assert browser.region == region  # the browser keeps its size: nothing is laid out again
        assert line.bottom == app.query_one(StatusBar).region.y  # right above the status line
        assert "Decay apply" in after[line.y]
        assert after[: line.y] == before[: line.y]  # every row above the job line is where it was
        assert before[line.y].lstrip().startswith("╰")  # what it covers is the view's bottom border
        app.end_job(job)
        await wait_until(pilot, lambda: screen_rows(app) == before, what="the screen as it was (the footer redraws its keys)")
