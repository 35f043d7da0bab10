"""Pipeline stages alone: RRF, the token gate, rerank rules (with the tiny real
cross-encoder, and slow/failing wrappers around it), query preparation, decay."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import numpy as np
import pytest

from engine.models import MemoryTier, MemoryType
from engine.recall.fusion import rrf_fuse
from engine.recall.lexical import LexicalIndex
from engine.recall.pipeline import MAX_QUERY_CHARS, apply_gate, decay_weight, final_order, fuse, prepare_query
from engine.recall.rerank import Reranker, rerank_stage
from engine.recall.results import RecallInputError
from engine.recall.token_gate import gate_candidate

from .helpers import NOW, make_entry


# ---- RRF -----------------------------------------------------------------------------
def test_rrf_ranks_start_at_one_and_sum_over_paths():
    fused = rrf_fuse({"bm25": ["a", "b", "c"], "vector": ["b", "d"]}, k=60)
    by = {f.id: f for f in fused}
    assert by["a"].ranks == {"bm25": 1} and by["a"].rrf == pytest.approx(1 / 61)
    assert by["b"].ranks == {"bm25": 2, "vector": 1}
    assert by["b"].rrf == pytest.approx(1 / 62 + 1 / 61)
    assert [f.id for f in fused] == ["b", "a", "d", "c"]
    assert [f.rrf_rank for f in fused] == [1, 2, 3, 4]


def test_rrf_k_changes_scores_and_ties_are_deterministic():
    fused = rrf_fuse({"bm25": ["x", "y"], "vector": ["y", "x"]}, k=1)
    assert fused[0].rrf == pytest.approx(1 / 2 + 1 / 3) and fused[1].rrf == fused[0].rrf
    assert [f.id for f in fused] == ["x", "y"]  # tie: best rank 1 each, earlier path (bm25) first
    assert rrf_fuse({}, 60) == []


# ---- the gate ------------------------------------------------------------------------
def test_gate_drops_bm25_only_stop_word_matches():
    idf = {"the": 2.0, "berlin": 3.0, "common": 0.3}.get
    v = gate_candidate(False, True, ["the"], idf, 1.0)
    assert not v.passed and "the (stop word)" in v.reason
    v = gate_candidate(False, True, ["common"], idf, 1.0)
    assert not v.passed and "idf 0.30 < 1.00" in v.reason
    v = gate_candidate(False, True, ["the", "berlin"], idf, 1.0)
    assert v.passed and "berlin" in v.reason
    v = gate_candidate(True, True, ["the"], idf, 1.0)
    assert v.passed and v.reason == "found by vector search and BM25"
    assert gate_candidate(False, True, ["common"], idf, 0.0).passed


def test_apply_gate_gives_every_candidate_a_verdict():
    texts = {"a": "common cat sat", "b": "common dog ran", "c": "berlin common big", "d": "common end"}
    index = LexicalIndex.build(list(texts), list(texts.values()))
    from engine.recall.tokenize import index_tokens

    bm25 = index.search(index_tokens("the common berlin"), 10)
    fused = fuse(bm25, None, 60)
    passed, failed, verdicts = apply_gate(fused, bm25, index.idf, 0.5)
    assert {f.id for f in passed} == {"c"}
    assert {f.id for f in failed} == {"a", "b", "d"}
    assert set(verdicts) == {"a", "b", "c", "d"}
    assert all(v.reason for v in verdicts.values())


# ---- query preparation ---------------------------------------------------------------
def test_empty_query_is_a_clear_error():
    for q in ("", "   \n\t"):
        with pytest.raises(RecallInputError, match="empty"):
            prepare_query(q)
    with pytest.raises(RecallInputError, match="text"):
        prepare_query(None)


def test_100kb_query_is_truncated_with_notice():
    q = ("berlin " * 20_000)[:102_400]
    p = prepare_query(q)
    assert len(p.text) <= MAX_QUERY_CHARS
    assert [n.code for n in p.notices] == ["query_truncated"]
    assert "102,400 characters" in p.notices[0].message


# ---- decay ---------------------------------------------------------------------------
def test_decay_weight_uses_engine_decay_and_archival_weight():
    fresh = make_entry("a", "x", importance=0.8)
    old = make_entry("b", "x", importance=0.8, last_accessed=NOW - timedelta(days=30))
    arch = make_entry("c", "x", importance=0.8, tier=MemoryTier.ARCHIVAL)
    user = make_entry("d", "x", importance=0.8, type=MemoryType.USER, last_accessed=NOW - timedelta(days=300))
    assert decay_weight(fresh, NOW, 30, 0.5).factor == 1.0
    d = decay_weight(old, NOW, 30, 0.5)
    assert d.factor == pytest.approx(0.5) and d.effective_importance == pytest.approx(0.4)
    assert decay_weight(arch, NOW, 30, 0.5).archival_weight == 0.5
    assert decay_weight(user, NOW, 30, 0.5).factor == 1.0


def test_final_order_keeps_reranked_head_before_tail():
    order = final_order([("t", 1, 0.9, 3), ("h1", 0, 0.1, 1), ("h2", 0, 0.2, 2), ("t2", 1, 0.95, 4)])
    assert order == ["h2", "h1", "t2", "t"]


# ---- rerank --------------------------------------------------------------------------
CANDS = [
    (f"id{i}", text)
    for i, text in enumerate(
        [
            "the user lives in berlin",
            "project uses python",
            "favourite language is rust",
            "api on port 8080",
            "dark mode everywhere",
            "migrations at startup",
        ]
    )
]


class TinyReranker(Reranker):
    def __init__(self, path, delay=0.0, fail=None, load_delay=0.0):
        super().__init__(path)
        self.delay, self.fail, self.load_delay = delay, fail, load_delay

    def load_model(self):
        time.sleep(self.load_delay)
        if self.fail == "load":
            raise OSError("no such model")
        return super().load_model()

    def predict_sync(self, pairs):
        time.sleep(self.delay)
        if self.fail == "predict":
            raise RuntimeError("inference exploded")
        return super().predict_sync(pairs)


async def stage(reranker, **kw):
    args = dict(enabled=True, top_k=4, timeout=5.0, load_timeout=30.0, min_score=0.0)
    args.update(kw)
    return await rerank_stage("where does the user live", CANDS, reranker, **args)


async def test_rerank_reorders_only_the_top_k(tiny_cross_encoder):
    out = await stage(TinyReranker(tiny_cross_encoder))
    assert out.status == "reranked" and out.head == 4
    assert sorted(out.order[:4]) == ["id0", "id1", "id2", "id3"]
    assert out.order[4:] == ["id4", "id5"]  # the rest keep RRF order after the head
    assert all(0 < s < 1 for s in out.scores.values())
    head_scores = [out.scores[i] for i in out.order[:4]]
    assert head_scores == sorted(head_scores, reverse=True)
    assert out.per_item["id5"][0] == "outside_top_k"
    assert sorted(out.ranks.values()) == [1, 2, 3, 4]


async def test_a_recall_after_a_timed_out_rerank_is_not_stuck_behind_it(tiny_cross_encoder):
    r = TinyReranker(tiny_cross_encoder, delay=0.6)
    assert (await stage(r, timeout=0.05)).status == "timeout"
    t = time.perf_counter()
    second = await stage(r, timeout=5.0)  # answers at once instead of queueing for 0.6 s
    assert time.perf_counter() - t < 0.3
    assert second.status == "timeout" and "still running" in second.reason
    time.sleep(0.7)
    r.delay = 0.0
    assert (await stage(r, timeout=5.0)).status == "reranked"


async def test_rerank_disabled_keeps_order():
    out = await stage(None, enabled=False)
    assert out.status == "disabled" and out.order == [c[0] for c in CANDS]
    assert {s for s, _ in out.per_item.values()} == {"disabled"}


async def test_rerank_inference_timeout_keeps_rrf_order(tiny_cross_encoder):
    r = TinyReranker(tiny_cross_encoder, delay=0.5)
    t = time.perf_counter()
    out = await stage(r, timeout=0.05)
    assert time.perf_counter() - t < 0.4
    assert out.status == "timeout" and out.order == [c[0] for c in CANDS]
    assert "rerankTimeoutSeconds" in out.reason and out.per_item["id0"][0] == "timeout"


async def test_rerank_load_timeout_then_not_loaded(tiny_cross_encoder):
    r = TinyReranker(tiny_cross_encoder, load_delay=0.5)
    out = await stage(r, load_timeout=0.05)
    assert out.status == "timeout" and "rerankLoadTimeoutSeconds" in out.reason
    assert out.order == [c[0] for c in CANDS]
    out = await stage(r, load_timeout=0.05)  # budget spent, still loading
    assert out.status == "not_loaded" and out.order == [c[0] for c in CANDS]
    # the load goes on in the background: once it ends (0.5 s, more on a loaded machine) it reranks
    for _ in range(400):
        out = await stage(r, load_timeout=0.05)
        if out.status != "not_loaded":
            break
        await asyncio.sleep(0.05)
    assert out.status == "reranked"


async def test_rerank_failures_keep_rrf_order(tiny_cross_encoder):
    out = await stage(TinyReranker(tiny_cross_encoder, fail="load"))
    assert out.status == "failed" and "memory.rerankModel" in out.reason and out.order == [c[0] for c in CANDS]
    out = await stage(TinyReranker(tiny_cross_encoder, fail="predict"))
    assert out.status == "failed" and "inference exploded" in out.reason and out.order == [c[0] for c in CANDS]


async def test_unavailable_hub_model_fails_fast_offline():
    out = await stage(Reranker("cross-encoder/ms-marco-MiniLM-L-6-v2"), load_timeout=30)
    assert out.status in ("failed", "timeout") and out.order == [c[0] for c in CANDS]


async def test_min_score_filters_but_never_empties(tiny_cross_encoder):
    r = TinyReranker(tiny_cross_encoder)
    base = await stage(r)
    scores = sorted(base.scores.values())
    mid = (scores[1] + scores[2]) / 2
    out = await stage(r, min_score=mid)
    assert len(out.dropped) == 2 and out.head == 2 and not out.filter_skipped
    assert {i for i, _ in out.dropped} == {i for i, s in base.scores.items() if s < mid}
    assert all(out.per_item[i][0] == "filtered_min_score" for i, _ in out.dropped)
    assert out.order[2:] == ["id4", "id5"]
    out = await stage(r, min_score=0.9999)  # would drop every reranked candidate
    assert out.filter_skipped and not out.dropped and len(out.order) == len(CANDS)
    assert {out.per_item[i][0] for i in out.order[:4]} == {"min_score_filter_skipped"}


async def test_run_pipeline_alone_without_a_store():
    from engine.config import Settings
    from engine.recall.pipeline import run_pipeline
    from engine.recall.vectors import VectorIndex

    entries = {e.id: e for e in [make_entry("a", "alpha beta"), make_entry("b", "beta gamma"), make_entry("c", "the the the")]}
    lexical = LexicalIndex.build(list(entries), [e.content for e in entries.values()])
    vectors = VectorIndex(2, "toy:2")
    ids = list(entries)
    vectors.add(ids[0], [1, 0])
    vectors.add(ids[1], [0, 1])

    async def embed(text, timeout):
        return np.array([1.0, 0.0], np.float32)

    async def fetch(want):
        return {i: entries[i] for i in want if i in entries}

    settings = Settings.defaults().override({"memory.rerankEnabled": False, "memory.poolSize": 1})
    res = await run_pipeline(
        "the beta",
        lexical=lexical,
        vectors=vectors,
        embed_query=embed,
        fetch_entries=fetch,
        reranker=None,
        settings=settings,
        now=NOW,
    )
    assert res.hit_ids[0] == ids[0]  # vector rank 1 (+ BM25)
    assert res.results[0].vector.rank == 1
    d = res.to_dict()
    assert [r["rank"] for r in d["results"]] == list(range(1, len(d["results"]) + 1))
    res = await run_pipeline(
        "the beta",
        lexical=lexical,
        vectors=None,
        embed_query=None,
        fetch_entries=fetch,
        reranker=None,
        settings=settings,
        now=NOW,
        vector_unavailable_reason="model off",
    )
    assert res.mode == "lexical_only" and "model off" in res.notices[-1].message
