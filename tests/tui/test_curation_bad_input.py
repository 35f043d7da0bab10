"""Bad input: a tiny terminal, a 100 KB paste into any input, a store that becomes
read-only or is deleted while open. The app says what happened in place, keeps the
typed text, and writes nothing it was not asked to."""

from __future__ import annotations

import os
import sqlite3

from textual import events
from textual.widgets import Input, TabbedContent, TextArea

from echo_memory_tui.screens.dialogs import EditScreen, RefusalScreen
from echo_memory_tui.widgets.browser import EntryBrowser

from .conftest import SIZE, ready, select_key, wait_until
from .test_playground import make_recall_app, open_playground

BIG = ("ledger " * 15_000)[:100_000]  # 100 KB of ordinary text


def audit_count(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM audit").fetchone()[0]


async def test_every_view_survives_40x12_and_back(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        writes = audit_count(demo_db)
        await pilot.resize_terminal(40, 12)
        for view, name in zip("234561", ("recall", "review", "working", "episodes", "quarantine", "memory")):
            await pilot.press("escape", view)  # Esc leaves the playground's query, then the view key
            await wait_until(pilot, lambda: app.query_one(TabbedContent).active == name, what=name)
        await pilot.resize_terminal(80, 24)
        await pilot.press("j")
        await wait_until(pilot, lambda: app.query_one(EntryBrowser).cursor == 1, what="still driving")
        assert audit_count(demo_db) == writes and app.is_running


async def test_100kb_paste_into_the_filter_is_kept_and_writes_nothing(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        writes = audit_count(demo_db)
        await pilot.press("slash")
        field = app.memory_view.query_one("#filter", Input)
        await wait_until(pilot, lambda: app.focused is field, what="filter focused")
        field.post_message(events.Paste(BIG))
        await wait_until(pilot, lambda: field.value == BIG, what="pasted text kept")
        browser = app.query_one(EntryBrowser)
        await wait_until(pilot, lambda: browser.total == 0, what="no entry matches")
        assert "no entries match" in browser.empty_text().lower()
        assert audit_count(demo_db) == writes


async def test_100kb_paste_into_the_recall_query_is_refused_in_place(demo_db, make_app):
    app = make_recall_app(make_app, demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_playground(pilot)
        writes = audit_count(demo_db)
        query = view.query_one("#query", Input)
        query.post_message(events.Paste(BIG))
        await wait_until(pilot, lambda: query.value == BIG, what="pasted text kept")
        summary = view.query_one("#pg-summary")
        await wait_until(
            pilot,
            lambda: "2,000" in str(summary.render()) or "2000" in str(summary.render()),
            timeout=20,
            what="the limit named in place",
        )
        assert audit_count(demo_db) == writes


async def test_100kb_paste_into_the_editor_is_refused_and_kept(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        entry = await select_key(pilot, "ledger/db")
        writes = audit_count(demo_db)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditScreen), what="editor")
        area = app.screen.query_one(TextArea)
        area.text = BIG
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RefusalScreen), what="refused, said in place")
        assert app.screen.detail["reason"] == "too_large"  # why, named in place
        with sqlite3.connect(demo_db) as conn:
            assert conn.execute("SELECT content FROM entries WHERE id=?", (entry.id,)).fetchone()[0] == entry.content
        await pilot.press("escape")  # back to editing: the pasted text is all still there
        await wait_until(pilot, lambda: isinstance(app.screen, EditScreen), what="editor again")
        assert app.screen.query_one(TextArea).text == BIG
        with sqlite3.connect(demo_db) as conn:  # the refusal is logged for the Blocked view; nothing else
            assert [r[0] for r in conn.execute("SELECT action FROM audit WHERE id > ?", (writes,))] == ["reject"]


async def test_store_deleted_while_open_refuses_writes_and_says_so(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_key(pilot, "ledger/db")
        os.rename(demo_db, demo_db.with_name("moved.db"))
        await pilot.press("p")
        await wait_until(pilot, lambda: any("deleted or moved" in n.message for n in app._notifications), what="said in place")
        moved = demo_db.with_name("moved.db")
        with sqlite3.connect(moved) as conn:
            assert not conn.execute("SELECT count(*) FROM audit WHERE action='pin'").fetchone()[0]


async def test_store_made_read_only_while_open_refuses_writes_and_keeps_the_edit(demo_db, make_app, monkeypatch):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        entry = await select_key(pilot, "ledger/db")
        writes = audit_count(demo_db)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditScreen), what="editor")
        app.screen.query_one(TextArea).text = "typed while the file lost its write permission"
        # (the tests run as root, whom chmod does not stop: the permission check is what is simulated)
        real_access = os.access
        monkeypatch.setattr(
            os, "access", lambda path, mode, **kw: False if str(path) == str(demo_db) else real_access(path, mode, **kw)
        )
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RefusalScreen), what="said in place")
        assert "became read-only" in app.screen.detail["message"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, EditScreen), what="editor again")
        assert app.screen.query_one(TextArea).text == "typed while the file lost its write permission"
        await pilot.press("escape", "p")
        await wait_until(pilot, lambda: "read-only" in app.status.error, what="status line says so")
        assert audit_count(demo_db) == writes
        with sqlite3.connect(demo_db) as conn:
            assert conn.execute("SELECT pinned FROM entries WHERE id=?", (entry.id,)).fetchone()[0] == 0


async def test_100kb_paste_as_a_new_key_is_refused_and_the_form_kept(demo_db, make_app):
    """A field the engine refuses as invalid (not the scanner) comes back to its form too."""
    from echo_memory_tui.screens.dialogs import AddEntryScreen

    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        writes = audit_count(demo_db)
        await pilot.press("N")
        await wait_until(pilot, lambda: isinstance(app.screen, AddEntryScreen), what="form")
        key = app.screen.query_one("#key", Input)
        key.post_message(events.Paste(BIG))
        await wait_until(pilot, lambda: key.value == BIG, what="pasted")
        app.screen.query_one("#content", TextArea).text = "A fact."
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RefusalScreen), what="refused in place")
        assert "key" in app.screen.detail["message"].lower()
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, AddEntryScreen), what="form again")
        assert app.screen.query_one("#key", Input).value == BIG
        assert app.screen.query_one("#content", TextArea).text == "A fact."
        assert audit_count(demo_db) == writes
