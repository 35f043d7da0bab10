"""The burst matrix (issue 9, "Must show"): every write key typed with no pause after
every view key, after `/`, and after closing each dialog. Whatever the key does, every
audit record it causes names the entry the user saw selected in the visible view (the
browser's row in the Memory view, the pair on screen in Review), and nowhere else is
anything written. One app per row of the matrix, its sub-cases run in turn, so the
whole matrix stays quick; tests/tui/test_trust_keys.py holds the first cases found by
hand (2a, 34, 3456, 6543, /pinned, the editor)."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TabbedContent

from .conftest import ready, select_key, wait_until
from .test_trust_keys import burst, settled_on

SMALL = (80, 24)
VIEW_KEYS = {"1": "memory", "2": "recall", "3": "review", "4": "working", "5": "episodes", "6": "quarantine"}
# Every key that writes or leads to a write somewhere (keys.py), u first so it never takes
# back a write an earlier sub-case made on another selection. The bulk keys (space, *)
# only mark rows: their own test below marks, then bursts the write keys.
WRITE_KEYS = ["u", "p", "e", "a", "r", "X", "N", "D", "b", "o", "m"]
UNDER_DIALOG_KEYS = ["u", "p", "e", "a", "r", "X"]  # the Memory view's: they act on its selected row


async def audit_ids(app) -> int:
    records = await app.engine.audit(limit=1)
    return records[0].id if records else 0


async def written_since(app, last_id: int) -> list[tuple[str, str | None]]:
    return [(r.action, r.entry_id) for r in await app.engine.audit(limit=10_000) if r.id > last_id]


def selection_in(app, view_id: str) -> set[str]:
    """What the user sees selected in a view once it is shown: the Memory view's row,
    Review's pair; the other views select no stored entry a key could write."""
    if view_id == "memory":
        entry = app.memory_view.browser.current_entry()
        return {entry.id} if entry is not None else set()
    review = app._view_widget("review") if view_id == "review" else None
    pair = review.current_pair() if review is not None else None
    return {pair.a.id, pair.b.id} if pair is not None else set()


WRITING_GROUPS = {"write", "review-undo", "decay", "consolidate", "edit-head", "jump", "mark-all"}


def working(app) -> list:
    """Workers that write (or lead to a write) still running."""
    return [w for w in app.workers if not w.is_finished and w.group in WRITING_GROUPS]


async def calm(pilot) -> None:
    """Let the key land and whatever it started finish, then close any dialog it opened."""
    app = pilot.app
    await wait_until(pilot, lambda: app._held_keys is None and not working(app), what="keys released, work done")
    await pilot.pause()
    for _ in range(4):
        if len(app.screen_stack) == 1:
            break
        await pilot.press("escape")
        await wait_until(pilot, lambda: app._held_keys is None, what="dialog closed")
    assert len(app.screen_stack) == 1


async def check_burst(pilot, keys: tuple[str, ...], view_id: str) -> None:
    """Burst keys that end on view_id with a write key: the audit names nothing but the
    selection view_id shows (the selection a view keeps while hidden is what it shows)."""
    app = pilot.app
    last = await audit_ids(app)
    seen = selection_in(app, view_id)
    await burst(pilot, *keys)
    await calm(pilot)
    stray = [(action, entry) for action, entry in await written_since(app, last) if entry not in seen]
    assert not stray, f"{' '.join(keys)} in {view_id}: wrote outside the visible selection {seen}: {stray}"


@pytest.mark.parametrize("view_key", ["1", "3"])
async def test_each_write_key_right_after_a_view_key_writes_only_the_visible_selection(demo_db, make_app, view_key):
    """The views whose keys write: each write key on its own right after the view key."""
    view_id = VIEW_KEYS[view_key]
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        if view_id == "review":  # a pair on screen, so a/b/o have something visible to act on
            await burst(pilot, "3")
            await settled_on(pilot, "review")
            review = app._view_widget("review")
            await wait_until(pilot, lambda: review.loaded and review.current_pair() is not None, what="queue")
        await back_to_memory(pilot)
        entry = await select_key(pilot, "user/editor")
        for write_key in WRITE_KEYS:
            await back_to_memory(pilot)
            last = await audit_ids(app)
            await check_burst(pilot, (view_key, write_key), view_id)
            if view_id != "memory":  # the browser's row was hidden: nothing touched it
                assert entry.id not in {e for _, e in await written_since(app, last)}, (view_key, write_key)


@pytest.mark.parametrize("view_key", ["2", "4", "5", "6"])
async def test_all_write_keys_after_a_view_key_write_nothing_where_nothing_is_selected(demo_db, make_app, view_key):
    """Views with no stored entry to select: the view key and every write key in one burst
    (the dialog keys last, so each other key meets the view, not a dialog) write nothing."""
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        await select_key(pilot, "user/editor")
        dialogs_last = [k for k in WRITE_KEYS if k not in ("D", "N")] + ["D", "N"]
        await check_burst(pilot, (view_key, *dialogs_last), VIEW_KEYS[view_key])


