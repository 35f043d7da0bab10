"""echo-memory's embedded engine: the memory model of the spec, stored in SQLite,
written through one gate, recalled by a hybrid pipeline.

This package never imports Textual or Rich, and importing it does not import
torch: models load lazily. The app uses only the names exported here."""

from .actors import Actor, ActorKind
from .config import KNOBS, ConfigError, Knob, Settings, default_config_path, parse_assignments
from .gate import DecayChange, EntryNotFound, WriteOutcome, WriteRejected, provenance_guard
from .memory import EntryFilter, ImportReport, MemoryEngine, StoreChange, UndoStep
from .models import (
    AuditRecord,
    Contradiction,
    ContradictionStatus,
    Episode,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    ScanResult,
)
from .scanner import LearnedStatus, learned_status, reveal_invisible, scan_memory_content, strip_invisible
from .store import ReadOnlyStore, StoreError
from .working import Rendered

__all__ = [
    "Actor", "ActorKind", "AuditRecord", "ConfigError", "Contradiction", "ContradictionStatus", "DecayChange", "EntryFilter",
    "EntryNotFound", "Episode", "ImportReport", "InvalidValue", "KNOBS", "Knob", "MemoryEngine", "MemoryEntry",
    "MemoryTier", "MemoryType", "ProvenanceLevel", "ReadOnlyStore", "Rendered", "ScanResult", "Settings",
    "StoreChange", "StoreError", "UndoStep", "WriteOutcome", "WriteRejected", "default_config_path", "parse_assignments",
    "provenance_guard", "reveal_invisible", "scan_memory_content",
    "LearnedStatus", "learned_status", "strip_invisible",
]
