"""Undo for every write the app makes: `u` takes back the newest write, U lists what
can be taken back. A round trip leaves the store as it was.

"Equal" is judged on what a user or a prompt can see of every entry: its id, key,
content, tier, version, chain (superseded_by), pin, provenance and last access. The
timestamps of the change itself (updated_at) move, and the audit log keeps both the
write and its undo. An undone edit or restored version removes the version it made
(its content stays in the audit log), so the head is the original entry again."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from echo_memory_tui.screens.dialogs import ConfirmScreen, EditScreen, TextScreen
from echo_memory_tui.widgets.browser import EntryBrowser
from echo_memory_tui.widgets.lattice import VersionLattice
from engine import Actor, MemoryTier

from .conftest import NOW, SIZE, decay_preview_open, ready, select_key, wait_until

VISIBLE = "id, key, content, tier, version, superseded_by, pinned, source, last_accessed"


def state(db) -> dict[str, tuple]:
    with sqlite3.connect(db) as conn:
        return {row[0]: row for row in conn.execute(f"SELECT {VISIBLE} FROM entries ORDER BY id")}


def audit_actions(db) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        return [tuple(r) for r in conn.execute("SELECT action, actor FROM audit ORDER BY id")]


async def undo_and_wait(pilot, db, expected: dict) -> None:
    app = pilot.app
    done = len(app.undo_list) - 1
    await pilot.press("u")
    await wait_until(pilot, lambda: len(app.undo_list) == done, what="undo taken")
    await wait_until(pilot, lambda: state(db) == expected, what="store back as it was")


async def test_undo_pin_unpin_archive_restore_round_trips(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        original = state(demo_db)
        entry = await select_key(pilot, "ledger/db")
        await pilot.press("p")  # pin
        await wait_until(pilot, lambda: state(demo_db)[entry.id][6] == 1, what="pinned")
        await undo_and_wait(pilot, demo_db, original)
        await pilot.press("a")  # archive
        await wait_until(pilot, lambda: state(demo_db)[entry.id][3] == "archival", what="archived")
        await undo_and_wait(pilot, demo_db, original)
        # pin, then unpin, then two undos in one burst: back to the start
        await pilot.press("p")
        await wait_until(pilot, lambda: len(app.undo_list) == 1, what="pin on the list")
        await pilot.press("p")
        await wait_until(pilot, lambda: len(app.undo_list) == 2, what="unpin on the list")
        await pilot.press("u", "u")
        await wait_until(pilot, lambda: not app.undo_list and state(demo_db) == original, what="both undone")
        undos = [a for a in audit_actions(demo_db) if a[0] == "undo"]
        assert undos and all(actor == str(Actor.person("user")) for _, actor in undos)


async def test_undo_restore_of_archived_entry(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        original = state(demo_db)
        entry = await select_key(pilot, "ledger/ci")  # archived by decay in the demo
        assert entry.tier is MemoryTier.ARCHIVAL
        await pilot.press("r")
        await wait_until(pilot, lambda: state(demo_db)[entry.id][3] == "semantic", what="restored")
        await undo_and_wait(pilot, demo_db, original)


async def test_undo_edit_brings_back_the_head(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        original = state(demo_db)
        entry = await select_key(pilot, "ledger/db")
        await pilot.press("p")  # a pinned head: the pin moves to the edit, and back with the undo
        await wait_until(pilot, lambda: state(demo_db)[entry.id][6] == 1, what="pinned")
        pinned = state(demo_db)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditScreen), what="editor")
        app.screen.query_one("TextArea").text = "ledger-cli keeps its ledger in ~/.local/share/ledger/ledger.db now."
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: len(state(demo_db)) == len(original) + 1, what="new version")
        await undo_and_wait(pilot, demo_db, pinned)
        await undo_and_wait(pilot, demo_db, original)
        assert any(a == "discard" for a, _ in audit_actions(demo_db))  # the edit's text stays in the log


async def test_undo_restore_of_a_version(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        original = state(demo_db)
        await select_key(pilot, "ledger/rust-version")
        lattice = app.query_one(VersionLattice)
        await wait_until(pilot, lambda: len(lattice.nodes) == 2, what="two versions")
        lattice.focus()
        await pilot.press("j", "r")  # the older version, restore
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asks first")
        await pilot.click("#yes")
        await wait_until(pilot, lambda: len(state(demo_db)) == len(original) + 1, what="restored as a new head")
        await undo_and_wait(pilot, demo_db, original)


async def test_undo_purge_reinserts_with_its_chain(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        original = state(demo_db)
        # v1 of ledger/rust-version, superseded by v2: it comes back still pointing at v2
        old = next(r for r in original.values() if r[1] == "ledger/rust-version" and r[5] is not None)
        entry = await select_key(pilot, "ledger/ci")
        await pilot.press("X")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm")
        await pilot.click("#yes")
        await wait_until(pilot, lambda: entry.id not in state(demo_db), what="purged")
        await undo_and_wait(pilot, demo_db, original)
        browser = app.query_one(EntryBrowser)
        app.memory_view._apply_filter("ledger/rust-version tier:archival")
        await wait_until(
            pilot,
            lambda: browser.current_entry() is not None and browser.current_entry().id == old[0],
            what="old version selected",
        )
        browser.focus()
        await pilot.press("X")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm")
        await pilot.click("#yes")
        await wait_until(pilot, lambda: old[0] not in state(demo_db), what="version purged")
        await undo_and_wait(pilot, demo_db, original)


async def test_undo_decay_apply(demo_db, make_app):
    later = NOW + timedelta(days=120)
    app = make_app(demo_db, clock=lambda: later)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        original = state(demo_db)
        await pilot.press("D")
        await decay_preview_open(pilot, app)
        assert app.screen.changes
        await pilot.click("#yes")
        await wait_until(pilot, lambda: state(demo_db) != original, what="applied")
        await undo_and_wait(pilot, demo_db, original)


async def test_undo_list_and_nothing_to_undo(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        original = state(demo_db)
        await pilot.press("u")  # nothing yet: nothing written
        await pilot.pause(0.2)
        assert state(demo_db) == original
        await select_key(pilot, "ledger/db")
        await pilot.press("p")
        await wait_until(pilot, lambda: len(app.undo_list) == 1, what="on the list")
        await pilot.press("U")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), what="undo list")
        assert "pinned ledger/db" in str(app.screen.body)
        await pilot.press("escape", "u")  # the dialog closes, then u undoes in the view
        await wait_until(pilot, lambda: state(demo_db) == original, what="undone")


async def test_undo_refused_when_the_store_moved_on(demo_db, make_app):
    """An edit is undone only while its version is still the head: after a second edit
    the first cannot be taken back alone, and nothing is written."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_key(pilot, "ledger/db")
        for text in ("ledger-cli keeps its ledger in ledger.db.", "ledger-cli keeps its ledger in ledger2.db."):
            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(app.screen, EditScreen), what="editor")
            app.screen.query_one("TextArea").text = text
            n = len(app.undo_list)
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: len(app.undo_list) == n + 1, what="edited")
        second = app.undo_list.pop()  # leave only the first edit on the list
        assert second.created
        before = state(demo_db)
        await pilot.press("u")
        await pilot.pause(0.5)
        await wait_until(pilot, lambda: len(app.undo_list) == 1, what="kept on the list")
        assert state(demo_db) == before