def dialogs_opened(app) -> list[str]:
    """The names of the screens the app pushes from now on (a list the caller may clear)."""
    opened: list[str] = []
    push = app.push_screen

    def spy(screen, *args, **kwargs):
        opened.append(type(screen).__name__)
        return push(screen, *args, **kwargs)

    app.push_screen = spy
    return opened


async def back_to_memory(pilot) -> None:
    """Out of a text field (Esc), then the Memory view with its browser focused."""
    app = pilot.app
    if isinstance(app.focused, Input):
        await burst(pilot, "escape")
        await wait_until(pilot, lambda: app._held_keys is None, what="left the field")
    if not (app.query_one(TabbedContent).active == "memory" and app.focused is app.memory_view.browser):
        await burst(pilot, "1")
        await settled_on(pilot, "memory")


async def test_bulk_marks_never_act_from_a_hidden_browser(demo_db, make_app):
    """Two marked rows, then each other view's key with the bulk write keys: no bulk
    confirmation, nothing written (in Review, `a` keeps side A of the pair on screen)."""
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        # Review's queue loaded first, so the pair `a` may act on is known to be on screen
        # (a first, lazy visit could draw it between the keys, and the check could not tell)
        await burst(pilot, "3")
        await settled_on(pilot, "review")
        review = app._view_widget("review")
        await wait_until(pilot, lambda: review.loaded and review.current_pair() is not None, what="queue")
        await back_to_memory(pilot)
        browser = app.memory_view.browser
        await burst(pilot, "space", "j", "space")
        await wait_until(pilot, lambda: len(browser.marked) == 2, what="two rows marked")
        marked = set(browser.marked)
        opened = dialogs_opened(app)
        for view_key in ("2", "3", "4", "5", "6"):
            opened.clear()
            await check_burst(pilot, (view_key, "p", "r", "X", "a"), VIEW_KEYS[view_key])
            assert not [name for name in opened if "Confirm" in name], (view_key, opened)
            await back_to_memory(pilot)
            assert set(browser.marked) == marked


@pytest.mark.parametrize("view_key, field_id", [("1", "#filter"), ("5", "#ep-filter")])
async def test_every_write_key_after_slash_is_typed_into_the_filter(demo_db, make_app, view_key, field_id):
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        await burst(pilot, view_key)
        await settled_on(pilot, VIEW_KEYS[view_key])
        view = app._view_widget(VIEW_KEYS[view_key])
        field = view.query_one(field_id, Input)
        last = await audit_ids(app)
        for write_key in WRITE_KEYS + ["space", "asterisk"]:
            await burst(pilot, "slash", write_key)
            text = {"space": " ", "asterisk": "*"}.get(write_key, write_key)
            await wait_until(
                pilot,
                lambda: field.value.endswith(text) and app._held_keys is None,
                what=f"{write_key} typed into {field_id}",
            )
            assert len(app.screen_stack) == 1, f"/{write_key} opened a dialog"
        assert await written_since(app, last) == []


DIALOGS = {  # the key that opens it, its screen, and whether it opens at once (else after a worker)
    "help": ("question_mark", "HelpScreen", True),
    "edit": ("e", "EditScreen", True),
    "add": ("N", "AddEntryScreen", True),
    "jump": ("colon", "JumpScreen", True),
    "undo-list": ("U", "TextScreen", True),
    "palette": ("ctrl+p", "CommandPalette", True),
    "decay-preview": ("D", "DecayPreviewScreen", False),
}


@pytest.mark.parametrize("dialog", list(DIALOGS))
async def test_every_write_key_after_closing_a_dialog_acts_on_the_visible_selection(demo_db, make_app, dialog):
    """Open the dialog, Esc, a write key: all in one burst (the preview, which opens after
    its job, is waited for). The write lands on the row the user sees, nowhere else."""
    key, screen_name, at_once = DIALOGS[dialog]
    app = make_app(demo_db)
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        entry = await select_key(pilot, "ledger/db")
        pinned = entry.pinned
        opened = dialogs_opened(app)
        for write_key in UNDER_DIALOG_KEYS:
            if at_once:
                await check_burst(pilot, (key, "escape", write_key), "memory")
            else:
                await burst(pilot, key)
                await wait_until(
                    pilot,
                    lambda: type(app.screen).__name__ == screen_name and app._held_keys is None,
                    what=f"{dialog} open",
                )
                await check_burst(pilot, ("escape", write_key), "memory")
            assert screen_name in opened, f"{key} did not open {screen_name}"
            opened.clear()
            if write_key == "p":  # the pin landed on the row the user saw
                assert (await app.engine.get(entry.id)).pinned is not pinned
