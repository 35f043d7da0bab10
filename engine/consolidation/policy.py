"""The spec's resolution strategy, as a pure function over two entries:

  higher provenance supersedes lower;
  with equal provenance, the more recent supersedes the older;
  anything else (same provenance and age), a confidence under
  memory.contradictionMinConfidence, or a pinned loser stays pending.

The result is the "automatic-resolution preview" stored with every contradiction,
so a pending one still shows what the rule would have done and why it did not."""

from __future__ import annotations

from typing import Any

from ..models import MemoryEntry


def plan(a: MemoryEntry, b: MemoryEntry, confidence: float, min_confidence: float) -> dict[str, Any]:
    if a.source != b.source:
        winner, rule = (a, "provenance") if a.source.value > b.source.value else (b, "provenance")
        why = f"{winner.source.label} outranks {(b if winner is a else a).source.label}"
    elif a.created_at != b.created_at:
        winner, rule = (a, "recency") if a.created_at > b.created_at else (b, "recency")
        why = f"both {a.source.label}; the newer one wins"
    else:
        return {"auto": False, "rule": None, "winner": None, "loser": None,
                "reason": "same provenance and same age: no rule decides"}
    loser = b if winner is a else a
    preview: dict[str, Any] = {"auto": True, "rule": rule, "winner": "a" if winner is a else "b",
                               "winner_id": winner.id, "loser": "b" if winner is a else "a", "loser_id": loser.id,
                               "reason": why}
    if confidence < min_confidence:
        preview.update(auto=False, reason=f"confidence {confidence:.2f} is under memory.contradictionMinConfidence "
                                          f"({min_confidence:.2f}); {why}")
    elif loser.pinned:
        preview.update(auto=False, reason=f"{loser.key} is pinned; pinned entries are never superseded automatically")
    return preview
