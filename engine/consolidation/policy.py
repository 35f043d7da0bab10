"""The spec's resolution strategy, as a pure function over two entries:

  higher provenance supersedes lower;
  with equal provenance, the more recent supersedes the older;
  anything else (same provenance and age), a confidence under
  memory.contradictionMinConfidence, or a pinned loser stays pending.

The result is the "automatic-resolution preview" stored with every contradiction,
so a pending one still shows what the rule would have done and why it did not."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from ..models import MemoryEntry


def plan(
    a: MemoryEntry, b: MemoryEntry, confidence: float, min_confidence: float, times: Optional[tuple[datetime, datetime]] = None
) -> dict[str, Any]:
    """times: when each was stated (default: created); recency compares these, so the
    outcome does not depend on the order in which consolidation wrote the entries."""
    a_at, b_at = times or (a.created_at, b.created_at)
    if a.source != b.source:
        winner, rule = (a, "provenance") if a.source.value > b.source.value else (b, "provenance")
        why = f"{winner.source.label} outranks {(b if winner is a else a).source.label}"
    elif a_at != b_at:
        winner, rule = (a, "recency") if a_at > b_at else (b, "recency")
        why = f"both {a.source.label}; the newer one wins"
    else:
        return {
            "auto": False,
            "rule": None,
            "winner": None,
            "loser": None,
            "reason": "same provenance and same age: no rule decides",
        }
    loser = b if winner is a else a
    preview: dict[str, Any] = {
        "auto": True,
        "rule": rule,
        "winner": "a" if winner is a else "b",
        "winner_id": winner.id,
        "loser": "b" if winner is a else "a",
        "loser_id": loser.id,
        "reason": why,
    }
    if confidence < min_confidence:
        preview.update(
            auto=False,
            reason=f"confidence {confidence:.2f} is under memory.contradictionMinConfidence ({min_confidence:.2f}); {why}",
        )
    elif loser.pinned:
        preview.update(auto=False, reason=f"{loser.key} is pinned; pinned entries are never superseded automatically")
    return preview
