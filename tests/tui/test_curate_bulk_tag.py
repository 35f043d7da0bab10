"""Bulk tag: t on marked rows asks for tags to add and remove, names a tag the
engine would refuse (the text kept), confirms once listing the entries, writes a
tagged version of each through the gate as the person, and u takes all back."""

from __future__ import annotations

import json
import sqlite3

import pytest
from textual.widgets import Input

from echo_memory_tui.screens.dialogs import ConfirmScreen, TagScreen
from echo_memory_tui.widgets.browser import EntryBrowser
from engine import MemoryTier

from .conftest import SIZE, ready, wait_until


def live(db) -> dict[str, tuple]:
    """Each key's live entry: (id, version, tags, content, source, pinned)."""
    with sqlite3.connect(db) as conn:
        return {
            r[0]: (r[1], r[2], json.loads(r[3]), r[4], r[5], r[6])
            for r in conn.execute(
                "SELECT key, id, version, tags, content, source, pinned FROM entries "
                "WHERE superseded_by IS NULL AND tier='semantic'"
            )
        }


async def live_rows(pilot, n: int) -> list:
    app = pilot.app
    browser = app.query_one(EntryBrowser)
    app.memory_view._apply_filter("tier:semantic")
    await wait_until(
        pilot,
        lambda: (
            browser.total > n
            and browser.cursor == 0
            and all(browser.row_at(i).entry.tier is MemoryTier.SEMANTIC for i in range(n + 1))
        ),
        what="live entries",
    )
    browser.focus()
    await pilot.pause()
    return [browser.row_at(i).entry for i in range(n + 1)]


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_tag_marked_rows_one_confirmation_one_undo(demo_db, make_app, size):
    app = make_app(demo_db)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        original = live(demo_db)
        first, second, third = await live_rows(pilot, 2)
        drop = first.tags[0]
        await pilot.press("space", "space", "t", *"infra", "enter", *drop, "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="one confirmation")
        listed = app.screen.body.plain
        assert first.key in listed and second.key in listed and "+infra" in listed and f"-{drop}" in listed
        assert live(demo_db) == original  # nothing before yes
        await pilot.press("y")
        await wait_until(pilot, lambda: "infra" in live(demo_db)[second.key][2], what="tagged")
        now = live(demo_db)
        for entry in (first, second):
            want = [t for t in entry.tags if t.lower() != drop.lower()] + ["infra"]
            assert now[entry.key][2] == want
            # a new version: same content, provenance and pin
            assert now[entry.key][1] == entry.version + 1 and now[entry.key][3:] == original[entry.key][3:]
        assert now[third.key] == original[third.key]  # the unmarked row is untouched
        with sqlite3.connect(demo_db) as conn:
            tagged = conn.execute("SELECT actor FROM audit WHERE action='write' AND reason='tag'").fetchall()
        assert tagged == [("user",), ("user",)]
        assert len(app.undo_list) == 1
        await pilot.press("u")
        await wait_until(pilot, lambda: live(demo_db) == original, what="both back as they were")


async def test_a_tag_over_the_limit_is_named_and_the_text_kept(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        original = live(demo_db)
        await live_rows(pilot, 1)
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, TagScreen), what="the tag dialog")
        long = "x" * 65
        app.screen.query_one("#tag-add", Input).value = f"ok, {long}"
        await pilot.press("enter", "enter")
        await pilot.pause(0.1)
        assert isinstance(app.screen, TagScreen)
        error = str(app.screen.query_one("#tag-error").render())
        assert "add: tag 2 is 65 characters; the limit is 64" in error
        assert app.screen.query_one("#tag-add", Input).value == f"ok, {long}"
        await pilot.press("escape")
        assert live(demo_db) == original


async def test_an_entry_that_would_pass_the_tag_count_is_named_and_the_rest_land(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        first, second = await live_rows(pilot, 1)
        engine = app.engine
        full = await engine.retag(first.id, [f"t{i}" for i in range(32 - len(first.tags))], actor="user")
        original = live(demo_db)
        browser = app.query_one(EntryBrowser)
        app.refresh_all()
        await wait_until(
            pilot,
            lambda: browser.cursor == 0 and {browser.row_at(i).entry.id for i in (0, 1)} == {full.entry.id, second.id},
            what="the full entry's new version listed",
        )
        browser.focus()
        await pilot.press("space", "space", "t", *"extra", "enter", "enter", "y")
        await wait_until(pilot, lambda: "extra" in live(demo_db)[second.key][2], what="the other one tagged")
        assert live(demo_db)[first.key] == original[first.key]
        assert any("33 tags; the limit is 32" in n.message and first.key in n.message for n in app._notifications)


async def test_t_typed_in_the_filter_is_text_not_a_tag_dialog(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        original = live(demo_db)
        await pilot.press("slash", *"tag:atlas-api")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, TagScreen)
        assert app.memory_view.query_one("#filter", Input).value == "tag:atlas-api"
        assert live(demo_db) == original
