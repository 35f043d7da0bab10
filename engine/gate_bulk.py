"""The gate's batched state: what a batch of writes can read and what it changes,
so the write gate's rules run against memory and the rows land set-based.

Batch.load reads, in a few `IN (...)` queries, every row the batch's rules can
look at (the live and working rows of its keys, the rows with its ids, the rows
pointing at its ids). WriteGate._apply then decides each entry in input order
against the batch (a later write of a key sees the earlier one), recording rows,
change-journal and audit records in memory; flush writes them with executemany.
checkpoint/rollback play the part of a savepoint per version chain.

The rules themselves stay in gate.py: a write of one entry is a batch of one, so
the one-by-one path and the bulk path are the same code at different batch sizes
(tests/adversarial/test_bulk_equivalence.py holds them to the same store state)."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Iterable, Optional

from .errors import WriteRejected
from .models import MemoryEntry, MemoryTier
from .store import ENTRY_COLUMNS, Store, entry_to_row, row_to_entry

# SQLite's default limit on host parameters is 999 before 3.32; stay under it.
_IN_CHUNK = 900
_NOT_HEADS = (MemoryTier.WORKING, MemoryTier.EPISODIC)


class Batch:
    """Rows by id as the batch sees them (None: absent), with their state before the
    batch, and the journal, audit and obsolete-contradiction records still to write."""

    def __init__(self) -> None:
        self.rows: dict[str, Optional[MemoryEntry]] = {}
        self.before: dict[str, Optional[MemoryEntry]] = {}
        self.dropped: set[str] = set()  # ids deleted at some point in the batch
        self.by_key: dict[str, dict[str, None]] = {}  # key -> ids, in load order
        self.pointing: dict[str, dict[str, None]] = {}  # superseded_by -> ids
        self.journal: list[tuple[str, str]] = []
        self.audits: list[tuple] = []
        self.obsolete: list[str] = []
        self._undo: list[tuple[str, Optional[MemoryEntry]]] = []

    @classmethod
    async def load(cls, conn, entries: Iterable[MemoryEntry]) -> "Batch":
        batch = cls()
        entries = list(entries)
        keys = list(dict.fromkeys(e.key for e in entries if isinstance(e.key, str)))
        ids = list(dict.fromkeys(e.id for e in entries))
        queries = (
            ("key IN ({}) AND (superseded_by IS NULL OR tier='working')", keys),
            ("id IN ({})", ids),
            ("superseded_by IN ({})", ids),
        )
        parts = [
            (where.format(",".join("?" * len(values[start : start + _IN_CHUNK]))), values[start : start + _IN_CHUNK])
            for where, values in queries
            for start in range(0, len(values), _IN_CHUNK)
        ]
        # The parts go to SQLite as few statements as the parameter limit allows (a
        # single write's batch: one round trip, not three queries with a cursor each),
        # each part's rows in rowid order and the parts in order, as separate queries would.
        statement: list[tuple[str, list[str]]] = []
        for k, part in enumerate(parts):
            statement.append(part)
            if k + 1 == len(parts) or sum(len(v) for _, v in statement) + len(parts[k + 1][1]) > _IN_CHUNK:
                sql = " UNION ALL ".join(
                    f"SELECT {p}, rowid, {ENTRY_COLUMNS} FROM entries WHERE {where}" for p, (where, _) in enumerate(statement)
                )
                params = [value for _, values in statement for value in values]
                for row in await conn.execute_fetchall(sql + " ORDER BY 1, 2", params):
                    if row[2] not in batch.rows:
                        batch.rows[row[2]] = entry = row_to_entry(row[2:])
                        batch._index(entry)
                statement = []
        return batch

    # ---- reads: the store's answers, with the batch's own changes in -----------------
    def exists(self, entry_id: str) -> bool:
        return self.rows.get(entry_id) is not None

    def _with_key(self, key: str) -> list[MemoryEntry]:
        return [e for e in map(self.rows.get, self.by_key.get(key, ())) if e is not None and e.key == key]

    def live(self, entry: MemoryEntry) -> Optional[MemoryEntry]:
        """The live head of entry's (type, key), as Store.current_for_key finds it."""
        heads = [
            e for e in self._with_key(entry.key) if e.type is entry.type and e.superseded_by is None and e.tier not in _NOT_HEADS
        ]
        return max(heads, key=lambda e: e.version, default=None)

    def other_type_holder(self, entry: MemoryEntry) -> Optional[MemoryEntry]:
        """A live SEMANTIC entry holding entry's key under the other type."""
        return next(
            (
                e
                for e in self._with_key(entry.key)
                if e.type is not entry.type and e.superseded_by is None and e.tier is MemoryTier.SEMANTIC
            ),
            None,
        )

    def working_note(self, entry: MemoryEntry) -> Optional[MemoryEntry]:
        """The newest WORKING note of entry's session for its key."""
        notes = [
            e for e in self._with_key(entry.key) if e.tier is MemoryTier.WORKING and e.source_session == entry.source_session
        ]
        return max(notes, key=lambda e: e.created_at, default=None)

    def pointing_at(self, entry_id: str) -> list[MemoryEntry]:
        return [e for e in map(self.rows.get, self.pointing.get(entry_id, ())) if e is not None and e.superseded_by == entry_id]

    # ---- changes -------------------------------------------------------------------
    def insert(self, entry: MemoryEntry) -> None:
        if self.exists(entry.id):
            raise WriteRejected("duplicate_id", f"an entry with id {entry.id} already exists", id=entry.id)
        self._set(entry.id, entry)
        self.journal.append((entry.id, "insert"))

    def update(self, entry: MemoryEntry) -> None:
        self._set(entry.id, entry)
        self.journal.append((entry.id, "update"))

    def delete(self, entry_id: str) -> None:
        self._set(entry_id, None)
        self.dropped.add(entry_id)
        self.journal.append((entry_id, "delete"))

    def audit(self, action: str, actor: str, entry_id: Optional[str], reason: str, detail: Optional[dict], at: datetime) -> None:
        self.audits.append(Store.audit_row(action, actor, entry_id, reason, detail, at))

    def _set(self, entry_id: str, entry: Optional[MemoryEntry]) -> None:
        previous = self.rows.get(entry_id)
        self.before.setdefault(entry_id, previous)
        self._undo.append((entry_id, previous))
        self.rows[entry_id] = entry
        if entry is not None:
            self._index(entry)

    def _index(self, entry: MemoryEntry) -> None:
        """by_key and pointing cover every row that holds (or once held) a key or link;
        readers filter on each row's current state."""
        self.by_key.setdefault(entry.key, {})[entry.id] = None
        if entry.superseded_by is not None:
            self.pointing.setdefault(entry.superseded_by, {})[entry.id] = None

    # ---- savepoints ----------------------------------------------------------------
    def checkpoint(self) -> tuple[int, int, int, int, frozenset[str]]:
        return len(self._undo), len(self.journal), len(self.audits), len(self.obsolete), frozenset(self.dropped)

    def rollback(self, mark: tuple[int, int, int, int, frozenset[str]]) -> None:
        undo, journal, audits, obsolete, dropped = mark
        while len(self._undo) > undo:
            entry_id, previous = self._undo.pop()
            self.rows[entry_id] = previous
        del self.journal[journal:], self.audits[audits:], self.obsolete[obsolete:]
        self.dropped = set(dropped)

    # ---- writing -------------------------------------------------------------------
    async def flush(self, conn, now: datetime) -> None:
        """Write the batch's net changes: each row as it ends up (deleted, inserted or
        updated once), then the journal and audit records in the order they happened."""
        deletes, inserts, updates = [], [], []
        for entry_id, before in self.before.items():
            after = self.rows[entry_id]
            replaced = entry_id in self.dropped
            if before is not None and (after is None or replaced):
                deletes.append(entry_id)
            if after is not None and (before is None or replaced):
                inserts.append(entry_to_row(after))
            elif after is not None and after != before:
                updates.append(entry_to_row(after))
        await Store.write_rows(conn, deletes, inserts, updates)
        await Store.log_changes(conn, self.journal)
        await Store.audit_rows(conn, self.audits)
        if self.obsolete:
            # A conflict about a replaced version has nothing left to decide; the next
            # consolidation judges the new version afresh.
            await Store.close_contradictions_about(conn, list(dict.fromkeys(self.obsolete)), now, "obsolete")


