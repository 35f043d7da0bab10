"""Modal dialogs: confirm, edit content, a refused write, new entry, decay preview, jump."""

from __future__ import annotations

from typing import Any, Optional

from rich.cells import set_cell_size
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Select, Static, TextArea
from textual.widgets.option_list import Option

from engine import KNOBS, InvalidValue, MemoryEngine, MemoryEntry, MemoryType, ProvenanceLevel

from ..format import highlight_span, provenance_badge, visible

SHOWN_CHARS = 4000  # of a refused text shown in the dialog (a 100 KB paste stays whole in the editor)
DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{ width: 84; max-width: 95%; height: auto; max-height: 90%; border: thick $accent;
                    background: $surface; padding: 1 2; }}
{name} .title {{ text-style: bold; color: $text-accent; margin-bottom: 1; }}
{name} > Vertical {{ overflow-y: auto; }}
{name} .buttons {{ height: auto; align-horizontal: right; margin-top: 1; dock: bottom; }}
{name} .buttons Button {{ margin-left: 2; }}
{name} .hint {{ color: $text-muted; }}
{name} .error {{ color: $text-error; }}
"""


def focus_cancel(screen: ModalScreen) -> None:
    """Focus the dialog's Cancel/Close button, so Enter never confirms by default. It can
    be gone already when the app closes as the dialog mounts (seen once in a full test
    run: NoMatches from this handler failed the run), and then there is nothing to focus."""
    for button in screen.query("#no").results(Button):
        button.focus()


class ConfirmScreen(ModalScreen[bool]):
    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmScreen")
    # dialog keys are priority bindings: they act before the next key of a burst is routed
    BINDINGS = [
        Binding("escape", "dismiss(False)", "Cancel", priority=True),
        Binding("y", "dismiss(True)", "Yes", show=False, priority=True),
    ]

    def __init__(self, title: str, body: Text | str, confirm: str = "Confirm", danger: bool = True) -> None:
        super().__init__()
        self.title_text, self.body, self.confirm_label, self.danger = title, body, confirm, danger

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), classes="title")
            yield Static(Text(self.body) if isinstance(self.body, str) else self.body)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="no")
                yield Button(self.confirm_label, id="yes", variant="error" if self.danger else "primary")

    def on_mount(self) -> None:
        focus_cancel(self)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class _TextDialog(ModalScreen[Optional[str]]):
    """A dialog around one TextArea: ctrl+s or Save returns its text, escape or Cancel None."""

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)


class EditScreen(_TextDialog):
    """Edit an entry's content; the edit becomes a new, user-stated version."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="EditScreen")
        + """
    EditScreen TextArea { height: 10; }
    """
    )
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True), Binding("ctrl+s", "save", "Save", priority=True)]

    def __init__(self, entry: MemoryEntry, text: Optional[str] = None, note: str = "") -> None:
        super().__init__()
        self.entry = entry
        self.text = entry.content if text is None else text
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            title = Text(f"Edit {self.entry.key}  ")
            title.append_text(provenance_badge(self.entry.source))
            yield Static(title, classes="title")
            yield Static(
                f"Saving writes version {self.entry.version + 1}, stated by you, through the write scanner.", classes="hint"
            )
            if self.note:
                yield Static(Text(self.note), classes="error")
            yield TextArea(self.text, id="editor", soft_wrap=True, show_line_numbers=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save  ctrl+s", id="save", variant="primary")


class MergeScreen(_TextDialog):
    """Merge a contradiction: one text, stated by the user, replaces A and B."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="MergeScreen")
        + """
    MergeScreen TextArea { height: 6; }
    MergeScreen .side { color: $text-muted; margin-bottom: 1; }
    """
    )
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True), Binding("ctrl+s", "save", "Merge", priority=True)]

    def __init__(self, a: MemoryEntry, b: MemoryEntry, text: Optional[str] = None, note: str = "") -> None:
        super().__init__()
        self.a, self.b = a, b
        self.text = a.content if text is None else text
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Merge into {self.a.key}"), classes="title")
            yield Static(Text.assemble(("A: ", "bold"), self.a.content), classes="side")
            yield Static(Text.assemble(("B: ", "bold"), self.b.content), classes="side")
            if self.note:
                yield Static(Text(self.note), classes="error")
            yield TextArea(self.text, id="merge-text", soft_wrap=True)
            yield Static(
                "The merged text becomes a new user-stated version of A's key; A and B are superseded (undo brings them back).",
                classes="hint",
            )
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Merge  ctrl+s", id="save", variant="primary")


class RefusalScreen(ModalScreen[str]):
    """A write the gate refused: the scanner's reason, the matched pattern
    highlighted, invisible characters made visible. Returns "edit" or "discard";
    the text is kept by the caller so nothing typed is lost."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="RefusalScreen")
        + """
    RefusalScreen > Vertical { border: thick $error; }
    RefusalScreen #refused-content { background: $boost; padding: 0 1; margin: 1 0; }
    """
    )
    BINDINGS = [
        Binding("escape", "dismiss('edit')", "Back to editing", priority=True),
        Binding("e", "dismiss('edit')", show=False, priority=True),
    ]

    def __init__(self, what: str, detail: dict[str, Any], content: str, can_edit: bool = True) -> None:
        super().__init__()
        self.what, self.detail, self.content, self.can_edit = what, detail, content, can_edit

    def compose(self) -> ComposeResult:
        detail = self.detail
        scan = detail.get("scan") or {}
        with Vertical():
            yield Static(Text(f"Refused: {self.what}"), classes="title")
            yield Static(Text(detail.get("message", "the write was refused"), style="bold"))
            table = Table.grid(padding=(0, 1))
            table.add_column(style="dim", justify="right")
            table.add_column()
            table.add_row("reason", detail.get("reason", "?"))
            for name in ("family", "pattern", "codepoint", "offset"):
                if scan.get(name) not in (None, ""):
                    table.add_row(name, str(scan[name]))
            if scan.get("matched"):
                table.add_row("matched", visible(str(scan["matched"])))
            for name in ("existing_source", "incoming_source"):
                if detail.get(name):
                    table.add_row(name.replace("_", " "), str(detail[name]))
            yield Static(table)
            shown = highlight_span(self.content[:SHOWN_CHARS], scan.get("offset"), scan.get("matched"), scan.get("codepoint"))
            if len(self.content) > SHOWN_CHARS:
                shown.append(f"\n… {len(self.content):,} characters in all (kept whole)", style="dim italic")
            yield Static(shown, id="refused-content")
            yield Static("Invisible characters are shown as ⟨U+…⟩; the match is highlighted. Your text is kept.", classes="hint")
            with Horizontal(classes="buttons"):
                yield Button("Discard", id="discard")
                if self.can_edit:
                    yield Button("Edit again", id="edit", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#edit" if self.can_edit else "#discard", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "discard")


class AddEntryScreen(ModalScreen[Optional[dict[str, Any]]]):
    """A new entry, written through the gate."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="AddEntryScreen")
        + """
    AddEntryScreen TextArea { height: 5; }
    AddEntryScreen .row { height: auto; }
    AddEntryScreen .row > * { width: 1fr; }
    """
    )
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True), Binding("ctrl+s", "save", "Save", priority=True)]

    def __init__(self, values: Optional[dict[str, Any]] = None, note: str = "") -> None:
        super().__init__()
        self.values = values or {}
        self.note = note

    def compose(self) -> ComposeResult:
        v = self.values
        with Vertical():
            yield Static("New entry", classes="title")
            if self.note:
                yield Static(Text(self.note), classes="error")
            yield Input(v.get("key", ""), placeholder="key, e.g. project/fact", id="key")
            yield TextArea(v.get("content", ""), id="content", soft_wrap=True)
            with Horizontal(classes="row"):
                yield Select(
                    [(t.label, t.label) for t in MemoryType], value=v.get("type", "environment"), allow_blank=False, id="type"
                )
                yield Select(
                    [(p.label, p.label) for p in ProvenanceLevel],
                    value=v.get("source", "user_stated"),
                    allow_blank=False,
                    id="source",
                )
            with Horizontal(classes="row"):
                yield Input(v.get("tags", ""), placeholder="tags, comma separated", id="tags")
                yield Input(str(v.get("importance", "0.5")), placeholder="importance 0..1", id="importance")
            yield Static("", id="form-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save  ctrl+s", id="save", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#key", Input).focus()

    def _collect(self) -> dict[str, Any]:
        return {
            "key": self.query_one("#key", Input).value,
            "content": self.query_one("#content", TextArea).text,
            "type": self.query_one("#type", Select).value,
            "source": self.query_one("#source", Select).value,
            "tags": self.query_one("#tags", Input).value,
            "importance": self.query_one("#importance", Input).value,
        }

    def action_save(self) -> None:
        values = self._collect()
        error = self.query_one("#form-error", Static)
        try:
            importance = float(values["importance"])
            if not 0 <= importance <= 1:
                raise ValueError
        except ValueError:
            error.update(Text(f"importance must be a number between 0 and 1, got {values['importance']!r}"))
            return
        if not values["key"].strip() or not values["content"].strip():
            error.update("key and content must not be empty")
            return
        self.dismiss(values)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)


# A Rich table lays out every row on each repaint: 20k rows held the loop for seconds.
DECAY_PREVIEW_ROWS = 50
DECAY_KEY_WIDTH = 38  # the columns fit the dialog at 80 columns


def decay_rows(changes: list[Any]) -> Text:
    """The preview's rows in fixed columns: plain lines, where a Rich Table measured every
    cell on each layout and repaint (~10 ms a time for 50 rows, several times per dialog)."""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(f"{'key':<{DECAY_KEY_WIDTH}} {'type':<11} {'imp':>4} {'effective':>9}", style="bold")
    for change in changes:
        e = change.entry
        key = set_cell_size(e.key, DECAY_KEY_WIDTH)
        out.append(f"\n{key} {e.type.label:<11} {e.importance:>4.2f} {change.effective_importance:>9.4f}")
    return out


class DecayPreviewScreen(ModalScreen[bool]):
    """What a decay pass would archive (the first DECAY_PREVIEW_ROWS listed); apply or cancel."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="DecayPreviewScreen")
        + """
    DecayPreviewScreen VerticalScroll { height: auto; max-height: 20; }
    """
    )
    BINDINGS = [Binding("escape", "dismiss(False)", "Cancel", priority=True)]

    def __init__(self, changes: list[Any], threshold: float, read_only: bool) -> None:
        super().__init__()
        self.changes, self.threshold, self.read_only = changes, threshold, read_only

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                f"Decay pass: {len(self.changes)} entr{'y' if len(self.changes) == 1 else 'ies'} "
                f"below the archive threshold {self.threshold:.2f}",
                classes="title",
            )
            with VerticalScroll():
                rows = decay_rows(self.changes[:DECAY_PREVIEW_ROWS])
                yield Static(rows if self.changes else Text("Nothing to archive.", style="dim"))
            more = len(self.changes) - DECAY_PREVIEW_ROWS
            if more > 0:
                yield Static(Text(f"… and {more:,} more (Archive takes them all)", style="dim"))
            if self.read_only:
                yield Static("Read-only store: preview only.", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Close" if not self.changes or self.read_only else "Cancel", id="no")
                if self.changes and not self.read_only:
                    yield Button(f"Archive {len(self.changes)}", id="yes", variant="warning")

    def on_mount(self) -> None:
        focus_cancel(self)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class TextScreen(ModalScreen[None]):
    """A scrollable read-only text (consolidation report, store info)."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="TextScreen")
        + """
    TextScreen VerticalScroll { height: auto; max-height: 30; }
    """
    )
    BINDINGS = [Binding("escape,q,enter", "dismiss(None)", "Close", priority=True)]

    def __init__(self, title: str, body: Any) -> None:
        super().__init__()
        self.title_text, self.body = title, body

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), classes="title")
            with VerticalScroll():
                yield Static(Text(self.body) if isinstance(self.body, str) else self.body)
            with Horizontal(classes="buttons"):
                yield Button("Close", id="close", variant="primary")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    @on(Button.Pressed)
    def _pressed(self) -> None:
        self.dismiss(None)


__all__ = [
    "ConfirmScreen",
    "EditScreen",
    "MergeScreen",
    "RefusalScreen",
    "AddEntryScreen",
    "DecayPreviewScreen",
    "TextScreen",
    "KNOBS",
    "Label",
]


class JumpScreen(ModalScreen[Optional[str]]):
    """`:` asks for an id prefix or a key; a miss comes back here with the text kept."""

    DEFAULT_CSS = DIALOG_CSS.format(name="JumpScreen")
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True)]

    def __init__(self, text: str = "", note: str = "") -> None:
        super().__init__()
        self.text, self.note = text, note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Jump to an entry", classes="title")
            yield Static("An id (or its first 8 characters) or a key such as user/editor; Enter opens it.", classes="hint")
            if self.note:
                yield Static(Text(self.note), classes="error", id="jump-error")
            yield Input(self.text, id="jump", placeholder="id prefix or key")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)


class TagScreen(ModalScreen[Optional[tuple[list[str], list[str]]]]):
    """Tags to add and to remove on the marked entries (comma separated); a tag the
    engine would refuse is named here, with the typed text kept."""

    DEFAULT_CSS = DIALOG_CSS.format(name="TagScreen")
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True)]

    def __init__(self, count: int, present: list[str]) -> None:
        super().__init__()
        self.count, self.present = count, present

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Tag {self.count} entr{'y' if self.count == 1 else 'ies'}", classes="title")
            if self.present:
                yield Static(Text("Tags now: " + ", ".join(self.present[:30])), classes="hint")
            yield Input(placeholder="add: tags, comma separated", id="tag-add")
            yield Input(placeholder="remove: tags, comma separated", id="tag-remove")
            yield Static("", id="tag-error", classes="error")
            yield Static("Enter: next field, then review what changes (one confirmation, one undo).", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#tag-add", Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "tag-add":
            self.query_one("#tag-remove", Input).focus()
            return
        lists = []
        for name in ("add", "remove"):
            typed = [t.strip() for t in self.query_one(f"#tag-{name}", Input).value.split(",") if t.strip()]
            try:
                lists.append(MemoryEngine.check_tags(typed))
            except InvalidValue as exc:
                self.query_one("#tag-error", Static).update(Text(f"{name}: {exc}"))
                self.query_one(f"#tag-{name}", Input).focus()
                return
        if not any(lists):
            self.query_one("#tag-error", Static).update("Give at least one tag to add or to remove.")
            return
        self.dismiss((lists[0], lists[1]))


class PickScreen(ModalScreen[Optional[str]]):
    """Choose one of several (id, label) choices; Enter returns the id, Esc nothing."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="PickScreen")
        + """
    PickScreen OptionList { height: auto; max-height: 16; }
    """
    )
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True)]

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text, self.choices = title, choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), classes="title")
            yield OptionList(*(Option(Text(label), id=choice) for choice, label in self.choices))
            yield Static("Enter opens it; Esc cancels.", classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)
