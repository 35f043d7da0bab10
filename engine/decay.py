"""The spec's Ebbinghaus forgetting curve, exactly:

    half_life = base_half_life * (1 + log2(1 + access_count))
    effective_importance = importance * 0.5 ** (days_since_access / half_life)

with days_since_access in whole days (the spec's `.days`), USER and pinned
entries exempt, and the base half-life clamped to at least one day."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Callable, Iterable, Iterator, Optional

from .models import MemoryEntry, MemoryType

# Long work (a decay preview or apply over 100k entries) reports and can be stopped:
ProgressFn = Callable[[int, int], None]  # (done, total), called as the work advances
CancelFn = Callable[[], bool]  # true once the caller wants the work to stop


def report(progress: Optional[ProgressFn], done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def stop_requested(cancelled: Optional[CancelFn]) -> bool:
    return cancelled is not None and bool(cancelled())


def is_exempt(entry: MemoryEntry) -> bool:
    """USER memories never decay; pinned entries stay in the core snapshot."""
    return entry.type is MemoryType.USER or entry.pinned


def half_life_days(access_count: int, base_half_life_days: float) -> float:
    base = max(1.0, float(base_half_life_days))
    return base * (1.0 + math.log2(1 + max(0, access_count)))


def days_since_access(entry: MemoryEntry, now: datetime) -> int:
    return max(0, (now - entry.last_accessed).days)


def decay_factor(entry: MemoryEntry, now: datetime, base_half_life_days: float) -> float:
    """The multiplier the forgetting curve applies to the base importance (1.0 if exempt)."""
    if is_exempt(entry):
        return 1.0
    return 0.5 ** (days_since_access(entry, now) / half_life_days(entry.access_count, base_half_life_days))


def effective_importance(entry: MemoryEntry, now: datetime, base_half_life_days: float) -> float:
    return entry.importance * decay_factor(entry, now, base_half_life_days)


def below_threshold(
    entries: Iterable[MemoryEntry], now: datetime, base_half_life_days: float, threshold: float
) -> Iterator[tuple[MemoryEntry, float]]:
    """The decay pass's rule: (entry, effective importance) for each entry that is not
    exempt and whose effective importance fell under the archive threshold."""
    for entry in entries:
        if is_exempt(entry):
            continue
        eff = effective_importance(entry, now, base_half_life_days)
        if eff < threshold:
            yield entry, eff


def days_until_threshold(entry: MemoryEntry, now: datetime, base_half_life_days: float, threshold: float) -> int | None:
    """Whole days from now until effective importance is under threshold, if no access comes.

    None when it never will (exempt, or a zero threshold); 0 when it already is."""
    if is_exempt(entry) or threshold <= 0:
        return None
    if entry.importance < threshold:
        return 0
    hl = half_life_days(entry.access_count, base_half_life_days)
    first_day_below = math.floor(hl * math.log2(entry.importance / threshold)) + 1
    return max(0, first_day_below - days_since_access(entry, now))


def curve(entry: MemoryEntry, now: datetime, base_half_life_days: float, days: int, step: int = 1) -> list[tuple[int, float]]:
    """(d, effective importance at now + d days) for d = 0, step, ... up to days, for a plot."""
    hl = half_life_days(entry.access_count, base_half_life_days)
    start = days_since_access(entry, now)
    points = []
    for d in range(0, days + 1, step):
        factor = 1.0 if is_exempt(entry) else 0.5 ** ((start + d) / hl)
        points.append((d, entry.importance * factor))
    return points
