"""The hybrid recall pipeline of the spec as a list of stages over one context:

    tokenize -> bm25 -> embed -> vector -> fusion -> gate -> fetch -> rerank -> decay

`run_pipeline` runs `STAGES` in order over a `RecallContext`, each stage timed by
the one wrapper; the indexes and a few async callables (query embedding, fetching
entries, the reranker) come from `RecallService`. The scoring functions the stages
use live in `stages.py` (re-exported here for callers that import them from here)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Awaitable, Callable, Container, Optional, Sequence

import numpy as np

from ..config import RECALL_KEYS
from ..models import MemoryTier, utcnow
from .fusion import Fused
from .lexical import LexicalHits, LexicalIndex
from .rerank import DISABLED, FAILED, RERANKED, Reranker, RerankOutcome, rerank_stage
from .results import DecayInfo, Dropped, Notice, PathScore, RecallHit, RecallInputError, RecallResult, RerankInfo
from .stages import (
    MAX_QUERY_CHARS,
    Fetched,
    PreparedQuery,
    above_floor,
    above_relative_floor,
    apply_gate,
    bm25_candidates,
    bm25_weight,
    decay_weight,
    final_order,
    fuse,
    prepare_query,
    session_boost,
    vector_candidates,
    with_uncredited,
)
from .token_gate import GateVerdict
from .tokenize import entry_text
from .vectors import VectorHits, VectorIndex

__all__ = [
    "MAX_QUERY_CHARS",
    "STAGES",
    "Fetched",
    "PreparedQuery",
    "RecallContext",
    "Stage",
    "above_floor",
    "above_relative_floor",
    "apply_gate",
    "bm25_weight",
    "decay_weight",
    "final_order",
    "fuse",
    "prepare_query",
    "run_pipeline",
    "run_stage",
    "session_boost",
    "with_uncredited",
]


# ---- the stages, over one context ---------------------------------------------------
def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


def settings_snapshot(settings, **extra) -> dict[str, Any]:
    out = {k: settings.get(k) for k in RECALL_KEYS}
    out.update(extra)
    return out


@dataclass
class RecallContext:
    """Everything one recall carries from stage to stage: the inputs `run_pipeline`
    was given, then what each stage adds. A stage reads the fields its predecessors
    set and writes its own; `done` ends the recall early (nothing to search for)."""

    # inputs
    query: Any
    settings: Any
    lexical: LexicalIndex
    fetch_entries: Callable[[Sequence[str]], Awaitable[dict[str, Any]]]
    now: datetime
    limit: int = 10
    include_superseded: bool = False
    vectors: Optional[VectorIndex] = None
    embed_query: Optional[Callable[[str, float], Awaitable[np.ndarray]]] = None
    reranker: Optional[Reranker] = None
    cpu: Callable[..., Awaitable[Any]] = asyncio.to_thread
    vector_cpu: Optional[Callable[..., Awaitable[Any]]] = None
    vector_reason: str = "no vector index"  # why the vector path is off, when it is
    extra_settings: dict[str, Any] = field(default_factory=dict)
    unembedded: Container[str] = ()  # ids with no vector yet (the backfill's pending set)
    # what the stages add, in stage order
    result: RecallResult = field(default_factory=lambda: RecallResult(query=""))
    timings: dict[str, float] = field(default_factory=dict)
    done: bool = False
    prepared: Optional[PreparedQuery] = None
    bm25_hits: Optional[LexicalHits] = None
    prefetch: Optional[asyncio.Future] = None  # the BM25 candidates' rows, fetched during embedding
    embedding: Optional[asyncio.Future] = None  # the query vector, computed beside BM25
    embedding_ms: float = 0.0  # how long computing it took
    query_vector: Optional[np.ndarray] = None
    vec_hits: Optional[VectorHits] = None
    fused: list[Fused] = field(default_factory=list)
    bm25_pos: dict[str, tuple[int, float]] = field(default_factory=dict)
    vec_pos: dict[str, tuple[int, float]] = field(default_factory=dict)
    passed: list[Fused] = field(default_factory=list)
    failed: list[Fused] = field(default_factory=list)
    verdicts: dict[str, GateVerdict] = field(default_factory=dict)
    entries: dict[str, Fetched] = field(default_factory=dict)
    survivors: list[Fused] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    outcome: Optional[RerankOutcome] = None
    boosts: dict[str, float] = field(default_factory=dict)  # id -> session boost added to its RRF score
    infos: dict[str, DecayInfo] = field(default_factory=dict)
    finals: dict[str, float] = field(default_factory=dict)
    ordered: list[str] = field(default_factory=list)

    def knob(self, key: str) -> Any:
        return self.settings.get(key)


async def stage_tokenize(ctx: RecallContext) -> None:
    """Validate and tokenize the query; a query with no searchable word ends here
    with a notice saying why."""
    prepared = ctx.prepared = prepare_query(ctx.query)
    ctx.result = RecallResult(
        query=prepared.text,
        settings=settings_snapshot(
            ctx.settings, limit=ctx.limit, include_superseded=ctx.include_superseded, **ctx.extra_settings
        ),
        notices=list(prepared.notices),
    )
    if not prepared.tokens:
        ctx.result.mode, ctx.done = "empty", True
        ctx.result.notices.append(Notice("no_terms", "the query has no words or numbers to search for"))
    elif not prepared.content:
        ctx.result.mode, ctx.done = "empty", True
        shown = ", ".join(dict.fromkeys(prepared.tokens))
        ctx.result.notices.append(
            Notice(
                "stop_words_only",
                f"the query has only stop words ({shown}); they occur in almost every memory, so nothing "
                "was recalled: add a word naming what you are looking for",
            )
        )


async def stage_bm25(ctx: RecallContext) -> None:
    """The BM25 pool, with the query's embedding started first so the two run side by
    side (the embedder's thread, one torch thread, and BM25's on the other core); then
    the pool's rows start loading while the embedding finishes: SQLite works in its own
    thread, mostly waiting on I/O."""
    if _vector_path_on(ctx):
        ctx.embedding = asyncio.ensure_future(_embedding(ctx))
    hits = ctx.bm25_hits = await ctx.cpu(
        bm25_candidates, ctx.lexical, ctx.prepared.content, int(ctx.knob("memory.poolSize")), ctx.include_superseded
    )
    if len(hits):
        ctx.prefetch = asyncio.ensure_future(ctx.fetch_entries(list(hits.ids)))


def _vector_path_on(ctx: RecallContext) -> bool:
    return ctx.vectors is not None and ctx.embed_query is not None


async def _embedding(ctx: RecallContext) -> np.ndarray:
    """The query vector; the embed stage's time is this, the embedding's own, not the
    wait left after BM25 (so the stages' times add up to more than the total)."""
    started = time.perf_counter()
    try:
        return await ctx.embed_query(ctx.prepared.text, float(ctx.knob("memory.embeddingTimeoutSeconds")))
    finally:
        ctx.embedding_ms = _ms(started)


async def stage_embed(ctx: RecallContext) -> None:
    """The query vector, started beside BM25, not after it: at 1M entries, recall
    p50/p95 44.7/78.6 ms against 50.3/97.4 alternating on one host. A failure turns
    recall lexical-only with the reason, never an error."""
    try:
        ctx.query_vector = await ctx.embedding
    except (TimeoutError, asyncio.TimeoutError) as exc:
        ctx.vector_reason = f"query embedding timed out ({exc}; memory.embeddingTimeoutSeconds)"
    except Exception as exc:
        ctx.vector_reason = f"query embedding failed: {exc}"
    ctx.timings["embed"] = ctx.embedding_ms


async def stage_vector(ctx: RecallContext) -> None:
    """The vector pool (on the embedder's thread when the caller gives one)."""
    ctx.vec_hits = await (ctx.vector_cpu or ctx.cpu)(
        vector_candidates,
        ctx.vectors,
        ctx.query_vector,
        int(ctx.knob("memory.poolSize")),
        ctx.include_superseded,
        ctx.knob("memory.vectorSearch"),
    )


async def stage_fusion(ctx: RecallContext) -> None:
    """RRF over the two pools: the vector pool cut at its similarity floor, BM25
    weighted by how peaked its head is, and (when there is a vector pool) BM25 credit
    only for candidates at their share of the top score; the rest follow uncredited."""
    result, bm25_hits, vec_hits = ctx.result, ctx.bm25_hits, ctx.vec_hits
    if vec_hits is None:
        result.mode = "lexical_only"
        result.notices.append(Notice("lexical_only", f"lexical-only recall: {ctx.vector_reason}"))
    else:
        floor = float(ctx.knob("memory.vectorMinSimilarity"))
        kept = above_floor(vec_hits, floor)
        if len(vec_hits) and not len(kept):
            result.notices.append(
                Notice(
                    "vector_below_floor",
                    f"no vector candidate reached memory.vectorMinSimilarity={floor:g}; BM25 alone ranks this query",
                )
            )
        vec_hits = ctx.vec_hits = kept
    weight = bm25_weight(bm25_hits, float(ctx.knob("memory.bm25Weight")), float(ctx.knob("memory.lexicalConfidence")))
    result.settings["bm25_weight_applied"] = round(weight, 4)
    credited = bm25_hits
    if vec_hits is not None:  # with one path there is nothing to bury, only recall to lose
        credited = above_relative_floor(bm25_hits, float(ctx.knob("memory.bm25MinRelativeScore")), ctx.unembedded)
        result.settings["bm25_below_floor"] = len(bm25_hits) - len(credited)
    weights = {"bm25": weight, "vector": float(ctx.knob("memory.vectorWeight"))}
    ctx.fused = with_uncredited(fuse(credited, vec_hits, int(ctx.knob("memory.rrfK")), weights), bm25_hits, credited)
    ctx.bm25_pos = _positions(bm25_hits)
    ctx.vec_pos = {} if vec_hits is None else _positions(vec_hits)


def _positions(hits: LexicalHits | VectorHits) -> dict[str, tuple[int, float]]:
    """id -> (1-based rank, score) in one candidate pool."""
    return {i: (r, float(s)) for r, (i, s) in enumerate(zip(hits.ids, hits.scores.tolist()), 1)}


async def stage_gate(ctx: RecallContext) -> None:
    """The discriminative token gate over the fused candidates."""
    ctx.passed, ctx.failed, ctx.verdicts = apply_gate(
        ctx.fused,
        ctx.bm25_hits,
        ctx.lexical.idf,
        float(ctx.knob("memory.gateMinIdf")),
        ctx.unembedded if ctx.vec_hits is not None else (),
    )


async def stage_fetch(ctx: RecallContext) -> None:
    """Fresh rows (the index may lag the store), the gate's rejects too for display;
    what vanished, is WORKING-tier or (unless asked for) superseded drops out here."""
    raw = dict(await ctx.prefetch) if ctx.prefetch is not None else {}
    in_bm25 = set(ctx.bm25_hits.ids)
    rest = [f.id for f in ctx.fused if f.id not in in_bm25]
    if rest:
        raw.update(await ctx.fetch_entries(rest))
    entries = ctx.entries = {i: Fetched(v) for i, v in raw.items()}
    ctx.dropped = [
        Dropped(f.id, "gate", ctx.verdicts[f.id].reason, entries[f.id].key if f.id in entries else "") for f in ctx.failed
    ]
    for f in ctx.passed:
        e = entries.get(f.id)
        if e is None:
            ctx.dropped.append(Dropped(f.id, "fetch", "entry no longer exists"))
        elif e.tier is MemoryTier.WORKING:
            ctx.dropped.append(Dropped(f.id, "fetch", "WORKING-tier entries are the prompt buffer, not recalled", e.key))
        elif e.superseded_by and not ctx.include_superseded:
            ctx.dropped.append(Dropped(f.id, "fetch", f"superseded by {e.superseded_by}", e.key))
        else:
            ctx.survivors.append(f)


async def stage_rerank(ctx: RecallContext) -> None:
    """Cross-encoder rerank of the head; a reranker that is off, slow or broken
    keeps RRF order and says why."""
    enabled = bool(ctx.knob("memory.rerankEnabled"))
    head_n = int(ctx.knob("memory.rerankTopK")) if enabled else 0

    def text(fetched: Fetched) -> str:
        e = fetched.entry
        return entry_text(e.key, e.content, e.tags)

    outcome = ctx.outcome = await rerank_stage(
        ctx.prepared.text,
        [(f.id, text(ctx.entries[f.id]) if i < head_n else "") for i, f in enumerate(ctx.survivors)],
        ctx.reranker,
        enabled=enabled,
        top_k=int(ctx.knob("memory.rerankTopK")),
        timeout=float(ctx.knob("memory.rerankTimeoutSeconds")),
        load_timeout=float(ctx.knob("memory.rerankLoadTimeoutSeconds")),
        min_score=float(ctx.knob("memory.rerankMinScore")),
    )
    notices, reranker = ctx.result.notices, ctx.reranker
    if outcome.status not in (RERANKED, DISABLED, "empty"):
        # a reranker that cannot load stays failed until memory.rerankModel changes:
        # say so on the first recall, not on every one (each hit still carries the reason)
        lasting = reranker is not None and reranker.status == FAILED
        if not (lasting and reranker.failure_reported):
            notices.append(Notice("rerank_unavailable", f"rerank {outcome.status}: {outcome.reason}; RRF order kept"))
        if lasting:
            reranker.failure_reported = True
    if outcome.filter_skipped:
        notices.append(
            Notice(
                "min_score_filter_skipped",
                f"every reranked candidate scored below memory.rerankMinScore={ctx.knob('memory.rerankMinScore')}; "
                "the filter was skipped so recall is not emptied",
            )
        )
    for i, reason in outcome.dropped:
        ctx.dropped.append(Dropped(i, "rerank", reason, ctx.entries[i].key))


async def stage_decay(ctx: RecallContext) -> None:
    """Session boost, forgetting-curve weighting and the final order: the reranked
    head first (by reranker score x decay), then the rest (by RRF plus session
    boost, x decay), cut to `limit`."""
    half_life = max(1.0, float(ctx.knob("memory.importanceDecayDays")))
    archival_weight = float(ctx.knob("memory.archivalWeight"))
    blend = float(ctx.knob("memory.importanceBlend"))
    outcome = ctx.outcome
    by_id = {f.id: f for f in ctx.survivors}
    head = set(outcome.order[: outcome.head]) if outcome.status == RERANKED else set()
    rest = [f for f in ctx.survivors if f.id not in head]
    ctx.boosts = session_boost(
        {f.id: f.rrf for f in rest}, {f.id: ctx.entries[f.id].session for f in rest}, float(ctx.knob("memory.sessionBoost"))
    )
    staged = []
    for prior, entry_id in enumerate(outcome.order, start=1):
        info = decay_weight(ctx.entries[entry_id].decay_view(), ctx.now, half_life, archival_weight, blend)
        ctx.infos[entry_id] = info
        base = outcome.scores[entry_id] if entry_id in head else by_id[entry_id].rrf + ctx.boosts.get(entry_id, 0.0)
        final = ctx.finals[entry_id] = base * info.multiplier * info.archival_weight
        staged.append((entry_id, 0 if entry_id in head else 1, final, prior))
    ctx.ordered = final_order(staged)[: ctx.limit]


@dataclass(frozen=True)
class Stage:
    """One step of recall: `run` is timed into `timings_ms[name]`; a stage whose
    `applies` says no for this recall is skipped and leaves no timing."""

    name: str
    run: Callable[[RecallContext], Awaitable[None]]
    applies: Callable[[RecallContext], bool] = lambda ctx: True


# The order ARCHITECTURE.md lists (a test compares the two).
STAGES: tuple[Stage, ...] = (
    Stage("tokenize", stage_tokenize),
    Stage("bm25", stage_bm25),
    Stage("embed", stage_embed, _vector_path_on),
    Stage("vector", stage_vector, lambda ctx: ctx.query_vector is not None),
    Stage("fusion", stage_fusion),
    Stage("gate", stage_gate),
    Stage("fetch", stage_fetch),
    Stage("rerank", stage_rerank),
    Stage("decay", stage_decay),
)


async def run_stage(stage: Stage, ctx: RecallContext) -> None:
    """The one timing wrapper every stage runs under (a stage whose work began earlier,
    embed, records its own time)."""
    if not stage.applies(ctx):
        return
    t = time.perf_counter()
    try:
        await stage.run(ctx)
    finally:
        ctx.timings.setdefault(stage.name, _ms(t))


def explain(ctx: RecallContext) -> None:
    """Turn the ordered ids into hits that carry every stage's score."""
    outcome, by_id = ctx.outcome, {f.id: f for f in ctx.survivors}
    for rank, entry_id in enumerate(ctx.ordered, start=1):
        e, f = ctx.entries[entry_id].entry, by_id[entry_id]
        b, vv = ctx.bm25_pos.get(entry_id), ctx.vec_pos.get(entry_id)
        st, why = outcome.per_item.get(entry_id, (outcome.status, outcome.reason))
        ctx.result.results.append(
            RecallHit(
                id=entry_id,
                rank=rank,
                final=ctx.finals[entry_id],
                bm25=PathScore(b[1], b[0]) if b else PathScore(),
                vector=PathScore(vv[1], vv[0]) if vv else PathScore(),
                rerank=RerankInfo(outcome.scores.get(entry_id), outcome.ranks.get(entry_id), st, why),
                rrf=f.rrf,
                session_boost=ctx.boosts.get(entry_id, 0.0),
                gate=ctx.verdicts[entry_id].to_dict(),
                decay=ctx.infos[entry_id],
                key=e.key,
                content=e.content,
                tier=e.tier.label,
                type=e.type.label,
                importance=e.importance,
                pinned=e.pinned,
                superseded_by=e.superseded_by,
                entry=e,
            )
        )
    ctx.result.dropped = ctx.dropped


async def run_pipeline(
    query: Any,
    *,
    lexical: LexicalIndex,
    vectors: Optional[VectorIndex],
    embed_query: Optional[Callable[[str, float], Awaitable[np.ndarray]]],
    fetch_entries: Callable[[Sequence[str]], Awaitable[dict[str, Any]]],
    reranker: Optional[Reranker],
    settings,
    limit: int = 10,
    include_superseded: bool = False,
    now: Optional[datetime] = None,
    cpu: Callable[..., Awaitable[Any]] = asyncio.to_thread,
    vector_cpu: Optional[Callable[..., Awaitable[Any]]] = None,
    vector_unavailable_reason: str = "",
    extra_settings: Optional[dict[str, Any]] = None,
    unembedded: Container[str] = (),
) -> RecallResult:
    """Run `STAGES` in order over one context. `cpu(fn, *args)` runs index work (in
    a thread, under the caller's index lock); `vector_cpu` likewise for the vector
    scan (the service runs it on the embedder's thread). `unembedded`: ids with no
    vector yet (the backfill's pending set), which the token gate lets through."""
    t_total = time.perf_counter()
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise RecallInputError(f"limit must be a positive integer, got {limit!r}")
    ctx = RecallContext(
        query=query,
        settings=settings,
        lexical=lexical,
        fetch_entries=fetch_entries,
        now=now or utcnow(),
        limit=limit,
        include_superseded=include_superseded,
        vectors=vectors,
        embed_query=embed_query,
        reranker=reranker,
        cpu=cpu,
        vector_cpu=vector_cpu,
        vector_reason=vector_unavailable_reason or "no vector index",
        extra_settings=dict(extra_settings or {}),
        unembedded=unembedded,
    )
    try:
        for stage in STAGES:
            if ctx.done:
                break
            await run_stage(stage, ctx)
    except BaseException:
        for started in (ctx.prefetch, ctx.embedding):
            if started is not None:
                started.cancel()
        raise
    if not ctx.done:
        explain(ctx)
    ctx.timings["total"] = _ms(t_total)
    ctx.result.timings_ms = ctx.timings
    return ctx.result
