"""MemoryEngine: the engine's public face. The CLI, importers, consolidation and
the app call this; it reads through the store and writes through the gate."""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Iterable, Optional

from .config import Settings
from .decay import curve, days_until_threshold, decay_factor, effective_importance, half_life_days
from .gate import DecayChange, EntryNotFound, WriteGate, WriteOutcome, WriteRejected
from .models import (
    AuditRecord,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    new_id,
    utcnow,
    validate_importance,
)
from .store import ENTRY_COLUMNS, Store, row_to_entry
from .working import Rendered, WorkingMemory, render_markdown

if TYPE_CHECKING:
    from .recall.episodes import EpisodeSearchResult
    from .recall.results import RecallResult
    from .recall.service import ModelStatus, RecallService

SORTABLE = ("updated_at", "created_at", "key", "importance", "access_count", "last_accessed", "tier",
            "type", "source", "version")


@dataclass
class EntryFilter:
    """What the browser and `list` can filter by; None means any."""

    tier: Optional[MemoryTier] = None
    type: Optional[MemoryType] = None
    source: Optional[ProvenanceLevel] = None
    pinned: Optional[bool] = None
    text: Optional[str] = None
    tag: Optional[str] = None
    session: Optional[str] = None

    def where(self) -> tuple[str, list[Any]]:
        clauses, params = [], []
        if self.tier is not None:
            clauses.append("tier=?")
            params.append(self.tier.value)
        if self.type is not None:
            clauses.append("type=?")
            params.append(self.type.value)
        if self.source is not None:
            clauses.append("source=?")
            params.append(self.source.value)
        if self.pinned is not None:
            clauses.append("pinned=?")
            params.append(int(self.pinned))
        if self.text:
            clauses.append("(instr(lower(content), ?) > 0 OR instr(lower(key), ?) > 0)")
            params += [self.text.lower(), self.text.lower()]
        if self.tag:
            clauses.append("EXISTS (SELECT 1 FROM json_each(entries.tags) WHERE lower(value)=?)")
            params.append(self.tag.lower())
        if self.session:
            clauses.append("source_session=?")
            params.append(self.session)
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


@dataclass(frozen=True)
class StoreChange:
    """Another process committed: which entries it touched and how."""

    entry_ids: list[str]
    ops: list[str]


@dataclass
class ImportReport:
    landed: int = 0
    unchanged: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"landed": self.landed, "unchanged": self.unchanged, "refused": self.refused}


