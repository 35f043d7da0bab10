"""The pure functions recall's stages are built from, each testable alone
(tests/engine/recall/test_stages.py): query preparation, the candidate pools, the
vector floor, BM25's weight, RRF, the token gate, the forgetting-curve weight
and the final order. `pipeline.py` strings them into stages over one context."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Container, Mapping, Optional, Sequence

import numpy as np

from .. import decay as decay_mod
from ..models import MemoryEntry, MemoryTier, MemoryType, from_iso
from ..store import COL, row_to_entry
from .fusion import Fused, rrf_fuse
from .lexical import LexicalHits, LexicalIndex
from .results import DecayInfo, Notice, RecallInputError
from .token_gate import GateVerdict, gate_candidate
from .tokenize import content_tokens, tokenize
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
        return self._entry.key if self._entry is not None else self.row[COL["key"]]

    @property
    def tier(self) -> MemoryTier:
        return self._entry.tier if self._entry is not None else MemoryTier(self.row[COL["tier"]])

    @property
    def superseded_by(self) -> Optional[str]:
        return self._entry.superseded_by if self._entry is not None else self.row[COL["superseded_by"]]

    @property
    def session(self) -> str:
        return self._entry.source_session if self._entry is not None else self.row[COL["source_session"]]

    @property
    def entry(self) -> MemoryEntry:
        if self._entry is None:
            self._entry = row_to_entry(self.row)
        return self._entry

    def decay_view(self):
        if self._entry is not None:
            return self._entry
        r = self.row
        return _DecayView(
            MemoryType(r[COL["type"]]),
            bool(r[COL["pinned"]]),
            r[COL["importance"]],
            r[COL["access_count"]],
            from_iso(r[COL["last_accessed"]]),
            MemoryTier(r[COL["tier"]]),
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
        notices.append(
            Notice(
                "query_truncated",
                f"query was {len(text):,} characters; only the first {len(cut):,} were used (limit {max_chars:,})",
            )
        )
        text = cut
    tokens = tokenize(text)
    return PreparedQuery(text, tokens, content_tokens(tokens), notices)


# ---- stage 1: candidate pools ------------------------------------------------------
def bm25_candidates(index: LexicalIndex, tokens: Sequence[str], pool: int, include_superseded: bool = False) -> LexicalHits:
    return index.search(tokens, pool, include_superseded=include_superseded)


def vector_candidates(
    index: VectorIndex, query_vector: np.ndarray, pool: int, include_superseded: bool = False, search: str = "quantized"
) -> VectorHits:
    """search: memory.vectorSearch ("exact" scans every float32 row)."""
    return index.search(query_vector, pool, include_superseded=include_superseded, exact=search == "exact")


def above_floor(hits: Optional[VectorHits], floor: float) -> Optional[VectorHits]:
    """The vector candidates at or above cosine `floor` (memory.vectorMinSimilarity):
    a candidate pointing away from the query is not evidence, only rank noise that
    RRF would reward as if it were."""
    if hits is None or not len(hits) or float(hits.scores[-1]) >= floor:
        return hits
    keep = int(np.count_nonzero(hits.scores >= floor))  # scores are sorted, best first
    return VectorHits(hits.ids[:keep], hits.scores[:keep])


def above_relative_floor(hits: LexicalHits, ratio: float, keep: Container[str] = ()) -> LexicalHits:
    """The BM25 candidates that earn RRF credit: those scoring at least `ratio` x
    the top score (memory.bm25MinRelativeScore), and those in `keep` (no vector
    yet: BM25 is their only way in). A memory sharing one common word with the
    query scores a sliver of the best match, yet RRF credits its rank as evidence
    and lets it bury a strong vector-only find. With a top score at or under 0 (a
    tiny store's negative IDF) there is no scale to compare to: all earn it."""
    if ratio <= 0 or not len(hits) or float(hits.scores[0]) <= 0:
        return hits
    cut = ratio * float(hits.scores[0])
    rows = [i for i, (id_, s) in enumerate(zip(hits.ids, hits.scores.tolist())) if s >= cut or id_ in keep]
    if len(rows) == len(hits):
        return hits
    return LexicalHits([hits.ids[i] for i in rows], hits.scores[rows], [hits.matched[i] for i in rows], hits.query_terms)


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


def fuse(
    bm25: Optional[LexicalHits], vector: Optional[VectorHits], k: int, weights: Optional[dict[str, float]] = None
) -> list[Fused]:
    lists: dict[str, list[str]] = {}
    if bm25 is not None:
        lists["bm25"] = list(bm25.ids)
    if vector is not None:
        lists["vector"] = list(vector.ids)
    return rrf_fuse(lists, k, weights)


def with_uncredited(fused: list[Fused], bm25: Optional[LexicalHits], credited: Optional[LexicalHits]) -> list[Fused]:
    """The fused list, then the BM25 candidates the floor left without credit that
    no other path found, in BM25 order with RRF 0: still recalled (the gate judges
    them as BM25-only), after every candidate with evidence."""
    if bm25 is None or credited is None or len(credited) == len(bm25):
        return fused
    have = {f.id for f in fused} | set(credited.ids)
    tail = [Fused(i, 0.0, {"bm25": r}) for r, i in enumerate(bm25.ids, start=1) if i not in have]
    for n, item in enumerate(tail, start=len(fused) + 1):
        item.rrf_rank = n
    return fused + tail


# ---- stage 3: the gate -------------------------------------------------------------
def apply_gate(
    fused: Sequence[Fused],
    bm25: Optional[LexicalHits],
    idf: Callable[[str], float],
    min_idf: float,
    unembedded: Container[str] = (),
) -> tuple[list[Fused], list[Fused], dict[str, GateVerdict]]:
    """Split fused candidates into (passed, discarded) with a verdict for each. A
    candidate in `unembedded` (no vector yet) passes: the vector search could not
    have found it, so being found by BM25 alone says nothing against it."""
    matched = {} if bm25 is None else dict(zip(bm25.ids, bm25.matched))
    passed: list[Fused] = []
    failed: list[Fused] = []
    verdicts: dict[str, GateVerdict] = {}
    for item in fused:
        if item.id in unembedded:
            v = GateVerdict(True, "found by BM25; no vector yet (vector: pending), so the gate does not apply")
        else:
            v = gate_candidate(item.found_by("vector"), item.found_by("bm25"), matched.get(item.id, []), idf, min_idf)
        verdicts[item.id] = v
        (passed if v.passed else failed).append(item)
    return passed, failed, verdicts


# ---- stage 5: session boost and forgetting curve ------------------------------------
def session_boost(scores: Mapping[str, float], session_of: Mapping[str, str], share: float) -> dict[str, float]:
    """What each candidate gains from the other candidates of its source session
    (memory.sessionBoost): `share` x the best score among them. Turns of one
    conversation answer a question together: a turn that says little alone is
    lifted when its neighbours match strongly, and a session that several turns
    point at outranks one stray match. No session, or none of its other memories
    among the candidates: no gain."""
    if share <= 0:
        return {}
    top2: dict[str, list[float]] = {}  # session -> its two best scores
    for entry_id, score in scores.items():
        session = session_of.get(entry_id)
        if session:
            best = top2.setdefault(session, [0.0, 0.0])
            if score > best[0]:
                best[0], best[1] = score, best[0]
            elif score > best[1]:
                best[1] = score
    out = {}
    for entry_id, score in scores.items():
        session = session_of.get(entry_id)
        if session:
            best = top2[session]
            other = best[1] if score >= best[0] else best[0]
            if other > 0:
                out[entry_id] = share * other
    return out


def decay_weight(
    entry: MemoryEntry, now: datetime, half_life_days: float, archival_weight: float, blend: float = 1.0
) -> DecayInfo:
    """How the forgetting curve weighs entry. The spec says the final score is
    "multiplied by effective_importance"; it is multiplied by a function of it,
    (1 - blend) + blend * effective_importance (memory.importanceBlend). With blend
    1 that is the spec's plain product, under which a half-forgotten memory loses
    to any fresh one however much less relevant; a small blend keeps relevance
    first and lets importance and recency break near-ties."""
    factor = decay_mod.decay_factor(entry, now, half_life_days)
    eff = decay_mod.effective_importance(entry, now, half_life_days)
    aw = archival_weight if entry.tier is MemoryTier.ARCHIVAL else 1.0
    return DecayInfo(factor=factor, effective_importance=eff, archival_weight=aw, multiplier=(1.0 - blend) + blend * eff)


def final_order(items: Sequence[tuple[str, int, float, int]]) -> list[str]:
    """Order (id, group, final, prior_rank): group ascending (0 = reranked head, 1 =
    the rest in RRF order), then final descending, then the prior rank."""
    return [i for i, _, _, _ in sorted(items, key=lambda t: (t[1], -t[2], t[3]))]
