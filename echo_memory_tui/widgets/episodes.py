"""View 5, Episodes: conversation summaries with entity and time filters, the
facts each one produced, the sessions they came from and recent consolidation
runs. ctrl+o opens the selected episode's entries in the Memory view; ctrl+o in
the Memory view comes here to the entry's episode."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Optional

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from engine import EpisodeQuery, InvalidValue, parse_episode_filter

from .. import keys
from ..failures import ENGINE_FAILURES
from ..format import age, ago, bar


@dataclass
class EpisodesData:
    episodes: list[Any]
    sessions: list[Any] = field(default_factory=list)
    runs: list[Any] = field(default_factory=list)


NARROW_WIDTH = 110  # the app's -narrow breakpoint


class EpisodesView(Widget):
    BINDINGS = keys.bindings("episodes")

    DEFAULT_CSS = """
    EpisodesView { layout: horizontal; }
    EpisodesView #ep-main { width: 1fr; }
    EpisodesView #ep-filter { border: none; height: 1; padding: 0 1; background: $boost; margin: 0 1; }
    EpisodesView #ep-filter:focus { background: $primary-background; }
    EpisodesView #ep-filter.-invalid { background: $error 30%; }
    EpisodesView #ep-error { color: $text-error; padding: 0 1; height: auto; }
    EpisodesView #ep-table-box { height: 1fr; border: round $primary-background; border-title-color: $text-accent; }
    EpisodesView #ep-table-box:focus-within { border: round $accent; }
    EpisodesView #ep-detail { height: 14; border: round $primary-background; border-title-color: $text-accent;
                              padding: 0 1; }
    EpisodesView #ep-side { width: 46; }
    EpisodesView #ep-sessions, EpisodesView #ep-runs { height: 1fr; border: round $primary-background;
                                                       border-title-color: $text-accent; padding: 0 1; }
    """

    class Loaded(Message):
        def __init__(self, data: Optional[EpisodesData], error: str = "") -> None:
            super().__init__()
            self.data = data
            self.error = error

    class FactsLoaded(Message):
        def __init__(self, episode_id: str, facts: list[Any]) -> None:
            super().__init__()
            self.episode_id = episode_id
            self.facts = facts

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.query_filter = EpisodeQuery()
        self.data: Optional[EpisodesData] = None
        self.selected: Optional[str] = None
        self.facts: list[Any] = []  # of the selected episode, once loaded
        self.wanted: Optional[str] = None  # an episode another view asked for, until the list has loaded

    def compose(self) -> ComposeResult:
        with Vertical(id="ep-main"):
            yield Input(placeholder="filter: entity:atlas-api since:30d until:2026-11-01 session:KEY words…", id="ep-filter")
            yield Static("", id="ep-error")
            with Vertical(id="ep-table-box") as box:
                box.border_title = "Episodes"
                yield DataTable(id="ep-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="ep-detail") as box:
                box.border_title = "Episode"
                yield Static(Text("Select an episode.", style="dim"), id="ep-detail-text")
        with Vertical(id="ep-side"):
            with VerticalScroll(id="ep-sessions") as box:
                box.border_title = "Sessions"
                yield Static("", id="ep-sessions-text")
            with VerticalScroll(id="ep-runs") as box:
                box.border_title = "Consolidation runs"
                yield Static("", id="ep-runs-text")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        widths = {"when": 10, "session": 8, "range": 5, "imp": 4, "entities": 20}
        side = 46 if self.app.size.width >= NARROW_WIDTH else 0  # app.tcss hides the side when narrow
        room = max(24, self.app.size.width - side - 4 - sum(widths.values()) - 2 * (len(widths) + 1) - 2)
        table.add_column("when", key="when", width=10)
        table.add_column("session", key="session", width=8)
        table.add_column("msgs", key="range", width=5)
        table.add_column("imp", key="imp", width=4)
        table.add_column("entities", key="entities", width=20)
        table.add_column("summary", key="summary", width=room)

    def start(self) -> None:
        self.refresh_data()

    def focus_default(self) -> None:
        self.query_one(DataTable).focus()

    def show_episode(self, episode_id: str) -> None:
        """Select one episode (from an entry's ctrl+o): the filter is cleared so it can show."""
        self.wanted = self.selected = episode_id
        self.query_one("#ep-filter", Input).value = ""
        self.query_filter = EpisodeQuery()
        self._load(self.query_filter)

    def linked_entries(self) -> list[tuple[str, str]]:
        """ctrl+o: the entries the selected episode's facts became (written or already stored)."""
        return [(f.entry_id, f"{f.key}: {' '.join(f.content.split())[:60]} ({f.status})") for f in self.facts if f.entry_id]

    def refresh_data(self, entry_ids: Optional[list[str]] = None) -> None:
        self._load(self.query_filter)

    def action_filter(self) -> None:
        field_ = self.query_one("#ep-filter", Input)
        if field_.has_focus:
            raise SkipAction()  # a `/` typed in the filter is text
        self.app.focus_and_hold(field_)

    def action_toggle_side(self) -> None:
        """Sessions and consolidation runs, hidden in a narrow terminal."""
        self.query_one("#ep-side").toggle_class("-shown")

    def leave_input(self, field_: Input) -> None:
        self.query_one(DataTable).focus()

    @on(Input.Changed, "#ep-filter")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._debounce(event.value)

    @on(Input.Submitted, "#ep-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._apply(event.value):
            self.query_one(DataTable).focus()

    @work(exclusive=True, group="episodes-debounce")
    async def _debounce(self, text: str) -> None:
        await asyncio.sleep(0.15)
        try:
            self._apply(text)
        except NoMatches:
            pass  # the view was torn down during the pause (the app is closing)

    def _apply(self, text: str) -> bool:
        field_ = self.query_one("#ep-filter", Input)
        error = self.query_one("#ep-error", Static)
        try:
            query = parse_episode_filter(text, self.app.clock())
        except InvalidValue as exc:
            field_.add_class("-invalid")
            error.update(Text(str(exc)))
            return False
        field_.remove_class("-invalid")
        error.update("")
        self.query_filter = query
        self._load(query)
        return True

    @work(exclusive=True, group="episodes")
    async def _load(self, q: EpisodeQuery) -> None:
        engine = self.app.engine
        if engine is None:
            return
        try:
            service = self.app.consolidation()
            episodes = await service.episodes(q.session, q.entity, q.since, q.until, q.text, 500)
            sessions = await service.list_sessions()
            runs = await service.runs(limit=20)
        except ENGINE_FAILURES as exc:
            self.post_message(self.Loaded(None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Loaded(EpisodesData(episodes, sessions, runs)))

    def on_episodes_view_loaded(self, message: Loaded) -> None:
        message.stop()
        if message.data is None:
            self.query_one("#ep-error", Static).update(Text(f"Could not load episodes: {message.error}", style="red"))
            return
        self.data = data = message.data
        now = self.app.clock()
        table = self.query_one(DataTable)
        keep = self.selected
        with self.app.batch_update():
            table.clear()
            for ep in data.episodes:
                table.add_row(
                    *(
                        Text(cell)
                        for cell in (
                            f"{ep.created_at:%Y-%m-%d}",
                            ep.session_key,
                            f"{ep.message_range_start}–{ep.message_range_end}",
                            f"{ep.importance:.2f}",
                            ", ".join(ep.entity_ids[:4]),
                            " ".join(ep.summary.split())[:200],
                        )
                    ),
                    key=ep.id,
                )
        self.query_one("#ep-table-box").border_title = f"Episodes ({len(data.episodes)})"
        ids = [ep.id for ep in data.episodes]
        if self.wanted is not None and self.wanted not in ids:
            self.app.notify(f"Episode {self.wanted[:8]} is no longer in the store.", title="Open episode", severity="warning")
        self.wanted = None
        if ids:
            row = ids.index(keep) if keep in ids else 0
            table.move_cursor(row=row)
            self._show(data.episodes[row])
        else:
            self.query_one("#ep-detail-text", Static).update(
                Text(
                    "No episodes match."
                    if any(vars(self.query_filter).values())
                    else "No episodes yet: they are written when a session is consolidated (C).",
                    style="dim",
                )
            )
        sessions = Table.grid(padding=(0, 1))
        sessions.add_column(style="bold")
        sessions.add_column()
        sessions.add_column(justify="right")
        sessions.add_column(style="dim")
        for s in data.sessions:
            style = {"open": "green", "ended": "yellow", "consolidated": "dim"}.get(s.status, "")
            sessions.add_row(
                Text(s.key), Text(s.status, style=style), f"{s.messages} msg", f"{s.unconsolidated} new · {s.episodes} ep"
            )
        self.query_one("#ep-sessions-text", Static).update(
            sessions if data.sessions else Text("no sessions recorded", style="dim")
        )
        self.query_one("#ep-sessions").border_title = f"Sessions ({len(data.sessions)})"
        runs = Table.grid(padding=(0, 1))
        runs.add_column(style="dim")
        runs.add_column()
        runs.add_column()
        for r in data.runs:
            counts = ", ".join(f"{k} {v}" for k, v in (r.counts or {}).items() if v)
            runs.add_row(
                age(r.started_at, now),
                Text(r.status, style="green" if r.status == "ok" else "red"),
                f"{r.session_key} · {r.trigger}" + (f"\n{counts}" if counts else ""),
            )
        self.query_one("#ep-runs-text", Static).update(runs if data.runs else Text("no runs yet", style="dim"))

    @on(DataTable.RowHighlighted, "#ep-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if self.data and 0 <= event.cursor_row < len(self.data.episodes):
            self._show(self.data.episodes[event.cursor_row])

    def _show(self, ep: Any) -> None:
        self.selected = ep.id
        self.facts = []
        self._render_episode(ep, None)
        self._load_facts(ep.id)

    def _render_episode(self, ep: Any, facts: Optional[list[Any]]) -> None:
        now = self.app.clock()
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", justify="right")
        table.add_column()
        table.add_row("summary", Text(ep.summary))
        table.add_row("session", f"{ep.session_key}, messages {ep.message_range_start}–{ep.message_range_end}")
        table.add_row("when", f"{ep.created_at:%Y-%m-%d %H:%M} ({ago(ep.created_at, now)})")
        table.add_row("importance", Text(f"{ep.importance:.2f} ").append(bar(ep.importance, 10), style="cyan"))
        table.add_row("entities", Text(", ".join(ep.entity_ids) or "—"))
        table.add_row("by", Text(ep.produced_by or "—"))
        if facts is None:
            table.add_row("facts", Text("loading…", style="dim"))
        elif not facts:
            table.add_row("facts", Text("none extracted", style="dim"))
        else:
            for fact in facts:
                style = {"written": "green", "unchanged": "dim", "refused": "red"}.get(fact.status, "")
                table.add_row(Text(fact.status, style=style), Text(f"{fact.key}: {fact.content}"))
        self.query_one("#ep-detail-text", Static).update(table)
        self.query_one("#ep-detail").border_title = f"Episode {ep.id[:8]}"

    @work(exclusive=True, group="episode-facts")
    async def _load_facts(self, episode_id: str) -> None:
        try:
            facts = await self.app.consolidation().episode_facts(episode_id)
        except ENGINE_FAILURES:
            facts = []
        self.post_message(self.FactsLoaded(episode_id, facts))

    def on_episodes_view_facts_loaded(self, message: FactsLoaded) -> None:
        message.stop()
        if message.episode_id != self.selected or self.data is None:
            return
        ep = next((e for e in self.data.episodes if e.id == message.episode_id), None)
        if ep is not None:
            self.facts = message.facts
            self._render_episode(ep, message.facts)
