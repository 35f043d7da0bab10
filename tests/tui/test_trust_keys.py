"""Keys typed in a burst (no pause between them, like `tmux send-keys 2 a`) go to the
widget the previous key made active: a write never lands on a hidden view or on an
entry whose row is not the visible selection, and bursts of view keys settle on the
last view with the app idle (issue 9, defects 1, 2 and 6)."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input, TabbedContent

from engine import MemoryEngine

from .conftest import frozen_clock, ready, select_key, wait_until

SMALL = (80, 24)
WRITES = ("pin", "unpin", "archive", "restore", "edit", "purge", "resolve", "merge", "add")


async def burst(pilot, *keys: str) -> None:
    """Deliver keys back to back, with no idle wait between them (pilot.press waits)."""
    app = pilot.app
    for key in keys:
        char = (
            key if len(key) == 1 else {"slash": "/", "space": " ", "asterisk": "*", "colon": ":", "question_mark": "?"}.get(key)
        )
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)
    await pilot.pause(0.05)


async def audit_actions(db) -> list[tuple[str, str | None]]:
    engine = await MemoryEngine.open(db, read_only=True, clock=frozen_clock)
    try:
        records = await engine.audit(limit=10_000)
    finally:
        await engine.close()
    return sorted((r.action, r.entry_id) for r in records if r.action in WRITES or r.action.startswith("un"))


def active(app) -> str:
    return app.query_one(TabbedContent).active


async def settled_on(pilot, view_id: str) -> None:
    app = pilot.app
    await wait_until(
        pilot,
        lambda: active(app) == view_id and app._view_has_focus(view_id) and app._held_keys is None,
        what=f"settled on {view_id}",
    )


@pytest.mark.parametrize("size", [SMALL, (140, 44)])
async def test_2a_burst_types_into_the_playground_and_archives_nothing(demo_db, make_app, size):
    app = make_app(demo_db)
    before = await audit_actions(demo_db)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await burst(pilot, "2", "a")
        await settled_on(pilot, "recall")
        query = app._view_widget("recall").query_one("#query", Input)
        await wait_until(pilot, lambda: query.value == "a", what="`a` typed into the query")
        await pilot.pause(0.3)
    assert await audit_actions(demo_db) == before


@pytest.mark.parametrize(
    "keys, last",
    [("34", "working"), ("3456", "quarantine"), ("6543", "review"), ("52", "recall"), ("65", "episodes"), ("4361", "memory")],
)
async def test_view_key_bursts_settle_on_the_last_view_and_go_idle(demo_db, make_app, keys, last):
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        activations = []
        app.query_one(TabbedContent).message_signal.subscribe(
            app, lambda m: activations.append(m) if isinstance(m, TabbedContent.TabActivated) else None
        )
        seen: list[str] = []
        original = app._focus_view

        def counting(view_id: str) -> None:
            seen.append(view_id)
            original(view_id)

        app._focus_view = counting
        await burst(pilot, *keys)
        await settled_on(pilot, last)
        settled = len(seen)
        await pilot.pause(0.6)
        assert active(app) == last
        assert len(seen) == settled, f"views kept activating after the burst: {seen}"
        assert len(seen) <= len(keys)


async def test_slash_then_typing_goes_to_the_filter_not_the_browser(demo_db, make_app):
    app = make_app(demo_db)
    before = await audit_actions(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        field = app.memory_view.query_one("#filter", Input)
        # the filter open, Esc Esc, then /pinned at full speed (issue: p pinned, e opened the editor)
        await burst(pilot, "slash", "escape", "escape", "slash", *"pinned")
        await wait_until(pilot, lambda: field.value == "pinned" and app._held_keys is None, what="filter typed")
        await pilot.pause(0.3)
        assert len(app.screen_stack) == 1, "a dialog opened from a key meant for the filter"
    assert await audit_actions(demo_db) == before


async def test_escape_leaves_the_playground_query_and_view_keys_work_again(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        await burst(pilot, "2", *"atlas", "escape", "3")
        await settled_on(pilot, "review")
        assert app._view_widget("recall").query_one("#query", Input).value == "atlas"
        # back to the memory view: its browser has the focus
        await burst(pilot, "1")
        await settled_on(pilot, "memory")
        assert app.focused is app.memory_view.browser


async def test_episode_filter_keeps_digits(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        await burst(pilot, "5", "slash", *"since:3d")
        await wait_until(
            pilot,
            lambda: app._view_widget("episodes").query_one("#ep-filter", Input).value == "since:3d" and app._held_keys is None,
            what="episode filter typed",
        )
        assert active(app) == "episodes"


@pytest.mark.parametrize("view_key", ["2", "3", "4", "5", "6"])
@pytest.mark.parametrize("write_key", ["p", "a", "r", "X", "e"])
async def test_memory_write_keys_after_a_view_key_never_write_on_the_hidden_browser(demo_db, make_app, view_key, write_key):
    app = make_app(demo_db)
    before = await audit_actions(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        await select_key(pilot, "user/editor")
        await burst(pilot, view_key, write_key)
        await wait_until(pilot, lambda: app._held_keys is None, what="keys released")
        await pilot.pause(0.3)
        assert app.memory_view.browser.current_entry() is not None
        # whatever the key did in the new view, the memory view's entry was not touched
        assert not any(
            isinstance(s, type(app.screen)) and s is not app.screen_stack[0]
            for s in app.screen_stack[1:]
            if "Edit" in type(s).__name__
        )
    after = await audit_actions(demo_db)
    entry_id = await _entry_id(demo_db, "user/editor")
    assert [a for a in after if a[1] == entry_id] == [a for a in before if a[1] == entry_id]


async def _entry_id(db, key):
    from engine import EntryFilter

    engine = await MemoryEngine.open(db, read_only=True, clock=frozen_clock)
    try:
        return (await engine.list_entries(EntryFilter(text=key), limit=1))[0].id
    finally:
        await engine.close()


async def test_pin_right_after_moving_the_cursor_pins_the_row_now_selected(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        browser = app.memory_view.browser
        await burst(pilot, "j", "j", "p")
        selected = browser.current_entry()
        await wait_until(pilot, lambda: any(n.title == "Done" for n in app._notifications), what="pin done")
    pins = [a for a in await audit_actions(demo_db) if a[0] in ("pin", "unpin")]
    assert [entry_id for _, entry_id in pins] == [selected.id]


@pytest.mark.parametrize("typed", ["hi", "ap"])
async def test_keys_after_opening_the_editor_are_text_in_the_editor(demo_db, make_app, typed):
    from textual.widgets import TextArea

    from echo_memory_tui.screens.dialogs import EditScreen

    app = make_app(demo_db)
    before = await audit_actions(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        entry = await select_key(pilot, "ledger/db")
        await burst(pilot, "e", *typed)
        await wait_until(pilot, lambda: isinstance(app.screen, EditScreen) and app._held_keys is None, what="editor")
        area = app.screen.query_one(TextArea)
        await wait_until(pilot, lambda: area.text != entry.content, what="typed into the editor")
        assert typed in area.text
    assert await audit_actions(demo_db) == before


async def test_keys_after_closing_a_dialog_act_on_the_visible_selection(demo_db, make_app):
    from echo_memory_tui.screens.dialogs import EditScreen

    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        entry = await select_key(pilot, "ledger/db")
        await burst(pilot, "e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditScreen) and app._held_keys is None, what="editor")
        await burst(pilot, "escape", "p")
        await wait_until(pilot, lambda: len(app.screen_stack) == 1 and app._held_keys is None, what="closed")
        await wait_until(pilot, lambda: any(n.title == "Done" for n in app._notifications), what="pin done")
    pins = [a for a in await audit_actions(demo_db) if a[0] in ("pin", "unpin")]
    assert pins == [("pin", entry.id)]
