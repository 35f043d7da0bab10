"""The gate's writes on version chains, inside the caller's transaction: a
contradiction resolved (supersede), undone (reinstate, unmerge), and a person's
undo of a write the app made (revert). Part of WriteGate."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Optional

from .actors import AnyActor
from .errors import WriteRejected
from .gate_base import GateBase, validate_shape
from .gate_bulk import Batch
from .models import (
    InvalidValue,
    MemoryEntry,
    MemoryTier,
)
from .store import Store


class VersionWrites(GateBase):
    """Writes on version chains; most take the caller's open transaction, so a
    resolution or its undo commits with the caller's own bookkeeping."""

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
        ours = {entry_id for entry_id, _, _ in originals}
        refusal = f"the merged entry {merged_id}; it cannot be removed"
        await self._discard(conn, merged, ours, "merge_in_use", refusal, actor, reason)
        return [
            await self.reinstate_in(conn, entry_id, tier, superseded_by, actor, reason)
            for entry_id, tier, superseded_by in originals
        ]

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
                refusal = f"{new.key!r} v{new.version}; it cannot be taken back"
                await self._discard(conn, new, ours, "version_in_use", refusal, actor, reason)
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

    async def _discard(
        self, conn, entry: MemoryEntry, ours: set[str], code: str, refusal: str, actor: AnyActor, reason: str
    ) -> None:
        """Delete a version an undo takes back (its content stays in the audit log),
        refused when an entry other than ours has come to point at it since."""
        async with conn.execute("SELECT id FROM entries WHERE superseded_by=?", (entry.id,)) as cur:
            strangers = {r[0] for r in await cur.fetchall()} - ours
        if strangers:
            raise WriteRejected(code, f"{', '.join(sorted(strangers))} now point at {refusal}", id=entry.id)
        await Store.delete_entry(conn, entry.id)
        await self._audit(
            conn, "discard", actor, entry.id, reason, {"key": entry.key, "version": entry.version, "content": entry.content}
        )
