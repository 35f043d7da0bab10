"""Issue 10: the app catches what the engine refuses (EchoMemoryError) and what the
disk or database does (OSError, sqlite3.Error), and says so in place. A bug (here a
ZeroDivisionError from a patched engine method) is not caught: the app stops with
the traceback rather than passing it off as a refusal or a failed count."""

from __future__ import annotations

import pytest
from textual.worker import WorkerFailed

from engine import StoreError

from .conftest import SIZE, ready, select_key, wait_until


def _broken(*_args, **_kwargs):
    raise ZeroDivisionError("division by zero")


def _notices(app, title_part: str) -> list[str]:
    return [n.message for n in app._notifications if title_part in (n.title or "")]


async def test_a_bug_in_a_write_stops_the_app_instead_of_showing_a_refusal(demo_db, make_app, monkeypatch):
    app = make_app(demo_db)
    refusals: list[str] = []
    with pytest.raises(WorkerFailed, match="ZeroDivisionError"):
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            await select_key(pilot, "ledger/db")
            monkeypatch.setattr(app.engine, "pin", _broken)
            monkeypatch.setattr(app.engine, "unpin", _broken)
            await pilot.press("p")
            await wait_until(pilot, lambda: not app.is_running or bool(_notices(app, "Refused")), what="a reaction")
            refusals = _notices(app, "Refused")
    assert refusals == []


async def test_a_bug_in_a_read_stops_the_app_instead_of_a_failed_count(demo_db, make_app, monkeypatch):
    app = make_app(demo_db)
    shown: list[str] = []
    with pytest.raises(WorkerFailed, match="ZeroDivisionError"):
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            monkeypatch.setattr(app.engine, "stats", _broken)
            app.load_stats()
            await wait_until(pilot, lambda: not app.is_running or bool(_notices(app, "Could not count")), what="a reaction")
            shown = _notices(app, "Could not count")
    assert shown == []


async def test_an_engine_error_is_still_said_in_place(demo_db, make_app, monkeypatch):
    async def gone():
        raise StoreError("the store file went away")

    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        monkeypatch.setattr(app.engine, "stats", gone)
        app.load_stats()
        await wait_until(pilot, lambda: bool(_notices(app, "Could not count")), what="the notice")
        assert "the store file went away" in _notices(app, "Could not count")[-1]
        assert app.is_running


async def test_a_bug_in_the_browsers_read_stops_the_app_instead_of_an_error_row(demo_db, make_app, monkeypatch):
    from echo_memory_tui.widgets.browser import EntryBrowser

    app = make_app(demo_db)
    shown: list[str] = []
    with pytest.raises(WorkerFailed, match="ZeroDivisionError"):
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            browser = app.query_one(EntryBrowser)
            monkeypatch.setattr(app.engine, "count_entries", _broken)
            browser.reload()
            await wait_until(pilot, lambda: not app.is_running or browser.error is not None, what="a reaction")
            shown = [browser.error] if browser.error else []
    assert shown == []
