"""Explainable recall results. `RecallResult.to_dict()` is the CLI's JSON contract:

    {"results": [...], "dropped": [...], "timings_ms": {...}, "settings": {...}, "notices": [...]}

Each result: id, rank, final, bm25 {score, rank}, vector {score, rank, pending}, rerank
{score, rank, status, reason}, rrf, gate {passed, reason}, decay {factor,
effective_importance, archival_weight, multiplier}, plus key, content, tier, type (and
importance, pinned, superseded_by) for display. Scores and ranks are null where
a path did not produce them; vector.pending is true for a memory with no vector
yet (the backfill has not reached it), which only BM25 can find. Dropped: {id, stage, reason, key}. Notices:
{code, message}."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..models import InvalidValue


class RecallInputError(InvalidValue):
    """The query cannot be used (e.g. empty); the message says why."""


@dataclass
class PathScore:
    score: Optional[float] = None
    rank: Optional[int] = None

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "rank": self.rank}


@dataclass
class RerankInfo:
    score: Optional[float] = None
    rank: Optional[int] = None
    status: str = "disabled"
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "rank": self.rank, "status": self.status, "reason": self.reason}


@dataclass
class DecayInfo:
    factor: float
    effective_importance: float
    archival_weight: float = 1.0  # memory.archivalWeight when the entry is ARCHIVAL, else 1
    multiplier: float = 1.0  # (1 - memory.importanceBlend) + memory.importanceBlend * effective_importance

    def to_dict(self) -> dict[str, Any]:
        return {
            "factor": self.factor,
            "effective_importance": self.effective_importance,
            "archival_weight": self.archival_weight,
            "multiplier": self.multiplier,
        }


@dataclass
class Notice:
    code: str  # query_truncated | stop_words_only | no_terms | lexical_only | rerank_unavailable | ...
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass
class RecallHit:
    id: str
    rank: int
    final: float
    bm25: PathScore
    vector: PathScore
    rerank: RerankInfo
    rrf: float
    gate: dict[str, Any]
    decay: DecayInfo
    key: str
    content: str
    tier: str
    type: str
    importance: float = 0.0
    pinned: bool = False
    superseded_by: Optional[str] = None
    vector_pending: bool = False  # no current vector yet (the backfill has not reached it): found by BM25 only
    session_boost: float = 0.0  # added to rrf from the other candidates of its source session (memory.sessionBoost)
    entry: Any = field(default=None, repr=False, compare=False)  # the MemoryEntry, for the app

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rank": self.rank,
            "final": self.final,
            "bm25": self.bm25.to_dict(),
            "vector": {**self.vector.to_dict(), "pending": self.vector_pending},
            "rerank": self.rerank.to_dict(),
            "rrf": self.rrf,
            "session_boost": self.session_boost,
            "gate": dict(self.gate),
            "decay": self.decay.to_dict(),
            "key": self.key,
            "content": self.content,
            "tier": self.tier,
            "type": self.type,
            "importance": self.importance,
            "pinned": self.pinned,
            "superseded_by": self.superseded_by,
        }


@dataclass
class Dropped:
    id: str
    stage: str  # gate | rerank | fetch
    reason: str
    key: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "stage": self.stage, "reason": self.reason, "key": self.key}


@dataclass
class RecallResult:
    query: str
    results: list[RecallHit] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    notices: list[Notice] = field(default_factory=list)
    mode: str = "hybrid"  # hybrid | lexical_only | empty

    @property
    def hit_ids(self) -> list[str]:
        """Ids of the returned results, best first (what the facade reinforces unless dry)."""
        return [h.id for h in self.results]

    def notice_codes(self) -> list[str]:
        return [n.code for n in self.notices]

    def to_dict(self) -> dict[str, Any]:
        return {
            "results": [h.to_dict() for h in self.results],
            "dropped": [d.to_dict() for d in self.dropped],
            "timings_ms": dict(self.timings_ms),
            "settings": dict(self.settings),
            "notices": [n.to_dict() for n in self.notices],
        }
