"""The WORKING tier: an in-process ring buffer of at most 20 entries, rendered to
markdown for the system prompt, and the core snapshot (pinned and USER entries)
rendered the same way. When the markdown exceeds the char budget, entries are
kept by importance, descending, and the rest are reported as cut."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable

from .models import MemoryEntry

SPEC_MAX_ENTRIES = 20


@dataclass
class Rendered:
    markdown: str
    included: list[MemoryEntry] = field(default_factory=list)
    cut: list[MemoryEntry] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "markdown": self.markdown,
            "included": [e.id for e in self.included],
            "cut": [{"id": e.id, "key": e.key, "importance": e.importance} for e in self.cut],
        }


def _line(entry: MemoryEntry) -> str:
    flags = " (pinned)" if entry.pinned else ""
    body = " ".join(entry.content.split())
    return f"- **{entry.key}**{flags}: {body}"


def render_markdown(entries: Iterable[MemoryEntry], char_budget: int, title: str) -> Rendered:
    """Render entries under a heading, keeping the most important ones that fit.

    Order in the output stays the caller's (recency for WORKING); only the choice
    of what to keep follows importance."""
    entries = list(entries)
    header = f"## {title}\n"
    budget = char_budget - len(header)
    keep: set[str] = set()
    for entry in sorted(entries, key=lambda e: (-e.importance, -e.updated_at.timestamp())):
        cost = len(_line(entry)) + 1
        if cost <= budget:
            keep.add(entry.id)
            budget -= cost
    included = [e for e in entries if e.id in keep]
    cut = [e for e in entries if e.id not in keep]
    body = "\n".join(_line(e) for e in included)
    return Rendered(header + body + ("\n" if body else ""), included, cut)


class WorkingMemory:
    """A session's WORKING buffer; the oldest entry falls out when a 21st arrives."""

    def __init__(self, capacity: int = SPEC_MAX_ENTRIES):
        if not 1 <= capacity <= SPEC_MAX_ENTRIES:
            raise ValueError(f"working capacity must be 1..{SPEC_MAX_ENTRIES}, got {capacity}")
        self._items: deque[MemoryEntry] = deque(maxlen=capacity)

    def push(self, entry: MemoryEntry) -> MemoryEntry | None:
        """Add an entry; return the one evicted, if any."""
        evicted = self._items[0] if len(self._items) == self._items.maxlen else None
        self._items.append(entry)
        return evicted
