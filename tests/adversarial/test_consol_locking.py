"""Issue 8, item 8: tasks sharing one store connection while another process writes.

A BEGIN IMMEDIATE issued while another task's read statement is still open ran
inside that read transaction, and SQLite answered SQLITE_BUSY at once (no busy
handler): "database is locked" reached the user despite the 30 s timeout."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

from engine.store import Store


async def test_reads_and_transactions_of_several_tasks_never_see_a_lock_error(tmp_path):
    db = tmp_path / "memory.db"
    store = await Store.open(db)
    for i in range(200):
        async with store.transaction() as conn:
            await conn.execute("INSERT INTO audit(at, action, actor) VALUES ('t', 'seed', ?)", (str(i),))
    stop = threading.Event()

    def other_process() -> None:  # another connection committing all the time
        con = sqlite3.connect(db, timeout=30, isolation_level=None)
        while not stop.is_set():
            con.execute("INSERT INTO audit(at, action, actor) VALUES ('t', 'other', 'x')")
            stop.wait(0.002)
        con.close()

    writer = threading.Thread(target=other_process)
    writer.start()

    async def reader() -> None:
        for _ in range(150):
            await store.fetchall("SELECT id, actor FROM audit ORDER BY id LIMIT 300")

    async def transactions() -> int:
        done = 0
        for i in range(150):
            async with store.transaction() as conn:
                await conn.execute("INSERT INTO audit(at, action, actor) VALUES ('t', 'mine', ?)", (str(i),))
            done += 1
        return done

    try:
        results = await asyncio.gather(reader(), reader(), transactions(), return_exceptions=True)
    finally:
        stop.set()
        writer.join()
    errors = [r for r in results if isinstance(r, BaseException)]
    assert errors == []
    assert results[2] == 150
    assert (await store.fetchone("SELECT count(*) FROM audit WHERE action='mine'"))[0] == 150
    await store.close()
