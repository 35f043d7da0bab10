"""MemoryEngine: the engine's public face. The CLI, importers, consolidation and
the app call this; it reads through the store and writes through the gate.

This module holds the reads and the single-entry writes; the rest of the facade
lives in engine/facade/ by responsibility (sources, jobs, sessions, recall,
transfer, curation) and is mixed in here, so callers see one class."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from . import paging
from .actors import AnyActor
from .decay import curve, days_until_threshold, decay_factor, effective_importance, half_life_days
from .facade.core import EngineCore
from .facade.curation import CurationMixin, Decision, UndoStep
from .facade.filter import SORTABLE, EntryFilter
from .facade.jobs import JobRun, JobsMixin
from .facade.recall import RecallHistory, RecallMixin, RecallRecord
from .facade.sessions import SessionsMixin
from .facade.sources import EntryOrigin, SourcesMixin, StoreChange, WriterSeen, origin_label
from .facade.transfer import IMPORT_BATCH, ImportReport, TransferMixin, import_place
from .fields import validate_tags
from .gate import DecayChange, EntryNotFound, WriteOutcome, WriteRejected
from .models import (
    AuditRecord,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    validate_importance,
)
from .paging import Key, Page
from .store import ENTRY_COLUMNS, row_to_entry


class MemoryEngine(SourcesMixin, JobsMixin, SessionsMixin, RecallMixin, TransferMixin, CurationMixin, EngineCore):
    """One open store with its settings, gate and (lazily) recall.

    `actor` is who this engine writes as when a call names no one: the app and the
    CLI open it as the person; anything else defaults to an agent, which stores at
    most model_inferred and may not pin, restore, resolve, merge, undo, purge or
    trust an import's provenance."""

    # ---- reads ---------------------------------------------------------------------
    async def resolve_id(self, id_or_prefix: str) -> str:
        """A full id, or the one id that starts with a prefix of at least 4 characters."""
        if await self.store.get_entry(id_or_prefix) is not None:
            return id_or_prefix
        if len(id_or_prefix) >= 4:
            rows = await self.store.fetchall(
                "SELECT id FROM entries WHERE id >= ? AND id < ? LIMIT 2", (id_or_prefix, id_or_prefix + "\uffff")
            )
            if len(rows) == 1:
                return rows[0][0]
            if len(rows) > 1:
                raise InvalidValue(f"id prefix {id_or_prefix!r} matches more than one entry; give more characters")
        raise EntryNotFound(id_or_prefix)

    async def list_entries(
        self,
        flt: Optional[EntryFilter] = None,
        order_by: str = "updated_at",
        descending: bool = True,
        limit: Optional[int] = None,
        offset: int = 0,
    ) -> list[MemoryEntry]:
        if order_by not in SORTABLE:
            raise InvalidValue(f"cannot sort by {order_by!r}; choose one of {', '.join(SORTABLE)}")
        where, params = (flt or EntryFilter()).where()
        sql = f"SELECT {ENTRY_COLUMNS} FROM entries{where} ORDER BY {paging.order_sql(order_by, descending)}"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return [row_to_entry(r) for r in await self.store.fetchall(sql, params)]

    async def page_entries(
        self,
        flt: Optional[EntryFilter],
        order_by: str,
        descending: bool,
        limit: int,
        anchor: Optional[Key] = None,
        skip: int = 0,
        backward: bool = False,
        matching: Optional[int] = None,
    ) -> Page:
        """A keyset read for the browser: see engine/paging.py."""
        where = (flt or EntryFilter()).where()
        return await paging.read_page(self.store, where, order_by, descending, limit, anchor, skip, backward, matching)

    async def key_ladder(
        self, flt: Optional[EntryFilter], order_by: str, descending: bool, step: int, matching: Optional[int] = None
    ) -> list[Key]:
        """Every `step`-th row's key, for reaching any row by seek (engine/paging.py)."""
        return await paging.key_ladder(self.store, (flt or EntryFilter()).where(), order_by, descending, step, matching)

    async def count_entries(self, flt: Optional[EntryFilter] = None) -> int:
        where, params = (flt or EntryFilter()).where()
        row = await self.store.fetchone(f"SELECT count(*) FROM entries{where}", params)
        return row[0]

    async def stats(self) -> dict[str, Any]:
        """The counts the app shows at open and after writes. Tiers, types, sources and pins
        come from one pass over the covering index entries_stats (a handful of groups),
        the rest from partial or small indexes: at 1M entries the per-count table scans
        took seconds and held the one connection the browser pages through."""
        tiers = {t.label: 0 for t in MemoryTier}
        types = {t.label: 0 for t in MemoryType}
        by_tier_type = {t.label: {m.label: 0 for m in MemoryType} for t in MemoryTier}
        sources = {p.label: 0 for p in ProvenanceLevel}
        pinned = 0
        groups = "SELECT tier, type, source, pinned, count(*) FROM entries GROUP BY tier, type, source, pinned"
        for tier, type_, src, pin, n in await self.store.fetchall(groups):
            tiers[tier] += n
            by_tier_type[tier][type_] += n
            if tier != MemoryTier.WORKING.label:
                types[type_] += n
            sources[ProvenanceLevel(src).label] += n
            pinned += n if pin else 0
        one = self.store.fetchone
        tiers["episodic"] += (await one("SELECT count(*) FROM episodes"))[0]
        return {
            "tiers": tiers,
            "types": types,
            "by_tier_type": by_tier_type,
            "sources": sources,
            "pinned": pinned,
            "superseded": (await one("SELECT count(*) FROM entries WHERE superseded_by IS NOT NULL"))[0],
            "pending_contradictions": (await one("SELECT count(*) FROM contradictions WHERE status='pending'"))[0],
            "blocked_writes": (await one("SELECT count(*) FROM audit WHERE action='reject'"))[0],
            "reembed_queue": (await one("SELECT count(*) FROM reembed_queue"))[0],
            "schema_version": await self.store.schema_version(),
            "read_only": self.read_only,
            "path": str(self.path),
        }

    async def audit(self, entry_id: Optional[str] = None, action: Optional[str] = None, limit: int = 500) -> list[AuditRecord]:
        return await self.store.audit_records(entry_id, action, limit)

    async def quarantine(self, limit: int = 500) -> list[AuditRecord]:
        """Writes the scanner or a guard refused, newest first."""
        return await self.store.audit_records(None, "reject", limit)

    def effective_importance(self, entry: MemoryEntry) -> float:
        """The forgetting curve's value for ``entry`` now: what a list of entries shows per
        row. explain_decay computes this too, beside a curve of horizon_days points that a
        page of a hundred rows has no use for (~10 ms a page on the app's event loop, measured)."""
        return effective_importance(entry, self.clock(), self.settings.half_life_days)

    def explain_decay(self, entry: MemoryEntry, horizon_days: int = 180) -> dict[str, Any]:
        """Numbers for the detail pane: factor, effective importance, days left, and the
        curve of effective importance over the next horizon_days if nothing recalls it."""
        now = self.clock()
        base = self.settings.half_life_days
        threshold = float(self.settings.get("memory.archiveThreshold"))
        return {
            "factor": decay_factor(entry, now, base),
            "effective_importance": effective_importance(entry, now, base),
            "threshold": threshold,
            "half_life_days": half_life_days(entry.access_count, base),
            "days_until_archive": days_until_threshold(entry, now, base, threshold),
            "curve": curve(entry, now, base, horizon_days),
        }

    # ---- writes --------------------------------------------------------------------
    async def add(
        self,
        key: str,
        content: str,
        type: MemoryType | str = MemoryType.ENVIRONMENT,
        source: ProvenanceLevel | str = ProvenanceLevel.MODEL_INFERRED,
        tags: Iterable[str] = (),
        importance: float = 0.5,
        pinned: bool = False,
        source_session: str = "",
        episode_id: Optional[str] = None,
        actor: AnyActor = None,
        reason: str = "",
    ) -> WriteOutcome:
        """A write through the gate. The source is capped at what the actor may state
        (an agent's writes land as model_inferred at most, and unpinned)."""
        now = self.clock()
        if not isinstance(pinned, bool):
            raise InvalidValue(f"pinned must be true or false, got {pinned!r}")
        entry = MemoryEntry(
            key=key,
            content=content,
            type=MemoryType.parse(type),
            tier=MemoryTier.SEMANTIC,
            tags=validate_tags(tags),
            source_session=source_session,
            created_at=now,
            updated_at=now,
            importance=validate_importance(importance),
            last_accessed=now,
            source=ProvenanceLevel.parse(source),
            pinned=pinned,
            episode_id=episode_id,
        )
        return await self.gate.write(entry, self.who(actor), reason)

    async def edit(self, entry_id: str, content: str, actor: AnyActor = None) -> WriteOutcome:
        """An edit: a new version of the same key, stated by the user when a person
        edits (an agent's edit is model_inferred and meets the guard)."""
        current = await self.get(entry_id)
        if current.superseded_by is not None:
            raise WriteRejected("superseded", f"{entry_id} is an old version; edit the current one")
        incoming = self._next_version(current, content=content, source=ProvenanceLevel.USER_STATED)
        return await self.gate.write(incoming, self.who(actor), "edit")

    async def pin(self, entry_id: str, actor: AnyActor = None) -> WriteOutcome:
        return await self.gate.set_pinned(entry_id, True, self.who(actor))

    async def unpin(self, entry_id: str, actor: AnyActor = None) -> WriteOutcome:
        return await self.gate.set_pinned(entry_id, False, self.who(actor))

    async def archive(self, entry_id: str, actor: AnyActor = None) -> WriteOutcome:
        return await self.gate.archive(entry_id, self.who(actor))

    async def restore(self, entry_id: str, actor: AnyActor = None) -> WriteOutcome:
        """A person only: a restored version becomes their statement."""
        return await self.gate.restore(entry_id, self.who(actor))

    async def purge(self, entry_id: str, actor: AnyActor = None) -> WriteOutcome:
        """A person only."""
        return await self.gate.purge(entry_id, self.who(actor))

    async def purge_expired(self, actor: AnyActor = None, dry_run: bool = False) -> list[MemoryEntry]:
        return await self.gate.purge_expired(self.who(actor), dry_run)

    async def decay(self, dry_run: bool = True, actor: AnyActor = None) -> list[DecayChange]:
        return await self.gate.decay_pass(apply=not dry_run, actor=self.who(actor))

    async def retain_episodes(self, dry_run: bool = True, actor: AnyActor = None) -> list[DecayChange]:
        """Episodes past memory.maxEpisodes, least important first, demoted to ARCHIVAL entries."""
        return await self.gate.retain_episodes(apply=not dry_run, actor=self.who(actor))

    # ---- what needs the whole engine: folder sync and evaluation over recall ---------------
    @staticmethod
    def sync_formats() -> tuple[str, ...]:
        """The agent memory formats a folder sync reads and writes (hermes, echo-agent)."""
        from .bridge.sync import FORMATS

        return tuple(FORMATS)

    async def watch_folder(
        self, fmt: str, folder: str | os.PathLike, write_back: bool, on_report: Callable[[Any], None], stop_event: asyncio.Event
    ) -> None:
        """Sync an agent's memory folder into this store, then again on every change,
        until stop_event is set (engine/bridge/sync.py). Writes as sync:<format>."""
        from .bridge.sync import FolderSync, watch

        await watch(FolderSync(self, fmt, Path(folder)), write_back, on_report, stop_event)

    async def evaluate_judgments(
        self, overrides: Optional[dict] = None, progress: Optional[Callable[[int, int], None]] = None
    ) -> dict[str, Any]:
        """recall@k, MRR and nDCG@10 over every judged query, through dry recall
        (nothing is recorded) with this engine's settings plus overrides."""
        from .recall.judgments import evaluate

        return await evaluate(self, overrides, progress)


__all__ = [
    "IMPORT_BATCH",
    "SORTABLE",
    "MemoryEngine",
    "Decision",
    "EntryFilter",
    "EntryOrigin",
    "ImportReport",
    "JobRun",
    "RecallHistory",
    "RecallRecord",
    "StoreChange",
    "UndoStep",
    "WriterSeen",
    "import_place",
    "origin_label",
]
