"""Episode cross-links: ctrl+o on an entry consolidation wrote opens its episode in
the Episodes view (even past a filter that hid it); ctrl+o on an episode opens its
entries in the Memory view (a list first when there are several). Reads only."""

from __future__ import annotations

import sqlite3

import pytest

from echo_memory_tui.screens.dialogs import PickScreen
from echo_memory_tui.widgets.detail import EntryDetail

from .conftest import SIZE, ready, select_key, wait_until


def audit_count(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM audit").fetchone()[0]


def shows(app, entry_id: str) -> bool:
    detail = app.query_one(EntryDetail).data
    return app.query_one("TabbedContent").active == "memory" and detail is not None and detail.entry.id == entry_id


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_entry_to_its_episode_and_back_to_its_entries(demo_db, make_app, size):
    app = make_app(demo_db)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        writes = audit_count(demo_db)
        entry = await select_key(pilot, "ledger-cli/storage")
        assert entry.episode_id
        episodes = await app.ensure_view("episodes")
        episodes._apply("since:1d words-no-episode-has")  # a filter that hides every episode
        await pilot.press("1", "ctrl+o")
        await wait_until(
            pilot,
            lambda: (
                app.query_one("TabbedContent").active == "episodes" and episodes.selected == entry.episode_id and episodes.facts
            ),
            what="its episode",
        )
        assert episodes.query_one("DataTable").cursor_row == [e.id for e in episodes.data.episodes].index(entry.episode_id)
        # the episode produced several entries: ctrl+o lists them, Enter on one opens it
        ids = [choice for choice, _ in episodes.linked_entries()]
        assert entry.id in ids and len(ids) > 1
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, PickScreen), what="the episode's entries")
        steps = ids.index(entry.id)
        await pilot.press(*["down"] * steps, "enter")
        await wait_until(pilot, lambda: shows(app, entry.id), what="the entry in the Memory view")
        assert audit_count(demo_db) == writes


async def test_an_entry_written_directly_says_it_has_no_episode(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        entry = await select_key(pilot, "ledger/db")
        assert entry.episode_id is None
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: any("came from no episode" in n.message for n in app._notifications), what="said why")
        assert app.query_one("TabbedContent").active == "memory"
