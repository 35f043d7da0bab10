"""The one write path. Every change to stored memories — from the API, the CLI,
imports, consolidation and the app — passes here: the injection scanner, the
provenance guard, versioning, and the audit record, each change one transaction.

A refusal raises WriteRejected, is audited, and changes nothing else. Writes of
entries are decided against a Batch (engine/gate_bulk.py) and land set-based, so
one entry and an import of thousands take the same path, one transaction per
batch. Longer than the usual module: it is the whole rulebook of the write path."""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Optional

from .actors import Actor, AnyActor
from .config import Settings
from .decay import below_threshold
from .errors import EntryNotFound, WriteRejected
from .fields import (
    AUDIT_EXCERPT_CHARS,
    MAX_ENTITIES,
    MAX_KEY_CHARS,
    MAX_SUMMARY_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    excerpt,
    require_str,
    validate_content,
    validate_id,
    validate_key,
    validate_name,
    validate_session_key,
    validate_tags,
)
from .gate_bulk import Batch
from .models import (
    MAX_COUNT,
    Episode,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    ScanResult,
    new_id,
    to_iso,
    utcnow,
    validate_importance,
)
from .scanner import MAX_CONTENT_CHARS, scan_many, scan_memory_content
from .store import ENTRY_COLUMNS, EPISODE_COLUMNS, Store, row_to_entry, row_to_episode

# A write of up to this many entries is checked (shape, scanner) on the event loop:
# a hop to a worker thread would cost more than the checks.
INLINE_CHECKS = 8
# A large batch's texts are scanned in this many processes at once (scan_many).
SCAN_PROCESSES = min(2, os.cpu_count() or 1)


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


def scan_texts(*texts: str, scan: Callable[[str], ScanResult] = scan_memory_content) -> ScanResult:
    """The first refusal among texts, or a clean verdict."""
    for text in texts:
        result = scan(text)
        if result.blocked:
            return result
    return ScanResult(blocked=False)


def entry_texts(entry: MemoryEntry) -> tuple[str, ...]:
    """Every free-text field a model could later read: content, key, tags and the
    session key. Ids have a grammar that leaves no room for text (validate_shape)."""
    return (entry.content, entry.key, *entry.tags, entry.source_session)


def scan_entry_text(entry: MemoryEntry, scan: Callable[[str], ScanResult] = scan_memory_content) -> ScanResult:
    """The first refusal among an entry's texts (entry_texts), in field order."""
    return scan_texts(*entry_texts(entry), scan=scan)


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


