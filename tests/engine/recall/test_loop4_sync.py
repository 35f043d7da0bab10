"""The recall index's sync (issue 14): a recall after another process wrote thousands of
entries re-tokenizes each of them, which held the caller's event loop (the app's, in
the playground) for the whole batch. It now yields to the loop between chunks: other
tasks (the app's drawing, its keys) run while a large sync works through the entries."""

from __future__ import annotations

import asyncio

from engine.recall import indexes

from .helpers import insert, make_entry


async def test_a_large_sync_lets_other_tasks_run_between_chunks(store, make_service, monkeypatch):
    svc = await make_service()
    await svc.recall("anything")  # the indexes are open
    await insert(store, *(make_entry(f"k{i}", f"note {i} about the deploy cluster") for i in range(3 * indexes.APPLY_CHUNK)))
    ticks = 0

    async def other_task() -> None:  # the app's loop: a timer that wants to run
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    seen: list[int] = []
    real = indexes.RecallIndexes._apply

    def watched(self, entry_id, row):
        seen.append(ticks)
        return real(self, entry_id, row)

    monkeypatch.setattr(indexes.RecallIndexes, "_apply", watched)
    ticker = asyncio.create_task(other_task())
    try:
        assert await svc.sync() == 3 * indexes.APPLY_CHUNK
    finally:
        ticker.cancel()
    assert len(seen) == 3 * indexes.APPLY_CHUNK
    assert len(set(seen)) >= 3  # the other task ran between the chunks, not only before and after
    assert len(svc.lexical) == 3 * indexes.APPLY_CHUNK  # every entry indexed
