"""SQLite persistence over aiosqlite: schema, forward migrations, transactions.
Knows nothing of rules: the write gate decides, the store records. Row mapping
lives in engine/rows.py (re-exported here).

Why so long: MIGRATIONS, the schema's whole history as SQL (about 240 lines), is
one list that each change appends to, kept beside the code that applies it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any, AsyncIterator, Iterable, Optional, cast

import aiosqlite

from .errors import ReadOnlyStore, StoreError
from .models import (
    AuditRecord,
    MemoryEntry,
    MemoryType,
    from_iso,
    to_iso,
    utcnow,
)
from .rows import (
    COL,
    CONTRADICTION_COLUMNS,
    ENTRY_COLUMNS,
    ENTRY_FIELDS,
    EPISODE_COLUMNS,
    entry_to_row,
    row_to_entry,
    row_to_episode,
)

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 30_000
# SQLite's page cache (KiB, as PRAGMA cache_size takes it negated). Every entry lands in
# about a dozen indexes at random places (ids are random): with the default 2 MiB each
# insert re-read index pages, and an import batch spilled dirty pages to the WAL before
# its commit. 64 MiB keeps a 100k store's hot index pages: inserts cost ~20% less CPU.
CACHE_KIB = 65_536
# BEGIN IMMEDIATE answered SQLITE_BUSY without waiting (it can, e.g. when this
# connection's snapshot is stale): retried with doubling pauses up to this long.
BEGIN_RETRY_SECONDS = BUSY_TIMEOUT_MS / 1000
# An audit record's detail as JSON (json.dumps with options builds an encoder a call).
_DETAIL_JSON = json.JSONEncoder(ensure_ascii=False, default=str).encode

# Each migration takes the schema from version i to i+1. Append, never edit.
MIGRATIONS: list[str] = [
    # 0 -> 1: the foundation
    """
    CREATE TABLE entries(
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL CHECK (type IN ('user','environment')),
        tier TEXT NOT NULL CHECK (tier IN ('working','episodic','semantic','archival')),
        key TEXT NOT NULL,
        content TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        source_session TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        importance REAL NOT NULL CHECK (importance BETWEEN 0 AND 1),
        access_count INTEGER NOT NULL DEFAULT 0,
        last_accessed TEXT NOT NULL,
        embedding_id TEXT NOT NULL DEFAULT '',
        episode_id TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        superseded_by TEXT,
        source INTEGER NOT NULL CHECK (source BETWEEN 0 AND 3),
        pinned INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX entries_tier ON entries(tier);
    CREATE INDEX entries_key ON entries(type, key);
    CREATE INDEX entries_updated ON entries(updated_at);
    CREATE TABLE vectors(
        entry_id TEXT PRIMARY KEY REFERENCES entries(id) ON DELETE CASCADE,
        model_id TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL
    );
    CREATE TABLE reembed_queue(
        entry_id TEXT PRIMARY KEY REFERENCES entries(id) ON DELETE CASCADE,
        reason TEXT NOT NULL,
        queued_at TEXT NOT NULL
    );
    CREATE TABLE episodes(
        id TEXT PRIMARY KEY,
        session_key TEXT NOT NULL,
        summary TEXT NOT NULL,
        message_range_start INTEGER NOT NULL,
        message_range_end INTEGER NOT NULL,
        entity_ids TEXT NOT NULL DEFAULT '[]',
        importance REAL NOT NULL,
        created_at TEXT NOT NULL,
        produced_by TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX episodes_session ON episodes(session_key);
    CREATE TABLE episode_vectors(
        episode_id TEXT PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
        model_id TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL
    );
    CREATE TABLE contradictions(
        id TEXT PRIMARY KEY,
        entry_a_id TEXT NOT NULL,
        entry_b_id TEXT NOT NULL,
        description TEXT NOT NULL,
        confidence REAL NOT NULL,
        resolution TEXT,
        resolved_at TEXT,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending','resolved','dismissed')),
        detector TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX contradictions_status ON contradictions(status);
    CREATE TABLE sessions(
        key TEXT PRIMARY KEY,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        status TEXT NOT NULL DEFAULT 'open'
    );
    CREATE TABLE messages(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_key TEXT NOT NULL REFERENCES sessions(key) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        at TEXT NOT NULL,
        UNIQUE(session_key, idx)
    );
    CREATE TABLE audit(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        entry_id TEXT,
        reason TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX audit_entry ON audit(entry_id);
    CREATE TABLE change_log(
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        entry_id TEXT NOT NULL,
        op TEXT NOT NULL,
        at TEXT NOT NULL
    );
    """,
    # 1 -> 2: sessions and consolidation (progress, persisted jobs, runs, candidate facts,
    # undoable resolutions)
    """
    ALTER TABLE sessions ADD COLUMN last_activity_at TEXT;
    ALTER TABLE sessions ADD COLUMN consolidated_through INTEGER NOT NULL DEFAULT -1;
    CREATE UNIQUE INDEX episodes_range ON episodes(session_key, message_range_start, message_range_end);
    CREATE INDEX episodes_created ON episodes(created_at);
    CREATE UNIQUE INDEX contradictions_pair ON contradictions(entry_a_id, entry_b_id);
    CREATE TABLE jobs(
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        session_key TEXT NOT NULL,
        trigger TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending','running','done','failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX jobs_one_pending ON jobs(kind, session_key) WHERE status='pending';
    CREATE TABLE consolidation_runs(
        id TEXT PRIMARY KEY,
        job_id TEXT,
        session_key TEXT NOT NULL,
        trigger TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running','ok','failed','interrupted')),
        started_at TEXT NOT NULL,
        ended_at TEXT,
        summariser TEXT NOT NULL DEFAULT '',
        extractor TEXT NOT NULL DEFAULT '',
        verifier TEXT NOT NULL DEFAULT '',
        counts TEXT NOT NULL DEFAULT '{}',
        errors TEXT NOT NULL DEFAULT '[]',
        detail TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX consolidation_runs_started ON consolidation_runs(started_at);
    CREATE TABLE fact_candidates(
        episode_id TEXT NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        key TEXT NOT NULL,
        content TEXT NOT NULL,
        type TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        importance REAL NOT NULL,
        produced_by TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('new','written','unchanged','refused')),
        entry_id TEXT,
        run_id TEXT,
        detail TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (episode_id, ordinal)
    );
    CREATE INDEX fact_candidates_entry ON fact_candidates(entry_id);
    CREATE TABLE resolutions(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        contradiction_id TEXT NOT NULL REFERENCES contradictions(id) ON DELETE CASCADE,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        at TEXT NOT NULL,
        merged_entry_id TEXT,
        before TEXT NOT NULL,
        after TEXT NOT NULL,
        undone_at TEXT
    );
    CREATE INDEX resolutions_contradiction ON resolutions(contradiction_id);
    """,
    # 2 -> 3: the app's browser sorts by these columns; page without a full sort
    """
    CREATE INDEX entries_created ON entries(created_at);
    CREATE INDEX entries_importance ON entries(importance);
    CREATE INDEX entries_access ON entries(access_count);
    CREATE INDEX entries_last_accessed ON entries(last_accessed);
    CREATE INDEX entries_key_only ON entries(key);
    """,
    # 3 -> 4: a running job names its owner and holds a lease (engine/consolidation/lease.py)
    """
    ALTER TABLE jobs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
    ALTER TABLE jobs ADD COLUMN lease_until REAL NOT NULL DEFAULT 0;
    """,
    # 4 -> 5: the recall log, one row per entry a non-dry recall returned (engine/memory.py
    # writes it, bounded by memory.recallLog.maxRows); a purged entry takes its rows along
    """
    CREATE TABLE recall_log(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        query TEXT NOT NULL,
        rank INTEGER NOT NULL,
        actor TEXT NOT NULL
    );
    CREATE INDEX recall_log_entry ON recall_log(entry_id, id);
    """,
    # 5 -> 6: relevance judgments (engine/judgments.py). No foreign key on purpose: a
    # judgment outlives a purged entry and is reported as "entry purged".
    """
    CREATE TABLE judgments(
        query TEXT NOT NULL,
        entry_id TEXT NOT NULL,
        grade INTEGER NOT NULL CHECK (grade BETWEEN 0 AND 10),
        judged_by TEXT NOT NULL,
        judged_at TEXT NOT NULL,
        PRIMARY KEY (query, entry_id)
    );
    CREATE INDEX judgments_entry ON judgments(entry_id);
    """,
    # 6 -> 7: the app's sources line asks who wrote in the last minutes (MemoryEngine.recent_writers)
    """
    CREATE INDEX audit_at ON audit(at);
    """,
    # 7 -> 8: keyset paging (engine/paging.py) seeks on (sort column, id) in either direction;
    # these replace the one-column sort indexes (entries_page_tier also serves the tier filter).
    # Migration 11 takes the id out of them again.
    """
    DROP INDEX entries_tier;
    DROP INDEX entries_updated;
    DROP INDEX entries_created;
    DROP INDEX entries_importance;
    DROP INDEX entries_access;
    DROP INDEX entries_last_accessed;
    DROP INDEX entries_key_only;
    CREATE INDEX entries_page_updated_at ON entries(updated_at, id);
    CREATE INDEX entries_page_created_at ON entries(created_at, id);
    CREATE INDEX entries_page_key ON entries(key, id);
    CREATE INDEX entries_page_importance ON entries(importance, id);
    CREATE INDEX entries_page_access_count ON entries(access_count, id);
    CREATE INDEX entries_page_last_accessed ON entries(last_accessed, id);
    CREATE INDEX entries_page_tier ON entries(tier, id);
    CREATE INDEX entries_page_type ON entries(type, id);
    CREATE INDEX entries_page_source ON entries(source, id);
    CREATE INDEX entries_page_version ON entries(version, id);
    """,
    # 8 -> 9: each gate batch reads the versions pointing at its ids (engine/gate_bulk.py);
    # without an index every import batch read the whole table. Partial: only
    # superseded versions have a link, so live rows cost nothing to write.
    """
    CREATE INDEX entries_superseded_by ON entries(superseded_by) WHERE superseded_by IS NOT NULL;
    """,
    # 9 -> 10: MemoryEngine.stats, run at open and after writes, counts tiers, types,
    # sources and pins in one pass over this covering index (at 1M entries the six table
    # scans took seconds, and the browser's reads queued behind them); the partial index
    # answers the quarantine's count and list without reading the whole audit table.
    """
    CREATE INDEX entries_stats ON entries(tier, type, source, pinned);
    CREATE INDEX audit_rejects ON audit(id) WHERE action='reject';
    """,
    # 10 -> 11: the paging indexes hold the sort column alone; SQLite ends every index entry
    # with the rowid, and paging breaks ties on it (engine/paging.py). The 36-character id in
    # each of the ten cost a 100k import 1.3 of its 8.7 CPU-seconds (scanner stubbed).
    """
    DROP INDEX entries_page_updated_at;
    CREATE INDEX entries_page_updated_at ON entries(updated_at);
    DROP INDEX entries_page_created_at;
    CREATE INDEX entries_page_created_at ON entries(created_at);
    DROP INDEX entries_page_key;
    CREATE INDEX entries_page_key ON entries(key);
    DROP INDEX entries_page_importance;
    CREATE INDEX entries_page_importance ON entries(importance);
    DROP INDEX entries_page_access_count;
    CREATE INDEX entries_page_access_count ON entries(access_count);
    DROP INDEX entries_page_last_accessed;
    CREATE INDEX entries_page_last_accessed ON entries(last_accessed);
    DROP INDEX entries_page_tier;
    CREATE INDEX entries_page_tier ON entries(tier);
    DROP INDEX entries_page_type;
    CREATE INDEX entries_page_type ON entries(type);
    DROP INDEX entries_page_source;
    CREATE INDEX entries_page_source ON entries(source);
    DROP INDEX entries_page_version;
    CREATE INDEX entries_page_version ON entries(version);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
# the row writers' SQL: only the store writes rows, and only the gate calls it
_INSERT_ENTRY = f"INSERT INTO entries({ENTRY_COLUMNS}) VALUES ({','.join('?' * len(ENTRY_FIELDS))})"
_UPDATE_ENTRY = f"UPDATE entries SET {', '.join(f'{c}=?' for c in ENTRY_FIELDS[1:])} WHERE id=?"


def _check_sqlite_file(path: Path) -> None:
    """Refuse a file that is not SQLite before aiosqlite touches (and maybe rewrites) it."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with open(path, "rb") as fh:
        header = fh.read(16)
    if header != b"SQLite format 3\x00":
        raise StoreError(f"{path} is not a SQLite database (bad header); it was left untouched")


class _ConnectionLock:
    """One task at a time on the shared connection; the task holding it may re-enter.

    Why: a BEGIN IMMEDIATE issued while another task's SELECT is still open runs
    inside that read snapshot, and SQLite answers SQLITE_BUSY at once, skipping the
    busy timeout. Serialising reads and transactions means no read statement is
    ever open when a transaction begins (and no task reads another's uncommitted
    rows)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: Optional[asyncio.Task] = None

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if self._owner is task:
            yield
            return
        async with self._lock:
            self._owner = task
            try:
                yield
            finally:
                self._owner = None


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "database is locked" in text or "database is busy" in text


class Store:
    """One aiosqlite connection to one store file, WAL, busy timeout, foreign keys.

    change_log is a bounded journal: the newest CHANGE_LOG_KEEP rows are kept, older
    ones are pruned every PRUNE_EVERY commits. A reader whose position fell behind
    the pruned rows (change_log_floor) cannot replay and reloads everything instead."""

    CHANGE_LOG_KEEP = 10_000
    PRUNE_EVERY = 500

    def __init__(self, path: Path, conn: aiosqlite.Connection, read_only: bool):
        self.path = path
        self.conn = conn
        self.read_only = read_only
        self._lock = _ConnectionLock()
        self.change_log_keep = self.CHANGE_LOG_KEEP
        self.prune_every = self.PRUNE_EVERY
        self._commits = 0

    # ---- opening -------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | os.PathLike, read_only: bool = False) -> "Store":
        """Open (creating if absent) and migrate; a read-only file opens read-only."""
        path = Path(path).expanduser()
        if path.is_dir():
            raise StoreError(f"{path} is a folder; give the path of a store file inside it")
        _check_sqlite_file(path)
        if not read_only and path.exists() and not os.access(path, os.W_OK):
            read_only = True
        if not read_only and not path.exists():
            if not path.parent.is_dir():
                raise StoreError(f"cannot create {path}: folder {path.parent} does not exist")
            if not os.access(path.parent, os.W_OK):
                raise StoreError(f"cannot create {path}: folder {path.parent} is not writable")
        if read_only:
            if not path.exists():
                raise StoreError(f"{path} does not exist (cannot create a store read-only)")
            uri = f"file:{path.resolve()}?mode=ro"
            conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        else:
            conn = await aiosqlite.connect(path, isolation_level=None)
        store = cls(path, conn, read_only)
        try:
            await store._configure()
            await store._migrate()
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StoreError(f"{path} cannot be opened: {exc}") from exc
        except BaseException:
            await conn.close()
            raise
        return store

    async def _configure(self) -> None:
        await self.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        await self.conn.execute("PRAGMA foreign_keys=ON")
        await self.conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        # Reading the schema makes a corrupt file fail here, not later.
        version = await self.schema_version()
        async with self.conn.execute("SELECT count(*) FROM sqlite_master") as cur:
            has_tables = (await cur.fetchone())[0] > 0
        if version > SCHEMA_VERSION or (version == 0 and has_tables):
            return  # _migrate refuses it; switching to WAL would rewrite the header
        if not self.read_only:
            await self.conn.execute("PRAGMA journal_mode=WAL")
            await self.conn.execute("PRAGMA synchronous=NORMAL")

    async def schema_version(self) -> int:
        return (await self.fetchone("PRAGMA user_version"))[0]

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current == 0:
            async with self.conn.execute("SELECT name FROM sqlite_master WHERE type='table' LIMIT 3") as cur:
                tables = [r[0] for r in await cur.fetchall()]
            if tables:
                raise StoreError(
                    f"{self.path} is a SQLite database of another program (tables: "
                    f"{', '.join(tables)}); it is not an echo-memory store and was left untouched"
                )
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {current}, newer than this echo-memory "
                f"understands ({SCHEMA_VERSION}); upgrade echo-memory. The file was not changed."
            )
        if current == SCHEMA_VERSION:
            return
        if self.read_only:
            raise StoreError(
                f"{self.path} has schema version {current} and needs migrating to "
                f"{SCHEMA_VERSION}, which a read-only store cannot do"
            )
        async with self.transaction():
            # Re-read inside the write lock: another process may have migrated meanwhile.
            current = await self.schema_version()
            for version in range(current, SCHEMA_VERSION):
                for statement in _split_sql(MIGRATIONS[version]):
                    await self.conn.execute(statement)
            await self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    async def close(self) -> None:
        await self.conn.close()

    # ---- transactions --------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any error: all or nothing."""
        if self.read_only:
            raise ReadOnlyStore(f"{self.path} is open read-only; nothing was written")
        async with self._lock.hold():
            await self._begin_immediate()
            try:
                yield self.conn
            except BaseException:
                if self.conn.in_transaction:  # a full disk (SQLITE_FULL) has already rolled it back
                    await self.conn.execute("ROLLBACK")
                raise
            else:
                await self.conn.execute("COMMIT")
            self._commits += 1
            if self._commits % self.prune_every == 0:
                try:
                    await self.prune_change_log()
                except sqlite3.Error as exc:  # housekeeping: the caller's commit stands either way
                    log.warning("pruning change_log of %s failed (retried later): %s", self.path, exc)

    async def prune_change_log(self) -> int:
        """Drop change_log rows older than the newest change_log_keep; returns how many."""
        async with self._lock.hold():
            top = (await self.fetchone("SELECT coalesce(max(seq), 0) FROM change_log"))[0]
            if top - await self.change_log_floor() <= self.change_log_keep:
                return 0
            await self._begin_immediate()
            try:
                cur = await self.conn.execute("DELETE FROM change_log WHERE seq <= ?", (top - self.change_log_keep,))
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")
            return cur.rowcount

    async def change_log_floor(self) -> int:
        """The last pruned seq: a reader at a position below it has missed rows."""
        row = await self.fetchone("SELECT min(seq) FROM change_log")
        return 0 if row[0] is None else row[0] - 1

    async def _begin_immediate(self) -> None:
        """BEGIN IMMEDIATE; an immediate SQLITE_BUSY (no busy handler ran) is retried
        with backoff, so another process's long write delays us instead of failing us."""
        loop = asyncio.get_running_loop()
        deadline, pause = loop.time() + BEGIN_RETRY_SECONDS, 0.005
        while True:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or loop.time() + pause > deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.5)

    async def data_version(self) -> int:
        """Changes when another connection commits (PRAGMA data_version)."""
        return (await self.fetchone("PRAGMA data_version"))[0]

    # ---- reads ---------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for several reads in a row, no transaction of another task in between."""
        async with self._lock.hold():
            yield self.conn

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        async with self._lock.hold(), self.conn.execute(sql, tuple(params)) as cur:
            return cast(list[tuple], list(await cur.fetchall()))  # no row_factory: rows are tuples

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Optional[tuple]:
        async with self._lock.hold(), self.conn.execute(sql, tuple(params)) as cur:
            return cast(Optional[tuple], await cur.fetchone())

    async def get_entry(self, entry_id: str) -> Optional[MemoryEntry]:
        row = await self.fetchone(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id=?", (entry_id,))
        return None if row is None else row_to_entry(row)

    async def current_for_key(self, conn, type_: MemoryType, key: str) -> Optional[MemoryEntry]:
        """The live (not superseded, not WORKING) entry holding (type, key), if any."""
        async with conn.execute(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE type=? AND key=? AND superseded_by IS NULL "
            "AND tier NOT IN ('working','episodic') ORDER BY version DESC LIMIT 1",
            (type_.value, key),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else row_to_entry(row)

    # ---- writes (call inside transaction()) ----------------------------------------
    @staticmethod
    async def insert_entry(conn, entry: MemoryEntry) -> None:
        await conn.execute(_INSERT_ENTRY, entry_to_row(entry))
        await Store.log_change(conn, entry.id, "insert")

    @staticmethod
    async def update_entry(conn, entry: MemoryEntry) -> None:
        row = entry_to_row(entry)
        await conn.execute(_UPDATE_ENTRY, row[1:] + (row[0],))
        await Store.log_change(conn, entry.id, "update")

    @staticmethod
    async def write_rows(conn, deletes: list[str], inserts: list[tuple], updates: list[tuple]) -> None:
        """The gate's batches (engine/gate_bulk.py), set-based: rows as entry_to_row
        makes them, deleted, inserted, then updated. The caller journals the changes."""
        if deletes:
            await conn.executemany("DELETE FROM entries WHERE id=?", [(i,) for i in deletes])
        if inserts:
            await conn.executemany(_INSERT_ENTRY, inserts)
        if updates:
            await conn.executemany(_UPDATE_ENTRY, [row[1:] + (row[0],) for row in updates])

    @staticmethod
    async def delete_entry(conn, entry_id: str) -> None:
        await conn.execute("DELETE FROM entries WHERE id=?", (entry_id,))
        await Store.log_change(conn, entry_id, "delete")

    @staticmethod
    async def close_contradictions_about(
        conn, entry_ids: list[str], at: datetime, resolution: str, except_id: Optional[str] = None
    ) -> list[str]:
        """Close the pending contradictions that name any of entry_ids; returns their ids.
        Every replacing write calls it, mostly to find none: one round trip to SQLite's
        thread for the query (not a cursor's three), and the updates, if any, in one more."""
        if not entry_ids:
            return []
        marks = ",".join("?" * len(entry_ids))
        rows = await conn.execute_fetchall(
            f"SELECT id FROM contradictions WHERE status='pending' AND id IS NOT ? AND "
            f"(entry_a_id IN ({marks}) OR entry_b_id IN ({marks})) ORDER BY id",
            (except_id, *entry_ids, *entry_ids),
        )
        ids = [r[0] for r in rows]
        if ids:
            await conn.executemany(
                "UPDATE contradictions SET status='resolved', resolution=?, resolved_at=? WHERE id=?",
                [(resolution, to_iso(at), other) for other in ids],
            )
        return ids

    @staticmethod
    async def log_change(conn, entry_id: str, op: str) -> None:
        await Store.log_changes(conn, [(entry_id, op)])

    @staticmethod
    async def log_changes(conn, changes: list[tuple[str, str]]) -> None:
        """(entry id, op) rows for the change journal, in order."""
        at = to_iso(utcnow())
        await conn.executemany(
            "INSERT INTO change_log(entry_id, op, at) VALUES (?,?,?)", [(entry_id, op, at) for entry_id, op in changes]
        )

    @staticmethod
    def audit_row(
        action: str,
        actor: str,
        entry_id: Optional[str],
        reason: str = "",
        detail: Optional[dict] = None,
        at: Optional[datetime] = None,
    ) -> tuple:
        return (
            to_iso(at or utcnow()),
            action,
            actor,
            entry_id,
            reason,
            _DETAIL_JSON(detail or {}),
        )

    @staticmethod
    async def audit(
        conn,
        action: str,
        actor: str,
        entry_id: Optional[str],
        reason: str = "",
        detail: Optional[dict] = None,
        at: Optional[datetime] = None,
    ) -> None:
        await Store.audit_rows(conn, [Store.audit_row(action, actor, entry_id, reason, detail, at)])

    @staticmethod
    async def audit_rows(conn, rows: list[tuple]) -> None:
        """Audit records made by audit_row, in order."""
        await conn.executemany("INSERT INTO audit(at, action, actor, entry_id, reason, detail) VALUES (?,?,?,?,?,?)", rows)

    async def audit_records(
        self, entry_id: Optional[str] = None, action: Optional[str] = None, limit: int = 500
    ) -> list[AuditRecord]:
        where, params = [], []
        if entry_id is not None:
            where.append("entry_id=?")
            params.append(entry_id)
        if action is not None:
            where.append("action=?")
            params.append(action)
        sql = "SELECT id, at, action, actor, entry_id, reason, detail FROM audit"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC LIMIT ?"
        rows = await self.fetchall(sql, params + [limit])
        return [
            AuditRecord(id=r[0], at=from_iso(r[1]), action=r[2], actor=r[3], entry_id=r[4], reason=r[5], detail=json.loads(r[6]))
            for r in rows
        ]


def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


__all__ = [
    "COL",
    "CONTRADICTION_COLUMNS",
    "ENTRY_COLUMNS",
    "ENTRY_FIELDS",
    "EPISODE_COLUMNS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Store",
    "entry_to_row",
    "row_to_entry",
    "row_to_episode",
]
