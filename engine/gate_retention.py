"""The gate's lifecycle writes beyond a single edit: WORKING notes dropped, archived
entries purged (one, or all past retention), recall hits recorded as rehearsal,
decay passes, and episode retention (memory.maxEpisodes). Part of WriteGate."""

from __future__ import annotations

from datetime import timedelta
from typing import Iterable, Optional

from .actors import AnyActor
from .decay import below_threshold
from .errors import WriteRejected
from .fields import (
    MAX_KEY_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
)
from .gate_base import DecayChange, GateBase, WriteOutcome, validate_shape
from .models import (
    MAX_COUNT,
    Episode,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    to_iso,
)
from .store import ENTRY_COLUMNS, EPISODE_COLUMNS, Store, row_to_entry, row_to_episode


class RetentionWrites(GateBase):
    """Writes that end or age entries and episodes, each its own transaction."""

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
