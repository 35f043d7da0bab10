"""The memory model of the spec: entries, episodes, contradictions, their enums,
and the small result types the engine hands back. Plain dataclasses, no I/O."""

from __future__ import annotations

import contextlib
import enum
import functools
import random
import uuid
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from typing import Any, Iterator, Optional

from .errors import InvalidValue


def utcnow() -> datetime:
    """Aware UTC now; every timestamp the engine stores is aware UTC."""
    return datetime.now(timezone.utc)


_id_source: Optional[random.Random] = None


def new_id() -> str:
    """A UUID4; from a seeded source inside deterministic_ids() (demo, snapshots)."""
    if _id_source is None:
        return str(uuid.uuid4())
    return str(uuid.UUID(int=_id_source.getrandbits(128), version=4))


@contextlib.contextmanager
def deterministic_ids(seed: int) -> Iterator[None]:
    """Make new_id() repeatable, so a rebuilt demo store has the same ids."""
    global _id_source
    saved, _id_source = _id_source, random.Random(seed)
    try:
        yield
    finally:
        _id_source = saved


def to_iso(value: Optional[datetime]) -> Optional[str]:
    return None if value is None else value.astimezone(timezone.utc).isoformat()


def from_iso(value: Optional[str]) -> Optional[datetime]:
    """Parse an ISO timestamp; a naive one is taken as UTC."""
    if value is None or value == "":
        return None
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.astimezone(timezone.utc)


@functools.cache
def _spellings(cls: type["_NamedEnum"]) -> dict[str, "_NamedEnum"]:
    """Each member by its lower-case name and value, the first member winning a tie as
    a search in member order would: parse runs several times per imported line."""
    table: dict[str, _NamedEnum] = {}
    for member in reversed(list(cls)):
        table[str(member.value).lower()] = table[member.name.lower()] = member
    return table


class _NamedEnum(enum.Enum):
    @classmethod
    def parse(cls, value: Any):
        """Accept a member, its value, or its name in any case; name the choices otherwise."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            member = _spellings(cls).get(value.strip().lower())
            if member is not None:
                return member
        elif isinstance(value, int) and not isinstance(value, bool):
            for member in cls:
                if member.value == value:
                    return member
        choices = ", ".join(m.name.lower() for m in cls)
        raise InvalidValue(f"unknown {cls.__name__} {value!r} (expected one of: {choices})")

    @property
    def label(self) -> str:
        return self.name.lower()


class MemoryType(_NamedEnum):
    USER = "user"
    ENVIRONMENT = "environment"


class MemoryTier(_NamedEnum):
    WORKING = "working"
    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    ARCHIVAL = "archival"


class ProvenanceLevel(_NamedEnum):
    LEGACY = 0
    MODEL_INFERRED = 1
    CONSOLIDATED = 2
    USER_STATED = 3


class ContradictionStatus(_NamedEnum):
    PENDING = "pending"
    RESOLVED = "resolved"
    DISMISSED = "dismissed"


@dataclass
class MemoryEntry:
    """The spec's MemoryEntry, field for field."""

    key: str
    content: str
    type: MemoryType = MemoryType.ENVIRONMENT
    tier: MemoryTier = MemoryTier.SEMANTIC
    tags: list[str] = field(default_factory=list)
    source_session: str = ""
    created_at: datetime = field(default_factory=utcnow)
    updated_at: datetime = field(default_factory=utcnow)
    importance: float = 0.5
    access_count: int = 0
    last_accessed: datetime = field(default_factory=utcnow)
    embedding_id: str = ""
    episode_id: Optional[str] = None
    version: int = 1
    superseded_by: Optional[str] = None
    source: ProvenanceLevel = ProvenanceLevel.MODEL_INFERRED
    pinned: bool = False
    id: str = field(default_factory=new_id)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: enums by lower-case name, timestamps ISO."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, _NamedEnum):
                value = value.label
            elif isinstance(value, datetime):
                value = to_iso(value)
            elif isinstance(value, list):
                value = list(value)
            out[f.name] = value
        return out

    def with_fields(self, **changes: Any) -> "MemoryEntry":
        """A copy with some fields changed, as dataclasses.replace makes it, without
        re-running __init__ over every field: the gate copies each imported entry it caps
        (a third of a second per 100k entries that way)."""
        unknown = changes.keys() - _ENTRY_FIELDS
        if unknown:
            raise TypeError(f"MemoryEntry has no field(s) {', '.join(sorted(unknown))}")
        copy = object.__new__(MemoryEntry)
        copy.__dict__.update(self.__dict__, **changes)
        return copy

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "MemoryEntry":
        """Inverse of to_dict; checks every field's type and raises InvalidValue naming it."""
        unknown = data.keys() - _ENTRY_FIELDS
        if unknown:
            raise InvalidValue(f"unknown field(s): {', '.join(sorted(unknown))}")
        kwargs = dict(data)
        for name in ("key", "content"):
            _require(isinstance(kwargs.get(name), str), name, "a string")
        for name in ("id", "source_session", "embedding_id"):
            if name in kwargs:
                _require(isinstance(kwargs[name], str) and (name != "id" or kwargs[name]), name, "a string")
        for name in ("episode_id", "superseded_by"):
            if name in kwargs:
                _require(kwargs[name] is None or isinstance(kwargs[name], str), name, "a string or null")
        if "pinned" in kwargs:
            _require(isinstance(kwargs["pinned"], bool), "pinned", "true or false")
        if "tags" in kwargs:
            tags = kwargs["tags"]
            _require(isinstance(tags, list) and all(isinstance(t, str) for t in tags), "tags", "a list of strings")
        for name, lowest in (("access_count", 0), ("version", 1)):
            if name in kwargs:
                value = kwargs[name]
                _require(
                    isinstance(value, int) and not isinstance(value, bool) and lowest <= value <= MAX_COUNT,
                    name,
                    f"an integer in [{lowest}, {MAX_COUNT}]",
                )
        if "importance" in kwargs:
            kwargs["importance"] = validate_importance(kwargs["importance"])
        for name, enum_type in (("type", MemoryType), ("tier", MemoryTier), ("source", ProvenanceLevel)):
            if name in kwargs:
                kwargs[name] = enum_type.parse(kwargs[name])
        for name in ("created_at", "updated_at", "last_accessed"):
            if name in kwargs:
                value = kwargs.pop(name)
                if value is None:
                    continue
                _require(isinstance(value, str), name, "an ISO timestamp string")
                try:
                    kwargs[name] = from_iso(value)
                except ValueError:
                    raise InvalidValue(f"field {name!r} is not an ISO timestamp: {value!r}") from None
                except OverflowError:
                    raise InvalidValue(f"field {name!r} is out of range: {value!r}") from None
        return cls(**kwargs)


