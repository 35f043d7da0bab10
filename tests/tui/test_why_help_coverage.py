"""Help that teaches (issue 9): every action the app's panes answer to is a row of the
one binding table (keys.py), every row names an action that exists, the `?` screen
lists every row and the command palette offers every row meant for it."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from echo_memory_tui import commands, keys
from echo_memory_tui.app import EchoMemoryApp
from echo_memory_tui.screens.help import help_table
from echo_memory_tui.widgets.browser import EntryBrowser
from echo_memory_tui.widgets.episodes import EpisodesView
from echo_memory_tui.widgets.lattice import VersionLattice
from echo_memory_tui.widgets.memory import MemoryView
from echo_memory_tui.widgets.playground import PlaygroundView
from echo_memory_tui.widgets.pyramid import TierPyramid
from echo_memory_tui.widgets.quarantine import QuarantineView
from echo_memory_tui.widgets.review import ReviewView
from echo_memory_tui.widgets.working import WorkingView

SCOPES = {
    "app": EchoMemoryApp,
    "memory": MemoryView,
    "browser": EntryBrowser,
    "pyramid": TierPyramid,
    "lattice": VersionLattice,
    "playground": PlaygroundView,
    "review": ReviewView,
    "working": WorkingView,
    "episodes": EpisodesView,
    "quarantine": QuarantineView,
}
# Actions reached only from code, never from a key: action_view is how the palette and the
# cross-links switch views (the keys 1-6 run view_key, which also moves the focus).
NOT_KEYS = {("app", "view")}


def action_name(key: keys.Key) -> str:
    return key.action.split("(")[0]


def test_every_pane_takes_its_keys_from_the_one_table():
    assert set(keys.SCOPE_TITLES) == set(SCOPES) == {k.scope for k in keys.TABLE}
    for scope, cls in SCOPES.items():
        assert {b.id for b in cls.BINDINGS} == {k.id for k in keys.rows([scope])}, scope


def test_every_action_has_a_row_and_every_row_an_action():
    for scope, cls in SCOPES.items():
        rows = {action_name(k) for k in keys.rows([scope])}
        own = {name.removeprefix("action_") for name in vars(cls) if name.startswith("action_")}
        assert not own - rows - {name for s, name in NOT_KEYS if s == scope}, f"{scope}: actions without a key"
        for name in rows:
            target = EchoMemoryApp if name.startswith("app.") else cls
            assert hasattr(target, "action_" + name.removeprefix("app.")), f"{scope}: {name} does not exist"


def test_the_help_screen_lists_every_key_with_its_id():
    console = Console(file=io.StringIO(), width=300)
    console.print(help_table({}, read_only=False))
    shown = console.file.getvalue()
    for key in keys.TABLE:
        assert key.id in shown and key.description in shown, key.id


def test_the_palette_offers_every_row_meant_for_it():
    app = SimpleNamespace(
        keymap={},
        read_only=False,
        run_scoped=print,
        sort_entries=print,
        filter_tier=print,
        filter_text=print,
        set_theme=print,
        show_store_info=print,
        action_decay=print,
    )
    names = {name for name, _help, _call in commands._commands(app)}
    for key in keys.TABLE:
        if key.palette:
            assert key.description in names or f"{key.scope.capitalize()}: {key.description}" in names, key.id
