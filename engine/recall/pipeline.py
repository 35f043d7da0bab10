"""The hybrid recall pipeline of the spec, stage by stage:

    query -> tokenize -> BM25 pool + vector pool -> RRF -> discriminative token gate
          -> fetch (fresh rows) -> cross-encoder rerank -> forgetting-curve weighting

Each stage is a plain function testable alone; `run_pipeline` strings them
together given the indexes and a few async callables (query embedding, fetching
entries, the reranker), which `RecallService` supplies."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Awaitable, Callable, Container, Optional, Sequence

import numpy as np

from .. import decay as decay_mod
from ..models import MemoryEntry, MemoryTier, MemoryType, from_iso, utcnow
from ..store import COL, row_to_entry
from .fusion import Fused, rrf_fuse
from .lexical import LexicalHits, LexicalIndex
from .rerank import (
    DISABLED,
    FAILED,
    RERANKED,
    Reranker,
    RerankOutcome,
    rerank_stage,
)
from .results import (
    DecayInfo,
    Dropped,
    Notice,
    PathScore,
    RecallHit,
    RecallInputError,
    RecallResult,
    RerankInfo,
)
from .token_gate import GateVerdict, gate_candidate
from .tokenize import content_tokens, entry_text, tokenize
from .vectors import VectorHits, VectorIndex

MAX_QUERY_CHARS = 2000


class _DecayView:
    """The fields engine.decay reads, without building a whole MemoryEntry."""

    __slots__ = ("type", "pinned", "importance", "access_count", "last_accessed", "tier")

    def __init__(self, type_, pinned, importance, access_count, last_accessed, tier):
        self.type, self.pinned, self.importance = type_, pinned, importance
        self.access_count, self.last_accessed, self.tier = access_count, last_accessed, tier


class Fetched:
    """A candidate's fresh store row (ENTRY_COLUMNS order) or MemoryEntry; the full
    MemoryEntry is only built for what is shown or reranked (parsing ~100 rows per
    recall cost ~1.5 ms)."""

    __slots__ = ("row", "_entry")

    def __init__(self, value):
        if isinstance(value, MemoryEntry):
            self.row, self._entry = None, value
        else:
            self.row, self._entry = value, None

    @property
    def key(self) -> str:
        return self._entry.key if self._entry is not None else self.row[COL['key']]

    @property
    def tier(self) -> MemoryTier:
        return self._entry.tier if self._entry is not None else MemoryTier(self.row[COL['tier']])

    @property
    def superseded_by(self) -> Optional[str]:
        return self._entry.superseded_by if self._entry is not None else self.row[COL['superseded_by']]

    @property
    def entry(self) -> MemoryEntry:
        if self._entry is None:
            self._entry = row_to_entry(self.row)
        return self._entry

    def decay_view(self):
        if self._entry is not None:
            return self._entry
        r = self.row
        return _DecayView(MemoryType(r[COL["type"]]), bool(r[COL["pinned"]]), r[COL["importance"]],
                          r[COL["access_count"]], from_iso(r[COL["last_accessed"]]), MemoryTier(r[COL["tier"]]))


SETTING_KEYS = (
    "memory.rrfK", "memory.poolSize", "memory.gateMinIdf", "memory.rerankEnabled", "memory.rerankTopK",
    "memory.rerankTimeoutSeconds", "memory.rerankLoadTimeoutSeconds", "memory.rerankMinScore",
    "memory.rerankModel", "memory.embeddingModel", "memory.embeddingTimeoutSeconds",
    "memory.archivalWeight", "memory.importanceDecayDays", "memory.bm25Weight", "memory.vectorWeight",
    "memory.vectorMinSimilarity", "memory.lexicalConfidence", "memory.importanceBlend",
)


# ---- stage 0: the query ------------------------------------------------------------
@dataclass
class PreparedQuery:
    text: str
    tokens: list[str]
    content: list[str]  # tokens that are not stop words
    notices: list[Notice] = field(default_factory=list)


def prepare_query(query: Any, max_chars: int = MAX_QUERY_CHARS) -> PreparedQuery:
    """Validate, truncate and tokenize. Empty -> RecallInputError."""
    if not isinstance(query, str):
        raise RecallInputError(f"query must be text, got {type(query).__name__}")
    text = query.strip()
    if not text:
        raise RecallInputError("query is empty: give some words to recall memories by")
    notices = []
    if len(text) > max_chars:
        cut = text[:max_chars]
        space = cut.rfind(" ", max_chars - 50)
        if space > 0:
            cut = cut[:space]
        notices.append(Notice(
            "query_truncated",
            f"query was {len(text):,} characters; only the first {len(cut):,} were used (limit {max_chars:,})",
        ))
        text = cut
    tokens = tokenize(text)
    return PreparedQuery(text, tokens, content_tokens(tokens), notices)


# ---- stage 1: candidate pools ------------------------------------------------------
def bm25_candidates(index: LexicalIndex, tokens: Sequence[str], pool: int,
                    include_superseded: bool = False) -> LexicalHits:
    return index.search(tokens, pool, include_superseded=include_superseded)


def vector_candidates(index: VectorIndex, query_vector: np.ndarray, pool: int,
                      include_superseded: bool = False) -> VectorHits:
    return index.search(query_vector, pool, include_superseded=include_superseded)


def above_floor(hits: Optional[VectorHits], floor: float) -> Optional[VectorHits]:
    """The vector candidates at or above cosine `floor` (memory.vectorMinSimilarity):
    a candidate pointing away from the query is not evidence, only rank noise that
    RRF would reward as if it were."""
    if hits is None or not len(hits) or float(hits.scores[-1]) >= floor:
        return hits
    keep = int(np.count_nonzero(hits.scores >= floor))  # scores are sorted, best first
    return VectorHits(hits.ids[:keep], hits.scores[:keep])


# ---- stage 2: fusion ---------------------------------------------------------------
def bm25_weight(hits: Optional[LexicalHits], base: float, confidence: float) -> float:
    """BM25's RRF weight for this query: memory.bm25Weight, raised by up to
    (1 + memory.lexicalConfidence) when the BM25 head is peaked, i.e. its top
    score stands clear of the second ((top - second) / top). A query naming a rare
    term that one memory holds is where BM25 is most reliably right."""
    if hits is None or not len(hits) or confidence <= 0:
        return base
    top = float(hits.scores[0])
    if top <= 0:
        return base
    second = max(0.0, float(hits.scores[1])) if len(hits) > 1 else 0.0
    return base * (1.0 + confidence * (top - second) / top)


def fuse(bm25: Optional[LexicalHits], vector: Optional[VectorHits], k: int,
         weights: Optional[dict[str, float]] = None) -> list[Fused]:
    lists: dict[str, list[str]] = {}
    if bm25 is not None:
        lists["bm25"] = list(bm25.ids)
    if vector is not None:
        lists["vector"] = list(vector.ids)
    return rrf_fuse(lists, k, weights)


# ---- stage 3: the gate -------------------------------------------------------------
def apply_gate(fused: Sequence[Fused], bm25: Optional[LexicalHits], idf: Callable[[str], float],
               min_idf: float, unembedded: Container[str] = ()) -> tuple[list[Fused], list[Fused], dict[str, GateVerdict]]:
    """Split fused candidates into (passed, discarded) with a verdict for each. A
    candidate in `unembedded` (no vector yet) passes: the vector search could not
    have found it, so being found by BM25 alone says nothing against it."""
    matched = {} if bm25 is None else dict(zip(bm25.ids, bm25.matched))
    passed, failed, verdicts = [], [], {}
    for item in fused:
        if item.id in unembedded:
            v = GateVerdict(True, "found by BM25; no vector yet (vector: pending), so the gate does not apply")
        else:
            v = gate_candidate(item.found_by("vector"), item.found_by("bm25"), matched.get(item.id, []), idf, min_idf)
        verdicts[item.id] = v
        (passed if v.passed else failed).append(item)
    return passed, failed, verdicts


# ---- stage 5: forgetting curve -----------------------------------------------------
def decay_weight(entry: MemoryEntry, now: datetime, half_life_days: float, archival_weight: float,
                 blend: float = 1.0) -> DecayInfo:
    """How the forgetting curve weighs entry. The spec says the final score is
    "multiplied by effective_importance"; it is multiplied by a function of it,
    (1 - blend) + blend * effective_importance (memory.importanceBlend). With blend
    1 that is the spec's plain product, under which a half-forgotten memory loses
    to any fresh one however much less relevant; a small blend keeps relevance
    first and lets importance and recency break near-ties."""
    factor = decay_mod.decay_factor(entry, now, half_life_days)
    eff = decay_mod.effective_importance(entry, now, half_life_days)
    aw = archival_weight if entry.tier is MemoryTier.ARCHIVAL else 1.0
    return DecayInfo(factor=factor, effective_importance=eff, archival_weight=aw,
                     multiplier=(1.0 - blend) + blend * eff)


def final_order(items: Sequence[tuple[str, int, float, int]]) -> list[str]:
    """Order (id, group, final, prior_rank): group ascending (0 = reranked head, 1 =
    the rest in RRF order), then final descending, then the prior rank."""
    return [i for i, _, _, _ in sorted(items, key=lambda t: (t[1], -t[2], t[3]))]


# ---- the whole pipeline ------------------------------------------------------------
def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


def settings_snapshot(settings, **extra) -> dict[str, Any]:
    out = {k: settings.get(k) for k in SETTING_KEYS}
    out.update(extra)
    return out


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
    """Run every stage; see the module docstring. `cpu(fn, *args)` runs index work
    (in a thread, under the caller's index lock); `vector_cpu` likewise for the
    vector scan (the service runs it on the embedder's thread). `unembedded`: ids with
    no vector yet (the backfill's pending set), which the token gate lets through."""
    t_total = time.perf_counter()
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise RecallInputError(f"limit must be a positive integer, got {limit!r}")
    now = now or utcnow()
    timings: dict[str, float] = {}
    t = time.perf_counter()
    prepared = prepare_query(query)
    timings["tokenize"] = _ms(t)
    result = RecallResult(
        query=prepared.text,
        settings=settings_snapshot(settings, limit=limit, include_superseded=include_superseded, **(extra_settings or {})),
        notices=list(prepared.notices),
    )
    if not prepared.tokens:
        result.mode = "empty"
        result.notices.append(Notice("no_terms", "the query has no words or numbers to search for"))
        timings["total"] = _ms(t_total)
        result.timings_ms = timings
        return result
    if not prepared.content:
        result.mode = "empty"
        shown = ", ".join(dict.fromkeys(prepared.tokens))
        result.notices.append(Notice(
            "stop_words_only",
            f"the query has only stop words ({shown}); they occur in almost every memory, so nothing "
            "was recalled: add a word naming what you are looking for",
        ))
        timings["total"] = _ms(t_total)
        result.timings_ms = timings
        return result

    pool = int(settings.get("memory.poolSize"))

    # stage 1: BM25 and query embedding concurrently, then the vector scan
    async def lexical_path():
        t0 = time.perf_counter()
        hits = await cpu(bm25_candidates, lexical, prepared.content, pool, include_superseded)
        timings["bm25"] = _ms(t0)
        return hits

    async def vector_path():
        if vectors is None or embed_query is None:
            return None, vector_unavailable_reason or "no vector index"
        t0 = time.perf_counter()
        try:
            qvec = await embed_query(prepared.text, float(settings.get("memory.embeddingTimeoutSeconds")))
        except (TimeoutError, asyncio.TimeoutError) as exc:
            timings["embed"] = _ms(t0)
            return None, f"query embedding timed out ({exc}; memory.embeddingTimeoutSeconds)"
        except Exception as exc:
            timings["embed"] = _ms(t0)
            return None, f"query embedding failed: {exc}"
        timings["embed"] = _ms(t0)
        t1 = time.perf_counter()
        hits = await (vector_cpu or cpu)(vector_candidates, vectors, qvec, pool, include_superseded)
        timings["vector"] = _ms(t1)
        return hits, ""

    # BM25 first, then the query embedding and vector scan, sequentially: on 2 cores
    # the embedding's torch threads and a concurrent BM25 thread oversubscribe the CPU
    # (measured: query embedding 9 ms alone, >100 ms when overlapped with BLAS work).
    # The BM25 candidates' rows are fetched meanwhile (SQLite works in its own thread,
    # mostly waiting on I/O), which hides most of the fetch behind the embedding.
    bm25_hits = await lexical_path()
    prefetch = asyncio.ensure_future(fetch_entries(list(bm25_hits.ids))) if len(bm25_hits) else None
    try:
        vec_hits, vec_reason = await vector_path()
    except BaseException:
        if prefetch is not None:
            prefetch.cancel()
        raise
    if vec_hits is None:
        result.mode = "lexical_only"
        result.notices.append(Notice("lexical_only", f"lexical-only recall: {vec_reason}"))

    # stage 2: RRF
    t = time.perf_counter()
    if vec_hits is not None:
        floor = float(settings.get("memory.vectorMinSimilarity"))
        kept = above_floor(vec_hits, floor)
        if len(vec_hits) and not len(kept):
            result.notices.append(Notice(
                "vector_below_floor",
                f"no vector candidate reached memory.vectorMinSimilarity={floor:g}; BM25 alone ranks this query",
            ))
        vec_hits = kept
    weight = bm25_weight(bm25_hits, float(settings.get("memory.bm25Weight")),
                         float(settings.get("memory.lexicalConfidence")))
    result.settings["bm25_weight_applied"] = round(weight, 4)
    fused = fuse(bm25_hits, vec_hits, int(settings.get("memory.rrfK")),
                 {"bm25": weight, "vector": float(settings.get("memory.vectorWeight"))})
    timings["fusion"] = _ms(t)
    bm25_pos = {i: (r, float(s)) for r, (i, s) in enumerate(zip(bm25_hits.ids, bm25_hits.scores.tolist()), 1)}
    vec_pos = {} if vec_hits is None else {
        i: (r, float(s)) for r, (i, s) in enumerate(zip(vec_hits.ids, vec_hits.scores.tolist()), 1)
    }

    # stage 3: the gate
    t = time.perf_counter()
    passed, failed, verdicts = apply_gate(fused, bm25_hits, lexical.idf, float(settings.get("memory.gateMinIdf")),
                                          unembedded if vec_hits is not None else ())
    timings["gate"] = _ms(t)

    # stage 4a: fresh rows (the index may lag the store); the gate's rejects too, for display
    t = time.perf_counter()
    raw = dict(await prefetch) if prefetch is not None else {}
    in_bm25 = set(bm25_hits.ids)
    rest = [f.id for f in fused if f.id not in in_bm25]
    if rest:
        raw.update(await fetch_entries(rest))
    entries = {i: Fetched(v) for i, v in raw.items()}
    dropped: list[Dropped] = [
        Dropped(f.id, "gate", verdicts[f.id].reason, entries[f.id].key if f.id in entries else "") for f in failed
    ]
    survivors: list[Fused] = []
    for f in passed:
        e = entries.get(f.id)
        if e is None:
            dropped.append(Dropped(f.id, "fetch", "entry no longer exists"))
        elif e.tier is MemoryTier.WORKING:
            dropped.append(Dropped(f.id, "fetch", "WORKING-tier entries are the prompt buffer, not recalled", e.key))
        elif e.superseded_by and not include_superseded:
            dropped.append(Dropped(f.id, "fetch", f"superseded by {e.superseded_by}", e.key))
        else:
            survivors.append(f)
    timings["fetch"] = _ms(t)

    # stage 4b: rerank
    t = time.perf_counter()
    head_n = int(settings.get("memory.rerankTopK")) if settings.get("memory.rerankEnabled") else 0

    def _text(fetched: Fetched) -> str:
        e = fetched.entry
        return entry_text(e.key, e.content, e.tags)

    outcome: RerankOutcome = await rerank_stage(
        prepared.text,
        [(f.id, _text(entries[f.id]) if i < head_n else "") for i, f in enumerate(survivors)],
        reranker,
        enabled=bool(settings.get("memory.rerankEnabled")),
        top_k=int(settings.get("memory.rerankTopK")),
        timeout=float(settings.get("memory.rerankTimeoutSeconds")),
        load_timeout=float(settings.get("memory.rerankLoadTimeoutSeconds")),
        min_score=float(settings.get("memory.rerankMinScore")),
    )
    timings["rerank"] = _ms(t)
    if outcome.status not in (RERANKED, DISABLED, "empty"):
        # a reranker that cannot load stays failed until memory.rerankModel changes:
        # say so on the first recall, not on every one (each hit still carries the reason)
        lasting = reranker is not None and reranker.status == FAILED
        if not (lasting and reranker.failure_reported):
            result.notices.append(Notice("rerank_unavailable",
                                         f"rerank {outcome.status}: {outcome.reason}; RRF order kept"))
        if lasting:
            reranker.failure_reported = True
    if outcome.filter_skipped:
        result.notices.append(Notice(
            "min_score_filter_skipped",
            f"every reranked candidate scored below memory.rerankMinScore={settings.get('memory.rerankMinScore')}; "
            "the filter was skipped so recall is not emptied",
        ))
    for i, reason in outcome.dropped:
        dropped.append(Dropped(i, "rerank", reason, entries[i].key))

    # stage 5: forgetting curve
    t = time.perf_counter()
    half_life = max(1.0, float(settings.get("memory.importanceDecayDays")))
    archival_weight = float(settings.get("memory.archivalWeight"))
    blend = float(settings.get("memory.importanceBlend"))
    by_id = {f.id: f for f in survivors}
    head = set(outcome.order[: outcome.head]) if outcome.status == RERANKED else set()
    staged = []
    infos: dict[str, DecayInfo] = {}
    finals: dict[str, float] = {}
    for prior, entry_id in enumerate(outcome.order, start=1):
        info = decay_weight(entries[entry_id].decay_view(), now, half_life, archival_weight, blend)
        infos[entry_id] = info
        base = outcome.scores[entry_id] if entry_id in head else by_id[entry_id].rrf
        final = base * info.multiplier * info.archival_weight
        finals[entry_id] = final
        staged.append((entry_id, 0 if entry_id in head else 1, final, prior))
    ordered = final_order(staged)[:limit]
    timings["decay"] = _ms(t)

    for rank, entry_id in enumerate(ordered, start=1):
        e, f, v = entries[entry_id].entry, by_id[entry_id], verdicts[entry_id]
        b = bm25_pos.get(entry_id)
        vv = vec_pos.get(entry_id)
        st, why = outcome.per_item.get(entry_id, (outcome.status, outcome.reason))
        result.results.append(RecallHit(
            id=entry_id,
            rank=rank,
            final=finals[entry_id],
            bm25=PathScore(b[1], b[0]) if b else PathScore(),
            vector=PathScore(vv[1], vv[0]) if vv else PathScore(),
            rerank=RerankInfo(outcome.scores.get(entry_id), outcome.ranks.get(entry_id), st, why),
            rrf=f.rrf,
            gate=v.to_dict(),
            decay=infos[entry_id],
            key=e.key,
            content=e.content,
            tier=e.tier.label,
            type=e.type.label,
            importance=e.importance,
            pinned=e.pinned,
            superseded_by=e.superseded_by,
            entry=e,
        ))
    result.dropped = dropped
    timings["total"] = _ms(t_total)
    result.timings_ms = timings
    return result
