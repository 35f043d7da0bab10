"""Issue 13: recall quality. Lexical parity with rank_bm25 on a plain
stop-worded tokenizer, and each fusion knob moving ranks the way it says."""

from __future__ import annotations

import math
import re
from datetime import timedelta

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from engine.config import Settings
from engine.recall.lexical import LexicalIndex
from engine.recall.pipeline import run_pipeline
from engine.recall.tokenize import ENGLISH_STOP_WORDS, entry_text
from engine.recall.vectors import VectorIndex

from .helpers import NOW, insert, make_entry

# chat-like memories: one chatty session full of stop words that mentions the
# trip once, one that is about the trip, and unrelated ones without stop words
CHAT = [
    (
        "chatty",
        "user: what did i do? i did what i said i would do and what you did was what i did, "
        "then i said it was what it was and i did it again on the trip",
    ),
    ("lake", "user: say something about our lake trip, cold water, tent"),
    ("recipe", "assistant: flour, sugar, eggs, butter"),
    ("dog", "user: dog called rex, likes walks"),
    ("table", "user: book table for two, friday"),
    ("car", "assistant: tyre pressure, oil change, brakes"),
]


def plain(text: str) -> list[str]:
    return [t for t in re.findall(r"\w+", text.lower()) if t not in ENGLISH_STOP_WORDS]


async def test_bm25_path_ranks_like_rank_bm25_with_a_plain_stop_worded_tokenizer(store, make_service):
    entries = await insert(store, *[make_entry(k, c) for k, c in CHAT])
    svc = await make_service()
    query = "what did i say about the trip"
    bm25, _ = await svc.candidates(query, 10)
    ref = BM25Okapi([plain(f"{k}\n{c}") for k, c in CHAT]).get_scores(plain(query))
    want = [entries[i].id for i in sorted(range(len(CHAT)), key=lambda i: -ref[i]) if ref[i] > 0]
    assert bm25.ids == want
    assert bm25.ids[0] == entries[1].id  # the session about the trip, not the chatty one


# ---- fusion knobs, on hand-made corpora with hand-set vectors ------------------------
def unit(cos: float) -> np.ndarray:
    """A unit vector whose cosine with the query vector (1, 0, 0) is cos."""
    return np.array([cos, math.sqrt(max(0.0, 1 - cos * cos)), 0.0], np.float32)


async def recall(docs: list[tuple[str, str, float]], query: str, now=NOW, entries=None, **knobs):
    """Run the whole pipeline over docs (key, content, cosine with the query);
    returns the result keys in order."""
    entries = entries or [make_entry(k, c) for k, c, _ in docs]
    lexical = LexicalIndex.build([e.id for e in entries], [entry_text(e.key, e.content, e.tags) for e in entries])
    vectors = VectorIndex(3)
    vectors.add_many([e.id for e in entries], np.stack([unit(cos) for _, _, cos in docs]))
    by_id = {e.id: e for e in entries}

    async def embed_query(text, timeout):
        return np.array([1.0, 0.0, 0.0], np.float32)

    async def fetch(ids):
        return {i: by_id[i] for i in ids if i in by_id}

    settings = Settings.defaults().override({"memory.rerankEnabled": False, **knobs})
    res = await run_pipeline(
        query,
        lexical=lexical,
        vectors=vectors,
        embed_query=embed_query,
        fetch_entries=fetch,
        reranker=None,
        settings=settings,
        now=now,
    )
    return [h.key for h in res.results], res


# "lexical": BM25's first (both query words), the vector path's second;
# "semantic": the vector path's first, BM25's second (one query word)
TWO_WAY = [("lexical", "alpha beta notes", 0.6), ("semantic", "alpha notes", 0.9), ("other", "gamma", 0.1)]


