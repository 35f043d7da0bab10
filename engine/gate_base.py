"""What every part of the write gate stands on: the outcome types, the shape check
every stored string meets, the audit record of a write or a refusal, loading an
entry inside a transaction, the person-only check, and how many processes the
scanner uses for a large batch (warm_scanner starts them ahead of one).
engine/gate.py's WriteGate is built from GateBase and the parts (gate_retention.py,
gate_versions.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable, Optional

from .actors import Actor, AnyActor
from .config import Settings
from .errors import EntryNotFound, WriteRejected
from .fields import (
    AUDIT_EXCERPT_CHARS,
    MAX_KEY_CHARS,
    excerpt,
    require_str,
    validate_content,
    validate_id,
    validate_key,
    validate_session_key,
    validate_tags,
)
from .gate_bulk import Batch
from .models import (
    MemoryEntry,
    MemoryTier,
    ScanResult,
    utcnow,
    validate_importance,
)
from .scanner import CLEAN, MAX_CONTENT_CHARS, ScanAhead, scan_memory_content, warm_pool
from .store import ENTRY_COLUMNS, Store, row_to_entry

# A large batch's texts are scanned in this many processes at once (scan_many).
SCAN_PROCESSES = min(2, os.cpu_count() or 1)


def warm_scanner() -> None:
    """Start the worker processes a large batch's scan uses, without waiting, for a
    caller about to write one: their start-up (over a second) then overlaps the
    caller's own preparation instead of delaying its first batch."""
    warm_pool(SCAN_PROCESSES)


def scan_ahead() -> Optional[ScanAhead]:
    """A ScanAhead over the gate's scanner processes, for a caller about to check a large
    import; None on one core, where no other process could scan meanwhile."""
    return ScanAhead(SCAN_PROCESSES) if SCAN_PROCESSES > 1 else None


def entry_texts(entry: MemoryEntry) -> tuple[str, ...]:
    """Every free-text field a model could later read: content, key, tags and the
    session key. Ids have a grammar that leaves no room for text (validate_shape)."""
    return (entry.content, entry.key, *entry.tags, entry.source_session)


def scan_texts(*texts: str, scan: Callable[[str], ScanResult] = scan_memory_content) -> ScanResult:
    """The first refusal among texts, or a clean verdict."""
    for text in texts:
        result = scan(text)
        if result.blocked:
            return result
    return CLEAN


def scan_entry_text(entry: MemoryEntry, scan: Callable[[str], ScanResult] = scan_memory_content) -> ScanResult:
    """The first refusal among an entry's texts (entry_texts), in field order."""
    return scan_texts(*entry_texts(entry), scan=scan)


def submit_ahead(ahead: ScanAhead, entries: Iterable[MemoryEntry]) -> None:
    """Start scanning the texts the checks of ``entries`` will ask for (entry_texts)."""
    ahead.submit(text for entry in entries for text in entry_texts(entry))


def provenance_guard(existing: MemoryEntry, incoming: MemoryEntry) -> bool:
    """The spec's guard: a lower-credibility source never overwrites a higher one."""
    if incoming.source.value >= existing.source.value:
        return True
    return False


@dataclass
class WriteOutcome:
    action: str  # created | replaced | unchanged | updated
    entry: MemoryEntry
    replaced: Optional[MemoryEntry] = None
    changed: list[MemoryEntry] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = self.entry.to_dict()
        out["action"] = self.action
        if self.replaced is not None:
            out["replaced_id"] = self.replaced.id
        return out


@dataclass
class DecayChange:
    entry: MemoryEntry
    effective_importance: float
    action: str  # archive

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.entry.id,
            "key": self.entry.key,
            "type": self.entry.type.label,
            "tier": self.entry.tier.label,
            "importance": self.entry.importance,
            "effective_importance": round(self.effective_importance, 6),
            "action": self.action,
        }


def validate_shape(entry: MemoryEntry) -> None:
    """Every stored string of an entry, by type, length and grammar (engine/fields.py);
    content is measured first, so an oversize text costs nothing more. Content over
    the limit is left to the scanner, which refuses it as too_large (audited)."""
    if not (isinstance(entry.content, str) and len(entry.content) > MAX_CONTENT_CHARS):
        validate_content(entry.content)
    validate_key(entry.key)
    validate_tags(entry.tags)
    if entry.source_session:
        validate_session_key(entry.source_session, "source_session")
    else:
        require_str(entry.source_session, "source_session")
    validate_id(entry.id)
    validate_id(entry.embedding_id, "embedding_id", optional=True)
    validate_id(entry.episode_id, "episode_id", optional=True)
    if entry.superseded_by is not None:
        validate_id(entry.superseded_by, "superseded_by")
    validate_importance(entry.importance)


