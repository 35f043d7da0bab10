"""The status line: store, size, live-reload state, embedding model, read-only, a
write scanner running without its learned layer, and
(on a short screen, where the sources line has no row) the live agent sources."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class StatusBar(Widget):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    store: reactive[str] = reactive("opening store…")
    entries: reactive[int] = reactive(-1)
    live: reactive[str] = reactive("off")  # off | live | paused | stopped
    pending: reactive[int] = reactive(0)
    model: reactive[str] = reactive("")
    scanner: reactive[str] = reactive("")  # set only while the learned layer is off
    read_only: reactive[bool] = reactive(False)
    error: reactive[str] = reactive("")
    view_note: reactive[str] = reactive("")
    sources: reactive[Text] = reactive(Text)  # set only while the sources line is hidden

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        if self.read_only:
            out.append(" READ-ONLY ", style="bold #000000 on #f9a825")
            out.append(" ")
        if self.scanner:  # first, so even an 80-column line shows it
            out.append(f" {self.scanner} ", style="bold #ffffff on #c62828")
            out.append(" ")
        if self.error:
            out.append(self.error, style="bold red")
            return out
        out.append(self.store, style="bold")
        if self.entries >= 0:
            out.append(f" · {self.entries:,} entries")
        out.append(" · ")
        if self.live == "live":
            out.append("● live", style="bold green")
        elif self.live == "paused":
            out.append("⏸ paused", style="bold yellow")
            if self.pending:
                out.append(f" ({self.pending} change{'s' if self.pending != 1 else ''} waiting)", style="yellow")
        elif self.live == "stopped":
            out.append("live reload stopped", style="red")
        else:
            out.append("live reload off", style="dim")
        if self.model:
            out.append(" · ")
            style = (
                "green"
                if self.model.startswith("embeddings ready")
                else ("red" if "fail" in self.model or "unavailable" in self.model else "yellow")
            )
            out.append(self.model, style=style)
        if self.view_note:
            out.append(" · " + self.view_note, style="dim")
        if self.sources.plain:
            out.append(" · ")
            out.append_text(self.sources)
        return out
