"""`?`: every key, grouped by pane, built from the binding table (with the
config's remapping applied)."""

from __future__ import annotations

from typing import Mapping

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .. import keys


def help_table(keymap: Mapping[str, str], read_only: bool) -> Table:
    table = Table(box=None, show_header=False, expand=True, padding=(0, 1))
    table.add_column(justify="right", style="bold", width=12, no_wrap=True)
    table.add_column(ratio=1)
    table.add_column(style="dim", no_wrap=True)
    for scope, title in keys.SCOPE_TITLES.items():
        rows = keys.rows([scope])
        if not rows:
            continue
        table.add_row("", "", "")
        table.add_row("", Text(title, style="bold underline"), Text("id for [keys]", style="dim italic"))
        for key in rows:
            desc = Text(key.description)
            if key.write:
                desc.append("  (writes" + (", disabled: read-only" if read_only else "") + ")", style="dim")
            table.add_row(keys.display_keys(key, keymap), desc, key.id)
    table.add_row("", "", "")
    table.add_row("ctrl+p", "Command palette: every action by name", "")
    return table


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 86; max-width: 95%; height: 90%; border: thick $accent; background: $surface;
                            padding: 0 1; }
    HelpScreen .title { text-style: bold; color: $text-accent; padding: 1 1 0 1; }
    HelpScreen .hint { color: $text-muted; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,question_mark", "dismiss(None)", "Close", priority=True)]

    def compose(self) -> ComposeResult:
        keymap = getattr(self.app, "keymap", {})
        with Vertical():
            yield Static("Keys", classes="title")
            yield Static(
                Text(
                    "Remap any of them in the config file's [keys] section, by id, e.g. "
                    '"memory.pin" = "P". Mouse works too: click rows, headers, tiers, tabs.'
                ),
                classes="hint",
            )
            self.table = help_table(keymap, getattr(self.app, "read_only", False))
            with VerticalScroll():
                yield Static(self.table)