class MemoryEngine:
    """One open store with its settings, gate and (lazily) recall."""

    def __init__(self, store: Store, settings: Settings, clock: Callable[[], datetime] = utcnow,
                 embedder_factory: Optional[Callable] = None, reranker_factory: Optional[Callable] = None):
        self.store = store
        self.settings = settings
        self.clock = clock
        self.gate = WriteGate(store, settings, clock)
        self._working: dict[str, WorkingMemory] = {}
        self._model_factories = {"embedder_factory": embedder_factory, "reranker_factory": reranker_factory}

    @classmethod
    async def open(cls, path: str | os.PathLike, settings: Optional[Settings] = None, read_only: bool = False,
                   clock: Callable[[], datetime] = utcnow, embedder_factory: Optional[Callable] = None,
                   reranker_factory: Optional[Callable] = None) -> "MemoryEngine":
        """Open a store. The factories replace how models load (tests use small local ones)."""
        store = await Store.open(path, read_only=read_only)
        return cls(store, settings or Settings.defaults(), clock, embedder_factory, reranker_factory)

    async def close(self) -> None:
        """Stop background consolidation and recall (if they were started), then close the store."""
        service = self.__dict__.get("_consolidation")
        if service is not None:
            await service.stop()
        recall = self.__dict__.get("_recall")
        if recall is not None:
            await recall.close()
        await self.store.close()

    async def __aenter__(self) -> "MemoryEngine":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def path(self) -> Path:
        return self.store.path

    # ---- reads ---------------------------------------------------------------------
    async def get(self, entry_id: str) -> MemoryEntry:
        entry = await self.store.get_entry(entry_id)
        if entry is None:
            raise EntryNotFound(entry_id)
        return entry

    async def resolve_id(self, id_or_prefix: str) -> str:
        """A full id, or the one id that starts with a prefix of at least 4 characters."""
        if await self.store.get_entry(id_or_prefix) is not None:
            return id_or_prefix
        if len(id_or_prefix) >= 4:
            rows = await self.store.fetchall("SELECT id FROM entries WHERE id >= ? AND id < ? LIMIT 2",
                                             (id_or_prefix, id_or_prefix + "\uffff"))
            if len(rows) == 1:
                return rows[0][0]
            if len(rows) > 1:
                raise InvalidValue(f"id prefix {id_or_prefix!r} matches more than one entry; give more characters")
        raise EntryNotFound(id_or_prefix)

    async def list_entries(self, flt: Optional[EntryFilter] = None, order_by: str = "updated_at",
                           descending: bool = True, limit: Optional[int] = None, offset: int = 0) -> list[MemoryEntry]:
        if order_by not in SORTABLE:
            raise InvalidValue(f"cannot sort by {order_by!r}; choose one of {', '.join(SORTABLE)}")
        where, params = (flt or EntryFilter()).where()
        sql = f"SELECT {ENTRY_COLUMNS} FROM entries{where} ORDER BY {order_by} {'DESC' if descending else 'ASC'}, id"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return [row_to_entry(r) for r in await self.store.fetchall(sql, params)]

    async def count_entries(self, flt: Optional[EntryFilter] = None) -> int:
        where, params = (flt or EntryFilter()).where()
        row = await self.store.fetchone(f"SELECT count(*) FROM entries{where}", params)
        return row[0]

    async def stats(self) -> dict[str, Any]:
        tiers = {t.label: 0 for t in MemoryTier}
        for tier, n in await self.store.fetchall("SELECT tier, count(*) FROM entries GROUP BY tier"):
            tiers[tier] = n
        tiers["episodic"] += (await self.store.fetchone("SELECT count(*) FROM episodes"))[0]
        types = {t.label: 0 for t in MemoryType}
        for type_, n in await self.store.fetchall(
                "SELECT type, count(*) FROM entries WHERE tier != 'working' GROUP BY type"):
            types[type_] = n
        by_tier_type = {t.label: {m.label: 0 for m in MemoryType} for t in MemoryTier}
        for tier, type_, n in await self.store.fetchall("SELECT tier, type, count(*) FROM entries GROUP BY tier, type"):
            by_tier_type[tier][type_] = n
        sources = {p.label: 0 for p in ProvenanceLevel}
        for src, n in await self.store.fetchall("SELECT source, count(*) FROM entries GROUP BY source"):
            sources[ProvenanceLevel(src).label] = n
        one = self.store.fetchone
        return {
            "tiers": tiers,
            "types": types,
            "by_tier_type": by_tier_type,
            "sources": sources,
            "pinned": (await one("SELECT count(*) FROM entries WHERE pinned=1"))[0],
            "superseded": (await one("SELECT count(*) FROM entries WHERE superseded_by IS NOT NULL"))[0],
            "pending_contradictions": (await one("SELECT count(*) FROM contradictions WHERE status='pending'"))[0],
            "blocked_writes": (await one("SELECT count(*) FROM audit WHERE action='reject'"))[0],
            "reembed_queue": (await one("SELECT count(*) FROM reembed_queue"))[0],
            "schema_version": await self.store.schema_version(),
            "read_only": self.read_only,
            "path": str(self.path),
        }

    async def audit(self, entry_id: Optional[str] = None, action: Optional[str] = None,
                    limit: int = 500) -> list[AuditRecord]:
        return await self.store.audit_records(entry_id, action, limit)

    async def quarantine(self, limit: int = 500) -> list[AuditRecord]:
        """Writes the scanner or a guard refused, newest first."""
        return await self.store.audit_records(None, "reject", limit)

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
    async def add(self, key: str, content: str, type: MemoryType | str = MemoryType.ENVIRONMENT,
                  source: ProvenanceLevel | str = ProvenanceLevel.MODEL_INFERRED, tags: Iterable[str] = (),
                  importance: float = 0.5, pinned: bool = False, source_session: str = "",
                  episode_id: Optional[str] = None, actor: str = "api", reason: str = "") -> WriteOutcome:
        now = self.clock()
        entry = MemoryEntry(
            key=key, content=content, type=MemoryType.parse(type), tier=MemoryTier.SEMANTIC,
            tags=[t.strip() for t in tags if t.strip()], source_session=source_session, created_at=now,
            updated_at=now, importance=validate_importance(importance), last_accessed=now,
            source=ProvenanceLevel.parse(source), pinned=pinned, episode_id=episode_id,
        )
        return await self.gate.write(entry, actor, reason)

    async def edit(self, entry_id: str, content: str, actor: str = "user") -> WriteOutcome:
        """A person's edit: a new version of the same key, stated by the user."""
        current = await self.get(entry_id)
        if current.superseded_by is not None:
            raise WriteRejected("superseded", f"{entry_id} is an old version; edit the current one")
        now = self.clock()
        incoming = MemoryEntry(
            key=current.key, content=content, type=current.type, tier=MemoryTier.SEMANTIC, tags=list(current.tags),
            source_session=current.source_session, created_at=now, updated_at=now, importance=current.importance,
            last_accessed=now, source=ProvenanceLevel.USER_STATED, pinned=current.pinned, episode_id=current.episode_id,
        )
        return await self.gate.write(incoming, actor, "edit")

    async def pin(self, entry_id: str, actor: str = "user") -> WriteOutcome:
        return await self.gate.set_pinned(entry_id, True, actor)

    async def unpin(self, entry_id: str, actor: str = "user") -> WriteOutcome:
        return await self.gate.set_pinned(entry_id, False, actor)

    async def archive(self, entry_id: str, actor: str = "user") -> WriteOutcome:
        return await self.gate.archive(entry_id, actor)

    async def restore(self, entry_id: str, actor: str = "user") -> WriteOutcome:
        return await self.gate.restore(entry_id, actor)

    async def purge(self, entry_id: str, actor: str = "user") -> WriteOutcome:
        return await self.gate.purge(entry_id, actor)

    async def purge_expired(self, actor: str = "user") -> list[MemoryEntry]:
        return await self.gate.purge_expired(actor)

    async def decay(self, dry_run: bool = True, actor: str = "user") -> list[DecayChange]:
        return await self.gate.decay_pass(apply=not dry_run, actor=actor)

    async def record_access(self, entry_ids: Iterable[str]) -> None:
        await self.gate.record_access(entry_ids)

    # ---- WORKING tier and core snapshot -------------------------------------------
    async def remember_working(self, session_key: str, key: str, content: str, importance: float = 0.5,
                               type: MemoryType | str = MemoryType.ENVIRONMENT,
                               source: ProvenanceLevel | str = ProvenanceLevel.MODEL_INFERRED,
                               actor: str = "agent") -> WriteOutcome:
        """Push into the session's ring buffer (gated, mirrored to the store so the app sees it)."""
        buffer = await self._working_buffer(session_key)
        now = self.clock()
        entry = MemoryEntry(
            key=key, content=content, type=MemoryType.parse(type), tier=MemoryTier.WORKING,
            source_session=session_key, created_at=now, updated_at=now, last_accessed=now,
            importance=validate_importance(importance), source=ProvenanceLevel.parse(source),
        )
        outcome = await self.gate.write(entry, actor, "working")
        evicted = buffer.push(outcome.entry)
        if evicted is not None:
            await self.gate.drop_working([evicted.id], actor, "ring buffer full")
        return outcome

    async def _working_buffer(self, session_key: str) -> WorkingMemory:
        buffer = self._working.get(session_key)
        if buffer is None:
            buffer = WorkingMemory(int(self.settings.get("memory.workingMaxEntries")))
            rows = await self.list_entries(EntryFilter(tier=MemoryTier.WORKING, session=session_key),
                                           order_by="created_at", descending=False)
            for entry in rows:
                evicted = buffer.push(entry)
                if evicted is not None and not self.read_only:
                    await self.gate.drop_working([evicted.id], "engine", "ring buffer full")
            self._working[session_key] = buffer
        return buffer

    async def working_entries(self, session_key: Optional[str] = None) -> list[MemoryEntry]:
        return await self.list_entries(EntryFilter(tier=MemoryTier.WORKING, session=session_key),
                                       order_by="created_at", descending=False)

    async def render_working(self, session_key: Optional[str] = None, char_budget: Optional[int] = None) -> Rendered:
        budget = int(char_budget or self.settings.get("memory.workingCharBudget"))
        return render_markdown(await self.working_entries(session_key), budget, "Working memory")

    async def core_snapshot(self, char_budget: Optional[int] = None) -> Rendered:
        """Pinned and USER entries that are live: what every prompt starts with."""
        budget = int(char_budget or self.settings.get("memory.workingCharBudget"))
        rows = await self.store.fetchall(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE superseded_by IS NULL AND tier='semantic' "
            "AND (pinned=1 OR type='user') ORDER BY pinned DESC, importance DESC, key"
        )
        return render_markdown([row_to_entry(r) for r in rows], budget, "Core memory")

    # ---- recall --------------------------------------------------------------------
    @property
    def recall_service(self) -> "RecallService":
        """The hybrid recall pipeline over this store; created on first use (no model loads yet)."""
        service = self.__dict__.get("_recall")
        if service is None:
            from .recall.service import RecallService

            factories = {k: v for k, v in self._model_factories.items() if v is not None}
            service = self._recall = RecallService(self.store, self.settings, **factories)
        return service

    async def recall(self, query: str, limit: int = 10, dry: bool = False, overrides: Optional[dict] = None,
                     include_superseded: bool = False) -> "RecallResult":
        """Hybrid recall with every stage's score. Unless dry, each hit is a rehearsal:
        access_count and last_accessed move (the app's playground recalls dry)."""
        result = await self.recall_service.recall(query, limit=limit, dry=dry, overrides=overrides,
                                      include_superseded=include_superseded, now=self.clock())
        if not dry and not self.read_only:
            await self.record_access(result.hit_ids)
        return result

    async def warm_recall(self) -> "ModelStatus":
        """Open the recall indexes and start loading the embedding model in the background."""
        service = self.recall_service
        if not service.open_report:
            await service.open()
        return await service.warm()

    async def search_episodes(self, query: str, entity: Optional[str] = None, since: Optional[datetime] = None,
                              until: Optional[datetime] = None, limit: int = 10) -> "EpisodeSearchResult":
        """Episodes ranked by embedding similarity to query, filtered by entity and time."""
        return await self.recall_service.search_episodes(query, entity=entity, since=since, until=until,
                                                         limit=limit)

    def recall_status(self) -> "ModelStatus":
        return self.recall_service.model_status()

    async def apply_settings(self, settings: Settings) -> None:
        """Adopt new knobs (the app's saved playground settings) in the running engine."""
        self.settings = settings
        self.gate.settings = settings
        recall = self.__dict__.get("_recall")
        if recall is not None:
            await recall.reconfigure(settings)

    # ---- live changes from other processes -----------------------------------------
    async def watch_changes(self, stop_event: Optional[asyncio.Event] = None) -> AsyncIterator[StoreChange]:
        """Yield a StoreChange each time another connection commits to this store.

        watchfiles wakes us on the db and -wal files; PRAGMA data_version tells a
        foreign commit from our own writes (which do not change it), so the app's
        own edits do not echo back."""
        from watchfiles import awatch

        names = {self.path.name, self.path.name + "-wal"}
        last_version = await self.store.data_version()
        last_seq = await self.last_change_seq()
        async for _events in awatch(self.path.parent, stop_event=stop_event, debounce=100, step=50,
                                    watch_filter=lambda _c, p: Path(p).name in names):
            version = await self.store.data_version()
            if version == last_version:
                continue
            last_version = version
            rows = await self.store.fetchall(
                "SELECT seq, entry_id, op FROM change_log WHERE seq > ? ORDER BY seq", (last_seq,))
            if rows:
                last_seq = rows[-1][0]
            yield StoreChange(entry_ids=sorted({r[1] for r in rows}), ops=sorted({r[2] for r in rows}))

    async def last_change_seq(self) -> int:
        row = await self.store.fetchone("SELECT coalesce(max(seq), 0) FROM change_log")
        return row[0]

    # ---- export / import -----------------------------------------------------------
    async def export_jsonl(self, path: str | os.PathLike) -> int:
        """Every entry, oldest version first, one JSON object a line; written atomically."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        entries = await self.list_entries(order_by="created_at", descending=False)
        entries.sort(key=lambda e: (e.key, e.version, e.created_at))
        with open(tmp, "w", encoding="utf-8") as fh:
            for entry in entries:
                fh.write(json.dumps(entry.to_dict(), ensure_ascii=False) + "\n")
        os.replace(tmp, target)
        return len(entries)

    async def import_jsonl(self, path: str | os.PathLike, actor: str = "import") -> ImportReport:
        """Land an export: every line through the gate; bad lines are reported, the rest land."""
        from .importers.jsonl import read_jsonl_entries

        items = [({"line": n}, entry if error is None else error) for n, entry, error in read_jsonl_entries(Path(path))]
        return await self.import_entries(items, actor, verbatim=True)

    async def import_entries(self, entries: Iterable[tuple[dict, MemoryEntry | str]], actor: str,
                             verbatim: bool, batch: int = 500) -> ImportReport:
        """Land converted entries: (where, entry-or-error) pairs, gated in batches.

        verbatim keeps ids, versions and chains (formats that have them)."""
        report = ImportReport()
        pending: list[tuple[dict, MemoryEntry]] = []

        async def flush() -> None:
            results = await self.gate.write_many([e for _, e in pending], actor, "import", verbatim=verbatim)
            for (where, entry), result in zip(pending, results):
                if isinstance(result, WriteRejected):
                    report.refused.append({**where, "key": entry.key, **result.to_dict()})
                elif isinstance(result, InvalidValue):
                    report.refused.append({**where, "key": entry.key, "reason": "invalid", "message": str(result)})
                elif result.action == "unchanged":
                    report.unchanged += 1
                else:
                    report.landed += 1
            pending.clear()

        for where, entry in entries:
            if isinstance(entry, str):
                report.refused.append({**where, "reason": "invalid", "message": entry})
                continue
            pending.append((where, entry))
            if len(pending) >= batch:
                await flush()
        if pending:
            await flush()
        return report

    # ---- sessions, consolidation, contradictions
    @property
    def consolidation(self) -> "ConsolidationService":
        """Sessions, the consolidation pipeline and its scheduler, contradictions and the
        version lattice; created on first use (engine/consolidation/service.py)."""
        service = self.__dict__.get("_consolidation")
        if service is None:
            from .consolidation.service import ConsolidationService

            service = self._consolidation = ConsolidationService(self)
        return service

    async def open_session(self, key: str) -> "SessionInfo":
        return await self.consolidation.open_session(key)

    async def add_message(self, key: str, role: str, content: str) -> "Message":
        return await self.consolidation.add_message(key, role, content)

    async def end_session(self, key: str) -> "JobRecord":
        """End the session and schedule its consolidation in the background; returns at once."""
        return await self.consolidation.end_session(key)

    async def clear_working(self, session_key: str, actor: str = "consolidation") -> int:
        """Drop a session's WORKING entries (through the gate) and forget its ring buffer."""
        entries = await self.working_entries(session_key)
        await self.gate.drop_working([e.id for e in entries], actor, "session consolidated")
        self._working.pop(session_key, None)
        return len(entries)

    # ---- for the app's detail pane (issue 9) --------------------------------------------
    async def vector_state(self, entry_id: str) -> dict[str, Any]:
        """The entry's vector: model stamp and state (current, pending, stale, none, unchecked)."""
        return await self.recall_service.vector_state(entry_id)


__all__ = ["MemoryEngine", "EntryFilter", "ImportReport", "StoreChange"]
