"""Version diff in the lattice: d shows a word diff of the selected version against
the one it replaced, or against a version marked with space; readable at 80x24 and
without colour ([-removed-] {+added+}); it writes nothing."""

from __future__ import annotations

import sqlite3

import pytest

from echo_memory_tui.screens.dialogs import TextScreen
from echo_memory_tui.widgets.lattice import VersionLattice

from .conftest import SIZE, ready, select_key, wait_until


def audit_count(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM audit").fetchone()[0]


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_d_diffs_against_the_previous_version_and_space_picks_another(demo_db, make_app, size):
    app = make_app(demo_db)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await select_key(pilot, "atlas/python-version")
        lattice = app.query_one(VersionLattice)
        await wait_until(pilot, lambda: len(lattice.nodes) >= 3, what="the versions")
        writes = audit_count(demo_db)
        head = next(i for i, n in enumerate(lattice.nodes) if n.current)
        # into the lattice, onto the head, then diff it against the version it replaced (v2)
        await pilot.press("enter", *["k"] * (lattice.cursor - head), "d")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), what="the diff")
        shown = app.screen.body.plain
        assert shown.startswith("v2 ") and "→  v3 " in shown
        assert shown.endswith("Python [-3.11 after-]{+3.12;+} the [-spring upgrade.-]{+Dockerfile uses python:3.12-slim.+}")
        # the dialog fits the terminal: the diff text and its Close button are on screen
        dialog = app.screen.query_one("Vertical")
        assert dialog.region.right <= size[0] and dialog.region.bottom <= size[1]
        assert app.screen.query_one("Button").region.height > 0
        # Esc, then mark v1 and come back to the head: d now compares v1 with v3
        oldest = min((n for n in lattice.nodes if n.key == "atlas/python-version"), key=lambda n: n.version)
        steps = lattice.nodes.index(oldest) - lattice.cursor
        await pilot.press("escape", *["j"] * steps, "space", *["k"] * steps, "d")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), what="the second diff")
        shown = app.screen.body.plain
        assert shown.startswith(f"v1 {oldest.id[:8]}") and "[-3.10.-]" in shown and "{+3.12;" in shown
        await pilot.press("escape")
        assert audit_count(demo_db) == writes  # a diff never writes


async def test_a_first_version_alone_says_how_to_pick_another(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await select_key(pilot, "ledger/db")
        lattice = app.query_one(VersionLattice)
        await wait_until(pilot, lambda: len(lattice.nodes) == 1, what="one version")
        await pilot.press("enter", "d")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, TextScreen)
        assert any("mark another with space" in n.message for n in app._notifications)
