"""View 6, Blocked writes: every write the scanner or a guard refused, newest
first, with the matched pattern highlighted and invisible characters shown.
f filters by why (a rule family, the learned layer, invisible characters, the
provenance guard, a field limit...); s strips the invisible characters from a
write refused only for them and retries it through the gate, as the person."""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Static

from engine import scan_memory_content, strip_invisible

from .. import keys
from ..failures import ENGINE_FAILURES
from ..format import highlight_span, visible

REASONS = {
    "invisible_unicode": "invisible unicode",
    "en_injection": "English injection",
    "zh_injection": "Chinese injection",
    "provenance_guard": "provenance guard",
    "too_large": "too large",
    "learned_injection": "learned layer",
    "person_required": "person required",
}


def reason_group(record: Any) -> str:
    """What f filters by: a rule's family, the learned layer, or the refusal's reason."""
    scan = (record.detail or {}).get("scan") or {}
    if record.reason in ("en_injection", "zh_injection") and scan.get("family"):
        return f"rule: {scan['family']}"
    return REASONS.get(record.reason, record.reason.replace("_", " "))


def strip_plan(record: Any) -> tuple[Optional[dict[str, Any]], str]:
    """For a write refused for invisible characters: its key and content without them and
    what goes (field, code point, offset); else None and why it cannot be retried."""
    detail = record.detail or {}
    if record.reason != "invisible_unicode":
        return None, (
            f"Strip and retry is for writes refused only for invisible characters; this one was refused "
            f"for {reason_group(record)}."
        )
    content = str(detail.get("content", ""))
    if int(detail.get("content_length", len(content))) != len(content):
        return None, (
            f"The audit log keeps only the first {len(content):,} of its "
            f"{int(detail['content_length']):,} characters, so it cannot be retried from here."
        )
    plan: dict[str, Any] = {"type": detail.get("type", "environment"), "source": detail.get("source", "legacy"), "removed": []}
    for name in ("key", "content"):
        text, removed = strip_invisible(str(detail.get(name, "")))
        plan[name] = text
        plan["removed"] += [{**r, "field": name} for r in removed]
    return plan, ""


def still_refused(plan: dict[str, Any]) -> str:
    """The scanner's verdict on the stripped key and content: why it would still be
    refused, or "" (the gate decides again on the retry)."""
    for text in (plan["content"], plan["key"]):
        result = scan_memory_content(text)
        if result.blocked:
            return f"{result.reason}" + (f" ({result.family})" if result.family else "")
    return ""