class WriteGate:
    """Owns every mutation of entries. Callers get WriteOutcome or WriteRejected."""

    def __init__(self, store: Store, settings: Settings, clock: Callable[[], datetime] = utcnow):
        self.store = store
        self.settings = settings
        self.clock = clock

    # ---- content writes ------------------------------------------------------------
    async def write(self, incoming: MemoryEntry, actor: AnyActor, reason: str = "") -> WriteOutcome:
        """Create or replace the live entry for (type, key), as one audited transaction."""
        [result] = await self.write_many([incoming], actor, reason)
        if isinstance(result, Exception):
            raise result
        return result

    async def write_many(
        self, entries: Iterable[MemoryEntry], actor: AnyActor, reason: str = "", verbatim: bool = False
    ) -> list[WriteOutcome | WriteRejected | InvalidValue]:
        """Gate each entry in turn inside one transaction, one savepoint each: a refused
        entry is audited and rolled back alone, the rest land. Returns, per entry, its
        outcome or the exception that refused it.

        verbatim lands exported entries as they were (id, version, chain, timestamps);
        a live one that meets another live entry for its key is still a replacing write,
        so the provenance guard applies."""
        chains = await self.write_chains([[entry] for entry in entries], actor, reason, verbatim)
        return [result for [result] in chains]

    async def write_chains(
        self, chains: Iterable[list[MemoryEntry]], actor: AnyActor, reason: str = "", verbatim: bool = False
    ) -> list[list[WriteOutcome | WriteRejected | InvalidValue]]:
        """write_many for version chains: each chain lands whole or not at all (a
        checkpoint of the batch), so an import never leaves a superseded_by pointing at
        nothing. A refused member is audited; the members it held back get reason
        chain_refused. One transaction; the rows land set-based (engine/gate_bulk.py)."""
        actor = Actor.parse(actor)
        chains = list(chains)
        if sum(map(len, chains)) > INLINE_CHECKS:
            checked = await asyncio.to_thread(self._check_chains, chains, actor)  # off the event loop
        else:
            checked = self._check_chains(chains, actor)
        results: list[list[WriteOutcome | WriteRejected | InvalidValue]] = []
        async with self.store.transaction() as conn:
            batch = await Batch.load(conn, [entry for chain, errors in checked if not any(errors) for entry in chain])
            for chain, errors in checked:
                if not any(errors):
                    mark = batch.checkpoint()
                    outcomes: list[WriteOutcome | WriteRejected | InvalidValue] = []
                    try:
                        for entry in chain:
                            outcomes.append(self._apply(batch, entry, actor, reason, verbatim))
                        results.append(outcomes)
                        continue
                    except WriteRejected as exc:
                        batch.rollback(mark)
                        errors = [None] * len(chain)
                        errors[len(outcomes)] = exc
                for entry, error in zip(chain, errors):
                    if isinstance(error, WriteRejected) and error.reason != "duplicate_id":
                        self._note(batch, "reject", actor, *self._rejection(error, entry))
                results.append(
                    [
                        error or WriteRejected("chain_refused", "not written: another version in its chain was refused")
                        for error in errors
                    ]
                )
            await batch.flush(conn, self.clock())
        return results

    def _check_chains(
        self, chains: list[list[MemoryEntry]], actor: Actor
    ) -> list[tuple[list[MemoryEntry], list[Optional[WriteRejected | InvalidValue]]]]:
        """Field shape, the actor's provenance cap and the scanner, per entry: the CPU
        part of a write, which needs no store. The texts of every well-formed entry
        go to the scanner in one scan_many call (each distinct text once, the learned
        layer batched); each entry then gets its first refusal in field order."""
        checked: list[tuple[list[MemoryEntry], list[Optional[WriteRejected | InvalidValue]]]] = []
        for chain in chains:
            capped: list[MemoryEntry] = []
            errors: list[Optional[WriteRejected | InvalidValue]] = []
            for entry in chain:
                try:
                    validate_shape(entry)
                    entry = self.cap_source(entry, actor)
                    errors.append(None)
                except (InvalidValue, WriteRejected) as exc:
                    errors.append(exc)
                capped.append(entry)
            checked.append((capped, errors))
        texts = [text for capped, errors in checked for e, err in zip(capped, errors) if err is None for text in entry_texts(e)]
        verdicts = dict(zip(texts, scan_many(texts, processes=SCAN_PROCESSES)))
        for capped, errors in checked:
            for k, entry in enumerate(capped):
                if errors[k] is None:
                    try:
                        self._scan_or_reject(entry, verdicts.__getitem__)
                    except WriteRejected as exc:
                        errors[k] = exc
        return checked

    def _apply(self, batch: Batch, entry: MemoryEntry, actor: AnyActor, reason: str, verbatim: bool) -> WriteOutcome:
        if verbatim:
            if batch.exists(entry.id):
                raise WriteRejected("duplicate_id", f"an entry with id {entry.id} already exists", id=entry.id)
            if entry.superseded_by is not None or entry.tier in (MemoryTier.WORKING, MemoryTier.EPISODIC):
                batch.insert(entry)
                self._note(batch, "import", actor, entry.id, reason, {"key": entry.key, "version": entry.version})
                return WriteOutcome("created", entry, changed=[entry])
        elif entry.tier is MemoryTier.WORKING:
            return self._place_working(batch, entry, actor, reason)
        self._refuse_other_type(batch, entry)
        existing = batch.live(entry)
        if verbatim and existing is not None and entry.tier is MemoryTier.ARCHIVAL:
            raise WriteRejected(
                "key_taken",
                f"{entry.key!r} already has a current entry ({existing.id}); an archived entry from a file does not replace it",
                existing_id=existing.id,
            )
        outcome = self._place(batch, entry, existing, actor, reason, verbatim)
        if verbatim and existing is not None and outcome.action == "unchanged":
            # The live entry already says this: older versions imported before this
            # head now point at it, so no superseded_by names an entry never stored.
            for spliced in batch.pointing_at(entry.id):
                batch.update(replace(spliced, superseded_by=existing.id))
        return outcome

    def _place_working(self, batch: Batch, entry: MemoryEntry, actor: AnyActor, reason: str) -> WriteOutcome:
        """A session's WORKING notes hold one note per key: a newer note replaces the
        older one (under the guard), so the working prompt never shows a key twice."""
        previous = batch.working_note(entry)
        if previous is not None:
            self._guard_or_reject(previous, entry)
            batch.delete(previous.id)
            self._note(batch, "drop_working", actor, previous.id, f"replaced by {entry.id}")
        batch.insert(entry)
        self._note(batch, "write", actor, entry.id, reason, {"tier": "working", "key": entry.key})
        return WriteOutcome("replaced" if previous else "created", entry, replaced=previous, changed=[entry])

    @staticmethod
    def _guard_or_reject(existing: MemoryEntry, incoming: MemoryEntry) -> None:
        if not provenance_guard(existing, incoming):
            raise WriteRejected(
                "provenance_guard",
                f"a {incoming.source.label} write cannot replace {existing.key!r}, which is {existing.source.label}",
                existing_id=existing.id,
                existing_source=existing.source.label,
                incoming_source=incoming.source.label,
            )

    @staticmethod
    def cap_source(entry: MemoryEntry, actor: Actor) -> MemoryEntry:
        """An actor stores at most its own provenance, whatever the entry claims (an
        agent's "user_stated" is model_inferred), and a pin only if it may pin; the
        audit record shows what landed."""
        capped, pinned = actor.cap(entry.source), entry.pinned and actor.may_pin
        return entry if (capped, pinned) == (entry.source, entry.pinned) else replace(entry, source=capped, pinned=pinned)

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

    def _place(
        self,
        batch: Batch,
        incoming: MemoryEntry,
        existing: Optional[MemoryEntry],
        actor: AnyActor,
        reason: str,
        verbatim: bool = False,
    ) -> WriteOutcome:
        if existing is None:
            batch.insert(incoming)
            self._note(
                batch,
                "write",
                actor,
                incoming.id,
                reason,
                {"key": incoming.key, "source": incoming.source.label, "version": incoming.version},
            )
            return WriteOutcome("created", incoming, changed=[incoming])
        self._guard_or_reject(existing, incoming)
        same = (existing.content, existing.tags, existing.source, existing.importance)
        if (
            same == (incoming.content, incoming.tags, incoming.source, incoming.importance)
            and (existing.pinned or not incoming.pinned)
            and existing.tier is not MemoryTier.ARCHIVAL
        ):
            return WriteOutcome("unchanged", existing)
        now = incoming.created_at if verbatim else self.clock()
        new = replace(
            incoming,
            version=existing.version + 1,
            superseded_by=None,
            created_at=now,
            updated_at=incoming.updated_at if verbatim else now,
            pinned=incoming.pinned or existing.pinned,
            tier=MemoryTier.SEMANTIC,
        )
        old = replace(
            existing, superseded_by=new.id, tier=MemoryTier.ARCHIVAL, updated_at=now, pinned=False
        )  # the pin moves with the head (new.pinned), never doubles
        batch.insert(new)
        batch.update(old)
        batch.obsolete.append(old.id)  # its pending contradictions close at flush
        self._note(
            batch,
            "write",
            actor,
            new.id,
            reason,
            {
                "key": new.key,
                "source": new.source.label,
                "version": new.version,
                "supersedes": old.id,
            },
        )
        self._note(batch, "supersede", actor, old.id, reason, {"superseded_by": new.id})
        return WriteOutcome("replaced", new, replaced=old, changed=[new, old])

    def _note(
        self, batch: Batch, action: str, actor: AnyActor, entry_id: Optional[str], reason: str = "", detail: Optional[dict] = None
    ) -> None:
        """An audit record, written when the batch flushes."""
        batch.audit(action, str(actor), entry_id, reason, detail, self.clock())

    async def _audit(
        self, conn, action: str, actor: AnyActor, entry_id: Optional[str], reason: str = "", detail: Optional[dict] = None
    ) -> None:
        await Store.audit(conn, action, str(actor), entry_id, reason, detail, at=self.clock())

    @staticmethod
    def _scan_or_reject(entry: MemoryEntry, scan: Callable[[str], ScanResult] = scan_memory_content) -> None:
        result = scan_entry_text(entry, scan)
        if result.blocked:
            raise WriteRejected(
                result.reason or "blocked",
                f"the write scanner refused {entry.key!r}: {result.reason}"
                + (f" ({result.family})" if result.family else "")
                + (f" {result.codepoint} at offset {result.offset}" if result.codepoint else ""),
                scan=result,
            )

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

    # ---- state changes -------------------------------------------------------------
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

    async def _check_actor_may_archive(self, entry_id: str, actor: AnyActor) -> None:
        """An actor may archive only what it could have written."""
        entry = await self.store.get_entry(entry_id)
        if entry is None:
            raise EntryNotFound(entry_id)
        actor = Actor.parse(actor)
        if entry.source.value > actor.max_source.value:
            exc = WriteRejected(
                "provenance_guard",
                f"{actor.name!r} ({actor.kind.value}) may not archive {entry.key!r}, which is {entry.source.label}",
                existing_id=entry.id,
            )
            async with self.store.transaction() as conn:
                await self._audit(
                    conn, "reject", actor, entry.id, exc.reason, {"action": "archive", "key": entry.key, "message": exc.message}
                )
            raise exc

    async def set_pinned(self, entry_id: str, pinned: bool, actor: AnyActor) -> WriteOutcome:
        """A person only: a pin puts the entry in every prompt, beyond decay and automatic resolution."""
        actor = await self.refuse_unless_person(actor, "pin" if pinned else "unpin", entry_id)
        async with self.store.transaction() as conn:
            entry = await self._load(conn, entry_id)
            if entry.pinned == pinned:
                return WriteOutcome("unchanged", entry)
            updated = replace(entry, pinned=pinned, updated_at=self.clock())
            await Store.update_entry(conn, updated)
            await self._audit(conn, "pin" if pinned else "unpin", actor, entry_id)
            return WriteOutcome("updated", updated, changed=[updated])

    async def archive(self, entry_id: str, actor: AnyActor, reason: str = "manual") -> WriteOutcome:
        await self._check_actor_may_archive(entry_id, actor)
        async with self.store.transaction() as conn:
            entry = await self._load(conn, entry_id)
            if entry.tier is MemoryTier.ARCHIVAL:
                return WriteOutcome("unchanged", entry)
            if entry.tier is not MemoryTier.SEMANTIC:
                raise WriteRejected("bad_tier", f"only SEMANTIC entries can be archived; {entry_id} is {entry.tier.label}")
            updated = replace(entry, tier=MemoryTier.ARCHIVAL, updated_at=self.clock())
            await Store.update_entry(conn, updated)
            await self._audit(conn, "archive", actor, entry_id, reason)
            return WriteOutcome("updated", updated, changed=[updated])

    async def restore(self, entry_id: str, actor: AnyActor) -> WriteOutcome:
        """Bring an archived entry back to SEMANTIC, in one transaction.

        A decayed entry is reactivated (restore counts as an access, or the next decay
        pass would archive it again). A superseded version comes back as a new head
        version carrying its content, stated by the user who chose it, so the chain
        stays linear: v1 -> v2 -> v3 (content of v1). An entry that lost a contradiction
        to another key is not restored here: undoing that resolution is the way back.
        Only a person restores: a restored version is their statement."""
        actor = await self.refuse_unless_person(actor, "restore", entry_id)
        try:
            async with self.store.transaction() as conn:
                return await self._restore(conn, entry_id, actor)
        except WriteRejected as exc:
            if exc.scan is not None or exc.reason == "provenance_guard":
                entry = await self.store.get_entry(entry_id)
                async with self.store.transaction() as conn:
                    await self._audit_rejection(conn, exc, entry, actor)
            raise

    async def _restore(self, conn, entry_id: str, actor: AnyActor) -> WriteOutcome:
        entry = await self._load(conn, entry_id)
        if entry.tier is not MemoryTier.ARCHIVAL:
            raise WriteRejected("not_archived", f"{entry_id} is {entry.tier.label}, not archived; nothing to restore")
        now = self.clock()
        existing = await self.store.current_for_key(conn, entry.type, entry.key)
        if entry.superseded_by is None:
            if existing is not None and existing.id != entry.id and existing.tier is not MemoryTier.ARCHIVAL:
                raise WriteRejected(
                    "key_taken", f"{entry.key!r} has a live entry {existing.id}; restore that chain's version instead"
                )
            # It comes back into prompts: it meets today's rules and scanner again.
            validate_shape(entry)
            self._scan_or_reject(entry)
            self._refuse_other_type(await Batch.load(conn, [entry]), entry)
            updated = replace(entry, tier=MemoryTier.SEMANTIC, updated_at=now, last_accessed=now)
            await Store.update_entry(conn, updated)
            await self._audit(conn, "restore", actor, entry_id, "reactivated")
            return WriteOutcome("updated", updated, changed=[updated])
        head = await self.head_of(entry)
        if (head.type, head.key) != (entry.type, entry.key):
            raise WriteRejected(
                "resolved_away",
                f"{entry_id} ({entry.key!r}) lost to {head.key!r} ({head.id}) "
                "in a contradiction resolution or merge; undo that resolution to bring it back",
                head_id=head.id,
            )
        incoming = replace(
            entry,
            id=new_id(),
            source=ProvenanceLevel.USER_STATED,
            tier=MemoryTier.SEMANTIC,
            superseded_by=None,
            access_count=0,
            created_at=now,
            updated_at=now,
            last_accessed=now,
            pinned=head.pinned,
        )
        validate_shape(incoming)
        self._scan_or_reject(incoming)
        return await self._place_in(conn, incoming, actor, f"restore of version {entry.version} ({entry.id})")

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

    async def drop_working(self, entry_ids: Iterable[str], actor: AnyActor, reason: str) -> None:
        """Remove WORKING rows (evicted from the ring buffer, or consolidated at session end)."""
        async with self.store.transaction() as conn:
            for entry_id in entry_ids:
                cur = await conn.execute("DELETE FROM entries WHERE id=? AND tier='working'", (entry_id,))
                if cur.rowcount:
                    await Store.log_change(conn, entry_id, "delete")
                    await self._audit(conn, "drop_working", actor, entry_id, reason)

    async def purge(self, entry_id: str, actor: AnyActor) -> WriteOutcome:
        """Delete an archived entry for good, splicing any version pointing at it (a person only)."""
        actor = await self.refuse_unless_person(actor, "purge", entry_id)
        async with self.store.transaction() as conn:
            entry = await self._load(conn, entry_id)
            if entry.tier is not MemoryTier.ARCHIVAL:
                raise WriteRejected("not_archived", f"only archived entries can be purged; {entry_id} is {entry.tier.label}")
            await conn.execute("UPDATE entries SET superseded_by=? WHERE superseded_by=?", (entry.superseded_by, entry_id))
            async with conn.execute(
                "SELECT id FROM entries WHERE superseded_by IS ? AND id != ?", (entry.superseded_by, entry_id)
            ) as cur:
                spliced = [r[0] for r in await cur.fetchall()] if entry.superseded_by else []
            for other in spliced:
                await Store.log_change(conn, other, "update")
            await Store.delete_entry(conn, entry_id)
            await self._audit(
                conn, "purge", actor, entry_id, "", {"key": entry.key, "version": entry.version, "content": entry.content}
            )
            return WriteOutcome("purged", entry)

    async def purge_expired(self, actor: AnyActor, dry_run: bool = False) -> list[MemoryEntry]:
        """Purge archived entries not updated for memory.purgeRetentionDays (a person only);
        dry_run lists them and purges nothing."""
        actor = await self.refuse_unless_person(actor, "purge")
        cutoff = self.clock() - timedelta(days=float(self.settings.get("memory.purgeRetentionDays")))
        rows = await self.store.fetchall(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE tier='archival' AND pinned=0 AND updated_at < ?",
            (to_iso(cutoff),),
        )
        if dry_run:
            return [row_to_entry(row) for row in rows]
        purged = []
        for row in rows:
            purged.append((await self.purge(row[0], actor)).entry)
        return purged

    async def record_access(self, entry_ids: Iterable[str]) -> None:
        """Rehearsal: each recall hit bumps access_count and last_accessed. Not journaled
        in change_log: it changes no text, tier or chain, and a row per hit grew the
        journal with every read."""
        ids = list(dict.fromkeys(entry_ids))
        if not ids:
            return
        now = to_iso(self.clock())
        async with self.store.transaction() as conn:
            for entry_id in ids:
                await conn.execute(  # capped where imports stop, so an export always imports back
                    "UPDATE entries SET access_count=min(access_count+1, ?), last_accessed=? WHERE id=?",
                    (MAX_COUNT, now, entry_id),
                )

    async def decay_pass(self, apply: bool, actor: AnyActor) -> list[DecayChange]:
        """Archive every live SEMANTIC entry whose effective importance fell under the threshold."""
        threshold = float(self.settings.get("memory.archiveThreshold"))
        rows = await self.store.fetchall(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE tier='semantic' AND superseded_by IS NULL")
        changes = [
            DecayChange(entry, eff, "archive")
            for entry, eff in below_threshold(map(row_to_entry, rows), self.clock(), self.settings.half_life_days, threshold)
        ]
        if apply and changes:
            changes = await self.archive_decayed(changes, actor)
        return changes

    async def retain_episodes(self, apply: bool, actor: AnyActor) -> list[DecayChange]:
        """The spec's EPISODIC rule, "retained by importance": past memory.maxEpisodes,
        the least important episodes (oldest first among equals) leave the tier. Each
        is demoted, not lost: its summary becomes an ARCHIVAL entry (restorable, purged
        like any archived entry) written here, scanned and audited, in the transaction
        that deletes the episode. Never demoted: an episode a pinned memory came from,
        or one whose session is not yet consolidated through it."""
        cap = int(self.settings.get("memory.maxEpisodes"))
        total = (await self.store.fetchone("SELECT count(*) FROM episodes"))[0]
        if total <= cap:
            return []
        rows = await self.store.fetchall(
            f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE message_range_end <= "
            "(SELECT consolidated_through FROM sessions WHERE key=episodes.session_key) AND id NOT IN "
            "(SELECT episode_id FROM entries WHERE pinned=1 AND episode_id IS NOT NULL)"
        )
        episodes = sorted(map(row_to_episode, rows), key=lambda e: (e.importance, e.created_at, e.id))
        changes = [
            DecayChange(self._archived_episode(e), e.importance, "demote_episode") for e in episodes[: max(0, total - cap)]
        ]
        if apply and changes:
            async with self.store.transaction() as conn:
                applied = []
                for change in changes:
                    entry = change.entry
                    try:
                        validate_shape(entry)
                        self._scan_or_reject(entry)
                    except (InvalidValue, WriteRejected):
                        continue  # a summary the write rules refuse today stays an episode, never an entry
                    cur = await conn.execute("DELETE FROM episodes WHERE id=?", (entry.episode_id,))
                    if not cur.rowcount:
                        continue  # gone meanwhile
                    await self._place_in(conn, entry, actor, "episode retention")
                    await self._audit(
                        conn,
                        "demote_episode",
                        actor,
                        entry.id,
                        "memory.maxEpisodes",
                        {
                            "episode": entry.episode_id,
                            "session": entry.source_session,
                            "importance": change.effective_importance,
                            "max_episodes": cap,
                        },
                    )
                    applied.append(change)
                changes = applied
        return changes

    def _archived_episode(self, episode: Episode) -> MemoryEntry:
        """The ARCHIVAL entry an episode is demoted to."""
        now = self.clock()
        tags = ["episode", *(t for t in episode.entity_ids if len(t) <= MAX_TAG_CHARS)][:MAX_TAGS]
        return MemoryEntry(
            key=f"episode/{episode.session_key}#{episode.message_range_start}-{episode.message_range_end}"[:MAX_KEY_CHARS],
            content=episode.summary,
            type=MemoryType.ENVIRONMENT,
            tier=MemoryTier.ARCHIVAL,
            tags=tags,
            source_session=episode.session_key,
            importance=episode.importance,
            episode_id=episode.id,
            source=ProvenanceLevel.CONSOLIDATED,
            created_at=episode.created_at,
            updated_at=now,
            last_accessed=now,
        )

    async def archive_decayed(
        self, changes: list[DecayChange], actor: AnyActor, summary: Optional[dict] = None
    ) -> list[DecayChange]:
        """Archive decay candidates in one transaction (all that still qualify, or none on an
        error); summary, when given, is audited in it as one `decay_run` record."""
        now = self.clock()
        threshold = float(self.settings.get("memory.archiveThreshold"))
        applied = []
        async with self.store.transaction() as conn:
            for change in changes:
                # Re-check in the write transaction: a pin, access or new version since
                # the read wins over this pass.
                cur = await conn.execute(
                    "UPDATE entries SET tier='archival', updated_at=? WHERE id=? AND tier='semantic' "
                    "AND superseded_by IS NULL AND pinned=0 AND access_count=? AND last_accessed=?",
                    (to_iso(now), change.entry.id, change.entry.access_count, to_iso(change.entry.last_accessed)),
                )
                if not cur.rowcount:
                    continue
                applied.append(change)
                await Store.log_change(conn, change.entry.id, "update")
                await self._audit(
                    conn,
                    "archive",
                    actor,
                    change.entry.id,
                    "decay",
                    {"effective_importance": change.effective_importance, "threshold": threshold},
                )
            if summary is not None:
                await self._audit(conn, "decay_run", actor, None, "cancelled" if summary.get("cancelled") else "", summary)
        return applied

    # ---- consolidation and contradiction resolution --------------------------------
    # These take the caller's open transaction, so a fact, a supersession or an undo
    # commits (or rolls back) together with the caller's own bookkeeping.
    async def write_in(self, conn, incoming: MemoryEntry, actor: AnyActor, reason: str = "") -> WriteOutcome:
        """write() inside an open transaction. A refusal raises before anything is
        written; the caller audits it (audit_refusal_in, or audit_refusal after rollback)."""
        validate_shape(incoming)
        if incoming.tier is not MemoryTier.SEMANTIC:
            raise InvalidValue(f"only SEMANTIC writes can join a transaction; got {incoming.tier.label}")
        incoming = self.cap_source(incoming, Actor.parse(actor))
        self._scan_or_reject(incoming)
        return await self._place_in(conn, incoming, actor, reason)

    async def _place_in(self, conn, incoming: MemoryEntry, actor: AnyActor, reason: str) -> WriteOutcome:
        """One checked SEMANTIC write in the caller's transaction: a batch of one."""
        batch = await Batch.load(conn, [incoming])
        self._refuse_other_type(batch, incoming)
        outcome = self._place(batch, incoming, batch.live(incoming), actor, reason)
        await batch.flush(conn, self.clock())
        return outcome

    async def audit_refusal_in(self, conn, exc: WriteRejected, entry: MemoryEntry, actor: AnyActor) -> None:
        """Record a refused write inside the caller's transaction (which will commit)."""
        await self._audit_rejection(conn, exc, entry, actor)

    async def audit_refusal(self, exc: WriteRejected, entry: MemoryEntry, actor: AnyActor) -> None:
        """Record a refused write after the caller's transaction rolled back."""
        async with self.store.transaction() as conn:
            await self._audit_rejection(conn, exc, entry, actor)

    async def write_episode_in(self, conn, episode: Episode, actor: AnyActor) -> None:
        """Episodes are memory a model reads back: every field is validated, and the
        summary, entity ids and session key meet the scanner."""
        validate_session_key(episode.session_key)
        validate_content(episode.summary, "summary", MAX_SUMMARY_CHARS)
        validate_id(episode.id)
        if len(episode.entity_ids) > MAX_ENTITIES:
            raise InvalidValue(f"{len(episode.entity_ids)} entities; the limit is {MAX_ENTITIES}")
        for entity in episode.entity_ids:
            validate_name(entity, "entity", MAX_KEY_CHARS)
        result = scan_texts(episode.summary, *episode.entity_ids, episode.session_key)
        if result.blocked:
            raise WriteRejected(
                result.reason or "blocked",
                f"the write scanner refused an episode of {episode.session_key!r}: {result.reason}",
                scan=result,
            )
        await conn.execute(
            "INSERT INTO episodes(id, session_key, summary, message_range_start, message_range_end, entity_ids, "
            "importance, created_at, produced_by) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                episode.id,
                episode.session_key,
                episode.summary,
                episode.message_range_start,
                episode.message_range_end,
                json.dumps(episode.entity_ids, ensure_ascii=False),
                validate_importance(episode.importance),
                to_iso(episode.created_at),
                episode.produced_by,
            ),
        )
        await self._audit(
            conn,
            "episode",
            actor,
            episode.id,
            "",
            {
                "session": episode.session_key,
                "range": [episode.message_range_start, episode.message_range_end],
                "produced_by": episode.produced_by,
            },
        )

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

    async def supersede_in(
        self, conn, loser_id: str, winner_id: str, actor: AnyActor, reason: str, detail: Optional[dict] = None
    ) -> MemoryEntry:
        """Resolve a conflict between two live entries: the loser points at the winner
        and moves to ARCHIVAL. Returns the loser as stored now."""
        if loser_id == winner_id:
            raise InvalidValue("an entry cannot supersede itself")
        loser = await self._load_live(conn, loser_id)
        await self._load_live(conn, winner_id)
        now = self.clock()
        updated = replace(loser, superseded_by=winner_id, tier=MemoryTier.ARCHIVAL, updated_at=now)
        await Store.update_entry(conn, updated)
        await self._audit(conn, "supersede", actor, loser_id, reason, {"superseded_by": winner_id, **(detail or {})})
        return updated

    async def reinstate_in(
        self, conn, entry_id: str, tier: MemoryTier, superseded_by: Optional[str], actor: AnyActor, reason: str
    ) -> MemoryEntry:
        """Put an entry back to the tier and supersession it had (undo of a resolution),
        refusing when its key has meanwhile been taken by another live entry."""
        entry = await self._load(conn, entry_id)
        if superseded_by is None and tier is MemoryTier.SEMANTIC:
            await self._refuse_second_head(conn, entry)
        updated = replace(entry, tier=tier, superseded_by=superseded_by, updated_at=self.clock())
        await Store.update_entry(conn, updated)
        await self._audit(conn, "reinstate", actor, entry_id, reason, {"tier": tier.label, "superseded_by": superseded_by})
        return updated

    async def _refuse_second_head(self, conn, entry: MemoryEntry) -> None:
        """An entry coming back live may not sit beside another live entry for its key."""
        batch = await Batch.load(conn, [entry])
        holder = batch.live(entry)
        if holder is not None and holder.id != entry.id and holder.tier is MemoryTier.SEMANTIC:
            raise WriteRejected(
                "key_taken",
                f"{entry.key!r} now has a live entry {holder.id}; {entry.id} cannot come back beside it",
                existing_id=holder.id,
            )
        self._refuse_other_type(batch, entry)

    async def unmerge_in(
        self, conn, merged_id: str, originals: Iterable[tuple[str, MemoryTier, Optional[str]]], actor: AnyActor, reason: str
    ) -> list[MemoryEntry]:
        """Undo a merge: delete the merged entry (its content stays in the audit log) and
        reinstate the entries it superseded. Refused once the merged entry has a newer
        version or something else came to point at it."""
        merged = await self._load_live(conn, merged_id)
        originals = list(originals)
        async with conn.execute("SELECT id FROM entries WHERE superseded_by=?", (merged_id,)) as cur:
            pointing = {r[0] for r in await cur.fetchall()}
        strangers = pointing - {entry_id for entry_id, _, _ in originals}
        if strangers:
            raise WriteRejected(
                "merge_in_use",
                f"{', '.join(sorted(strangers))} now point at the merged entry {merged_id}; it cannot be removed",
                id=merged_id,
            )
        await Store.delete_entry(conn, merged_id)
        await self._audit(
            conn, "discard", actor, merged_id, reason, {"key": merged.key, "version": merged.version, "content": merged.content}
        )
        return [
            await self.reinstate_in(conn, entry_id, tier, superseded_by, actor, reason)
            for entry_id, tier, superseded_by in originals
        ]

    # ---- undo: a person takes back a write the app made ----------------------------
    async def revert(
        self, before: Iterable[MemoryEntry], created: Iterable[str], actor: AnyActor, reason: str = "undo"
    ) -> list[MemoryEntry]:
        """Put entries back as they were before a write, in one transaction (a person only).

        The versions the write created are removed (their content stays in the audit
        log); an entry the write purged is re-inserted verbatim, with its place in its
        chain; every other entry gets back its tier, supersession, pin and last access.
        Refused, with nothing written, when the store has moved on: a created version
        has a newer one, or another live entry now holds a key that would come back."""
        actor = await self.refuse_unless_person(actor, "undo")
        before, created = list(before), list(created)
        ours = {e.id for e in before} | set(created)
        now = self.clock()
        async with self.store.transaction() as conn:
            for new_id in created:
                new = await self._load_live(conn, new_id)
                async with conn.execute("SELECT id FROM entries WHERE superseded_by=?", (new_id,)) as cur:
                    strangers = {r[0] for r in await cur.fetchall()} - ours
                if strangers:
                    raise WriteRejected(
                        "version_in_use",
                        f"{', '.join(sorted(strangers))} now point at {new.key!r} v{new.version}; it cannot be taken back",
                        id=new_id,
                    )
                await Store.delete_entry(conn, new_id)
                await self._audit(
                    conn, "discard", actor, new_id, reason, {"key": new.key, "version": new.version, "content": new.content}
                )
            missing = [e for e in before if not await self._exists(conn, e.id)]
            for old in missing:  # purged: back verbatim, scanned like any import
                validate_shape(old)
                self._scan_or_reject(old)
                await Store.insert_entry(conn, old)
                await self._audit(conn, "unpurge", actor, old.id, reason, {"key": old.key, "version": old.version})
            reverted = list(missing)
            for old in before:
                if old in reverted:
                    continue
                current = await self._load(conn, old.id)
                state = (old.tier, old.superseded_by, old.pinned, old.last_accessed)
                if state == (current.tier, current.superseded_by, current.pinned, current.last_accessed):
                    continue
                if old.superseded_by is None and old.tier is MemoryTier.SEMANTIC:
                    await self._refuse_second_head(conn, current)
                updated = replace(
                    current,
                    tier=old.tier,
                    superseded_by=old.superseded_by,
                    pinned=old.pinned,
                    last_accessed=old.last_accessed,
                    updated_at=now,
                )
                await Store.update_entry(conn, updated)
                await self._audit(
                    conn,
                    "undo",
                    actor,
                    old.id,
                    reason,
                    {"tier": old.tier.label, "superseded_by": old.superseded_by, "pinned": old.pinned},
                )
                reverted.append(updated)
        return reverted
