"""View 4, Working memory: the WORKING tier of a session exactly as the
markdown that would be injected into the prompt, what the char budget cut, and
the core snapshot (pinned and USER entries) beside it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from rich.console import Group
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from .. import keys
from ..failures import ENGINE_FAILURES
from ..format import bar


@dataclass
class WorkingData:
    sessions: list[str]
    session: Optional[str]
    rendered: Any
    core: Any
    budget: int
    capacity: int
    counts: dict[str, int] = field(default_factory=dict)


def markdown_text(markdown: str) -> Text:
    """The injected markdown, verbatim, with its structure picked out."""
    out = Text()
    for line in markdown.splitlines():
        if line.startswith("#"):
            out.append(line + "\n", style="bold cyan")
        elif line.startswith("- **"):
            end = line.find("**", 4)
            out.append("- ", style="dim")
            out.append(line[2 : end + 2], style="bold")
            out.append(line[end + 2 :] + "\n")
        else:
            out.append(line + "\n")
    out.rstrip()
    return out


def cut_text(rendered: Any) -> Text:
    cut = list(rendered.cut)
    if not cut:
        return Text("nothing cut: everything fits the char budget", style="dim green")
    out = Text(f"cut by the char budget ({len(cut)}), lowest importance first to go:\n", style="bold yellow")
    for e in cut:
        out.append(f"  {e.importance:.2f}  ", style="yellow")
        out.append(e.key, style="bold")
        out.append(f"  {' '.join(e.content.split())[:70]}\n", style="dim")
    out.rstrip()
    return out


class WorkingView(Widget):
    BINDINGS = keys.bindings("working")

    DEFAULT_CSS = """
    WorkingView { layout: horizontal; }
    WorkingView > VerticalScroll { border: round $primary-background; border-title-color: $text-accent;
                                    border-subtitle-color: $text-muted; padding: 0 1; }
    WorkingView > VerticalScroll:focus-within { border: round $accent; }
    WorkingView #working-pane { width: 3fr; }
    WorkingView #core-pane { width: 2fr; }
    WorkingView .block { background: $boost; padding: 0 1; margin-bottom: 1; }
    """

    data: reactive[Optional[WorkingData]] = reactive(None, init=False, always_update=True)

    class Loaded(Message):
        def __init__(self, data: Optional[WorkingData], error: str = "") -> None:
            super().__init__()
            self.data = data
            self.error = error

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.session: Optional[str] = None
        self.budget: Optional[int] = None  # a previewed char budget, None: the configured one

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="working-pane", can_focus=True) as pane:
            pane.border_title = "Working memory"
            yield Static("", id="working-budget")
            yield Static(Text("loading…", style="dim"), id="working-md", classes="block")
            yield Static("", id="working-cut")
        with VerticalScroll(id="core-pane", can_focus=True) as pane:
            pane.border_title = "Core snapshot (pinned + USER)"
            yield Static("", id="core-md", classes="block")
            yield Static("", id="core-cut")

    def start(self) -> None:
        self.refresh_data()

    def focus_default(self) -> None:
        self.query_one("#working-pane").focus()

    def refresh_data(self, entry_ids: Optional[list[str]] = None) -> None:
        self._load(self.session)

    def action_budget(self, factor: float) -> None:
        """Preview another char budget (not saved): see what it would cut."""
        engine = self.app.engine
        if engine is None:
            return
        current = self.budget or int(engine.settings.get("memory.workingCharBudget"))
        self.budget = max(100, int(current * factor))
        self._load(self.session)

    def action_budget_reset(self) -> None:
        self.budget = None
        self._load(self.session)

    @work(exclusive=True, group="working")
    async def _load(self, session: Optional[str]) -> None:
        engine = self.app.engine
        if engine is None:
            return
        try:
            entries = await engine.working_entries()
            sessions = sorted({e.source_session for e in entries})
            counts = {s: sum(1 for e in entries if e.source_session == s) for s in sessions}
            if session not in sessions:
                session = sessions[-1] if sessions else None
            settings = engine.settings
            budget = self.budget or int(settings.get("memory.workingCharBudget"))
            rendered = await engine.render_working(session, char_budget=budget)
            core = await engine.core_snapshot(char_budget=budget)
            data = WorkingData(sessions, session, rendered, core, budget, int(settings.get("memory.workingMaxEntries")), counts)
        except ENGINE_FAILURES as exc:
            self.post_message(self.Loaded(None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Loaded(data))

    def on_working_view_loaded(self, message: Loaded) -> None:
        message.stop()
        if message.data is None:
            self.query_one("#working-md", Static).update(Text(f"Could not load: {message.error}", style="red"))
            return
        self.session = message.data.session
        self.data = message.data

    def watch_data(self, data: Optional[WorkingData]) -> None:
        if data is None:
            return
        rendered, core = data.rendered, data.core
        used = len(rendered.markdown)
        pane = self.query_one("#working-pane")
        if data.session is None:
            pane.border_subtitle = "no live session"
        else:
            position = data.sessions.index(data.session) + 1
            pane.border_subtitle = (
                f"session {data.session} ({position}/{len(data.sessions)}) · "
                f"{data.counts.get(data.session, 0)}/{data.capacity} entries · [ ] switch"
            )
        budget = Text()
        budget.append(f"{used:,} / {data.budget:,} chars ", style="bold")
        budget.append(bar(used / max(1, data.budget), 24), style="yellow" if used > 0.9 * data.budget else "green")
        budget.append(f"  {len(rendered.included)} included, {len(rendered.cut)} cut", style="dim")
        if self.budget is not None:
            budget.append("  (previewing a budget: = resets)", style="yellow")
        self.query_one("#working-budget", Static).update(budget)
        self.query_one("#working-md", Static).update(
            markdown_text(rendered.markdown)
            if rendered.included or rendered.cut
            else Group(markdown_text(rendered.markdown), Text("(the WORKING buffer is empty)", style="dim"))
        )
        self.query_one("#working-cut", Static).update(cut_text(rendered))
        self.query_one("#core-md", Static).update(markdown_text(core.markdown))
        core_pane = self.query_one("#core-pane")
        core_pane.border_subtitle = f"{len(core.markdown):,} / {data.budget:,} chars"
        self.query_one("#core-cut", Static).update(cut_text(core))

    def action_session(self, step: int) -> None:
        data = self.data
        if data is None or not data.sessions:
            self.app.notify("No WORKING sessions in this store.")
            return
        index = data.sessions.index(data.session) if data.session in data.sessions else 0
        self.session = data.sessions[(index + step) % len(data.sessions)]
        self._load(self.session)
