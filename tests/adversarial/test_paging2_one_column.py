"""Issue 14: the ten paging indexes held (column, id), and the 36-character id in each
cost a 100k gated import 1.3 of its importing process's 8.7 CPU-seconds (the scanner
stubbed). They now hold the column alone, SQLite's rowid breaking ties. A seek must
still be an index range on both the value and the rowid: SQLite 3.40 seeks
`(column, rowid) > (?, ?)` on the column alone and filters the ties row by row, which
for a page in the middle of a 250,000-row tier reads the tier."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from engine import MemoryEngine
from engine.paging import SORTABLE, index_name
from engine.store import MIGRATIONS, SCHEMA_VERSION
from tests.adversarial.test_paging_keyset import tied_entries


@pytest.mark.parametrize("sort", SORTABLE)
async def test_a_seek_is_two_index_ranges_with_no_sort(tmp_path, sort):
    path = tmp_path / "p.db"
    async with await MemoryEngine.open(path, actor="user") as engine:
        await engine.import_entries(tied_entries(300), actor="test", verbatim=True, trust_provenance=True)
        first = await engine.page_entries(None, sort, True, 25, matching=5000)  # a large result: pinned to the index
        statements: list[str] = []
        await engine.store.conn.set_trace_callback(statements.append)
        await engine.page_entries(None, sort, True, 25, anchor=first.last, matching=5000)
        await engine.key_ladder(None, sort, True, 40, matching=5000)
        await engine.store.conn.set_trace_callback(None)
    seeks = [s for s in statements if "UNION ALL" in s]
    assert len(seeks) >= 2, statements
    db = sqlite3.connect(path)
    for sql in seeks:
        plan = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}")]
        ranges = [step for step in plan if step.startswith("SEARCH entries")]
        assert len(ranges) == 2 and all(index_name(sort) in step for step in ranges), plan
        assert f"({sort}=? AND rowid<?)" in ranges[0] and f"({sort}<?)" in ranges[1], plan
        assert not any("TEMP B-TREE" in step or step.startswith("SCAN") for step in plan), plan


async def test_paging_indexes_hold_their_column_alone(tmp_path):
    async with await MemoryEngine.open(tmp_path / "p.db", actor="user") as engine:
        for sort in SORTABLE:
            columns = [row[2] for row in await engine.store.fetchall(f"PRAGMA index_info({index_name(sort)})")]
            assert columns == [sort]


async def _schema_10_store(path) -> set[str]:
    """A store as schema 10 left it: (column, id) paging indexes. Returns its entries' ids."""
    async with await MemoryEngine.open(path, actor="user") as engine:
        await engine.import_entries(tied_entries(120), actor="test", verbatim=True, trust_provenance=True)
        expected = {e.id for e in await engine.list_entries(None)}
    db = sqlite3.connect(path)
    for sort in SORTABLE:
        db.execute(f"DROP INDEX {index_name(sort)}")
        db.execute(f"CREATE INDEX {index_name(sort)} ON entries({sort}, id)")
    db.execute("PRAGMA user_version=10")
    db.commit()
    db.close()
    return expected


async def test_a_store_with_the_old_indexes_is_migrated_and_pages_the_same(tmp_path):
    """A store written before the change opens, loses the ids from its indexes, and pages
    its rows in the new order without a row lost."""
    path = tmp_path / "old.db"
    expected = await _schema_10_store(path)
    assert SCHEMA_VERSION == len(MIGRATIONS) == 11
    async with await MemoryEngine.open(path, actor="user") as engine:
        assert await engine.store.schema_version() == SCHEMA_VERSION
        columns = [row[2] for row in await engine.store.fetchall(f"PRAGMA index_info({index_name('tier')})")]
        assert columns == ["tier"]
        walked, anchor = [], None
        while True:
            page = await engine.page_entries(None, "tier", False, 17, anchor=anchor, matching=5000)
            walked += [e.id for e in page.entries]
            if len(page.entries) < 17:
                break
            anchor = page.last
        assert walked == [e.id for e in await engine.list_entries(None, order_by="tier", descending=False)]
        assert set(walked) == expected


KILLED_MID_MIGRATION = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    import engine.store as store

    def split(script):  # the migration dies between two of its statements: half the indexes rebuilt
        statements = [s.strip() for s in script.split(";") if s.strip()]
        for statement in statements:
            if statement.startswith("CREATE INDEX entries_page_tier"):
                os.kill(os.getpid(), signal.SIGKILL)
            yield statement

    store._split_sql = split
    from engine import MemoryEngine
    asyncio.run(MemoryEngine.open(sys.argv[1], actor="user"))
    """
)


async def test_a_migration_killed_half_way_leaves_the_old_store_and_the_next_open_finishes_it(tmp_path):
    """SIGKILL after six of the ten indexes were dropped and rebuilt: the migration is one
    transaction, so the file is still schema 10 with every old index, and intact."""
    path = tmp_path / "old.db"
    expected = await _schema_10_store(path)
    child = subprocess.run([sys.executable, "-c", KILLED_MID_MIGRATION, str(path)], capture_output=True, timeout=120)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("PRAGMA user_version").fetchone() == (10,)
    for sort in SORTABLE:
        assert [row[2] for row in db.execute(f"PRAGMA index_info({index_name(sort)})")] == [sort, "id"]
    db.close()
    async with await MemoryEngine.open(path, actor="user") as engine:
        assert await engine.store.schema_version() == SCHEMA_VERSION
        assert {e.id for e in await engine.list_entries(None)} == expected
        for sort in SORTABLE:
            columns = [row[2] for row in await engine.store.fetchall(f"PRAGMA index_info({index_name(sort)})")]
            assert columns == [sort]
