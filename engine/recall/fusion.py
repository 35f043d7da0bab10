"""Reciprocal Rank Fusion: score = sum over paths of weight / (k + rank), ranks
from 1. With every weight 1 this is the spec's sum(1 / (k + rank_i)); a weight
lets a stronger path keep its head (memory.bm25Weight, memory.vectorWeight)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence


@dataclass
class Fused:
    id: str
    rrf: float
    ranks: dict[str, int] = field(default_factory=dict)  # path -> 1-based rank in that path
    rrf_rank: int = 0

    def found_by(self, path: str) -> bool:
        return path in self.ranks


def rrf_fuse(lists: Mapping[str, Sequence[str]], k: int = 60, weights: Optional[Mapping[str, float]] = None) -> list[Fused]:
    """Fuse ranked id lists (best first) into one list, best first; a path
    missing from weights weighs 1.

    Ties (equal RRF score) go to the candidate with the better best rank, then
    to the earlier path in `lists`, then by id, so the order is deterministic."""
    if k < 0:
        raise ValueError("rrf k must not be negative")
    by_id: dict[str, Fused] = {}
    for path, ids in lists.items():
        weight = 1.0 if weights is None else float(weights.get(path, 1.0))
        for rank, entry_id in enumerate(ids, start=1):
            item = by_id.get(entry_id)
            if item is None:
                item = by_id[entry_id] = Fused(entry_id, 0.0)
            if path in item.ranks:
                continue  # a path lists an id once; ignore repeats
            item.ranks[path] = rank
            item.rrf += weight / (k + rank)
    order = {p: i for i, p in enumerate(lists)}
    fused = sorted(
        by_id.values(),
        key=lambda f: (-f.rrf, min(f.ranks.values()), min(order[p] for p in f.ranks), f.id),
    )
    for i, item in enumerate(fused, start=1):
        item.rrf_rank = i
    return fused
