"""The playground's metrics strip: recall@5, recall@10, MRR and nDCG@10 over every
judged query, for the knobs as they stand beside the saved settings. The numbers
come from the engine (MemoryEngine.evaluate_judgments, the same code as `eval
--judgments`); the playground computes them in a worker and hands them here."""

from __future__ import annotations

from typing import Any, Optional

from rich.text import Text
from textual.widgets import Static

# (report key, label) in the order shown
SHOWN = (("recall@5", "R@5"), ("recall@10", "R@10"), ("mrr", "MRR"), ("ndcg@10", "nDCG@10"))


class MetricsStrip(Static):
    """Two lines: the knobs' numbers (changed ones coloured against the saved), the saved."""

    DEFAULT_CSS = """
    MetricsStrip { height: 2; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__("", id=id)
        self.knobs: Optional[dict[str, Any]] = None  # evaluate_judgments' "metrics" for the knobs
        self.saved: Optional[dict[str, Any]] = None  # ... for the saved settings
        self.skipped: dict[str, Any] = {}
        self.progress = ""

    def show_progress(self, text: str) -> None:
        self.progress = text
        self._draw()

    def show(self, knobs: dict[str, Any], saved: dict[str, Any], skipped: dict[str, Any]) -> None:
        self.knobs, self.saved, self.skipped, self.progress = knobs, saved, skipped, ""
        self._draw()

    def show_error(self, message: str) -> None:
        self.progress = ""
        self.update(Text(f"judged metrics: {message}", style="bold red"))

    def _draw(self) -> None:
        out = Text()
        if self.knobs is None or self.saved is None:
            out.append("judged: ", style="bold")
            out.append(self.progress or "no judgments yet: v relevant · x not relevant · backspace clear", style="dim")
            self.update(out)
            return
        if not self.knobs.get("queries"):
            out.append("judged: ", style="bold")
            out.append("no judged query has a relevant candidate yet (v marks one relevant)", style="dim")
        else:
            self._line(out, "knobs", self.knobs, self.saved)
            out.append(f"  {self.knobs['queries']} q", style="dim")
            purged = self.skipped.get("purged_judgments", 0)
            if purged:
                out.append(f" · {purged} purged skipped", style="yellow")
            out.append("\n")
            self._line(out, "saved", self.saved, None)
        if self.progress:
            out.append(f"  {self.progress}", style="cyan")
        self.update(out)

    @staticmethod
    def _line(out: Text, label: str, values: dict[str, Any], other: Optional[dict[str, Any]]) -> None:
        out.append(f"{label:<6}", style="bold")
        for key, name in SHOWN:
            value = float(values.get(key, 0.0))
            style = ""
            if other is not None and value != float(other.get(key, 0.0)):
                style = "bold green" if value > float(other.get(key, 0.0)) else "bold red"
            out.append(f" {name} ", style="dim")
            out.append(f"{value:.3f}", style=style)

    def values(self) -> dict[str, Optional[dict[str, float]]]:
        """What the strip shows, as numbers (tests compare them with a headless run)."""

        def pick(m: Optional[dict[str, Any]]) -> Optional[dict[str, float]]:
            return None if m is None else {k: float(m[k]) for k, _ in SHOWN}

        return {"knobs": pick(self.knobs), "saved": pick(self.saved)}