async def load_fixture(store: Store, entries: Iterable[MemoryEntry], actor: str, reason: str, chunk: int = 10_000) -> int:
    """Bulk-load a throw-away measurement store (an evaluation dataset, a benchmark
    corpus): rows land exactly as given, in one transaction, journaled, with one audit
    record naming the load and its size. No scanner, field rules or versioning: they
    would change what is measured (a chat turn the scanner refuses, two documents
    sharing a title). So it is refused, with nothing written, unless the store holds
    no entries yet; a store anyone's memory lives in never qualifies. Returns the count."""
    loaded = 0
    async with store.transaction() as conn:
        async with conn.execute("SELECT 1 FROM entries LIMIT 1") as cur:
            if await cur.fetchone() is not None:
                raise WriteRejected(
                    "not_empty",
                    f"{store.path} already holds entries; a measurement corpus "
                    "loads only into an empty store (memories go through the gate one by one)",
                )
        rows: list[MemoryEntry] = []
        for entry in itertools.chain(entries, [None]):
            if entry is not None:
                rows.append(entry)
            if rows and (entry is None or len(rows) >= chunk):
                await Store.write_rows(conn, [], [entry_to_row(e) for e in rows], [])
                await Store.log_changes(conn, [(e.id, "insert") for e in rows])
                loaded += len(rows)
                rows.clear()
        await Store.audit_rows(conn, [Store.audit_row("load", actor, None, reason, {"entries": loaded})])
    return loaded
