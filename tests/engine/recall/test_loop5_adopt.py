"""After a sync, each new entry is either given the vector already stored for it or
queued for embedding; that pass ran over up to 10k entries without yielding, ~90 ms on
the app's loop in the recall warm-up at 100k (issue 14, found with the stack sampler).
It now yields between chunks, like the sync before it."""

from __future__ import annotations

import asyncio

from engine.recall import indexes

from .helpers import insert, make_entry


async def test_queueing_a_sync_s_new_entries_for_vectors_lets_other_tasks_run(store, make_service, monkeypatch):
    svc = await make_service()
    await svc.recall("anything")  # the indexes are open
    count = 3 * indexes.APPLY_CHUNK
    await insert(store, *(make_entry(f"k{i}", f"note {i} about the deploy cluster") for i in range(count)))
    ticks = 0

    async def other_task() -> None:  # the app's loop: a timer that wants to run
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    seen: dict[str, int] = {}  # entry queued inside the adoption pass -> the other task's ticks then
    adopting = False
    backfill = svc.indexes.backfill
    real_add, real_adopt = backfill.add, indexes.RecallIndexes._adopt_stored_vectors

    def watched(entry_id):
        if adopting:
            seen[entry_id] = ticks
        return real_add(entry_id)

    async def adopt(self, ids):
        nonlocal adopting
        adopting = True
        try:
            return await real_adopt(self, ids)
        finally:
            adopting = False

    monkeypatch.setattr(backfill, "add", watched)
    monkeypatch.setattr(indexes.RecallIndexes, "_adopt_stored_vectors", adopt)
    monkeypatch.setattr(svc, "_start_drain", lambda: None)  # the queue stays as the sync left it
    ticker = asyncio.create_task(other_task())
    try:
        assert await svc.sync() == count
    finally:
        ticker.cancel()
    assert len(seen) == count  # every new entry queued for its vector
    assert len(set(seen.values())) >= 3  # the other task ran between the chunks, not only before and after
    assert len(backfill) >= count
