"""One binding table, as data.

Every key the app answers to is a row here: an id (what the config's [keys]
section remaps), the default key(s), the action, which pane it belongs to, a
description, and whether it writes. Widgets take their BINDINGS from this
table, the help screen and the command palette are built from it, and a
read-only store disables every row marked as a write.

Remapping, in the config file::

    [keys]
    "memory.pin" = "P"
    "app.quit" = "ctrl+q,q"

or nested: ``[keys.memory] pin = "P"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from textual.binding import Binding

from .config_sections import leaves


@dataclass(frozen=True)
class Key:
    id: str  # "<scope>.<name>", the name the config remaps
    keys: str  # comma-separated Textual key names
    action: str  # action on the scope's node
    description: str
    show: bool = True  # in the footer
    write: bool = False  # refused on a read-only store
    palette: bool = True  # offered in the command palette
    priority: bool = False
    key_display: str | None = None
    label: str | None = None  # short footer label; description is the help text

    @property
    def scope(self) -> str:
        return self.id.split(".", 1)[0]


# Scopes: which node handles the action. The app resolves a scope to a widget.
SCOPE_TITLES = {
    "app": "Everywhere",
    "memory": "Memory view (browser and detail)",
    "browser": "Entry browser",
    "pyramid": "Tier pyramid",
    "lattice": "Version lattice (in the detail pane)",
    "playground": "Recall playground",
    "review": "Contradiction review",
    "working": "Working memory",
    "episodes": "Episodes",
    "quarantine": "Blocked writes",
}

TABLE: tuple[Key, ...] = (
    # ---- everywhere --------------------------------------------------------------
    Key("app.quit", "q", "quit", "Quit"),
    Key("app.help", "question_mark", "help", "Help", key_display="?", priority=True),
    # View keys, `/` and Esc are priority bindings: they act before the next key of a burst is
    # routed, and the app holds that next key until focus has landed where they sent it.
    Key("app.view_memory", "1", "view_key('memory')", "Memory", show=False, priority=True),
    Key("app.view_recall", "2", "view_key('recall')", "Recall playground", show=False, priority=True),
    Key("app.view_review", "3", "view_key('review')", "Contradictions", show=False, priority=True),
    Key("app.view_working", "4", "view_key('working')", "Working memory", show=False, priority=True),
    Key("app.view_episodes", "5", "view_key('episodes')", "Episodes", show=False, priority=True),
    Key("app.view_quarantine", "6", "view_key('quarantine')", "Blocked writes", show=False, priority=True),
    Key("app.theme", "T", "toggle_theme", "Dark / light theme", show=False),
    Key("app.live", "L", "toggle_live", "Pause / resume live reload", label="Live"),
    Key("app.reload", "ctrl+r", "reload", "Reload everything", show=False),
    Key("app.decay", "D", "decay", "Decay pass (preview, then apply)", show=False, write=True),
    Key(
        "app.cancel_job",
        "ctrl+c",
        "cancel_job",
        "Stop the running job (decay preview or apply, embedding)",
        label="Stop",
        priority=True,
    ),
    Key("app.embed", "E", "embed_backlog", "Resume embedding the vector backlog (after ctrl+c paused it)", show=False),
    Key("app.consolidate", "C", "consolidate", "Run consolidation", show=False, write=True),
    Key("app.add", "N", "add_entry", "New entry", show=False, write=True, priority=True),
    Key(
        "app.leave_input",
        "escape",
        "leave_input",
        "Leave the text field (back to the view's list)",
        show=False,
        palette=False,
        priority=True,
    ),
    Key(
        "app.undo", "u", "undo", "Undo the last write (pin, archive, restore, edit, purge, decay, bulk)", write=True, label="Undo"
    ),
    Key("app.undo_list", "U", "undo_list", "What can be undone (newest first)", show=False, priority=True),
    Key("app.jump", "colon", "jump", "Jump to an entry by id prefix or key", key_display=":", priority=True, label="Jump"),
    Key(
        "app.open_linked",
        "ctrl+o",
        "open_linked",
        "Open what the selection names: a candidate, a blocked write's entry, review side A or an episode's entries "
        "in the Memory view; in the Memory view, the entry's episode",
        show=False,
    ),
    Key("app.maximize", "M", "maximize_pane", "Maximise the focused pane (again or Esc: restore)", show=False),
    Key("app.next_pane", "tab", "app.focus_next", "Next pane", show=False, palette=False),
    # ---- memory view: actions on the entry under the cursor ----------------------
    Key(
        "memory.filter",
        "slash",
        "filter",
        "Filter entries (text, tier:, type:, prov:, tag:, pinned)",
        key_display="/",
        label="Filter",
        priority=True,
    ),
    Key("memory.pin", "p", "pin", "Pin / unpin the entry", write=True, label="Pin"),
    Key("memory.edit", "e", "edit", "Edit the content (a new version)", write=True, label="Edit", priority=True),
    Key("memory.archive", "a", "archive", "Archive the entry", write=True, label="Archive"),
    Key("memory.restore", "r", "restore", "Restore an archived entry or version", write=True, label="Restore"),
    Key("memory.purge", "X", "purge", "Purge an archived entry (asks first)", write=True, label="Purge", priority=True),
    Key(
        "memory.tag",
        "t",
        "tag",
        "Tag the marked entries (else this one): add / remove tags, one undo",
        write=True,
        show=False,
        priority=True,
    ),
    Key(
        "memory.mark_all",
        "asterisk",
        "mark_all",
        "Mark every entry matching the filter (bulk p/a/r/X)",
        show=False,
        key_display="*",
    ),
    Key("memory.clear_filter", "escape", "clear_filter", "Clear the marks, then the filter", show=False),
    Key("memory.detail", "enter", "focus_detail", "Open detail", show=False),
    Key("memory.browser", "b", "focus_browser", "Back to browser", show=False),
    Key("memory.pyramid", "y", "focus_pyramid", "Tier pyramid (shows / hides it in a narrow terminal)", show=False),
    # ---- browser ----------------------------------------------------------------
    Key("browser.down", "j,down", "cursor_down", "Down", show=False, palette=False),
    Key("browser.up", "k,up", "cursor_up", "Up", show=False, palette=False),
    Key("browser.top", "g,home", "cursor_top", "First entry", show=False),
    Key("browser.bottom", "G,end", "cursor_bottom", "Last entry", show=False),
    Key("browser.page_down", "pagedown,ctrl+f", "page_down", "Page down", show=False, palette=False),
    Key("browser.page_up", "pageup,ctrl+b", "page_up", "Page up", show=False, palette=False),
    Key("browser.mark", "space", "toggle_mark", "Mark / unmark the entry (then p/a/r/X act on all marked)", show=False),
    Key("browser.sort", "o", "cycle_sort", "Sort by the next column", label="Sort"),
    Key("browser.reverse", "O", "reverse_sort", "Reverse sort", show=False),
    # ---- pyramid ----------------------------------------------------------------
    Key("pyramid.down", "j,down", "move(1)", "Next tier", show=False, palette=False),
    Key("pyramid.up", "k,up", "move(-1)", "Previous tier", show=False, palette=False),
    Key("pyramid.select", "enter,space", "select", "Filter by tier", show=False, palette=False),
    Key("pyramid.all", "0", "select_all", "All tiers", show=False),
    # ---- lattice ----------------------------------------------------------------
    Key("lattice.down", "j,down", "move(1)", "Older version", show=False, palette=False),
    Key("lattice.up", "k,up", "move(-1)", "Newer version", show=False, palette=False),
    Key(
        "lattice.restore",
        "r,enter",
        "restore_version",
        "Restore the selected version",
        write=True,
        palette=False,
        label="Restore version",
    ),
    Key("lattice.mark", "space", "mark_version", "Mark the version to diff against (again: unmark)", show=False, palette=False),
    Key(
        "lattice.diff",
        "d",
        "diff",
        "Word diff: the selected version against the marked one (else the one it replaced)",
        label="Diff",
        palette=False,
    ),
    # ---- recall playground --------------------------------------------------------
    Key("playground.baseline", "ctrl+b", "pin_baseline", "Pin the current ranking as baseline (again: clear)", label="Baseline"),
    Key("playground.save", "ctrl+s", "save_knobs", "Save the knobs to the config file", label="Save knobs"),
    Key("playground.reset", "ctrl+z", "reset_knobs", "Reset the knobs to the saved settings", label="Reset"),
    Key("playground.query", "ctrl+l", "focus_query", "Query box", show=False),
    Key("playground.knobs", "ctrl+g", "focus_knobs", "Knob panel (shows / hides it in a narrow terminal)", show=False),
    Key("playground.stages", "ctrl+t", "toggle_stages", "Dropped and timings panes (hidden in a short terminal)", show=False),
    Key(
        "playground.relevant", "v", "judge(1)", "Judge the selected candidate relevant to the query", write=True, label="Relevant"
    ),
    Key(
        "playground.not_relevant",
        "x",
        "judge(0)",
        "Judge the selected candidate not relevant to the query",
        write=True,
        label="Not relevant",
    ),
    Key("playground.clear_judgment", "backspace", "unjudge", "Clear the selected candidate's judgment", write=True, show=False),
    # ---- contradiction review -----------------------------------------------------
    Key("review.keep_a", "a", "resolve('keep_a')", "Keep A", write=True),
    Key("review.keep_b", "b", "resolve('keep_b')", "Keep B", write=True),
    Key("review.keep_both", "o", "resolve('keep_both')", "Keep both", write=True),
    Key("review.merge", "m", "merge", "Merge", write=True, priority=True),
    Key("review.skip", "s", "skip", "Skip"),
    Key("review.undo", "u", "undo", "Undo last (in the history: the decision selected)", write=True, label="Undo last"),
    Key(
        "review.history", "h", "toggle_history", "History of decisions: who resolved what, when (again: pending)", label="History"
    ),
    Key("review.open_a", "A", "open_side('a')", "Open side A in the Memory view", show=False),
    Key("review.open_b", "B", "open_side('b')", "Open side B in the Memory view", show=False),
    Key("review.next", "j,down", "move(1)", "Next", show=False, palette=False),
    Key("review.prev", "k,up", "move(-1)", "Previous", show=False, palette=False),
    # ---- working ------------------------------------------------------------------
    Key("working.next_session", "right_square_bracket", "session(1)", "Next session", key_display="]"),
    Key("working.prev_session", "left_square_bracket", "session(-1)", "Previous session", key_display="["),
    Key("working.smaller", "minus", "budget(0.5)", "Preview half the char budget (see what is cut)", label="Budget ½"),
    Key("working.larger", "plus", "budget(2.0)", "Preview twice the char budget", label="Budget ×2"),
    Key("working.budget_reset", "equals_sign", "budget_reset", "Back to the configured char budget", show=False),
    # ---- episodes -----------------------------------------------------------------
    Key("episodes.filter", "slash", "filter", "Filter episodes", key_display="/", priority=True),
    Key("episodes.side", "ctrl+t", "toggle_side", "Sessions and consolidation runs (hidden in a narrow terminal)", show=False),
    # ---- quarantine ---------------------------------------------------------------
    Key("quarantine.down", "j", "move(1)", "Next", show=False, palette=False),
    Key("quarantine.up", "k", "move(-1)", "Previous", show=False, palette=False),
    Key(
        "quarantine.filter",
        "f",
        "filter_reason",
        "Show one reason at a time (rule family, learned layer, invisible characters, guard...; the last: all)",
        label="Reason",
    ),
    Key("quarantine.all", "F", "filter_reason(0)", "Show every reason again", show=False),
    Key(
        "quarantine.strip",
        "s",
        "strip_retry",
        "Strip the invisible characters and retry (shows what goes first)",
        write=True,
        label="Strip+retry",
    ),
)

BY_ID: dict[str, Key] = {k.id: k for k in TABLE}
WRITE_ACTIONS: dict[str, set[str]] = {}
# Priority keys act before the next key of a burst is routed (a dialog or a view opens
# first); in a text field the printable ones are text, so they stand aside there.
TEXT_ACTIONS: dict[str, set[str]] = {}
for _key in TABLE:
    if _key.write:
        WRITE_ACTIONS.setdefault(_key.scope, set()).add(_key.action.split("(")[0])
    if _key.priority and _key.id != "app.leave_input":
        TEXT_ACTIONS.setdefault(_key.scope, set()).add(_key.action.split("(")[0])


def key_allowed(scope: str, action: str, app: Any) -> bool | None:
    """For check_action: on a read-only store a write binding is hidden from the footer
    (False) and does not run (the status line says read-only); while a text field has
    the focus the priority letters are typed instead, and in a dialog they are the
    dialog's keys (None: shown disabled, the key goes on to the focused widget)."""
    name = action.split("(")[0]
    if getattr(app, "read_only", False) and name in WRITE_ACTIONS.get(scope, ()):
        return False
    if name in TEXT_ACTIONS.get(scope, ()):
        from textual.widgets import Input, TextArea

        if len(app.screen_stack) > 1 or isinstance(app.focused, (Input, TextArea)):
            return None
    return True


