"""Long work the app started (decay preview and apply, the embedding backlog), one line
each above the status line: a bar with counts, rate and ETA, and the key that stops it.

A Job is written by the worker doing the work (any thread: plain int and bool fields)
and read by the panel on a timer, so the engine's progress callback costs nothing."""

from __future__ import annotations

import time
from typing import Callable, Optional

from rich.text import Text
from textual.widget import Widget

BAR_WIDTH = 24
TICK_S = 0.25


class Job:
    """One long job's counters and its stop flag."""

    def __init__(self, title: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.title = title
        self.done = 0
        self.total = 0
        self.cancel_requested = False
        self.clock = clock
        self.started = clock()
        self.start_done: Optional[int] = None  # the count at the first report: the rate counts from there

    def update(self, done: int, total: int) -> None:
        """The engine's progress callback: (done, total)."""
        if self.start_done is None:
            self.start_done, self.started = done, self.clock()
        self.done, self.total = done, total

    def cancel(self) -> None:
        self.cancel_requested = True

    def cancelled(self) -> bool:
        """The engine's cancel check."""
        return self.cancel_requested

    def rate(self) -> Optional[float]:
        """Items per second since the first report (None until there is something to divide)."""
        elapsed = self.clock() - self.started
        moved = self.done - (self.start_done or 0)
        return moved / elapsed if elapsed > 0 and moved > 0 else None

    def eta_s(self) -> Optional[float]:
        rate = self.rate()
        return (self.total - self.done) / rate if rate else None


def duration(seconds: Optional[float]) -> str:
    """0:42, 12:05, 1:02:03; — when unknown."""
    if seconds is None:
        return "—"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def job_line(job: Job, stop_key: str) -> Text:
    """`Decay preview ████░░░░ 1,234 / 100,000 · 2,345/s · ETA 0:42 · ^c stop`"""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(job.title, style="bold")
    out.append(" ")
    filled = round(BAR_WIDTH * job.done / job.total) if job.total else 0
    out.append("█" * filled, style="cyan")
    out.append("░" * (BAR_WIDTH - filled), style="dim")
    out.append(f" {job.done:,} / {job.total:,}")
    if job.cancel_requested:
        out.append(" · stopping…", style="yellow")
        return out
    rate = job.rate()
    out.append(f" · {rate:,.0f}/s" if rate else " · —/s", style="dim")
    out.append(f" · ETA {duration(job.eta_s())}", style="dim")
    out.append(f" · {stop_key} stop", style="bold")
    return out


class JobPanel(Widget):
    """The running jobs, newest last; hidden when there are none."""

    # Over the bottom rows of the view, above the status line and the footer, on a layer
    # of its own: a job line that appears or goes away resizes no other widget, so the
    # screen is not laid out and redrawn again (at 140x44 that held the loop ~0.2 s).
    DEFAULT_CSS = """
    JobPanel {
        layer: jobs; dock: bottom; margin-bottom: 2;
        height: auto; max-height: 3; background: $panel; padding: 0 1; display: none;
    }
    JobPanel.-running { display: block; }
    """

    def __init__(self, stop_key: Callable[[], str] = lambda: "ctrl+c", **kwargs) -> None:
        super().__init__(**kwargs)
        self.jobs: list[Job] = []
        self._stop_key = stop_key

    def on_mount(self) -> None:
        self.set_interval(TICK_S, self._tick)

    def add(self, job: Job) -> Job:
        self.jobs.append(job)
        self.set_class(True, "-running")
        self.refresh(layout=True)
        return job

    def remove_job(self, job: Job) -> None:
        if job in self.jobs:
            self.jobs.remove(job)
        self.set_class(bool(self.jobs), "-running")
        self.refresh(layout=True)

    def newest(self) -> Optional[Job]:
        return self.jobs[-1] if self.jobs else None

    def _tick(self) -> None:
        if self.jobs:
            self.refresh()

    def render(self) -> Text:
        key = self._stop_key()
        return Text("\n").join(job_line(job, key) for job in self.jobs)

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(1, len(self.jobs))