# ---- bulk curation: mark rows, act on all of them with one confirmation and one undo ----
async def test_bulk_archive_marked_rows_one_confirmation_one_undo(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        original = state(demo_db)
        browser = app.query_one(EntryBrowser)
        app.memory_view._apply_filter("tier:semantic")
        await wait_until(
            pilot,
            lambda: (
                browser.total > 3
                and browser.cursor == 0
                and all(browser.row_at(i).entry.tier is MemoryTier.SEMANTIC for i in range(3))
            ),
            what="live entries",
        )
        first, second = browser.row_at(0).entry, browser.row_at(1).entry
        third = browser.row_at(2).entry
        await pilot.press("space", "space", "a")  # mark two rows in one burst, then archive
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="one confirmation")
        listed = str(app.screen.body)
        assert first.key in listed and second.key in listed and "2 marked" in listed
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: state(demo_db)[first.id][3] == "archival" and state(demo_db)[second.id][3] == "archival",
            what="both archived",
        )
        assert state(demo_db)[third.id] == original[third.id]  # the unmarked row is untouched
        assert len(app.undo_list) == 1
        await undo_and_wait(pilot, demo_db, original)


async def test_mark_all_matching_then_pin_and_undo(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        original = state(demo_db)
        browser = app.query_one(EntryBrowser)
        app.memory_view._apply_filter("ledger tier:semantic")
        await wait_until(
            pilot,
            lambda: (
                browser.total > 1
                and all(
                    browser.row_at(i).entry.tier is MemoryTier.SEMANTIC and "ledger" in browser.row_at(i).entry.key
                    for i in range(browser.total)
                )
            ),
            what="filtered",
        )
        matching = {browser.row_at(i).entry.id for i in range(browser.total)}
        await pilot.press("asterisk")
        await wait_until(pilot, lambda: set(browser.marked) == matching, what="all marked")
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm")
        await pilot.press("y")
        await wait_until(pilot, lambda: all(state(demo_db)[i][6] == 1 for i in matching), what="all pinned")
        others = {i: r for i, r in state(demo_db).items() if i not in matching}
        assert others == {i: r for i, r in original.items() if i not in matching}
        await undo_and_wait(pilot, demo_db, original)


async def test_escape_clears_marks_and_cancel_writes_nothing(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        original = state(demo_db)
        browser = app.query_one(EntryBrowser)
        app.memory_view._apply_filter("tier:semantic")
        await wait_until(
            pilot,
            lambda: browser.total > 3 and all(browser.row_at(i).entry.tier is MemoryTier.SEMANTIC for i in range(3)),
            what="live entries",
        )
        await pilot.press("space", "space", "X")  # only archived entries can be purged: none marked
        await pilot.pause(0.2)
        assert not isinstance(app.screen, ConfirmScreen) and state(demo_db) == original
        await pilot.press("a")  # archive asks: cancel writes nothing, the marks stay
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm")
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert state(demo_db) == original and len(browser.marked) == 2
        current = browser.current_entry()
        await pilot.press("escape", "a")  # marks cleared: a archives the cursor's entry only
        await wait_until(pilot, lambda: state(demo_db)[current.id][3] == "archival", what="one archived")
        assert not browser.marked
        assert sum(1 for i, r in state(demo_db).items() if r != original[i]) == 1
