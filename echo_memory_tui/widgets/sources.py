"""Live agent sources: the MCP clients (and other processes' folder syncs) the audit
log saw writing in the last minutes, and the folders this app syncs with their
state. One line under the header on a tall terminal; on a short one the same words
go to the status line, so the views keep every row (the app decides which)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Optional

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from engine import EntryOrigin, WriterSeen

from ..format import ago

RECENT_MINUTES = 10  # how far back the line looks for agents that wrote


@dataclass(frozen=True)
class SyncState:
    """One `--sync FORMAT:DIR` folder: starting, watching (last pass at) or error."""

    spec: str
    state: str = "starting"
    last_sync: Optional[datetime] = None
    message: str = ""


class SyncStatus(Message):
    """A sync worker's news about its folder (posted from its thread)."""

    def __init__(self, state: SyncState) -> None:
        super().__init__()
        self.state = state


def sources_text(writers: list[WriterSeen], syncs: list[SyncState], now: datetime) -> Text:
    """`agents mcp:claude-code 2m ago (14) · sync hermes:~/h watching, synced 12:03:04`; empty if nothing."""
    out = Text(no_wrap=True, overflow="ellipsis")
    if writers:
        out.append("agents ", style="bold")
        for n, writer in enumerate(writers):
            out.append(" · " if n else "")
            out.append(writer.actor, style="bold cyan")
            when = ago(writer.last_at, now) if writer.last_at else ""
            out.append(f" {when} ({writer.writes})", style="dim")
    for sync in syncs:
        out.append(" · " if out.plain else "")
        out.append("sync ", style="bold")
        out.append(sync.spec, style="bold cyan")
        if sync.state == "error":
            out.append(f" error: {sync.message}", style="bold red")
            continue
        out.append(f" {sync.state}", style="green" if sync.state == "watching" else "yellow")
        if sync.last_sync is not None:
            out.append(f", synced {sync.last_sync.astimezone():%H:%M:%S}", style="dim")
        if sync.message:
            out.append(f" ({sync.message})", style="dim")
    return out


def origin_text(audit: list, now: datetime) -> Text:
    """The detail pane's `from` line: who wrote this version, and the last touch if another."""
    origin = EntryOrigin.from_audit(audit)
    if origin is None:
        return Text("—", style="dim")
    out = Text(origin.origin, style="bold cyan")
    if (origin.last, origin.last_action) != (origin.origin, "write"):
        out.append(f"  last: {origin.last_action} by {origin.last}", style="dim")
        if origin.last_at is not None:
            out.append(f" {ago(origin.last_at, now)}", style="dim")
    return out


class SourcesBar(Widget):
    """The sources line; hidden while there is nothing to show, and on short screens."""

    SCOPED_CSS = False  # the rule below names the screen's breakpoint class
    DEFAULT_CSS = """
    SourcesBar { height: 1; background: $boost; padding: 0 1; display: none; }
    SourcesBar.-shown { display: block; }
    Screen.-short SourcesBar.-shown { display: none; }
    """

    text: reactive[Text] = reactive(Text, init=False)

    def show(self, text: Text) -> None:
        self.text = text
        self.set_class(bool(text.plain), "-shown")

    def render(self) -> Text:
        return self.text
