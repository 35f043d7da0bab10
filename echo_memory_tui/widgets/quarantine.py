"""View 6, Blocked writes: every write the scanner or a guard refused, newest
first, with the matched pattern highlighted and invisible characters shown."""

from __future__ import annotations

from typing import Any, Optional

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Static

from .. import keys
from ..format import highlight_span, visible

REASONS = {
    "invisible_unicode": "invisible unicode",
    "en_injection": "English injection",
    "zh_injection": "Chinese injection",
    "provenance_guard": "provenance guard",
    "too_large": "too large",
}


class QuarantineView(Widget):
    BINDINGS = keys.bindings("quarantine")

    DEFAULT_CSS = """
    QuarantineView { layout: vertical; }
    QuarantineView #q-table-box { height: 1fr; border: round $primary-background; border-title-color: $text-accent; }
    QuarantineView #q-table-box:focus-within { border: round $accent; }
    QuarantineView #q-detail { height: 1fr; border: round $primary-background; border-title-color: $text-accent;
                               padding: 0 1; }
    QuarantineView #q-content { background: $boost; padding: 0 1; margin-top: 1; }
    """

    class Loaded(Message):
        def __init__(self, records: Optional[list[Any]], error: str = "") -> None:
            super().__init__()
            self.records = records
            self.error = error

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.records: list[Any] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="q-table-box") as box:
            box.border_title = "Blocked writes"
            yield DataTable(id="q-table", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="q-detail") as box:
            box.border_title = "Refused write"
            yield Static(Text("Select a blocked write.", style="dim"), id="q-summary")
            yield Static("", id="q-content")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        widths = (16, 17, 20, 8, 18)
        room = max(20, self.app.size.width - 4 - sum(widths) - 2 * (len(widths) + 1) - 2)
        for (name, title), width in zip((("at", "when"), ("reason", "reason"), ("family", "family"),
                                         ("actor", "actor"), ("key", "key"), ("content", "content")),
                                        (*widths, room)):
            table.add_column(title, key=name, width=width)

    def start(self) -> None:
        self.refresh_data()

    def linked_entry(self) -> Optional[str]:
        """ctrl+o: the entry the refused write would have replaced, else its key's entry."""
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.records):
            return None
        record = self.records[row]
        return record.entry_id or (record.detail or {}).get("key") or None

    def focus_default(self) -> None:
        self.query_one(DataTable).focus()

    def refresh_data(self, entry_ids: Optional[list[str]] = None) -> None:
        self._load()

    @work(exclusive=True, group="quarantine")
    async def _load(self) -> None:
        engine = self.app.engine
        if engine is None:
            return
        try:
            records = await engine.quarantine(limit=500)
        except Exception as exc:
            self.post_message(self.Loaded(None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Loaded(records))

    def on_quarantine_view_loaded(self, message: Loaded) -> None:
        message.stop()
        if message.records is None:
            self.query_one("#q-summary", Static).update(Text(f"Could not load: {message.error}", style="red"))
            return
        table = self.query_one(DataTable)
        keep = table.cursor_row
        known = {str(r.id) for r in self.records}
        new_ids = [str(r.id) for r in message.records]
        self.records = message.records
        self.query_one("#q-table-box").border_title = f"Blocked writes ({len(self.records)})"
        if known == set(new_ids) and table.row_count == len(new_ids):
            return  # nothing new: keep the table (and its cursor) as is
        with self.app.batch_update():
            table.clear()
            for record in self.records:
                detail = record.detail or {}
                scan = detail.get("scan") or {}
                table.add_row(
                    Text(f"{record.at:%Y-%m-%d %H:%M}"),
                    Text(REASONS.get(record.reason, record.reason), style="bold red"),
                    Text(scan.get("family") or ""),
                    Text(record.actor),
                    Text(str(detail.get("key", ""))),
                    visible(" ".join(str(detail.get("content", "")).split(" "))[:80].replace("\n", " ")),
                    key=str(record.id),
                )
        if self.records:
            table.move_cursor(row=min(keep, len(self.records) - 1))
            self._show(self.records[table.cursor_row])

    @on(DataTable.RowHighlighted, "#q-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.records):
            self._show(self.records[event.cursor_row])

    def _show(self, record: Any) -> None:
        detail = record.detail or {}
        scan = detail.get("scan") or {}
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", justify="right")
        table.add_column()
        table.add_row("refused", Text(REASONS.get(record.reason, record.reason), style="bold red"))
        table.add_row("message", Text(str(detail.get("message", ""))))
        table.add_row("key", Text(f"{detail.get('key', '')}  ({detail.get('type', '?')}, {detail.get('source', '?')})"))
        table.add_row("when", f"{record.at:%Y-%m-%d %H:%M:%S} by {record.actor}")
        for name in ("family", "pattern", "codepoint", "offset"):
            if scan.get(name) not in (None, ""):
                table.add_row(name, str(scan[name]))
        if scan.get("matched"):
            table.add_row("matched", visible(str(scan["matched"])))
        if record.entry_id:
            table.add_row("protected", record.entry_id)
        self.query_one("#q-summary", Static).update(table)
        content = str(detail.get("content", ""))
        self.query_one("#q-content", Static).update(
            highlight_span(content, scan.get("offset"), scan.get("matched"), scan.get("codepoint")))

    def action_move(self, step: int) -> None:
        table = self.query_one(DataTable)
        table.move_cursor(row=table.cursor_row + step)
