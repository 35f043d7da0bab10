"""Opening stores: migrations, refusal of newer or foreign files, read-only mode."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest

from engine import MemoryEngine, ReadOnlyStore, StoreError
from engine.store import MIGRATIONS, SCHEMA_VERSION


def make_v1_store(path):
    """A store as the first release wrote it: schema 1 with one entry."""
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0])
    conn.execute(
        "INSERT INTO entries(id,type,tier,key,content,tags,created_at,updated_at,importance,last_accessed,source) "
        "VALUES ('e1','user','semantic','user/name','Ada','[]','2026-01-01T00:00:00+00:00',"
        "'2026-01-01T00:00:00+00:00',0.9,'2026-01-01T00:00:00+00:00',3)"
    )
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()


async def test_older_schema_is_migrated_forward_keeping_data(db_path):
    make_v1_store(db_path)
    async with await MemoryEngine.open(db_path) as eng:
        assert await eng.store.schema_version() == SCHEMA_VERSION
        assert (await eng.get("e1")).content == "Ada"


async def test_newer_schema_is_refused_and_file_untouched(db_path):
    make_v1_store(db_path)
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 5}")
    conn.commit()
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(StoreError, match="newer than this echo-memory understands"):
        await MemoryEngine.open(db_path)
    assert db_path.read_bytes() == before


async def test_not_a_database_is_refused_untouched(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a SQLite database"):
        await MemoryEngine.open(path)
    assert path.read_bytes() == before


async def test_corrupt_database_gives_clear_error(db_path):
    make_v1_store(db_path)
    data = bytearray(db_path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="cannot be opened"):
        await MemoryEngine.open(db_path)


async def test_unwritable_file_opens_read_only(db_path, monkeypatch):
    make_v1_store(db_path)
    async with await MemoryEngine.open(db_path):
        pass  # migrated to the current schema while writable
    db_path.chmod(stat.S_IRUSR)
    real_access = os.access  # root passes access checks; ask as a normal user would
    monkeypatch.setattr(os, "access", lambda p, mode: False if mode == os.W_OK else real_access(p, mode))
    async with await MemoryEngine.open(db_path) as eng:
        assert eng.read_only
        assert (await eng.get("e1")).content == "Ada"


async def test_read_only_store_refuses_writes_and_keeps_data(db_path):
    async with await MemoryEngine.open(db_path) as eng:
        await eng.add("k", "v")
    async with await MemoryEngine.open(db_path, read_only=True) as eng:
        assert eng.read_only and await eng.count_entries() == 1
        with pytest.raises(ReadOnlyStore, match="read-only"):
            await eng.add("k2", "v2")
    async with await MemoryEngine.open(db_path) as eng:
        assert await eng.count_entries() == 1


async def test_read_only_open_of_old_schema_explains_why(db_path):
    make_v1_store(db_path)
    if SCHEMA_VERSION == 1:
        pytest.skip("no newer schema yet")
    with pytest.raises(StoreError, match="needs migrating"):
        await MemoryEngine.open(db_path, read_only=True)


async def test_read_only_open_of_missing_file_is_clear(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        await MemoryEngine.open(tmp_path / "absent.db", read_only=True)


async def test_failed_transaction_leaves_nothing_half_written(engine):
    e = (await engine.add("k", "v1")).entry
    with pytest.raises(RuntimeError):
        async with engine.store.transaction() as conn:
            await conn.execute("UPDATE entries SET content='half' WHERE id=?", (e.id,))
            raise RuntimeError("boom")
    assert (await engine.get(e.id)).content == "v1"
