"""MemoryEngine: the engine's public face. The CLI, importers, consolidation and
the app call this; it reads through the store and writes through the gate."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import sqlite3
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Iterable, Optional

from . import paging
from .actors import _CONSOLIDATION_NAMES, _PERSON_NAMES, Actor, ActorKind, AnyActor
from .config import Settings
from .decay import (
    CancelFn,
    ProgressFn,
    below_threshold,
    curve,
    days_until_threshold,
    decay_factor,
    effective_importance,
    half_life_days,
    report,
    stop_requested,
)
from .errors import StoreError
from .fields import validate_session_key, validate_tags
from .files import atomic_write
from .gate import DecayChange, EntryNotFound, WriteGate, WriteOutcome, WriteRejected
from .models import (
    AuditRecord,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    from_iso,
    to_iso,
    utcnow,
    validate_importance,
)
from .paging import SORTABLE, Key, Page
from .store import ENTRY_COLUMNS, Store, row_to_entry
from .working import Rendered, WorkingMemory, render_markdown

if TYPE_CHECKING:
    from .consolidation.records import JobRecord, Message, SessionInfo
    from .consolidation.service import ConsolidationService
    from .judgments import Judgment, JudgmentImport
    from .recall.episodes import EpisodeSearchResult
    from .recall.results import RecallResult
    from .recall.service import ModelStatus, RecallService

log = logging.getLogger(__name__)

# Entries per import transaction (the gate's bulk path): large enough that set-based
# reads and executemany pay off, small enough that a kill or a full disk loses little.
IMPORT_BATCH = 2000

DECAY_PAGE = 2000  # entries a decay preview reads between progress reports
DECAY_BATCH = 500  # entries a decay apply archives per transaction


def _decay_candidates(rows: list, now: datetime, base: float, threshold: float) -> list[DecayChange]:
    """A page of the decay preview, scored (CPU work: run in a thread, off the caller's loop)."""
    entries = [row_to_entry(r) for r in rows]
    return [DecayChange(e, eff, "archive") for e, eff in below_threshold(entries, now, base, threshold)]


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
    origin: Optional[str] = None  # prefix of where the entry came from: mcp, sync:hermes, person (entry_origins)

    def where(self) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
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
        if self.origin:
            clauses.append(f"substr(lower({FIRST_ORIGIN_SQL}), 1, ?) = ?")
            params += [len(self.origin), self.origin.lower()]
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


# ---- where an entry came from (issue 12) ------------------------------------------------
# An entry's origin is the actor of its first audit row (the write that created this
# version), as people read it: "person" for the person at the app or CLI,
# "consolidation" for the sleep-time pipeline, else the actor's own name
# (mcp:claude-code, sync:hermes, import:hermes). The SQL below and origin_label()
# read the actor names alike (engine/actors.py's sets).
def _sql_names(names: Iterable[str]) -> str:
    return ",".join("'" + n.replace("'", "''") + "'" for n in sorted(names))


ORIGIN_CASE = (
    f"CASE WHEN {{a}}.actor IN ({_sql_names(_PERSON_NAMES)}) OR {{a}}.actor LIKE 'person:%' THEN 'person' "
    f"WHEN {{a}}.actor IN ({_sql_names(_CONSOLIDATION_NAMES)}) OR {{a}}.actor LIKE 'consolidation:%' "
    "THEN 'consolidation' ELSE {a}.actor END"
)
FIRST_ORIGIN_SQL = (
    f"(SELECT {ORIGIN_CASE.format(a='o')} FROM audit o WHERE o.entry_id=entries.id "
    "AND o.action != 'reject' ORDER BY o.id LIMIT 1)"
)


def origin_label(actor: str) -> str:
    """How the app names an audit actor (see ORIGIN_CASE)."""
    try:
        kind = Actor.parse(actor).kind
    except InvalidValue:
        return actor
    return {ActorKind.PERSON: "person", ActorKind.CONSOLIDATION: "consolidation"}.get(kind, actor)


@dataclass(frozen=True)
class EntryOrigin:
    """Who created an entry's version (origin) and who touched it last, and how."""

    origin: str
    last: str
    last_action: str
    last_at: Optional[datetime]

    @classmethod
    def from_audit(cls, records: list[AuditRecord]) -> Optional["EntryOrigin"]:
        """The same, from an entry's audit records as engine.audit() lists them (newest first)."""
        rows = [r for r in records if r.action != "reject"]
        if not rows:
            return None
        return cls(origin_label(rows[-1].actor), origin_label(rows[0].actor), rows[0].action, rows[0].at)


@dataclass(frozen=True)
class WriterSeen:
    """An agent that wrote (or tried to) in the last minutes, from the audit log."""

    actor: str
    writes: int
    last_at: Optional[datetime]


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
    trusted_provenance: bool = False
    judgments: Optional[dict[str, Any]] = None  # the export's judgment lines: landed, unchanged, refused

    def to_dict(self) -> dict[str, Any]:
        out = {
            "landed": self.landed,
            "unchanged": self.unchanged,
            "refused": self.refused,
            "provenance": "declared (trusted)" if self.trusted_provenance else "capped at legacy",
        }
        if self.judgments is not None:
            out["judgments"] = self.judgments
        return out

    @property
    def all_refused(self) -> bool:
        """Something was offered and none of it is in the store."""
        judged = self.judgments or {}
        return bool(self.refused) and not (self.landed or self.unchanged or judged.get("landed") or judged.get("unchanged"))

    def refuse(self, where: dict, entry: Optional[MemoryEntry], reason: str, message: str) -> None:
        self.refused.append({**where, **({"key": entry.key} if entry else {}), "reason": reason, "message": message})

    def record_chain(self, members: list[tuple[dict, MemoryEntry]], outcomes: list) -> None:
        """Count one chain's gate results; a member held back names the line that sank it."""
        culprit = next(
            (
                where
                for (where, _), o in zip(members, outcomes)
                if isinstance(o, Exception) and getattr(o, "reason", "") != "chain_refused"
            ),
            None,
        )
        for (where, entry), outcome in zip(members, outcomes):
            if isinstance(outcome, WriteRejected):
                info = outcome.to_dict()
                info.pop("rejected", None)
                if outcome.reason == "chain_refused" and culprit is not None:
                    info["message"] = f"not written: {import_place(culprit)} of its version chain was refused"
                self.refused.append({**where, "key": entry.key, **info})
            elif isinstance(outcome, InvalidValue):
                self.refuse(where, entry, "invalid", str(outcome))
            elif outcome.action == "unchanged":
                self.unchanged += 1
            else:
                self.landed += 1


def import_place(where: dict) -> str:
    """Where an imported entry came from, for messages: "line 7" or "user_memory.json entry 3"."""
    if "line" in where:
        return f"line {where['line']}"
    return " ".join(str(where[k]) if k == "file" else f"entry {where[k]}" for k in ("file", "index") if k in where)


class MemoryEngine:
    """One open store with its settings, gate and (lazily) recall.

    `actor` is who this engine writes as when a call names no one: the app and the
    CLI open it as the person; anything else defaults to an agent, which stores at
    most model_inferred and may not pin, restore, resolve, merge, undo, purge or
    trust an import's provenance."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], datetime] = utcnow,
        embedder_factory: Optional[Callable] = None,
        reranker_factory: Optional[Callable] = None,
        actor: AnyActor = None,
    ):
        self.store = store
        self.settings = settings
        self.clock = clock
        self.actor = Actor.parse(actor)
        self.gate = WriteGate(store, settings, clock)
        self._working: dict[str, WorkingMemory] = {}
        self._model_factories = {"embedder_factory": embedder_factory, "reranker_factory": reranker_factory}

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike,
        settings: Optional[Settings] = None,
        read_only: bool = False,
        clock: Callable[[], datetime] = utcnow,
        embedder_factory: Optional[Callable] = None,
        reranker_factory: Optional[Callable] = None,
        actor: AnyActor = None,
    ) -> "MemoryEngine":
        """Open a store. The factories replace how models load (tests use small local ones);
        actor is who writes when a call names no one (an agent unless said otherwise)."""
        store = await Store.open(path, read_only=read_only)
        return cls(store, settings or Settings.defaults(), clock, embedder_factory, reranker_factory, actor)

    def who(self, actor: AnyActor = None) -> Actor:
        """The actor a call names, or this engine's own."""
        return Actor.parse(actor, default=self.actor)

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
        tiers = {t.label: 0 for t in MemoryTier}
        for tier, n in await self.store.fetchall("SELECT tier, count(*) FROM entries GROUP BY tier"):
            tiers[tier] = n
        tiers["episodic"] += (await self.store.fetchone("SELECT count(*) FROM episodes"))[0]
        types = {t.label: 0 for t in MemoryType}
        for type_, n in await self.store.fetchall("SELECT type, count(*) FROM entries WHERE tier != 'working' GROUP BY type"):
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

    async def audit(self, entry_id: Optional[str] = None, action: Optional[str] = None, limit: int = 500) -> list[AuditRecord]:
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

    def _next_version(self, current: MemoryEntry, **changes: Any) -> MemoryEntry:
        """The live entry's next version as the gate takes it (same key, type, history and
        provenance, made now), with the changes an edit or a tag makes."""
        now = self.clock()
        return replace(
            MemoryEntry(
                key=current.key,
                content=current.content,
                type=current.type,
                tier=MemoryTier.SEMANTIC,
                tags=list(current.tags),
                source_session=current.source_session,
                created_at=now,
                updated_at=now,
                importance=current.importance,
                last_accessed=now,
                source=current.source,
                pinned=current.pinned,
                episode_id=current.episode_id,
            ),
            **changes,
        )

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

    # ---- long work with progress and cancel: decay preview and apply (issue 9) -------------
    async def decay_preview(
        self, progress: Optional[ProgressFn] = None, cancelled: Optional[CancelFn] = None, page: int = DECAY_PAGE
    ) -> "JobRun":
        """What a decay pass would archive, read a page at a time so the caller can show
        counts and stop between pages (a cancelled preview returns what it had found)."""
        threshold = float(self.settings.get("memory.archiveThreshold"))
        now, base = self.clock(), self.settings.half_life_days
        live = "tier='semantic' AND superseded_by IS NULL"
        total = (await self.store.fetchone(f"SELECT count(*) FROM entries WHERE {live}"))[0]
        run = JobRun(total=total)
        report(progress, 0, total)
        last = ""
        while not stop_requested(cancelled):
            rows = await self.store.fetchall(
                f"SELECT {ENTRY_COLUMNS} FROM entries WHERE {live} AND id > ? ORDER BY id LIMIT ?", (last, page)
            )
            if not rows:
                return run
            last = rows[-1][0]
            run.items += await asyncio.to_thread(_decay_candidates, rows, now, base, threshold)  # the loop keeps drawing
            run.done = min(total, run.done + len(rows))
            report(progress, run.done, total)
            await asyncio.sleep(0)  # a page at a time: the caller's event loop keeps drawing
        run.cancelled = True
        return run

    async def decay_apply(
        self,
        changes: list[DecayChange],
        progress: Optional[ProgressFn] = None,
        cancelled: Optional[CancelFn] = None,
        batch: int = DECAY_BATCH,
        actor: AnyActor = None,
    ) -> "JobRun":
        """Archive previewed changes in batches of `batch`, one transaction each: a batch
        lands whole or not at all. A cancel stops between batches; the batches done stay
        archived (each entry audited), the rest are untouched, and one `decay_run` audit
        record says how many were archived of how many and whether it was cancelled."""
        who = self.who(actor)
        run = JobRun(total=len(changes))
        report(progress, 0, run.total)
        for start in range(0, len(changes), batch):
            if stop_requested(cancelled):
                run.cancelled = True
                break
            chunk = changes[start : start + batch]
            run.items += await self.gate.archive_decayed(chunk, who)
            run.done += len(chunk)
            report(progress, run.done, run.total)
        await self.gate.archive_decayed(
            [],
            who,
            summary={"candidates": run.total, "checked": run.done, "archived": len(run.items), "cancelled": run.cancelled},
        )
        return run

    async def record_access(self, entry_ids: Iterable[str]) -> None:
        await self.gate.record_access(entry_ids)

    # ---- WORKING tier and core snapshot -------------------------------------------
    async def remember_working(
        self,
        session_key: str,
        key: str,
        content: str,
        importance: float = 0.5,
        type: MemoryType | str = MemoryType.ENVIRONMENT,
        source: ProvenanceLevel | str = ProvenanceLevel.MODEL_INFERRED,
        actor: AnyActor = "agent",
    ) -> WriteOutcome:
        """Push into the session's ring buffer (gated, mirrored to the store so the app sees it).
        Working notes are the agent's own unless a caller says otherwise."""
        validate_session_key(session_key)
        buffer = await self._working_buffer(session_key)
        now = self.clock()
        entry = MemoryEntry(
            key=key,
            content=content,
            type=MemoryType.parse(type),
            tier=MemoryTier.WORKING,
            source_session=session_key,
            created_at=now,
            updated_at=now,
            last_accessed=now,
            importance=validate_importance(importance),
            source=ProvenanceLevel.parse(source),
        )
        actor = self.who(actor)
        outcome = await self.gate.write(entry, actor, "working")
        if outcome.replaced is not None:
            buffer.discard(outcome.replaced.id)
        evicted = buffer.push(outcome.entry)
        if evicted is not None:
            await self.gate.drop_working([evicted.id], actor, "ring buffer full")
        return outcome

    async def _working_buffer(self, session_key: str) -> WorkingMemory:
        buffer = self._working.get(session_key)
        if buffer is None:
            buffer = WorkingMemory(int(self.settings.get("memory.workingMaxEntries")))
            rows = await self.list_entries(
                EntryFilter(tier=MemoryTier.WORKING, session=session_key), order_by="created_at", descending=False
            )
            for entry in rows:
                evicted = buffer.push(entry)
                if evicted is not None and not self.read_only:
                    await self.gate.drop_working([evicted.id], "engine", "ring buffer full")
            self._working[session_key] = buffer
        return buffer

    async def working_entries(self, session_key: Optional[str] = None) -> list[MemoryEntry]:
        return await self.list_entries(
            EntryFilter(tier=MemoryTier.WORKING, session=session_key), order_by="created_at", descending=False
        )

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

            factories: dict[str, Any] = {k: v for k, v in self._model_factories.items() if v is not None}
            service = self._recall = RecallService(self.store, self.settings, **factories)
        return service

    async def recall(
        self,
        query: str,
        limit: int = 10,
        dry: bool = False,
        overrides: Optional[dict] = None,
        include_superseded: bool = False,
        actor: AnyActor = None,
    ) -> "RecallResult":
        """Hybrid recall with every stage's score. Unless dry, each hit is a rehearsal:
        access_count and last_accessed move, and the recall log records who asked what
        (the app's playground recalls dry)."""
        result = await self.recall_service.recall(
            query, limit=limit, dry=dry, overrides=overrides, include_superseded=include_superseded, now=self.clock()
        )
        if not dry and not self.read_only:
            await self.record_access(result.hit_ids)
        if not dry:
            await self._log_recall(query, result, self.who(actor))
        return result

    async def warm_recall(self) -> "ModelStatus":
        """Open the recall indexes and start loading the embedding model in the background;
        a backlog paused by pause_embedding resumes."""
        service = self.recall_service
        if not service.open_report:
            await service.open()
        service.backfill.resume()
        return await service.warm()

    async def search_episodes(
        self,
        query: str,
        entity: Optional[str] = None,
        since: Optional[datetime] = None,
        until: Optional[datetime] = None,
        limit: int = 10,
    ) -> "EpisodeSearchResult":
        """Episodes ranked by embedding similarity to query, filtered by entity and time."""
        return await self.recall_service.search_episodes(query, entity=entity, since=since, until=until, limit=limit)

    def recall_status(self) -> "ModelStatus":
        return self.recall_service.model_status()

    # ---- the embedding backlog: pause (issue 9, long work) ---------------------------------
    async def pause_embedding(self) -> int:
        """Stop embedding the vector backlog in the background; returns how many entries
        still have no vector (recall finds them by BM25 meanwhile). warm_recall resumes."""
        recall = self.__dict__.get("_recall")
        if recall is None:
            return 0
        recall.backfill.pause()
        return recall.pending_count

    def embedding_running(self) -> bool:
        """Batches are being embedded right now (a pause lets these finish and save)."""
        recall = self.__dict__.get("_recall")
        task = recall.backfill.task if recall is not None else None
        return task is not None and not task.done()

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
        async for _events in awatch(
            self.path.parent, stop_event=stop_event, debounce=100, step=50, watch_filter=lambda _c, p: Path(p).name in names
        ):
            version = await self.store.data_version()
            if version == last_version:
                continue
            last_version = version
            rows = await self.store.fetchall("SELECT seq, entry_id, op FROM change_log WHERE seq > ? ORDER BY seq", (last_seq,))
            if rows:
                last_seq = rows[-1][0]
            yield StoreChange(entry_ids=sorted({r[1] for r in rows}), ops=sorted({r[2] for r in rows}))

    async def last_change_seq(self) -> int:
        row = await self.store.fetchone("SELECT coalesce(max(seq), 0) FROM change_log")
        return row[0]

    # ---- export / import -----------------------------------------------------------
    async def export_jsonl(self, path: str | os.PathLike) -> int:
        """Every entry, oldest version first, one JSON object a line, then the relevance
        judgments (purged entries' too); written atomically
        through a private (0600) temp file beside the target, removed on any failure."""
        target = Path(path)
        if target.is_dir():
            raise InvalidValue(f"{target} is a folder; export needs a file path such as {target / 'memory.jsonl'}")
        if not target.parent.is_dir():
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(target.parent))
        entries = await self.list_entries(order_by="created_at", descending=False)
        entries.sort(key=lambda e: (e.key, e.version, e.created_at))
        lines = [json.dumps(entry.to_dict(), ensure_ascii=False) + "\n" for entry in entries]
        lines += [json.dumps(j.to_record(), ensure_ascii=False) + "\n" for j in await self.judgments()]
        # a 0600 temp file in the target's folder (mkstemp), renamed over it
        await asyncio.to_thread(atomic_write, target, "".join(lines).encode("utf-8"), False)
        return len(entries)

    async def import_jsonl(
        self,
        path: str | os.PathLike,
        actor: str = "import",
        trust_provenance: bool = False,
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> ImportReport:
        """Land an export: every line through the gate; bad lines are reported, the rest land."""
        from .importers.jsonl import read_jsonl_entries

        items = [({"line": n}, entry if error is None else error) for n, entry, error in read_jsonl_entries(Path(path))]
        report = await self.import_entries(items, actor, verbatim=True, trust_provenance=trust_provenance, progress=progress)
        await self._import_export_judgments(Path(path), actor, report)
        return report

    async def _import_export_judgments(self, path: Path, actor: str, report: ImportReport) -> None:
        """An export's judgment lines, after its entries (a judgment of an entry that is not
        in the store lands as "entry purged", as it was exported); bad lines are reported."""
        from .importers.jsonl import read_jsonl_judgments
        from .judgments import JudgmentImport, store_judgments

        found = list(read_jsonl_judgments(path))
        if not found:
            return
        result = JudgmentImport()
        for line, _judgment, error in found:
            if error is not None:
                result.refused.append({"line": line, "reason": "invalid", "message": f"judgment: {error}"})
        await store_judgments(self.store, [j for _, j, _ in found if j is not None], actor, f"import: {path.name}", result)
        report.judgments = {"landed": result.landed, "unchanged": result.unchanged, "refused": len(result.refused)}
        report.refused.extend(result.refused)

    async def import_entries(
        self,
        entries: Iterable[tuple[dict, MemoryEntry | str]],
        actor: str,
        verbatim: bool,
        batch: Optional[int] = None,
        trust_provenance: bool = False,
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> ImportReport:
        """Land converted entries: (where, entry-or-error) pairs, gated in batches.

        A file's declared provenance cannot be verified, so entries land as LEGACY (the
        spec's "migrated, unverified") and unpinned unless trust_provenance says a person
        is restoring their own export (this engine must act for a person); the audit
        records which. Only SEMANTIC and ARCHIVAL
        entries are imported: a WORKING note belongs to a live session's prompt. verbatim
        keeps ids, versions and chains (formats that have them); a chain lands whole or
        not at all. Each batch (IMPORT_BATCH entries) is one transaction of the gate's
        bulk path; progress(done, total) follows the batches. A full disk rolls back the
        batch it hit and raises StoreError naming its lines: the batches before it stay,
        and running the same import again resumes (what is stored counts as unchanged)."""
        if trust_provenance:
            await self.gate.refuse_unless_person(self.actor, "import keeping the declared provenance")
        report = ImportReport()
        importer = Actor.importer(str(actor), trusted=trust_provenance)
        items: list[tuple[dict, MemoryEntry]] = []
        entries = list(entries)
        for where, entry in entries:
            if isinstance(entry, str):
                report.refuse(where, None, "invalid", entry)
            elif entry.tier not in (MemoryTier.SEMANTIC, MemoryTier.ARCHIVAL):
                report.refuse(
                    where,
                    entry,
                    "invalid",
                    f"tier {entry.tier.label} is not imported: only semantic "
                    "and archival entries are (a working note belongs to a live session)",
                )
            else:
                items.append((where, entry))  # the gate caps provenance and pin at what the importer may store
        chains = await self._import_chains(items, report, trust_provenance) if verbatim else [[item] for item in items]
        reason = "import, declared provenance trusted" if trust_provenance else "import, provenance capped at legacy"
        pending: list[list[tuple[dict, MemoryEntry]]] = []
        batch = batch or IMPORT_BATCH
        left, held = sum(map(len, chains)), 0  # entries not yet written; entries in pending
        for chain in chains + [None]:
            if pending and (chain is None or held + len(chain) > batch):
                try:
                    results = await self.gate.write_chains([[e for _, e in c] for c in pending], importer, reason, verbatim)
                except sqlite3.OperationalError as exc:
                    if "full" not in str(exc):
                        raise
                    raise StoreError(
                        f"the disk holding the store is full ({exc}): the batch from {import_place(pending[0][0][0])} "
                        f"to {import_place(pending[-1][-1][0])} was rolled back; {report.landed} entries landed "
                        "before it and stay. Free some space and run the same import again: it resumes, counting "
                        "what is stored as unchanged"
                    ) from exc
                for members, outcomes in zip(pending, results):
                    report.record_chain(members, outcomes)
                left -= held
                pending.clear()
                held = 0
                if progress:
                    progress(len(entries) - left, len(entries))
            if chain:
                pending.append(chain)
                held += len(chain)
        report.trusted_provenance = trust_provenance
        report.refused.sort(key=lambda r: (str(r.get("file", "")), r.get("line", r.get("index", -1))))
        return report

    async def _import_chains(
        self, items: list[tuple[dict, MemoryEntry]], report: ImportReport, trusted: bool
    ) -> list[list[tuple[dict, MemoryEntry]]]:
        """Group verbatim entries into version chains (linked by superseded_by), refusing
        with its place every line that would break one: a repeated id, an id taken by a
        different stored entry, a link to an entry not in the file, a superseded entry
        outside ARCHIVAL, a loop; a chain with a refused line is refused whole. Entries
        already stored as they are (a re-run import) count as unchanged; a trusted import
        of an entry stored with a lower provenance is refused, saying why (it never
        rewrites a stored entry)."""
        by_id: dict[str, tuple[dict, MemoryEntry]] = {}
        problems: dict[str, str] = {}
        reasons: dict[str, str] = {}  # a problem's reason, when it is not an invalid line
        for where, entry in items:
            if entry.id in by_id:
                report.refuse(where, entry, "invalid", f"id {entry.id} already appears at {import_place(by_id[entry.id][0])}")
            else:
                by_id[entry.id] = (where, entry)
        stored = await self._stored_identities(list(by_id))
        present = set()
        for entry_id, (where, entry) in by_id.items():
            if entry_id in stored:
                same = stored[entry_id][:3] == (entry.type, entry.key, entry.content)
                source = stored[entry_id][3]
                if same and trusted and source.value < entry.source.value:
                    reasons[entry_id] = "already_stored"
                    problems[entry_id] = (
                        f"id {entry_id} is already stored as {source.label}; a trusted import "
                        "does not raise a stored entry's provenance (import into an empty store "
                        "to keep the file's provenance and pins)"
                    )
                elif same:
                    present.add(entry_id)
                else:
                    problems[entry_id] = f"id {entry_id} is already taken by a different stored entry ({stored[entry_id][1]!r})"
            elif entry.superseded_by is not None:
                if entry.superseded_by == entry_id:
                    problems[entry_id] = "superseded_by names the entry itself"
                elif entry.superseded_by not in by_id:
                    problems[entry_id] = (
                        f"superseded_by names {entry.superseded_by}, which is not among this import's valid entries"
                    )
                elif entry.tier is not MemoryTier.ARCHIVAL:
                    problems[entry_id] = f"a superseded entry must be archival, not {entry.tier.label}"
        parent = {entry_id: entry_id for entry_id in by_id}

        def root(entry_id: str) -> str:
            while parent[entry_id] != entry_id:
                parent[entry_id] = parent[parent[entry_id]]
                entry_id = parent[entry_id]
            return entry_id

        for entry_id, (_, entry) in by_id.items():
            if entry.superseded_by in by_id:
                parent[root(entry_id)] = root(entry.superseded_by)
        groups: dict[str, list[str]] = {}
        for entry_id in by_id:
            groups.setdefault(root(entry_id), []).append(entry_id)
        chains = []
        for members in groups.values():
            ids = set(members)
            if not any(by_id[m][1].superseded_by not in ids for m in members):
                for m in members:
                    problems.setdefault(m, "its version chain loops (every version is superseded by another)")
            bad = [m for m in members if m in problems]
            if bad:
                first = by_id[bad[0]]
                for m in members:
                    where, entry = by_id[m]
                    if m in problems:
                        report.refuse(where, entry, reasons.get(m, "invalid"), problems[m])
                    elif m in present:
                        report.unchanged += 1
                    else:
                        report.refuse(
                            where,
                            entry,
                            "chain_refused",
                            f"not written: {import_place(first[0])} of its version chain was refused ({problems[bad[0]]})",
                        )
                continue
            report.unchanged += len(ids & present)
            # Superseded versions first, heads last: a head may meet a live entry for its key.
            chain = sorted((by_id[m] for m in members if m not in present), key=lambda item: item[1].superseded_by is None)
            if chain:
                chains.append(chain)
        return chains

    async def _stored_identities(self, ids: list[str]) -> dict[str, tuple[MemoryType, str, str, ProvenanceLevel]]:
        """(type, key, content, source) of the stored entries among ids."""
        found = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await self.store.fetchall(
                f"SELECT id, type, key, content, source FROM entries WHERE id IN ({','.join('?' * len(chunk))})", chunk
            )
            found.update({r[0]: (MemoryType(r[1]), r[2], r[3], ProvenanceLevel(r[4])) for r in rows})
        return found

    # ---- relevance judgments (engine/judgments.py; metrics: engine/recall/judgments.py) ----
    async def judge(self, query: str, entry_id: str, grade: int = 1, actor: AnyActor = None) -> "Judgment":
        """Record that entry_id is relevant (grade >= 1) or not (0) to query; audited."""
        from .judgments import judge

        return await judge(self.store, query, entry_id, grade, self.who(actor), self.clock())

    async def unjudge(self, query: str, entry_id: str, actor: AnyActor = None) -> bool:
        """Clear a judgment (audited); False if there was none."""
        from .judgments import unjudge

        return await unjudge(self.store, query, entry_id, self.who(actor), self.clock())

    async def judgments(self, query: Optional[str] = None) -> list["Judgment"]:
        """Every judgment, or one query's; a purged entry's judgment is marked purged."""
        from .judgments import list_judgments

        return await list_judgments(self.store, query)

    async def import_judgments(
        self,
        qrels: Optional[str | os.PathLike] = None,
        queries: Optional[str | os.PathLike] = None,
        longmemeval: Optional[str | os.PathLike] = None,
        actor: str = "import",
    ) -> "JudgmentImport":
        """Judgments from a BEIR qrels file (query texts from queries) or a LongMemEval
        file, placed on the entries whose id, key or a tag is the corpus id."""
        from . import judgments

        if (qrels is None) == (longmemeval is None):
            raise InvalidValue("give a qrels file or a LongMemEval file (one of them)")
        if qrels is not None:
            return await judgments.import_qrels(self.store, Path(qrels), Path(queries) if queries else None, actor, self.clock())
        return await judgments.import_longmemeval(self.store, Path(str(longmemeval)), actor, self.clock())

    async def evaluate_judgments(
        self, overrides: Optional[dict] = None, progress: Optional[Callable[[int, int], None]] = None
    ) -> dict[str, Any]:
        """recall@k, MRR and nDCG@10 over every judged query, through dry recall
        (nothing is recorded) with this engine's settings plus overrides."""
        from .recall.judgments import evaluate

        return await evaluate(self, overrides, progress)

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

    async def consolidate_sessions(self, progress: Optional[ProgressFn] = None, cancelled: Optional[CancelFn] = None) -> "JobRun":
        """Consolidate every session with new messages, oldest first, one at a time, with
        sessions done as progress; a stop waits for the session in hand (each lands whole)
        and leaves the rest for the next run. items: the runs made."""
        service = self.consolidation
        keys = await service.sessions_to_consolidate()
        run = JobRun(total=len(keys))
        report(progress, 0, run.total)
        if not keys:  # still resumes a job a closed process left
            run.items = await service.consolidate(None)
        for key in keys:
            if stop_requested(cancelled):
                run.cancelled = True
                break
            run.items += await service.consolidate(key)
            run.done += 1
            report(progress, run.done, run.total)
        return run

    async def open_session(self, key: str) -> "SessionInfo":
        return await self.consolidation.open_session(key)

    async def add_message(self, key: str, role: str, content: str) -> "Message":
        """A session message; its size is checked before anything else reads it."""
        return await self.consolidation.add_message(key, role, content)

    async def end_session(self, key: str) -> "JobRecord":
        """End the session and schedule its consolidation in the background; returns at once."""
        return await self.consolidation.end_session(key)

    async def clear_working(self, session_key: str, actor: AnyActor = None) -> int:
        """Drop a session's WORKING entries (through the gate) and forget its ring buffer;
        the audit names who did (consolidation passes itself)."""
        entries = await self.working_entries(session_key)
        await self.gate.drop_working([e.id for e in entries], self.who(actor), "session consolidated")
        self._working.pop(session_key, None)
        return len(entries)

    # ---- where entries came from, and live agent sources (issue 12) --------------------------
    async def entry_origins(self, entry_ids: Iterable[str]) -> dict[str, EntryOrigin]:
        """Origin and last touch of many entries in one query (a browser page, not a row at a time)."""
        ids = list(dict.fromkeys(entry_ids))
        found: dict[str, EntryOrigin] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await self.store.fetchall(
                "SELECT g.entry_id, f.actor, l.actor, l.action, l.at FROM (SELECT entry_id, min(id) AS first, "
                f"max(id) AS last FROM audit WHERE entry_id IN ({','.join('?' * len(chunk))}) AND action != 'reject' "
                "GROUP BY entry_id) g JOIN audit f ON f.id = g.first JOIN audit l ON l.id = g.last",
                chunk,
            )
            found.update({r[0]: EntryOrigin(origin_label(r[1]), origin_label(r[2]), r[3], from_iso(r[4])) for r in rows})
        return found

    async def recent_writers(self, since: datetime, prefixes: tuple[str, ...] = ("mcp:", "sync:")) -> list[WriterSeen]:
        """Writers whose audit name starts with one of prefixes (MCP clients and folder
        syncs by default) seen in the audit log since a time, most recent first."""
        rows = await self.store.fetchall(
            "SELECT actor, count(*), max(at) FROM audit WHERE at >= ? GROUP BY actor ORDER BY max(at) DESC", (to_iso(since),)
        )
        return [WriterSeen(actor, n, from_iso(at)) for actor, n, at in rows if actor.startswith(prefixes)]

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

    # ---- for the app's detail pane (issue 9) --------------------------------------------
    async def vector_state(self, entry_id: str) -> dict[str, Any]:
        """The entry's vector: model stamp and state (current, pending, stale, none, unchecked)."""
        return await self.recall_service.vector_state(entry_id)

    # ---- the recall log: why is this memory in my prompts? (issue 9) -----------------------
    async def _log_recall(self, query: str, result: "RecallResult", actor: Actor) -> None:
        """One row per returned entry (when, query, rank, who), the oldest trimmed to
        memory.recallLog.maxRows in the same transaction. Never fails the recall: on a
        read-only or unwritable store the result says the recall was not logged."""
        from .recall.results import Notice

        if not result.results:
            return
        keep = int(self.settings.get("memory.recallLog.maxRows"))
        why = "the store is read-only" if self.read_only else ""
        if not why:
            at, text = to_iso(self.clock()), query[:RECALL_LOG_QUERY_CHARS]
            rows = [(at, text, hit.rank, str(actor), hit.id) for hit in result.results] if keep else []
            try:
                async with self.store.transaction() as conn:
                    # an entry purged since the recall read it has nothing to log against
                    await conn.executemany(
                        "INSERT INTO recall_log(entry_id, at, query, rank, actor) SELECT id, ?, ?, ?, ? FROM entries WHERE id=?",
                        rows,
                    )
                    await conn.execute("DELETE FROM recall_log WHERE id <= (SELECT max(id) FROM recall_log) - ?", (keep,))
            except (sqlite3.Error, StoreError) as exc:
                log.warning("recall log of %s not written: %s", self.path, exc)
                why = f"the store refused the write ({exc})"
        if why:
            result.notices.append(Notice("recall_not_logged", f"this recall was not recorded in the recall log: {why}"))

    async def recent_recalls(self, entry_id: str, limit: int = 10) -> "RecallHistory":
        """How often non-dry recalls returned the entry (as far as the log reaches back),
        and the newest `limit` of them."""
        total = (await self.store.fetchone("SELECT count(*) FROM recall_log WHERE entry_id=?", (entry_id,)))[0]
        rows = await self.store.fetchall(
            "SELECT at, query, rank, actor FROM recall_log WHERE entry_id=? ORDER BY id DESC LIMIT ?", (entry_id, limit)
        )
        return RecallHistory(total, [RecallRecord(from_iso(at), query, rank, actor) for at, query, rank, actor in rows])

    # ---- undo, for the app's undo list (issue 9) -------------------------------------------
    async def undo_snapshot(self, entry_ids: Iterable[str]) -> list[MemoryEntry]:
        """Before a write: the entries it may change, as they are now, with their chain
        neighbours (the head a new version will supersede, the versions a purge splices)."""
        ids = list(dict.fromkeys(entry_ids))
        marks = ",".join("?" * len(ids))
        rows = await self.store.fetchall(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id IN ({marks}) OR superseded_by IN ({marks})", ids + ids
        )
        found = {e.id: e for e in map(row_to_entry, rows)}
        for entry in list(found.values()):
            head = await self.gate.head_of(entry)
            found.setdefault(head.id, head)
        return list(found.values())

    async def undo(self, step: UndoStep, actor: AnyActor = None) -> list[MemoryEntry]:
        """Take a write back (a person only): see WriteGate.revert."""
        return await self.gate.revert(step.before, step.created, self.who(actor), f"undo: {step.what}")

    # ---- tags, for the app's bulk tag (issue 9) ---------------------------------------------
    @staticmethod
    def check_tags(tags: Iterable[str]) -> list[str]:
        """Tags as the gate takes them, or InvalidValue naming the tag and the limit."""
        return validate_tags(list(tags))

    async def retag(
        self, entry_id: str, add: Iterable[str] = (), remove: Iterable[str] = (), actor: AnyActor = None
    ) -> WriteOutcome:
        """Tags added and removed (case-insensitively) on the live entry: a new version with
        the same content and provenance, through the gate; unchanged when nothing moves."""
        current = await self.get(entry_id)
        if current.superseded_by is not None or current.tier is not MemoryTier.SEMANTIC:
            raise WriteRejected(
                "not_live",
                f"{current.key} v{current.version} is {current.tier.label}; only a live entry is tagged (restore it first)",
            )
        gone = {t.lower() for t in self.check_tags(remove)}
        tags = [t for t in current.tags if t.lower() not in gone]
        tags += [t for t in dict.fromkeys(self.check_tags(add)) if t.lower() not in {k.lower() for k in tags}]
        if tags == current.tags:
            return WriteOutcome("unchanged", current)
        return await self.gate.write(self._next_version(current, tags=tags), self.who(actor), "tag")

    # ---- decisions on contradictions, for the app's history (issue 9) ------------------------
    async def decisions(self, limit: int = 500) -> list["Decision"]:
        """Resolved and dismissed contradictions, newest first: who decided (a person or
        consolidation's policy), when, what, and whether it has been undone."""
        rows = await self.store.fetchall(
            "SELECT r.id, r.contradiction_id, r.action, r.actor, r.at, r.undone_at, "
            "coalesce(a.key, c.entry_a_id), coalesce(b.key, c.entry_b_id), c.description, c.status "
            "FROM resolutions r JOIN contradictions c ON c.id = r.contradiction_id "
            "LEFT JOIN entries a ON a.id = c.entry_a_id LEFT JOIN entries b ON b.id = c.entry_b_id "
            "ORDER BY r.id DESC LIMIT ?",
            (limit,),
        )
        return [
            Decision(
                resolution_id=r[0],
                contradiction_id=r[1],
                action=r[2],
                actor=r[3],
                at=datetime.fromisoformat(r[4]),
                undone_at=datetime.fromisoformat(r[5]) if r[5] else None,
                keys=(r[6], r[7]),
                description=r[8] or "",
                status=r[9],
            )
            for r in rows
        ]

    async def undo_decision(self, contradiction_id: str, actor: AnyActor = None) -> Any:
        """Reopen what a resolution closed (a person only): its entries come back as they
        were; refused, with nothing written, when one changed since."""
        return await self.consolidation.undo(contradiction_id, actor=self.who(actor))


@dataclass(frozen=True)
class Decision:
    """One resolution of a contradiction, as the review history shows it."""

    resolution_id: int
    contradiction_id: str
    action: str  # keep_a, keep_b, keep_both, merge, or auto:<rule> (the policy)
    actor: str
    at: datetime
    undone_at: Optional[datetime]
    keys: tuple[str, str]  # of side A and side B
    description: str = ""
    status: str = ""

    @property
    def by_person(self) -> bool:
        """A person decided (app or CLI), not consolidation's automatic policy."""
        if self.action.startswith("auto"):
            return False
        try:
            return Actor.parse(self.actor).is_person
        except InvalidValue:
            return False


# The recall log keeps this much of each query: enough to recognise it.
RECALL_LOG_QUERY_CHARS = 500


@dataclass(frozen=True)
class RecallRecord:
    """One time a non-dry recall returned an entry."""

    at: datetime
    query: str
    rank: int
    actor: str

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at.isoformat(), "query": self.query, "rank": self.rank, "actor": self.actor}


@dataclass(frozen=True)
class RecallHistory:
    """An entry's recalls in the log: how many, and the newest few."""

    total: int
    recent: list[RecallRecord]

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "recent": [r.to_dict() for r in self.recent]}


@dataclass
class JobRun:
    """Long work with progress and stop: what it found or made (decay changes, consolidation
    runs), how many of total it went through, and whether the caller stopped it."""

    items: list[Any] = field(default_factory=list)
    done: int = 0
    total: int = 0
    cancelled: bool = False


@dataclass(frozen=True)
class UndoStep:
    """One write that can be taken back: the entries as they were before it and the
    versions it created. A purged entry lives on here (in memory) until the app closes."""

    what: str
    before: tuple[MemoryEntry, ...]
    created: tuple[str, ...] = ()

    @classmethod
    def after(cls, what: str, before: Iterable[MemoryEntry], changed: Iterable[MemoryEntry]) -> "UndoStep":
        before = tuple(before)
        known = {e.id for e in before}
        return cls(what, before, tuple(e.id for e in changed if e.id not in known))


__all__ = [
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
]
