"""ConsolidationService: the one object the app and the CLI use for sessions,
consolidation, contradictions and the version lattice (`engine.consolidation`).

Consolidation requests become rows in `jobs` before anything runs, so a job
survives a crash: start() re-runs whatever was pending or running. A job is
handed to the scheduler as a DURABLE task keyed by session (so a session is never
consolidated twice at once, and a second request while one is queued is a no-op),
whose factory re-reads the jobs table each time it is invoked, which is what
makes a retry after failure safe."""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import datetime, timedelta
from typing import Any, Optional, cast

from ..models import Episode, from_iso, new_id, to_iso
from .adapters import build_model
from .lattice import build_lattice
from .lease import RENEW_SECONDS, current_owner, is_abandoned, lease_until
from .llm import LanguageModel
from .offline import OfflineModel
from .pipeline import Pipeline
from .records import (
    CandidateFact,
    ContradictionRecord,
    JobRecord,
    Lattice,
    Message,
    ResolutionResult,
    RunRecord,
    SessionInfo,
)
from .resolve import ContradictionBook
from .scheduler import Durability, TaskScheduler
from .sessions import SessionLog

JOB_KIND = "consolidate"
_JOB_COLUMNS = "id, kind, session_key, trigger, status, attempts, last_error, created_at, updated_at"
_RUN_COLUMNS = (
    "id, session_key, trigger, status, started_at, ended_at, summariser, extractor, verifier, counts, errors, job_id, detail"
)


def _job(row) -> JobRecord:
    return JobRecord(row[0], row[1], row[2], row[3], row[4], row[5], row[6], from_iso(row[7]), from_iso(row[8]))


def _run(row) -> RunRecord:
    return RunRecord(
        id=row[0],
        session_key=row[1],
        trigger=row[2],
        status=row[3],
        started_at=from_iso(row[4]),
        ended_at=from_iso(row[5]),
        summariser=row[6],
        extractor=row[7],
        verifier=row[8],
        counts=json.loads(row[9]),
        errors=json.loads(row[10]),
        job_id=row[11],
        detail=json.loads(row[12]),
    )


