"""A progress line for long CLI commands (import, eval): done/total, percent, rate
and ETA, redrawn in place on stderr. Only on a terminal and never under --json,
so a pipe or a log file gets the result alone. Plain text: the engine never
imports rich."""

from __future__ import annotations

import sys
import time
from typing import Callable, Optional, TextIO

BAR_CELLS = 20


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def render(label: str, unit: str, done: int, total: int, elapsed: float) -> str:
    """'import [########............] 41,000/100,000 41% 10,512 entries/s ETA 6s'."""
    share = done / total if total else 1.0
    filled = int(BAR_CELLS * min(share, 1.0))
    rate = done / elapsed if elapsed > 0 else 0.0
    eta = f"ETA {_duration((total - done) / rate)}" if rate and done < total else f"in {_duration(elapsed)}"
    return f"{label} [{'#' * filled}{'.' * (BAR_CELLS - filled)}] {done:,}/{total:,} {share:.0%} {rate:,.0f} {unit}/s {eta}"


class Progress:
    """Callable as progress(done, total). Redraws at most every `every` seconds (and
    always at the end); close() ends the line. Silent when not enabled."""

    def __init__(
        self,
        label: str,
        unit: str,
        enabled: bool,
        stream: Optional[TextIO] = None,
        clock: Callable[[], float] = time.monotonic,
        every: float = 0.1,
    ):
        self.label, self.unit, self.enabled = label, unit, enabled
        self.stream = stream or sys.stderr
        self.clock, self.every = clock, every
        self.started = clock()
        self._drawn_at: Optional[float] = None
        self._width = 0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if self._drawn_at is not None and now - self._drawn_at < self.every and done < total:
            return
        self._drawn_at = now
        line = render(self.label, self.unit, done, total, now - self.started)
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()
        self._width = len(line)

    def close(self) -> None:
        if self.enabled and self._drawn_at is not None:
            self.stream.write("\n")
            self.stream.flush()


def for_cli(args, label: str, unit: str) -> Progress:
    """The progress line of a CLI command: on when stderr is a terminal and --json is off."""
    stream = sys.stderr
    return Progress(label, unit, enabled=stream.isatty() and not getattr(args, "json", False), stream=stream)
