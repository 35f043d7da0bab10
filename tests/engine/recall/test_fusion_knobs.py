"""Issue 13: memory.bm25MinRelativeScore, the BM25 pool's floor relative to its
top score, on a hand-made corpus with hand-made vectors: a memory that shares one
common word with the query must not bury a strong vector-only find, and the
floor must never cost recall where BM25 is the only way in."""

from __future__ import annotations

import numpy as np
import pytest

from engine.config import ConfigError, Settings
from engine.recall import pipeline as pl
from engine.recall.lexical import LexicalIndex
from engine.recall.vectors import VectorIndex

from .helpers import NOW, make_entry

QUERY = "kayak paddle river trip"
# key -> (content, vector); the query's vector is [1, 0, 0]
CORPUS = {
    "kayak": ("kayak paddle river trip checklist", [0.9, 0.1, 0.0]),
    "canoe": ("canoe outing on open water", [0.8, 0.6, 0.0]),
    "bus": ("bus trip to the office", [-0.1, 0.0, 1.0]),
    "train": ("train trip booked for monday", [0.0, 0.2, 1.0]),
    "flight": ("flight trip receipts filed", [0.0, 0.3, 1.0]),
    "tax": ("tax forms due in april", [0.0, 1.0, 0.2]),
    "dentist": ("dentist appointment next week", [0.0, 1.0, 0.4]),
}


async def recall(knobs: dict, *, vectors: bool = True, unembedded: tuple[str, ...] = ()):
    """The real pipeline over CORPUS; returns (keys best first, result). Keys in
    `unembedded` have no vector yet (the backfill's pending set)."""
    entries = {key: make_entry(key, text) for key, (text, _) in CORPUS.items()}
    by_id = {e.id: e for e in entries.values()}
    lexical = LexicalIndex.build(list(by_id), [e.content for e in by_id.values()])
    index = VectorIndex(3, "toy:3")
    for key, (_, vec) in CORPUS.items():
        if key not in unembedded:
            index.add(entries[key].id, np.asarray(vec, np.float32) / np.linalg.norm(vec))

    async def embed(text, timeout):
        return np.array([1.0, 0.0, 0.0], np.float32)

    async def fetch(want):
        return {i: by_id[i] for i in want if i in by_id}

    async def inline(fn, *args):
        return fn(*args)

    settings = Settings.defaults().override({"memory.rerankEnabled": False, **knobs})
    result = await pl.run_pipeline(
        QUERY,
        lexical=lexical,
        vectors=index if vectors else None,
        embed_query=embed if vectors else None,
        fetch_entries=fetch,
        reranker=None,
        settings=settings,
        now=NOW,
        cpu=inline,
        unembedded={entries[k].id for k in unembedded},
    )
    return [h.key for h in result.results], result


async def test_weak_bm25_matches_bury_a_strong_vector_find_without_the_floor():
    keys, res = await recall({"memory.bm25MinRelativeScore": 0.0})
    top = {h.key: h.bm25.score for h in res.results}
    # the premise: each one-word match scores well under 30 % of the full match
    assert all(top[k] < 0.3 * top["kayak"] for k in ("bus", "train", "flight"))
    assert keys[0] == "kayak"
    assert keys.index("canoe") > max(keys.index(k) for k in ("bus", "train", "flight"))
    assert res.settings["bm25_below_floor"] == 0


async def test_the_floor_lifts_the_vector_find_over_one_word_matches():
    keys, res = await recall({"memory.bm25MinRelativeScore": 0.3})
    assert keys[:2] == ["kayak", "canoe"]
    assert res.settings["memory.bm25MinRelativeScore"] == 0.3
    assert res.settings["bm25_below_floor"] == 3
    # the one-word matches are still recalled and show their BM25 rank, but their
    # RRF score is the vector path's credit alone
    weak = {h.key: h for h in res.results if h.key in ("bus", "train", "flight")}
    assert len(weak) == 3 and all(h.bm25.rank is not None for h in weak.values())
    assert all(h.rrf == pytest.approx(1.0 / (60 + h.vector.rank)) for h in weak.values())


async def test_an_uncredited_match_no_other_path_found_is_still_recalled_last():
    # a pool of 3: the vector path finds kayak, canoe and one more, never "bus"
    knobs = {"memory.bm25MinRelativeScore": 0.3, "memory.gateMinIdf": 0.0, "memory.poolSize": 3}
    keys, res = await recall(knobs)
    bus = next(h for h in res.results if h.key == "bus")
    assert bus.vector.rank is None and bus.rrf == 0.0
    assert keys[:2] == ["kayak", "canoe"] and keys.index("bus") > keys.index("canoe")
    assert all(h.rrf > 0 for h in res.results[: keys.index("bus")])


async def test_lexical_only_recall_keeps_every_bm25_match():
    # gate off: a one-word match on "trip" (in half the corpus) would fail it, which is not under test
    keys, res = await recall({"memory.bm25MinRelativeScore": 0.3, "memory.gateMinIdf": 0.0}, vectors=False)
    assert res.mode == "lexical_only"
    assert set(keys) == {"kayak", "bus", "train", "flight"}


async def test_a_memory_with_no_vector_yet_is_not_cut():
    knobs = {"memory.bm25MinRelativeScore": 0.3, "memory.gateMinIdf": 0.0}
    keys, _ = await recall(knobs, unembedded=("train",))
    assert "train" in keys  # BM25 is its only way in until the backfill embeds it


def test_the_knob_is_validated_and_shipped_at_its_measured_default():
    assert Settings.defaults().get("memory.bm25MinRelativeScore") == pytest.approx(0.3)
    with pytest.raises(ConfigError, match="memory.bm25MinRelativeScore"):
        Settings.defaults().override({"memory.bm25MinRelativeScore": 1.5})