class ConsolidationService:
    def __init__(self, engine, model: Optional[LanguageModel] = None, scheduler: Optional[TaskScheduler] = None):
        self.engine = engine
        self.offline = OfflineModel()
        self.model = model or build_model(engine.settings)
        self.scheduler = scheduler or TaskScheduler(workers=1, max_attempts=3, backoff_seconds=2.0)
        self.sessions = SessionLog(engine.store)
        self.book = ContradictionBook(engine)
        self.pipeline = Pipeline(engine, self.model, self.offline, self.book, self.sessions)
        self._idle_task: Optional[asyncio.Task] = None
        self.skipped: dict[str, str] = {}  # session key -> the live process(es) consolidating it

    # ---- lifecycle -------------------------------------------------------------------
    async def start(self, watch_idle: bool = True) -> list[str]:
        """Resume persisted jobs (a crash left them pending or running) and, if asked,
        watch for idle sessions. Returns the session keys resumed (none on a read-only store)."""
        if self.engine.read_only:
            return []
        async with self.engine.store.transaction() as conn:
            abandoned = await self._abandoned_jobs(conn)
            if abandoned:
                marks = ",".join("?" * len(abandoned))
                await conn.execute(
                    f"UPDATE consolidation_runs SET status='interrupted', ended_at=? WHERE "
                    f"status='running' AND job_id IN ({marks})",
                    (to_iso(self.engine.clock()), *abandoned),
                )
        # In the order the jobs were created, as an uninterrupted run would have taken them.
        rows = await self.engine.store.fetchall(
            "SELECT session_key FROM jobs WHERE status IN ('pending','running') GROUP BY session_key "
            "ORDER BY min(created_at), min(rowid)"
        )
        keys = [r[0] for r in rows]
        for key in keys:
            self._schedule(key)
        if watch_idle and self._idle_task is None:
            self._idle_task = asyncio.get_running_loop().create_task(self._watch_idle(), name="consolidation-idle")
        return keys

    async def stop(self) -> None:
        """Stop the idle watcher and the workers (pending jobs stay in the store), close the model."""
        if self._idle_task is not None:
            self._idle_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._idle_task
            self._idle_task = None
        await self.scheduler.close()
        await self.model.aclose()

    async def drain(self) -> None:
        """Wait until every scheduled consolidation has finished."""
        await self.scheduler.drain()

    # ---- sessions --------------------------------------------------------------------
    async def open_session(self, key: str) -> SessionInfo:
        return await self.sessions.open(key, self.engine.clock())

    async def add_message(self, key: str, role: str, content: str) -> Message:
        return await self.sessions.add_message(key, role, content, self.engine.clock())

    async def end_session(self, key: str) -> JobRecord:
        """End the session and queue its consolidation; returns without waiting for it."""
        async with self.engine.store.transaction() as conn:
            await self.sessions.end(conn, key, self.engine.clock())
            job = await self._insert_job(conn, key, "session_end")
        self._schedule(key)
        return job

    async def session(self, key: str) -> SessionInfo:
        return await self.sessions.get(key)

    async def list_sessions(self, status: Optional[str] = None) -> list[SessionInfo]:
        return await self.sessions.all(status)

    async def messages(self, key: str) -> list[Message]:
        await self.sessions.get(key)
        return await self.sessions.messages(key)

    async def episodes(
        self,
        session: Optional[str] = None,
        entity: Optional[str] = None,
        since: Optional[datetime] = None,
        until: Optional[datetime] = None,
        query: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> list[Episode]:
        return await self.sessions.episodes(session, entity, since, until, query, limit)

    async def episode_facts(self, episode_id: str) -> list[CandidateFact]:
        """The candidate facts extracted for an episode, with what became of each."""
        return await self.pipeline.candidates(episode_id)

    async def fact_origin(self, entry_id: str) -> Optional[CandidateFact]:
        """Which episode and which extractor produced an entry, if consolidation wrote it."""
        row = await self.engine.store.fetchone(
            "SELECT episode_id FROM fact_candidates WHERE entry_id=? ORDER BY rowid DESC LIMIT 1", (entry_id,)
        )
        if row is None:
            return None
        return next(c for c in await self.pipeline.candidates(row[0]) if c.entry_id == entry_id)

    # ---- consolidation -----------------------------------------------------------------
    async def schedule(self, key: str, trigger: str = "manual") -> JobRecord:
        """Queue a consolidation of the session (persisted first); returns at once."""
        await self.sessions.get(key)
        async with self.engine.store.transaction() as conn:
            job = await self._insert_job(conn, key, trigger)
        self._schedule(key)
        return job

    async def consolidate(self, key: Optional[str] = None, trigger: str = "manual") -> list[RunRecord]:
        """By hand: consolidate one session, or every session with unconsolidated
        messages, plus any persisted job; waits and returns the runs it made."""
        already = len(self.pipeline.made)
        self.skipped.clear()
        resumed = await self.start(watch_idle=False)
        keys = [key] if key is not None else await self.sessions_to_consolidate()
        for session_key in keys:
            if session_key not in resumed:
                await self.schedule(session_key, trigger)
        await self.drain()
        made = set(self.pipeline.made[already:])  # not the runs other processes made meanwhile
        return [r for r in await self.runs(limit=None) if r.id in made][::-1]

    async def sessions_to_consolidate(self) -> list[str]:
        """Sessions with new messages (or ended), oldest first, so later statements are applied later."""
        return [s.key for s in reversed(await self.sessions.all()) if s.unconsolidated > 0 or s.status == "ended"]

    async def check_idle(self) -> list[str]:
        """Queue every open session quiet for memory.consolidationIdleSeconds."""
        idle = float(self.engine.settings.get("memory.consolidationIdleSeconds"))
        quiet = await self.sessions.idle(self.engine.clock() - timedelta(seconds=idle))
        for session in quiet:
            await self.schedule(session.key, "idle")
        return [s.key for s in quiet]

    async def runs(self, limit: Optional[int] = 50, session: Optional[str] = None) -> list[RunRecord]:
        """Consolidation runs, newest first: when, what triggered them, which
        summariser/extractor/verifier ran, counts and errors."""
        sql = f"SELECT {_RUN_COLUMNS} FROM consolidation_runs"
        params: list[Any] = []
        if session is not None:
            sql += " WHERE session_key=?"
            params.append(session)
        sql += " ORDER BY started_at DESC, rowid DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_run(r) for r in await self.engine.store.fetchall(sql, params)]

    async def jobs(self, status: Optional[str] = None) -> list[JobRecord]:
        sql, params = f"SELECT {_JOB_COLUMNS} FROM jobs", cast(tuple[str, ...], ())
        if status is not None:
            sql, params = sql + " WHERE status=?", (status,)
        return [_job(r) for r in await self.engine.store.fetchall(sql + " ORDER BY created_at, id", params)]

    async def _insert_job(self, conn, key: str, trigger: str) -> JobRecord:
        """One pending job per session: asking again while one waits returns that one."""
        async with conn.execute(
            f"SELECT {_JOB_COLUMNS} FROM jobs WHERE kind=? AND session_key=? AND status='pending'", (JOB_KIND, key)
        ) as cur:
            row = await cur.fetchone()
        if row is not None:
            return _job(row)
        now = self.engine.clock()
        job = JobRecord(new_id(), JOB_KIND, key, trigger, "pending", 0, "", now, now)
        await conn.execute(
            f"INSERT INTO jobs({_JOB_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)",
            (job.id, job.kind, key, trigger, job.status, 0, "", to_iso(now), to_iso(now)),
        )
        return job

    def _schedule(self, key: str) -> str:
        async def give_up(exc: BaseException) -> None:
            async with self.engine.store.transaction() as conn:
                await conn.execute(
                    "UPDATE jobs SET status='failed', updated_at=? WHERE session_key=? AND status='running' AND owner=?",
                    (to_iso(self.engine.clock()), key, current_owner()),
                )

        return self.scheduler.schedule(f"{JOB_KIND}:{key}", lambda: self._run_jobs(key), Durability.DURABLE, on_give_up=give_up)

    @staticmethod
    async def _abandoned_jobs(conn, key: Optional[str] = None) -> list[str]:
        """Running jobs whose owner is gone (crashed, or its lease ran out)."""
        sql, params = "SELECT id, owner, lease_until FROM jobs WHERE status='running'", cast(tuple[str, ...], ())
        if key is not None:
            sql, params = sql + " AND session_key=?", (key,)
        async with conn.execute(sql, params) as cur:
            return [r[0] for r in await cur.fetchall() if is_abandoned(r[1], r[2])]

    async def _run_jobs(self, key: str) -> None:
        """The task factory: claim the session's waiting jobs and run the pipeline once
        for all of them (it consolidates everything not yet consolidated). A session
        another live process is consolidating is left to it (noted in self.skipped);
        its jobs stay pending. Jobs with nothing left to do finish without a run."""
        now = to_iso(self.engine.clock())
        owner = current_owner()
        async with self.engine.store.transaction() as conn:
            abandoned = await self._abandoned_jobs(conn, key)
            async with conn.execute(
                "SELECT id, trigger, status, owner FROM jobs WHERE session_key=? AND status IN "
                "('pending','running') ORDER BY created_at, rowid",
                (key,),
            ) as cur:
                rows = await cur.fetchall()
            # Our own running jobs are a retry after failure (the scheduler runs one task per session).
            holders = sorted(
                {
                    holder
                    for job_id, _, status, holder in rows
                    if status == "running" and holder != owner and job_id not in abandoned
                }
            )
            if holders:
                self.skipped[key] = ", ".join(holders)
                return
            claimed = [(job_id, trigger) for job_id, trigger, _, _ in rows]
            if not claimed:
                return
            ids = [r[0] for r in claimed]
            marks = ",".join("?" * len(ids))
            # Another process may have consolidated everything since this job was queued.
            status = "running" if await self._has_work(key) else "done"
            await conn.execute(
                f"UPDATE jobs SET status=?, attempts=attempts+1, updated_at=?, owner=?, lease_until=? WHERE id IN ({marks})",
                (status, now, owner, lease_until(), *ids),
            )
        if status == "done":
            return
        renewing = asyncio.get_running_loop().create_task(self._renew_lease(ids, owner), name=f"lease:{key}")
        try:
            await self.pipeline.run(key, claimed[0][1], claimed[0][0])
        except Exception as exc:
            async with self.engine.store.transaction() as conn:
                await conn.execute(
                    f"UPDATE jobs SET last_error=?, updated_at=? WHERE id IN ({marks})",
                    (f"{type(exc).__name__}: {exc}", to_iso(self.engine.clock()), *ids),
                )
            raise
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
        async with self.engine.store.transaction() as conn:
            await conn.execute(
                f"UPDATE jobs SET status='done', updated_at=? WHERE id IN ({marks})", (to_iso(self.engine.clock()), *ids)
            )

    async def _has_work(self, key: str) -> bool:
        """Messages not yet consolidated, or an ended session still to close."""
        session = await self.sessions.get(key)
        return session.unconsolidated > 0 or session.status == "ended"

    async def _renew_lease(self, ids: list[str], owner: str) -> None:
        marks = ",".join("?" * len(ids))
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            async with self.engine.store.transaction() as conn:
                await conn.execute(
                    f"UPDATE jobs SET lease_until=? WHERE owner=? AND id IN ({marks})", (lease_until(), owner, *ids)
                )

    async def _watch_idle(self) -> None:
        idle = float(self.engine.settings.get("memory.consolidationIdleSeconds"))
        while True:
            await asyncio.sleep(max(1.0, min(idle / 4, 30.0)))
            self.scheduler.schedule("idle-sweep", self.check_idle, Durability.BEST_EFFORT)

    # ---- contradictions ---------------------------------------------------------------
    async def contradictions(self, status: Optional[str] = None, limit: Optional[int] = None) -> list[ContradictionRecord]:
        return await self.book.query(status, limit)

    async def contradiction(self, contradiction_id: str) -> ContradictionRecord:
        return await self.book.get(contradiction_id)

    async def _person(self, actor, action: str, target: Optional[str]) -> str:
        """Resolving by hand is a person's decision (engine/actors.py); None is the engine's actor."""
        return str(await self.engine.gate.refuse_unless_person(self.engine.who(actor), action, target))

    async def resolve(self, contradiction_id: str, keep: str, actor=None) -> ResolutionResult:
        """keep 'a' (B is superseded by A), 'b', or 'both' (dismiss)."""
        actor = await self._person(actor, "resolving a contradiction", contradiction_id)
        return await self.book.keep(contradiction_id, keep, actor)

    async def merge(self, contradiction_id: str, text: str, actor=None) -> ResolutionResult:
        actor = await self._person(actor, "merging a contradiction", contradiction_id)
        return await self.book.merge(contradiction_id, text, actor)

    async def undo(self, contradiction_id: Optional[str] = None, actor=None) -> ResolutionResult:
        actor = await self._person(actor, "undoing a resolution", contradiction_id)
        return await self.book.undo(contradiction_id, actor)

    async def resolutions(self, contradiction_id: Optional[str] = None) -> list[dict]:
        return await self.book.resolutions(contradiction_id)

    # ---- version lattice -----------------------------------------------------------------
    async def lattice(self, entry_id: str) -> Lattice:
        return await build_lattice(self.engine.store, entry_id)

    async def restore_version(self, entry_id: str, actor=None):
        """Bring back an earlier version through the gate (MemoryEngine.restore)."""
        return await self.engine.restore(entry_id, actor=actor)
