"""Blocked writes: f filters by reason; s strips the invisible characters from a
write refused only for them, after showing exactly what goes, and retries it
through the gate as the person. (The bypass attempt is in
tests/adversarial/test_curate_strip_bypass.py.)"""

from __future__ import annotations

import sqlite3

import pytest

from echo_memory_tui.screens.dialogs import ConfirmScreen
from echo_memory_tui.widgets.quarantine import QuarantineView, reason_group
from engine import MemoryEngine

from .conftest import SIZE, frozen_clock, ready, wait_until

ZWSP = "\u200b"


async def refuse(db, key: str, content: str) -> None:
    """An agent's write the scanner refuses (audited as a blocked write)."""
    engine = await MemoryEngine.open(db, clock=frozen_clock, actor="agent")
    try:
        with pytest.raises(Exception):
            await engine.add(key, content)
    finally:
        await engine.close()


def rows(db, sql: str, params: tuple = ()) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def said(view: QuarantineView) -> str:
    return str(view.query_one("#q-retry").render())


async def open_blocked(pilot) -> QuarantineView:
    await ready(pilot)
    await pilot.press("6")
    view = pilot.app.query_one(QuarantineView)
    await wait_until(pilot, lambda: view.records, what="blocked writes")
    return view


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_strip_and_retry_shows_what_goes_then_writes_as_the_person(demo_db, make_app, size):
    await refuse(demo_db, "user/theme", f"Maya prefers{ZWSP} dark mode in every editor.")
    app = make_app(demo_db)
    async with app.run_test(size=size) as pilot:
        view = await open_blocked(pilot)
        assert view.records[0].detail["key"] == "user/theme"  # newest first
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="what will be removed")
        body = app.screen.body.plain
        assert "content  U+200B" in body and "at offset 12" in body and "⟨U+200B⟩" in body
        assert not rows(demo_db, "SELECT 1 FROM entries WHERE key='user/theme'")  # nothing before yes
        await pilot.press("y")
        await wait_until(pilot, lambda: rows(demo_db, "SELECT content FROM entries WHERE key='user/theme'"), what="written")
        [(content,)] = rows(demo_db, "SELECT content FROM entries WHERE key='user/theme'")
        assert content == "Maya prefers dark mode in every editor."
        [(actor, reason)] = rows(
            demo_db,
            "SELECT a.actor, a.reason FROM audit a JOIN entries e ON e.id=a.entry_id "
            "WHERE e.key='user/theme' AND a.action='write'",
        )
        assert actor == "user" and reason.startswith("strip and retry of blocked write")


async def test_only_invisible_refusals_are_offered_and_a_cut_text_is_not(demo_db, make_app):
    await refuse(demo_db, "notes/long", "x" * 2100 + ZWSP)  # the audit keeps 2,048 characters of it
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_blocked(pilot)
        writes = rows(demo_db, "SELECT count(*) FROM audit")
        await pilot.press("s")
        await wait_until(pilot, lambda: "cannot be retried" in said(view), what="why not")
        guard = next(i for i, r in enumerate(view.records) if r.reason == "provenance_guard")
        view.query_one("DataTable").move_cursor(row=guard)
        await pilot.pause(0.1)
        await pilot.press("s")
        await wait_until(pilot, lambda: "only for invisible characters" in said(view), what="not offered")
        assert not isinstance(app.screen, ConfirmScreen)
        assert rows(demo_db, "SELECT count(*) FROM audit") == writes


async def test_f_shows_one_reason_at_a_time_and_F_all(demo_db, make_app):
    await refuse(demo_db, "user/theme", f"dark{ZWSP} mode")
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_blocked(pilot)
        everything = len(view.all_records)
        groups = sorted({reason_group(r) for r in view.all_records})
        assert len(groups) >= 2
        seen = []
        for _ in groups:
            await pilot.press("f")
            assert view.records and {reason_group(r) for r in view.records} == {view.reason_filter}
            assert view.query_one("DataTable").row_count == len(view.records) < everything
            assert view.reason_filter in view.query_one("#q-table-box").border_title
            seen.append(view.reason_filter)
        assert seen == groups
        await pilot.press("f")  # past the last reason: all again
        assert view.reason_filter is None and len(view.records) == everything
        await pilot.press("f", "f", "F")
        assert view.reason_filter is None and view.query_one("DataTable").row_count == everything
