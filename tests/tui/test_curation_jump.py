"""Jump and cross-links: `:` opens an entry by id prefix or key; from a review side,
a blocked write or a playground candidate one key opens that entry in the Memory view."""

from __future__ import annotations

import sqlite3

from textual.widgets import Input, TabbedContent

from echo_memory_tui.screens.dialogs import JumpScreen
from echo_memory_tui.widgets.browser import EntryBrowser
from echo_memory_tui.widgets.review import ReviewView

from .conftest import SIZE, ready, wait_until


def entry_ids(db, key: str) -> list[tuple[str, str | None]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT id, superseded_by FROM entries WHERE key=? ORDER BY version", (key,)))


def audit_count(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM audit").fetchone()[0]


def shows(app, entry_id: str) -> bool:
    browser = app.query_one(EntryBrowser)
    entry = browser.current_entry()
    return (
        app.query_one(TabbedContent).active == "memory" and entry is not None and entry.id == entry_id and app.focused is browser
    )


async def test_jump_by_id_prefix_from_another_view_in_one_burst(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        [(target, _)] = entry_ids(demo_db, "ledger/ci")
        writes = audit_count(demo_db)
        await pilot.press("4", "colon", *target[:8], "enter")
        await wait_until(pilot, lambda: shows(app, target), what="entry selected in the Memory view")
        assert app.memory_view.query_one("#filter", Input).value == "ledger/ci"
        assert audit_count(demo_db) == writes  # a jump writes nothing


async def test_jump_by_key_opens_the_current_version(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        head = next(i for i, sup in entry_ids(demo_db, "ledger/rust-version") if sup is None)
        await pilot.press("colon", *"ledger/rust-version", "enter")
        await wait_until(pilot, lambda: shows(app, head), what="head selected")


async def test_jump_miss_keeps_the_text_and_says_why(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("colon", *"nope/none", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, JumpScreen) and app.screen.note, what="asked again")
        assert app.screen.query_one(Input).value == "nope/none"
        assert "nope/none" in app.screen.note
        await pilot.press("escape", "p")  # closes; p then pins on the visible view as usual
        await wait_until(pilot, lambda: not isinstance(app.screen, JumpScreen), what="closed")


async def test_review_side_opens_in_memory_view(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("3")
        review = await app.ensure_view("review")
        await wait_until(pilot, lambda: review.current_pair() is not None, what="a pending contradiction")
        pair = review.current_pair()
        await pilot.press("B")
        await wait_until(pilot, lambda: shows(app, pair.b.id), what="side B in the Memory view")
        await pilot.press("3", "ctrl+o")
        await wait_until(pilot, lambda: shows(app, pair.a.id), what="side A in the Memory view")
        assert isinstance(review, ReviewView)


async def test_blocked_write_opens_its_entry(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        quarantine = await app.ensure_view("quarantine")
        await pilot.press("6")
        await wait_until(pilot, lambda: quarantine.records, what="blocked writes")
        record = quarantine.records[0]  # the demo's newest refusal: a guard protecting user/editor
        assert record.entry_id and record.reason == "provenance_guard"
        writes = audit_count(demo_db)
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: shows(app, record.entry_id), what="the protected entry")
        assert audit_count(demo_db) == writes


async def test_playground_candidate_opens_in_memory_view(demo_db, make_app):
    from .test_playground import make_recall_app, open_playground

    app = make_recall_app(make_app, demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_playground(pilot)
        await pilot.press(*"atlas python")
        await wait_until(
            pilot,
            lambda: view.result is not None and view.query_text == "atlas python" and view.result.get("results"),
            timeout=20,
            what="results",
        )
        await pilot.press("enter", "down")  # to the candidates table, second candidate
        second = view.result["results"][1]["id"]
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: shows(app, second), what="the candidate in the Memory view")
