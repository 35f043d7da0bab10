"""Issue 14: an import's reads stay index look-ups as the store grows. Each batch
asked for the versions pointing at its ids (superseded_by IN ...) with no index to
answer it, so every batch read the whole table: a 100k-entry import slowed down
the more it had already landed."""

from __future__ import annotations

import sqlite3

from engine import MemoryEngine


async def test_no_import_read_scans_the_whole_entries_table(tmp_path):
    source = tmp_path / "s.db"
    async with await MemoryEngine.open(source, actor="user") as engine:
        for k in range(3):
            await engine.add(f"fact/{k}", "first version")
            await engine.add(f"fact/{k}", "second version")  # a chain: superseded_by set
        export = tmp_path / "export.jsonl"
        await engine.export_jsonl(export)

    statements: list[str] = []
    async with await MemoryEngine.open(tmp_path / "t.db", actor="user") as engine:
        await engine.store.conn.set_trace_callback(statements.append)
        report = await engine.import_jsonl(export)
        await engine.store.conn.set_trace_callback(None)
    assert report.landed == 6 and not report.refused

    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT") and " entries " in f"{s} "]
    assert reads, statements
    db = sqlite3.connect(tmp_path / "t.db")
    plans = {s: db.execute(f"EXPLAIN QUERY PLAN {s}").fetchall() for s in reads}
    scans = {s: plan for s, plan in plans.items() if any(row[3] == "SCAN entries" for row in plan)}
    assert not scans, f"full scans of entries during an import: {scans}"