class GateBase:
    """The gate's state and the primitives its parts share."""

    if TYPE_CHECKING:  # defined by WriteGate (engine/gate.py), where the scanner is called
        _scan_or_reject: Callable[[MemoryEntry], None]
        _place_in: Callable[..., Awaitable[WriteOutcome]]

    def __init__(self, store: Store, settings: Settings, clock: Callable[[], datetime] = utcnow):
        self.store = store
        self.settings = settings
        self.clock = clock

    def _note(
        self, batch: Batch, action: str, actor: AnyActor, entry_id: Optional[str], reason: str = "", detail: Optional[dict] = None
    ) -> None:
        """An audit record, written when the batch flushes."""
        batch.audit(action, str(actor), entry_id, reason, detail, self.clock())

    async def _audit(
        self, conn, action: str, actor: AnyActor, entry_id: Optional[str], reason: str = "", detail: Optional[dict] = None
    ) -> None:
        await Store.audit(conn, action, str(actor), entry_id, reason, detail, at=self.clock())

    async def _audit_rejection(self, conn, exc: WriteRejected, entry: MemoryEntry, actor: AnyActor) -> None:
        await self._audit(conn, "reject", actor, *self._rejection(exc, entry))

    @staticmethod
    def _rejection(exc: WriteRejected, entry: MemoryEntry) -> tuple[Optional[str], str, dict]:
        """(entry id, reason, detail) of a refusal's audit record. The log keeps what was
        blocked, with why, for the quarantine view: the start of the text with its
        length and sha256, never a whole oversize refusal."""
        content = excerpt(entry.content)
        return (
            exc.detail.get("existing_id"),
            exc.reason,
            {
                "key": entry.key[:MAX_KEY_CHARS],
                "type": entry.type.label,
                "source": entry.source.label,
                "content": content.pop("excerpt"),
                "content_length": content["length"],
                "content_sha256": content["sha256"],
                "message": exc.message[:AUDIT_EXCERPT_CHARS],
                "scan": exc.scan.to_dict() if exc.scan else None,
            },
        )

    async def refuse_unless_person(self, actor: AnyActor, action: str, target: Optional[str] = None) -> Actor:
        """Person-only actions (restore, resolve, merge, undo, purge): anyone else is
        refused, and the attempt is audited."""
        actor = Actor.parse(actor)
        if actor.is_person:
            return actor
        exc = WriteRejected(
            "person_required",
            f"{action} needs a person; {actor.name!r} is {'an' if actor.kind.value[0] in 'aeiou' else 'a'} {actor.kind.value}",
            actor=actor.name,
            actor_kind=actor.kind.value,
        )
        async with self.store.transaction() as conn:
            await self._audit(conn, "reject", actor, target, exc.reason, {"action": action, "message": exc.message})
        raise exc

    async def _load(self, conn, entry_id: str) -> MemoryEntry:
        async with conn.execute(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id=?", (entry_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise EntryNotFound(entry_id)
        return row_to_entry(row)

    @staticmethod
    async def _exists(conn, entry_id: str) -> bool:
        async with conn.execute("SELECT 1 FROM entries WHERE id=?", (entry_id,)) as cur:
            return await cur.fetchone() is not None

    async def _load_live(self, conn, entry_id: str) -> MemoryEntry:
        entry = await self._load(conn, entry_id)
        if entry.superseded_by is not None or entry.tier is not MemoryTier.SEMANTIC:
            raise WriteRejected(
                "not_live",
                f"{entry_id} ({entry.key!r}) is no longer current: it is "
                f"{entry.tier.label}" + (f", superseded by {entry.superseded_by}" if entry.superseded_by else ""),
                id=entry_id,
            )
        return entry

    async def head_of(self, entry: MemoryEntry) -> MemoryEntry:
        """Follow superseded_by to the newest version."""
        seen = {entry.id}
        current = entry
        while current.superseded_by is not None:
            nxt = await self.store.get_entry(current.superseded_by)
            if nxt is None or nxt.id in seen:
                break
            seen.add(nxt.id)
            current = nxt
        return current

    @staticmethod
    def cap_source(entry: MemoryEntry, actor: Actor) -> MemoryEntry:
        """An actor stores at most its own provenance, whatever the entry claims (an
        agent's "user_stated" is model_inferred), and a pin only if it may pin; the
        audit record shows what landed."""
        capped, pinned = actor.cap(entry.source), entry.pinned and actor.may_pin
        return entry if (capped, pinned) == (entry.source, entry.pinned) else entry.with_fields(source=capped, pinned=pinned)

    @staticmethod
    def _refuse_other_type(batch: Batch, entry: MemoryEntry) -> None:
        """A key names one fact: while one type holds it live, the other type may not,
        so a prompt never shows two current values for one key."""
        holder = batch.other_type_holder(entry)
        if holder is not None:
            kind = holder.type.value
            raise WriteRejected(
                "key_taken",
                f"{entry.key!r} is already a {kind} memory ({holder.id}); write it as type {kind}, or archive that entry first",
                existing_id=holder.id,
            )
