"""echo-memory's embedded engine: the memory model of the spec, stored in SQLite,
written through one gate, recalled by a hybrid pipeline.

This package never imports Textual or Rich, and importing it does not import
torch: models load lazily. The app uses only the names exported here."""

from .actors import Actor, ActorKind
from .config import KNOBS, RECALL_KEYS, Knob, Settings, default_config_path, parse_assignments, register_section
from .consolidation.records import Lattice
from .errors import (
    ConfigError,
    ConsolidationError,
    EchoMemoryError,
    EntryNotFound,
    InvalidValue,
    ModelError,
    NotFound,
    ReadOnlyStore,
    RecallError,
    StoreError,
    WriteRejected,
)
from .gate import DecayChange, WriteOutcome, provenance_guard
from .memory import EntryFilter, EntryOrigin, ImportReport, MemoryEngine, StoreChange, UndoStep, WriterSeen
from .models import (
    AuditRecord,
    Contradiction,
    ContradictionStatus,
    Episode,
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    ScanResult,
)
from .paging import ladder_step
from .query import EpisodeQuery, parse_entry_filter, parse_episode_filter, parse_time
from .scanner import (
    LearnedStatus,
    learned_status,
    reveal_invisible,
    scan_memory_content,
    strip_invisible,
)
from .working import Rendered

__all__ = [
    "Actor",
    "ActorKind",
    "AuditRecord",
    "ConfigError",
    "ConsolidationError",
    "EchoMemoryError",
    "ModelError",
    "NotFound",
    "Contradiction",
    "ContradictionStatus",
    "DecayChange",
    "EntryFilter",
    "EntryNotFound",
    "Episode",
    "ImportReport",
    "InvalidValue",
    "KNOBS",
    "RECALL_KEYS",
    "Knob",
    "Lattice",
    "MemoryEngine",
    "MemoryEntry",
    "MemoryTier",
    "MemoryType",
    "ProvenanceLevel",
    "ReadOnlyStore",
    "RecallError",
    "Rendered",
    "ScanResult",
    "Settings",
    "StoreChange",
    "StoreError",
    "UndoStep",
    "WriteOutcome",
    "WriteRejected",
    "default_config_path",
    "parse_assignments",
    "provenance_guard",
    "register_section",
    "reveal_invisible",
    "scan_memory_content",
    "LearnedStatus",
    "learned_status",
    "strip_invisible",
    "EntryOrigin",
    "WriterSeen",
    "EpisodeQuery",
    "parse_entry_filter",
    "parse_episode_filter",
    "parse_time",
    "ladder_step",
]
