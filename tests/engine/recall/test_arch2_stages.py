"""Issue 10: recall is a list of stages over one context. Each stage runs alone
on a hand-made context; the list's order is the one ARCHITECTURE.md documents."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engine.config import KNOBS, Settings
from engine.recall import pipeline as pl
from engine.recall.fusion import Fused
from engine.recall.lexical import LexicalHits, LexicalIndex
from engine.recall.rerank import RerankOutcome
from engine.recall.vectors import VectorHits, VectorIndex

from .helpers import NOW, make_entry

ARCHITECTURE = Path(__file__).resolve().parents[3] / "ARCHITECTURE.md"

DOCS = {"a": "alpha beta", "b": "beta gamma", "c": "gamma delta"}


def context(query: str = "beta", vectors: bool = True, **knobs) -> pl.RecallContext:
    """A context over three entries, as `run_pipeline` would start it."""
    entries = {key: make_entry(key, text) for key, text in DOCS.items()}
    ids = {key: e.id for key, e in entries.items()}
    by_id = {e.id: e for e in entries.values()}
    lexical = LexicalIndex.build(list(by_id), [e.content for e in by_id.values()])
    index = VectorIndex(2, "toy:2")
    index.add(ids["a"], [1, 0])
    index.add(ids["b"], [0.6, 0.8])
    index.add(ids["c"], [-1, 0])

    async def embed(text, timeout):
        return np.array([1.0, 0.0], np.float32)

    async def fetch(want):
        return {i: by_id[i] for i in want if i in by_id}

    async def inline(fn, *args):
        return fn(*args)

    ctx = pl.RecallContext(
        query=query,
        settings=Settings.defaults().override({"memory.rerankEnabled": False, **knobs}),
        lexical=lexical,
        fetch_entries=fetch,
        now=NOW,
        vectors=index if vectors else None,
        embed_query=embed if vectors else None,
        cpu=inline,
    )
    ctx.ids = ids  # type: ignore[attr-defined]  # test-only: key -> id
    return ctx


async def run_until(ctx: pl.RecallContext, name: str) -> pl.RecallContext:
    """Run the real stages before `name` (the context a stage sees in a recall)."""
    for stage in pl.STAGES:
        if stage.name == name:
            return ctx
        await pl.run_stage(stage, ctx)
    raise AssertionError(name)


def test_the_stage_order_is_the_documented_one():
    text = ARCHITECTURE.read_text()
    line = re.search(r"^`pipeline\.STAGES`, in order: (.+)$", text, re.M)
    assert line, "ARCHITECTURE.md must list the stages as: `pipeline.STAGES`, in order: a → b → …"
    documented = [re.sub(r"[`*]", "", part).split()[0] for part in line.group(1).split(" → ")]
    assert documented == [s.name for s in pl.STAGES]


async def test_tokenize_ends_a_stop_word_query_with_a_notice():
    ctx = context("the and of")
    await pl.stage_tokenize(ctx)
    assert ctx.done and ctx.result.mode == "empty"
    assert [n.code for n in ctx.result.notices] == ["stop_words_only"]
    ctx = context("the beta")
    await pl.stage_tokenize(ctx)
    assert not ctx.done and ctx.prepared.content == ["beta"]
    assert ctx.result.settings["limit"] == 10


async def test_bm25_finds_the_term_and_starts_fetching_its_rows():
    ctx = await run_until(context("beta"), "bm25")
    await pl.stage_bm25(ctx)
    assert sorted(ctx.bm25_hits.ids) == sorted([ctx.ids["a"], ctx.ids["b"]])
    assert set(await ctx.prefetch) == set(ctx.bm25_hits.ids)


@pytest.mark.parametrize(
    "error, says", [(asyncio.TimeoutError("slow"), "timed out"), (RuntimeError("gpu on fire"), "failed: gpu on fire")]
)
async def test_embed_failure_turns_recall_lexical_only_with_the_reason(error, says):
    ctx = await run_until(context("beta"), "bm25")

    async def broken(text, timeout):
        raise error

    ctx.embed_query = broken
    await pl.stage_bm25(ctx)
    await pl.stage_embed(ctx)
    assert ctx.query_vector is None and says in ctx.vector_reason
    await pl.stage_fusion(ctx)
    assert ctx.result.mode == "lexical_only" and says in ctx.result.notices[-1].message


async def test_the_query_is_embedded_while_bm25_runs():
    """Side by side, not one after the other: at 1M entries BM25 takes ~7 ms at p50 and
    the embedding ~12 ms, each on its own core."""
    ctx = await run_until(context("beta"), "bm25")
    events: list[str] = []
    inline, embed = ctx.cpu, ctx.embed_query

    async def bm25(fn, *args):
        events.append("bm25 started")
        for _ in range(3):
            await asyncio.sleep(0)  # a thread's worth of time, in which other work runs
        events.append("bm25 done")
        return await inline(fn, *args)

    async def embedding(text, timeout):
        events.append("embedding started")
        return await embed(text, timeout)

    ctx.cpu, ctx.embed_query = bm25, embedding
    await pl.stage_bm25(ctx)
    assert events.index("embedding started") < events.index("bm25 done"), events
    await pl.stage_embed(ctx)
    assert ctx.query_vector.tolist() == [1.0, 0.0]


async def test_the_embed_timing_is_the_embeddings_own_not_the_wait_after_bm25():
    ctx = await run_until(context("beta"), "bm25")
    inline, embed = ctx.cpu, ctx.embed_query

    async def bm25(fn, *args):
        await asyncio.sleep(0.3)
        return await inline(fn, *args)

    async def embedding(text, timeout):
        await asyncio.sleep(0.05)
        return await embed(text, timeout)

    ctx.cpu, ctx.embed_query = bm25, embedding
    for stage in pl.STAGES[1:3]:
        await pl.run_stage(stage, ctx)
    assert ctx.timings["bm25"] >= 295 and 45 <= ctx.timings["embed"] < 250, ctx.timings


async def test_a_recall_that_fails_in_bm25_cancels_its_embedding():
    ctx = context("beta")
    cancelled = asyncio.Event()

    async def slow(text, timeout):
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def broken(fn, *args):
        await asyncio.sleep(0)
        raise RuntimeError("index gone")

    with pytest.raises(RuntimeError, match="index gone"):
        await pl.run_pipeline(
            "beta",
            lexical=ctx.lexical,
            vectors=ctx.vectors,
            embed_query=slow,
            fetch_entries=ctx.fetch_entries,
            reranker=None,
            settings=ctx.settings,
            cpu=broken,
        )
    await asyncio.wait_for(cancelled.wait(), 5)


async def test_the_vector_stage_is_skipped_without_a_query_vector():
    ctx = await run_until(context("beta", vectors=False), "embed")
    for stage in pl.STAGES[2:4]:
        await pl.run_stage(stage, ctx)
    assert ctx.vec_hits is None and "embed" not in ctx.timings and "vector" not in ctx.timings
    assert "bm25" in ctx.timings  # the one wrapper timed the stages that ran


async def test_vector_then_fusion_rank_by_both_paths_and_cut_at_the_floor():
    ctx = await run_until(context("beta", **{"memory.vectorMinSimilarity": 0.0}), "vector")
    await pl.stage_vector(ctx)
    assert ctx.vec_hits.ids == [ctx.ids["a"], ctx.ids["b"], ctx.ids["c"]]
    await pl.stage_fusion(ctx)
    assert ctx.ids["c"] not in ctx.vec_pos  # cosine -1 is under the floor
    assert [f.id for f in ctx.fused][:2] == [ctx.ids["a"], ctx.ids["b"]]
    assert ctx.vec_pos[ctx.ids["a"]] == (1, pytest.approx(1.0))
    assert ctx.result.settings["bm25_weight_applied"] >= KNOBS["memory.bm25Weight"].default


async def test_gate_discards_a_bm25_only_match_on_a_common_word():
    ctx = await run_until(context("beta", vectors=False, **{"memory.gateMinIdf": 5.0}), "gate")
    await pl.stage_gate(ctx)
    assert ctx.passed == [] and len(ctx.failed) == 2
    assert all("BM25-only" in v.reason for v in ctx.verdicts.values())


async def test_fetch_drops_vanished_and_superseded_entries_with_reasons():
    ctx = await run_until(context("beta"), "fetch")
    gone, old = ctx.ids["a"], ctx.ids["b"]
    real_fetch = ctx.fetch_entries

    async def fetch(want):
        rows = await real_fetch(want)
        rows.pop(gone, None)
        if old in rows:
            rows[old] = replace(rows[old], superseded_by="newer")
        return rows

    ctx.fetch_entries = fetch
    ctx.prefetch = asyncio.ensure_future(fetch(list(ctx.bm25_hits.ids)))
    await pl.stage_fetch(ctx)
    reasons = {d.id: (d.stage, d.reason) for d in ctx.dropped}
    assert reasons[gone] == ("fetch", "entry no longer exists")
    assert reasons[old] == ("fetch", "superseded by newer")
    assert [f.id for f in ctx.survivors] == [ctx.ids["c"]]


async def test_rerank_disabled_keeps_the_fused_order():
    ctx = await run_until(context("beta"), "rerank")
    await pl.stage_rerank(ctx)
    assert ctx.outcome.status == "disabled"
    assert ctx.outcome.order == [f.id for f in ctx.survivors]


async def test_decay_orders_the_reranked_head_first_and_cuts_to_the_limit():
    ctx = context("beta", **{"memory.importanceBlend": 1.0})  # the spec's plain product
    ctx.limit = 2
    old, fresh, rest = (make_entry(k, "x", importance=0.9) for k in ("old", "fresh", "rest"))
    old = replace(old, last_accessed=NOW.replace(year=2024))
    ctx.entries = {e.id: pl.Fetched(e) for e in (old, fresh, rest)}
    ctx.survivors = [Fused(old.id, 0.03), Fused(fresh.id, 0.02), Fused(rest.id, 0.5)]
    ctx.outcome = RerankOutcome("reranked", "", [old.id, fresh.id, rest.id], scores={old.id: 0.9, fresh.id: 0.8}, head=2)
    await pl.stage_decay(ctx)
    # the head (reranked) beats a higher-RRF tail; a fresh memory beats a long-unused one
    assert ctx.ordered == [fresh.id, old.id]
    assert ctx.infos[old.id].factor < ctx.infos[fresh.id].factor
    assert ctx.finals[rest.id] > ctx.finals[old.id]  # a better score, but outside the head


async def test_run_pipeline_times_every_stage_that_ran():
    ctx = context("beta")
    res = await pl.run_pipeline(
        "beta",
        lexical=ctx.lexical,
        vectors=ctx.vectors,
        embed_query=ctx.embed_query,
        fetch_entries=ctx.fetch_entries,
        reranker=None,
        settings=ctx.settings,
        now=NOW,
    )
    assert list(res.timings_ms) == [s.name for s in pl.STAGES] + ["total"]
    hits = LexicalHits([], np.zeros(0), [], [])
    assert pl.fuse(hits, VectorHits([], np.zeros(0)), 60) == []