_ENTRY_FIELDS = frozenset(f.name for f in fields(MemoryEntry))

# Counts (version, access_count) from outside: far beyond any real memory, and far
# below SQLite's 64-bit INTEGER, so `access_count + 1` never overflows in the store.
MAX_COUNT = 2**31 - 1


def _require(ok: Any, name: str, expected: str) -> None:
    if not ok:
        raise InvalidValue(f"field {name!r} must be {expected}")


def validate_importance(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidValue(f"importance must be a number, got {value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise InvalidValue(f"importance must be between 0 and 1, got {value}")
    return float(value)


@dataclass
class Episode:
    """The spec's Episode, plus identity, time and which summariser made it."""

    session_key: str
    summary: str
    message_range_start: int
    message_range_end: int
    entity_ids: list[str] = field(default_factory=list)
    importance: float = 0.5
    id: str = field(default_factory=new_id)
    created_at: datetime = field(default_factory=utcnow)
    produced_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["created_at"] = to_iso(self.created_at)
        return out


@dataclass
class Contradiction:
    """The spec's Contradiction, plus status, detector and creation time."""

    entry_a_id: str
    entry_b_id: str
    description: str
    confidence: float
    resolution: Optional[str] = None
    resolved_at: Optional[datetime] = None
    id: str = field(default_factory=new_id)
    created_at: datetime = field(default_factory=utcnow)
    status: ContradictionStatus = ContradictionStatus.PENDING
    detector: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["resolved_at"] = to_iso(self.resolved_at)
        out["created_at"] = to_iso(self.created_at)
        out["status"] = self.status.label
        return out


@dataclass(frozen=True)
class ScanResult:
    """The write scanner's verdict; when blocked, says why and where it matched."""

    blocked: bool
    reason: Optional[str] = None  # invisible_unicode | en_injection | zh_injection | learned_injection | too_large
    family: Optional[str] = None  # pattern family, e.g. instruction_override
    pattern: Optional[str] = None  # the rule that matched
    matched: Optional[str] = None  # the matched text (normalised form)
    codepoint: Optional[str] = None  # e.g. "U+200B" for invisible characters
    offset: Optional[int] = None  # character offset in the original content
    layer: Optional[str] = None  # which layer decided: "rules" | "learned" (None: nothing ran past the size check)
    score: Optional[float] = None  # the learned layer's score (a logit) when it ran
    threshold: Optional[float] = None  # the learned layer's threshold: blocked when score >= threshold
    top_ngrams: tuple[str, ...] = ()  # learned blocks: the n-grams that weighed most towards "attack"

    def to_dict(self) -> dict[str, Any]:
        """Every field by name, in order: a copy of the instance's dict, which holds exactly
        the fields (flat values: asdict's deep copy was a tenth of `scan --jsonl`)."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class AuditRecord:
    id: int
    at: datetime
    action: str
    actor: str
    entry_id: Optional[str]
    reason: str
    detail: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["at"] = to_iso(self.at)
        return out
