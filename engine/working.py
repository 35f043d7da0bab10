"""The WORKING tier: an in-process ring buffer of at most 20 entries, rendered to
markdown for the system prompt, and the core snapshot (pinned and USER entries)
rendered the same way. When the markdown exceeds the char budget, the least
important entries are cut first and reported as cut. Every key and content is
rendered escaped, on one line."""

from __future__ import annotations

import re
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


# What can make emphasis or undo an escape: every `*`, a `_` at a word edge (inside a
# word, as in test_export.py, it is plain text), and a backslash before punctuation or
# at the end (where it would escape the `**` that closes a key).
_MARKUP = re.compile(r"\*|\\(?=[!-/:-@\[-`{-~]|\Z)|(?<![^\W_])_|_(?![^\W_])")


def escape_markdown(text: str) -> str:
    """One line of inert text: whitespace runs (newlines included) become one space,
    and emphasis markup is escaped, so no stored value can start a line or bold a key."""
    return _MARKUP.sub(lambda m: "\\" + m.group(), " ".join(text.split()))


def _line(entry: MemoryEntry) -> str:
    flags = " (pinned)" if entry.pinned else ""
    return f"- **{escape_markdown(entry.key)}**{flags}: {escape_markdown(entry.content)}"


def render_markdown(entries: Iterable[MemoryEntry], char_budget: int, title: str) -> Rendered:
    """Render entries under a heading; over the budget, the least important go first.

    Entries are taken by importance (newest first among equals) while they fit; once
    one does not, it and everything less important are cut, so a small unimportant
    note never displaces a larger important one. Order in the output stays the
    caller's (recency for WORKING)."""
    entries = list(entries)
    header = f"## {title}\n"
    budget = char_budget - len(header)
    keep: set[str] = set()
    for entry in sorted(entries, key=lambda e: (-e.importance, -e.updated_at.timestamp())):
        cost = len(_line(entry)) + 1
        if cost > budget:
            break
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

    def discard(self, entry_id: str) -> None:
        """Forget a note the store replaced (a newer note for the same key)."""
        self._items = deque((e for e in self._items if e.id != entry_id), maxlen=self._items.maxlen)

    def push(self, entry: MemoryEntry) -> MemoryEntry | None:
        """Add an entry; return the one evicted, if any."""
        evicted = self._items[0] if len(self._items) == self._items.maxlen else None
        self._items.append(entry)
        return evicted