class QuarantineView(Widget):
    BINDINGS = keys.bindings("quarantine")

    DEFAULT_CSS = """
    QuarantineView { layout: vertical; }
    QuarantineView #q-table-box { height: 1fr; border: round $primary-background; border-title-color: $text-accent; }
    QuarantineView #q-table-box:focus-within { border: round $accent; }
    QuarantineView #q-detail { height: 1fr; border: round $primary-background; border-title-color: $text-accent;
                               padding: 0 1; }
    QuarantineView #q-content { background: $boost; padding: 0 1; margin-top: 1; }
    QuarantineView #q-retry { color: $text-error; margin-top: 1; display: none; }
    QuarantineView #q-retry.-shown { display: block; }
    """

    class Loaded(Message):
        def __init__(self, records: Optional[list[Any]], error: str = "") -> None:
            super().__init__()
            self.records = records
            self.error = error

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.all_records: list[Any] = []  # as loaded, newest first
        self.records: list[Any] = []  # the rows shown: those the reason filter keeps
        self.reason_filter: Optional[str] = None  # a reason_group, or None: all

    def compose(self) -> ComposeResult:
        with Vertical(id="q-table-box") as box:
            box.border_title = "Blocked writes"
            yield DataTable(id="q-table", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="q-detail") as box:
            box.border_title = "Refused write"
            yield Static(Text("Select a blocked write.", style="dim"), id="q-summary")
            yield Static("", id="q-retry")
            yield Static("", id="q-content")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        widths = (16, 17, 20, 8, 18)
        room = max(20, self.app.size.width - 4 - sum(widths) - 2 * (len(widths) + 1) - 2)
        for (name, title), width in zip(
            (
                ("at", "when"),
                ("reason", "reason"),
                ("family", "family"),
                ("actor", "actor"),
                ("key", "key"),
                ("content", "content"),
            ),
            (*widths, room),
        ):
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
        except ENGINE_FAILURES as exc:
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
        self.all_records = message.records
        self._fill(keep, known)

    def _fill(self, keep: int, known: set[str]) -> None:
        """The table from the records the reason filter keeps (rebuilt only when they changed)."""
        table = self.query_one(DataTable)
        flt = self.reason_filter
        self.records = [r for r in self.all_records if flt is None or reason_group(r) == flt]
        new_ids = [str(r.id) for r in self.records]
        title = f"Blocked writes ({len(self.all_records)})"
        if flt is not None:
            title = f"Blocked writes: {flt} ({len(self.records)} of {len(self.all_records)}) · f next · F all"
        self.query_one("#q-table-box").border_title = title
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
        else:
            self.query_one("#q-summary", Static).update(
                Text("No blocked writes" + (f" refused for {flt}." if flt else "."), style="dim")
            )
            self.query_one("#q-content", Static).update("")

    @on(DataTable.RowHighlighted, "#q-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.records):
            self._show(self.records[event.cursor_row])

    def _show(self, record: Any) -> None:
        self.say("")
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
        if record.reason == "invisible_unicode":
            table.add_row("fix", Text("s strips the invisible characters and retries (shows what goes first)", style="italic"))
        self.query_one("#q-summary", Static).update(table)
        content = str(detail.get("content", ""))
        self.query_one("#q-content", Static).update(
            highlight_span(content, scan.get("offset"), scan.get("matched"), scan.get("codepoint"))
        )

    def action_move(self, step: int) -> None:
        table = self.query_one(DataTable)
        table.move_cursor(row=table.cursor_row + step)

    # ---- filter by reason -------------------------------------------------------------------
    def action_filter_reason(self, step: int = 1) -> None:
        """f: show only the next reason found among the blocked writes (the last: all again)."""
        groups = sorted({reason_group(r) for r in self.all_records})
        if not groups:
            self.app.notify("No blocked writes to filter.", title="Filter")
            return
        choices: list[Optional[str]] = [None, *groups]
        index = choices.index(self.reason_filter) if self.reason_filter in choices else 0
        self.reason_filter = choices[(index + step) % len(choices)] if step else None
        self._fill(0, set())

    # ---- strip and retry ----------------------------------------------------------------------
    def current_record(self) -> Optional[Any]:
        row = self.query_one(DataTable).cursor_row
        return self.records[row] if 0 <= row < len(self.records) else None

    def say(self, message: str) -> None:
        """A line under the selected write: why a retry cannot happen or was refused."""
        note = self.query_one("#q-retry", Static)
        note.update(Text(message))
        note.set_class(bool(message), "-shown")

    def action_strip_retry(self) -> None:
        """s: for a write refused only for invisible characters, show what will be removed,
        then write it again through the gate (the full scanner runs again), as the person."""
        record = self.current_record()
        if record is None or not self.app.view_visible(self):
            return
        plan, why = strip_plan(record)
        if plan is None:
            self.say(why)
            return
        if self.app.can_write("strip and retry"):
            self._confirm_retry(record, plan)

    @work(exclusive=True, group="quarantine-retry")
    async def _confirm_retry(self, record: Any, plan: dict[str, Any]) -> None:
        from ..screens.dialogs import ConfirmScreen

        refused = await asyncio.to_thread(still_refused, plan)
        if refused:  # invisible characters were not the only problem: no retry is offered
            self.say(f"Not offered: without its invisible characters the text is still refused ({refused}).")
            return
        body = Text()
        count = len(plan["removed"])
        body.append(
            f"Remove {count} invisible character{'s' * (count != 1)} and write {plan['key']!r} again, "
            "as you, through the write scanner:\n\n",
            style="bold",
        )
        for r in plan["removed"][:20]:
            body.append(f"  {r['field']:<8} {r['codepoint']:<8} at offset {r['offset']:<6} {r['class']}\n")
        if count > 20:
            body.append(f"  … and {count - 20} more\n")
        detail = record.detail or {}
        body.append("\nNow (removed characters marked):\n", style="dim")
        body.append_text(visible(str(detail.get("content", ""))[:600]))
        body.append(
            f"\n\nAs {plan['type']}, {plan['source']}, importance 0.5, no tags (the audit log keeps neither).", style="dim"
        )

        def confirmed(yes: Optional[bool]) -> None:
            if yes:
                self._retry(record, plan)

        self.app.push_screen(
            ConfirmScreen("Strip invisible characters and retry", body, "Strip and retry", danger=False), confirmed
        )

    def _retry(self, record: Any, plan: dict[str, Any]) -> None:
        def refused(detail: dict[str, Any]) -> None:
            self.say(f"Still refused: {detail.get('message', 'the write was refused')}")

        self.app.write(
            f"retried {plan['key']} without invisible characters",
            lambda engine: engine.add(
                plan["key"],
                plan["content"],
                plan["type"],
                plan["source"],
                (),
                0.5,
                actor="user",
                reason=f"strip and retry of blocked write {record.id}",
            ),
            on_refused=refused,
        )