async def test_path_weights_decide_who_keeps_the_head():
    # no BM25 floor: "semantic"'s one-word match is a sliver of the top score and would be cut
    flat = {"memory.lexicalConfidence": 0.0, "memory.bm25MinRelativeScore": 0.0}
    keys, _ = await recall(TWO_WAY, "alpha beta", **flat, **{"memory.bm25Weight": 1.0, "memory.vectorWeight": 1.2})
    assert keys[:2] == ["semantic", "lexical"]
    keys, res = await recall(TWO_WAY, "alpha beta", **flat, **{"memory.bm25Weight": 1.2, "memory.vectorWeight": 1.0})
    assert keys[:2] == ["lexical", "semantic"]
    assert res.settings["memory.bm25Weight"] == 1.2 and res.settings["bm25_weight_applied"] == 1.2


async def test_vector_floor_keeps_negative_cosine_candidates_out():
    docs = [("match", "alpha", 0.5), ("opposite", "unrelated words", -0.4), ("near", "more words", 0.2)]
    keys, _ = await recall(docs, "alpha", **{"memory.vectorMinSimilarity": -1.0})
    assert "opposite" in keys
    keys, res = await recall(docs, "alpha", **{"memory.vectorMinSimilarity": 0.0})
    assert keys == ["match", "near"]
    keys, res = await recall(docs, "alpha", **{"memory.vectorMinSimilarity": 0.6, "memory.gateMinIdf": 0.0})
    assert keys == ["match"] and [n.code for n in res.notices] == ["vector_below_floor"]


async def test_a_peaked_bm25_head_shifts_weight_to_bm25():
    # "rare" holds the query's rare word: its BM25 score stands far above the rest
    docs = [
        ("rare", "zyxel router alpha", 0.5),
        ("close", "alpha router", 0.9),
        *[(f"filler{i}", "alpha router filler", 0.1) for i in range(6)],
    ]
    base = {"memory.bm25Weight": 1.0, "memory.vectorWeight": 1.2, "memory.bm25MinRelativeScore": 0.0}
    keys, res = await recall(docs, "zyxel alpha router", **base, **{"memory.lexicalConfidence": 0.0})
    assert keys[0] == "close" and res.settings["bm25_weight_applied"] == 1.0
    keys, res = await recall(docs, "zyxel alpha router", **base, **{"memory.lexicalConfidence": 1.0})
    assert keys[0] == "rare" and res.settings["bm25_weight_applied"] > 1.5


async def test_importance_blend_lets_relevance_lead_and_importance_break_ties():
    docs = [("relevant-old", "alpha beta", 0.9), ("fresh", "alpha", 0.8), ("other", "gamma", 0.1)]
    entries = [
        make_entry("relevant-old", "alpha beta", last_accessed=NOW - timedelta(days=90)),
        make_entry("fresh", "alpha"),
        make_entry("other", "gamma"),
    ]
    keys, res = await recall(docs, "alpha beta", entries=entries, **{"memory.importanceBlend": 1.0})
    # the spec's plain product: a 90-day-old memory weighs 1/8 of a fresh one and
    # falls below even the memory that matches nothing
    assert keys == ["fresh", "other", "relevant-old"]
    assert res.results[2].decay.multiplier == pytest.approx(0.5 * 0.5**3)
    keys, res = await recall(docs, "alpha beta", entries=entries, **{"memory.importanceBlend": 0.02})
    assert keys[0] == "relevant-old"
    # a tie in relevance (first in one path each) goes to the fresher memory
    same = [("old", "alpha", 0.5), ("new", "alpha", 0.51)]
    tied = [make_entry("old", "alpha", last_accessed=NOW - timedelta(days=90)), make_entry("new", "alpha")]
    equal = {"memory.bm25Weight": 1.0, "memory.vectorWeight": 1.0, "memory.gateMinIdf": 0.0}
    _, res = await recall(same, "alpha", entries=tied, **equal, **{"memory.importanceBlend": 0.0})
    assert res.results[0].final == res.results[1].final  # importance ignored: a tie
    keys, _ = await recall(same, "alpha", entries=tied, **equal, **{"memory.importanceBlend": 0.02})
    assert keys == ["new", "old"]
