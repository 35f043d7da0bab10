"""The contradiction pre-filter: which pairs of live entries deserve a verifier.

Two live entries never share a (type, key) (the gate versions them), so a
contradiction is between different keys about the same subject. Each new fact is
paired with every live SEMANTIC entry and kept when any signal is strong enough:

  key similarity        Jaccard of the keys' stemmed words, generic words left out
                        ('atlas/python-version' and 'atlas-api/python' share atlas, python)
  tag overlap           Jaccard of the tags
  embedding similarity  cosine of the stored vectors, when both entries have one
                        computed by the same model (read-only; the recall service writes them)

The strongest pairs are kept, at most memory.contradictionMaxPairs per run."""

from __future__ import annotations

import re
from typing import Iterable, Optional

from ..models import MemoryEntry
from ..store import ENTRY_COLUMNS, Store, row_to_entry
from .records import Signals
from .text import jaccard, stem

GENERIC_KEY_WORDS = frozenset({"user", "path", "preference", "fact", "facts", "tool", "version", "notes", "config"})
MIN_STRENGTH = 0.25
MIN_EMBEDDING = 0.75  # below this, a cosine says little about sharing a subject
Pair = tuple[MemoryEntry, MemoryEntry, Signals]


def key_tokens(key: str) -> set[str]:
    return {stem(part) for part in re.split(r"[/_.\s-]+", key.lower()) if part and part not in GENERIC_KEY_WORDS}


def signals(a: MemoryEntry, b: MemoryEntry, cosine: Optional[float] = None) -> Signals:
    return Signals(
        key_similarity=jaccard(key_tokens(a.key), key_tokens(b.key)),
        tag_overlap=jaccard({t.lower() for t in a.tags}, {t.lower() for t in b.tags}),
        embedding_similarity=None if cosine is None else max(0.0, min(1.0, cosine)),
    )


async def live_entries(store: Store) -> list[MemoryEntry]:
    rows = await store.fetchall(
        f"SELECT {ENTRY_COLUMNS} FROM entries WHERE tier='semantic' AND superseded_by IS NULL ORDER BY id"
    )
    return [row_to_entry(r) for r in rows]


async def known_pairs(store: Store) -> set[frozenset[str]]:
    rows = await store.fetchall("SELECT entry_a_id, entry_b_id FROM contradictions")
    return {frozenset(r) for r in rows}


async def cosines(store: Store, new_ids: Iterable[str], other_ids: Iterable[str]) -> dict[frozenset[str], float]:
    """Cosine similarity of stored vectors between new and other entries, same model only."""
    import numpy as np

    def decode(dim: int, blob: bytes):
        if len(blob) == dim * 4:
            return np.frombuffer(blob, dtype=np.float32).astype(np.float64)
        if len(blob) == dim * 2:
            return np.frombuffer(blob, dtype=np.float16).astype(np.float64)
        return None  # a layout we do not know: no signal rather than a wrong one

    async def load(ids: list[str]) -> dict[str, tuple[str, np.ndarray]]:
        out = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            rows = await store.fetchall(
                f"SELECT entry_id, model_id, dim, vector FROM vectors WHERE entry_id IN ({','.join('?' * len(chunk))})", chunk
            )
            for entry_id, model_id, dim, blob in rows:
                vector = decode(dim, blob)
                norm = float(np.linalg.norm(vector)) if vector is not None else 0.0
                if norm > 0:
                    out[entry_id] = (model_id, vector / norm)
        return out

    new_vectors = await load(list(new_ids))
    if not new_vectors:
        return {}
    others = await load(list(other_ids))
    result = {}
    for a_id, (model_a, va) in new_vectors.items():
        for b_id, (model_b, vb) in others.items():
            if a_id != b_id and model_a == model_b and len(va) == len(vb):
                result[frozenset((a_id, b_id))] = float(va @ vb)
    return result


def candidate_pairs(
    new: list[MemoryEntry],
    live: list[MemoryEntry],
    max_pairs: int,
    skip: frozenset[frozenset[str]] | set[frozenset[str]] = frozenset(),
    cosine: Optional[dict[frozenset[str], float]] = None,
) -> list[Pair]:
    """The strongest pairs (new fact, other live entry), strongest first, bounded."""
    cosine = cosine or {}
    pairs: dict[frozenset[str], Pair] = {}
    for a in new:
        for b in live:
            ids = frozenset((a.id, b.id))
            if a.id == b.id or ids in pairs or ids in skip:
                continue
            sig = signals(b, a, cosine.get(ids))
            embedded = (sig.embedding_similarity or 0.0) >= MIN_EMBEDDING
            if max(sig.key_similarity, sig.tag_overlap) >= MIN_STRENGTH or embedded:
                pairs[ids] = (b, a, sig)  # a: the existing entry, b: the new fact
    ranked = sorted(pairs.values(), key=lambda p: (-p[2].strength, p[1].id, p[0].id))
    return ranked[:max_pairs]