def bindings(scope: str) -> list[Binding]:
    """The Textual bindings of one scope, each carrying its id for remapping."""
    return [
        Binding(
            k.keys,
            k.action,
            k.label or k.description,
            show=k.show,
            key_display=k.key_display,
            priority=k.priority,
            id=k.id,
            tooltip=k.description,
        )
        for k in TABLE
        if k.scope == scope
    ]


def keymap_from_config(section: Any) -> tuple[dict[str, str], list[str]]:
    """The config's [keys] section as a Textual keymap, and the problems found.

    Unknown ids and non-string values are reported, never applied."""
    keymap: dict[str, str] = {}
    problems: list[str] = []
    if section is None:
        return keymap, problems
    if not isinstance(section, Mapping):
        return keymap, [f'[keys] must be a table of binding id = "key", got {type(section).__name__}']
    for binding_id, value in leaves(section).items():
        if binding_id not in BY_ID:
            problems.append(f"[keys] unknown binding id {binding_id!r}")
            continue
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            value = ",".join(value)
        if not isinstance(value, str) or not value.strip():
            problems.append(f'[keys] {binding_id}: expected a key name such as "ctrl+x", got {value!r}')
            continue
        keymap[binding_id] = ",".join(part.strip() for part in value.split(",") if part.strip())
    return keymap, problems


def display_keys(key: Key, keymap: Mapping[str, str]) -> str:
    """The key(s) as the user sees them, after remapping."""
    from textual.keys import format_key

    keys = keymap.get(key.id, key.keys)
    if key.key_display and key.id not in keymap:
        return key.key_display
    return " ".join(format_key(k.strip()) for k in keys.split(","))


def rows(scopes: Iterable[str] | None = None) -> list[Key]:
    wanted = set(scopes) if scopes is not None else None
    return [k for k in TABLE if wanted is None or k.scope in wanted]
