"""The four tiers drawn as a pyramid: counts, USER/ENVIRONMENT split, pinned
entries and pending contradictions. Selecting a tier filters the browser."""

from __future__ import annotations

from typing import Any, Optional

from rich.style import Style
from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from .. import keys
from ..format import TIER_COLOURS
from ..messages import TierSelected

TIERS = ("working", "episodic", "semantic", "archival")
ROWS_PER_TIER = 2
ALL_ROW = len(TIERS)  # the "all tiers" line under the pyramid


class TierPyramid(Widget, can_focus=True):
    BINDINGS = keys.bindings("pyramid")

    DEFAULT_CSS = """
    TierPyramid { height: auto; min-height: 14; padding: 0 1; }
    """

    stats: reactive[Optional[dict[str, Any]]] = reactive(None, init=False)
    selected: reactive[Optional[str]] = reactive(None)
    cursor: reactive[int] = reactive(ALL_ROW)
    _lines = -1  # how many lines the pyramid drew last (watch_stats)

    def render(self) -> Text:
        width = max(20, self.size.width or 30)
        out = Text(no_wrap=True, overflow="crop")
        stats = self.stats
        if stats is None:
            out.append("\n  counting…\n", style="dim")
            return out
        tiers = stats.get("tiers", {})
        by_type = stats.get("by_tier_type", {})
        for i, tier in enumerate(TIERS):
            colour = TIER_COLOURS[tier]
            bar_width = int(width * (0.46 + 0.18 * i))
            bar_width = min(width - 2, bar_width - (bar_width - width) % 2)
            label = f"{tier.upper()} {tiers.get(tier, 0)}"
            inner = label.center(bar_width)[:bar_width]
            pad = (width - bar_width) // 2
            chosen = self.selected == tier
            on_cursor = self.has_focus and self.cursor == i
            style = Style(
                color="#ffffff" if tier != "archival" else "#000000",
                bgcolor=colour,
                bold=True,
                underline=chosen,
                reverse=on_cursor,
            )
            marker = "▶" if chosen else " "
            out.append(marker.rjust(pad) if pad else "", style=Style(color=colour, bold=True))
            out.append(inner, style=style)
            out.append("\n")
            split = by_type.get(tier, {})
            if tier == "episodic":
                detail = f"{tiers.get(tier, 0)} episodes & entries"
            else:
                detail = f"user {split.get('user', 0)} · env {split.get('environment', 0)}"
            out.append(detail.center(width).rstrip() + "\n", style="dim")
        total = sum(stats.get("tiers", {}).get(t, 0) for t in ("working", "semantic", "archival"))
        chosen_all = self.selected is None
        all_style = Style(bold=chosen_all, reverse=self.has_focus and self.cursor == ALL_ROW)
        out.append(("▶ " if chosen_all else "  ") + f"all entries  {total}", style=all_style)
        out.append("\n")
        out.append(f"  pinned       {stats.get('pinned', 0)}\n")
        pending = stats.get("pending_contradictions", 0)
        out.append("  contradict.  ")
        out.append(f"{pending} pending\n", style="bold yellow" if pending else "")
        blocked = stats.get("blocked_writes", 0)
        out.append("  blocked      ")
        out.append(f"{blocked} writes", style="bold red" if blocked else "")
        return out

    def watch_cursor(self) -> None:
        self.refresh()

    def watch_selected(self) -> None:
        self.refresh()

    def watch_stats(self) -> None:
        """New counts redraw the pyramid; only a change in its height lays the screen out
        again (the counts change after every outside commit a live reload follows)."""
        lines = self.render().plain.count("\n")
        self.refresh(layout=lines != self._lines)
        self._lines = lines

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % (len(TIERS) + 1)

    def action_select(self) -> None:
        tier = None if self.cursor == ALL_ROW else TIERS[self.cursor]
        self.choose(tier)

    def action_select_all(self) -> None:
        self.cursor = ALL_ROW
        self.choose(None)

    def choose(self, tier: Optional[str]) -> None:
        self.selected = tier
        self.post_message(TierSelected(tier))

    def on_click(self, event: events.Click) -> None:
        row = event.y - self.styles.padding.top
        index = row // ROWS_PER_TIER
        if 0 <= row < len(TIERS) * ROWS_PER_TIER:
            self.cursor = index
            self.choose(TIERS[index])
        elif row == len(TIERS) * ROWS_PER_TIER:
            self.cursor = ALL_ROW
            self.choose(None)
