"""What consolidation hands back: sessions, messages, candidate facts, verdicts,
runs, jobs, contradictions with their detail, resolutions and the version
lattice. Plain dataclasses with JSON-ready to_dict(); no I/O."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Optional

from ..errors import ConsolidationError, NotFound  # noqa: F401 - their home before engine.errors
from ..models import Contradiction, ContradictionStatus, MemoryEntry, MemoryType, ProvenanceLevel, from_iso, to_iso

ROLES = ("user", "assistant", "system", "tool")


@dataclass
class Message:
    session_key: str
    idx: int
    role: str
    content: str
    at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "at": to_iso(self.at)}


@dataclass
class SessionInfo:
    key: str
    status: str  # open | ended | consolidated
    started_at: datetime
    ended_at: Optional[datetime]
    last_activity_at: Optional[datetime]
    consolidated_through: int  # last message idx already consolidated, -1 for none
    messages: int = 0
    episodes: int = 0

    @property
    def unconsolidated(self) -> int:
        return self.messages - (self.consolidated_through + 1)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for name in ("started_at", "ended_at", "last_activity_at"):
            out[name] = to_iso(getattr(self, name))
        out["unconsolidated"] = self.unconsolidated
        return out


@dataclass
class Summary:
    text: str
    entities: list[str]
    importance: float
    produced_by: str


@dataclass
class CandidateFact:
    """A fact an extractor proposes; it becomes an entry only through the write gate."""

    key: str
    content: str
    type: MemoryType
    tags: list[str]
    importance: float
    produced_by: str
    status: str = "new"  # new | written | unchanged | refused
    entry_id: Optional[str] = None
    detail: dict[str, Any] = field(default_factory=dict)
    ordinal: int = 0
    episode_id: str = ""
    # What the fact came from decides both: the provenance it may carry (never above
    # its source's) and the time it was stated (what "the more recent wins" compares).
    source: ProvenanceLevel = ProvenanceLevel.CONSOLIDATED
    stated_at: Optional[datetime] = None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "type": self.type.label, "source": self.source.label, "stated_at": to_iso(self.stated_at)}


@dataclass
class Signals:
    """Why the pre-filter paired two entries: each similarity in [0, 1]."""

    key_similarity: float
    tag_overlap: float
    embedding_similarity: Optional[float] = None

    @property
    def strength(self) -> float:
        return max(self.key_similarity, self.tag_overlap, self.embedding_similarity or 0.0)

    def to_dict(self) -> dict[str, Any]:
        return {k: (None if v is None else round(v, 4)) for k, v in asdict(self).items()} | {"strength": round(self.strength, 4)}


@dataclass
class Verdict:
    contradicts: bool
    confidence: float
    kind: str  # version | value | number | date | negation | preference | other | none
    description: str
    explanation: str
    produced_by: str
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass
class ContradictionRecord(Contradiction):
    """A stored contradiction plus its detail: the verifier's explanation, the
    pre-filter signals and the automatic-resolution preview."""

    detail: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_row(cls, row) -> "ContradictionRecord":
        return cls(
            id=row[0],
            entry_a_id=row[1],
            entry_b_id=row[2],
            description=row[3],
            confidence=row[4],
            resolution=row[5],
            resolved_at=from_iso(row[6]),
            created_at=from_iso(row[7]),
            status=ContradictionStatus(row[8]),
            detector=row[9],
            detail=json.loads(row[10]),
        )

    @property
    def kind(self) -> str:
        return self.detail.get("kind", "other")

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "kind": self.kind}


@dataclass
class ResolutionResult:
    contradiction: ContradictionRecord
    action: str  # keep_a | keep_b | keep_both | merge | auto | undo
    changed: list[MemoryEntry]
    resolution_id: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "resolution_id": self.resolution_id,
            "action": self.action,
            "contradiction": self.contradiction.to_dict(),
            "changed": [e.to_dict() for e in self.changed],
        }


@dataclass
class RunRecord:
    id: str
    session_key: str
    trigger: str
    status: str  # running | ok | failed | interrupted
    started_at: datetime
    ended_at: Optional[datetime] = None
    summariser: str = ""
    extractor: str = ""
    verifier: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    job_id: Optional[str] = None
    detail: dict[str, Any] = field(default_factory=dict)  # episodes, refused facts, contradictions, resolutions

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "started_at": to_iso(self.started_at), "ended_at": to_iso(self.ended_at)}


@dataclass
class JobRecord:
    id: str
    kind: str
    session_key: str
    trigger: str
    status: str  # pending | running | done | failed
    attempts: int
    last_error: str
    created_at: datetime
    updated_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "created_at": to_iso(self.created_at), "updated_at": to_iso(self.updated_at)}


@dataclass
class Lattice:
    """The whole supersession graph around an entry: every version, ancestor,
    descendant and merge, oldest first; edges run from the superseded entry to its
    successor."""

    root_id: str
    nodes: list[dict[str, Any]]
    edges: list[dict[str, str]]

    @classmethod
    def of_entry(cls, entry: MemoryEntry) -> "Lattice":
        """A lattice of one, in the same shape (what a reader shows when the graph
        around the entry could not be read)."""
        return cls(entry.id, [lattice_node(entry)], [])

    def to_dict(self) -> dict[str, Any]:
        return {"root_id": self.root_id, "nodes": self.nodes, "edges": self.edges}


def lattice_node(entry: MemoryEntry) -> dict[str, Any]:
    """One version in a lattice: what the version views show of it."""
    return {
        "id": entry.id,
        "version": entry.version,
        "tier": entry.tier.label,
        "superseded_by": entry.superseded_by,
        "key": entry.key,
        "type": entry.type.label,
        "source": entry.source.label,
        "created_at": to_iso(entry.created_at),
        "content": entry.content,
        "pinned": entry.pinned,
    }
