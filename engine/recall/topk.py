"""The k best of a scored candidate set, in an order that never depends on
argpartition's whim: score descending, then key ascending, ties at the boundary
kept before the cut."""

from __future__ import annotations

import numpy as np


def stable_top_k(keys: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """keys and scores of the k best, best first (keys break ties)."""
    if len(keys) > k:
        part = np.argpartition(-scores, k - 1)[:k]
        cand = np.flatnonzero(scores >= scores[part].min())
        keys, scores = keys[cand], scores[cand]
    order = np.lexsort((keys, -scores))[:k]
    return keys[order], scores[order]
