"""The one write path. Every change to stored memories — from the API, the CLI,
imports, consolidation and the app — passes here: the injection scanner, the
provenance guard, versioning, and the audit record, each change one transaction.

A refusal raises WriteRejected, is audited, and changes nothing else. Writes of
entries are decided against a Batch (engine/gate_bulk.py) and land set-based, so
one entry and an import of thousands take the same path, one transaction per
batch. Here: content writes (scanner, guard, versioning) and pin, archive and
restore; WriteGate also takes in gate_base.py (outcomes, shape check, audit),
gate_retention.py (purge, decay, episode retention) and gate_versions.py
(supersede, reinstate, unmerge, undo)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Callable, Iterable, Optional

from .actors import Actor, AnyActor
from .errors import EntryNotFound, WriteRejected
from .fields import (
    MAX_ENTITIES,
    MAX_KEY_CHARS,
    MAX_SUMMARY_CHARS,
    validate_content,
    validate_id,
    validate_name,
    validate_session_key,
)
from .gate_base import (
    SCAN_PROCESSES,
    DecayChange,
    GateBase,
    WriteOutcome,
    entry_texts,
    provenance_guard,
    scan_ahead,
    scan_entry_text,
    scan_texts,
    submit_ahead,
    validate_shape,
    warm_scanner,
)
from .gate_bulk import Batch
from .gate_retention import RetentionWrites
from .gate_versions import VersionWrites
from .models import (
    Episode,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    ProvenanceLevel,
    ScanResult,
    new_id,
    to_iso,
    validate_importance,
)
from .scanner import CLEAN, ScanAhead, refusals_many, scan_memory_content
from .store import Store

# A write of up to this many entries is checked (shape, scanner) on the event loop:
# a hop to a worker thread would cost more than the checks.
INLINE_CHECKS = 8
# A chain's entries as the checks left them (provenance capped), and each one's refusal or None.
CheckedChain = tuple[list[MemoryEntry], list[Optional[WriteRejected | InvalidValue]]]


class WriteGate(RetentionWrites, VersionWrites, GateBase):
    """Owns every mutation of entries. Callers get WriteOutcome or WriteRejected."""

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
        return await self.write_checked(await self.check_chains(chains, actor), actor, reason, verbatim)

    async def check_chains(
        self, chains: Iterable[list[MemoryEntry]], actor: AnyActor, ahead: Optional[ScanAhead] = None
    ) -> list[CheckedChain]:
        """The store-free half of write_chains (shape, provenance cap, scanner), for a
        caller that checks its next batch while the previous one is being written; the
        verdicts of texts it gave ``ahead`` (scan_ahead) come from there."""
        chains, actor = list(chains), Actor.parse(actor)
        if sum(map(len, chains)) > INLINE_CHECKS:
            return await asyncio.to_thread(self._check_chains, chains, actor, ahead)  # off the event loop
        return self._check_chains(chains, actor, ahead)

    async def write_checked(
        self, checked: list[CheckedChain], actor: AnyActor, reason: str = "", verbatim: bool = False
    ) -> list[list[WriteOutcome | WriteRejected | InvalidValue]]:
        """The store half of write_chains, for chains check_chains passed through."""
        # The audit records name the actor: str(Actor) parses its name, so once a batch.
        actor = str(Actor.parse(actor))
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
        self, chains: list[list[MemoryEntry]], actor: Actor, ahead: Optional[ScanAhead] = None
    ) -> list[CheckedChain]:
        """Field shape, the actor's provenance cap and the scanner, per entry: the CPU
        part of a write, which needs no store. The texts of every well-formed entry
        go to the scanner in one refusals_many call (each distinct text once, the learned
        layer batched); each entry then gets its first refusal in field order."""
        checked: list[CheckedChain] = []
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
        refused = refusals_many(texts, processes=SCAN_PROCESSES, ahead=ahead)
        if not refused:
            return checked  # the scanner passed every text: no entry has a refusal to find
        for capped, errors in checked:
            for k, entry in enumerate(capped):
                if errors[k] is None:
                    try:
                        self._scan_or_reject(entry, lambda text: refused.get(text, CLEAN))
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

    # ---- state changes -------------------------------------------------------------

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


__all__ = [
    "INLINE_CHECKS",
    "DecayChange",
    "EntryNotFound",
    "WriteGate",
    "WriteOutcome",
    "WriteRejected",
    "provenance_guard",
    "scan_entry_text",
    "scan_texts",
    "validate_shape",
    "entry_texts",
    "scan_ahead",
    "submit_ahead",
    "warm_scanner",
]
