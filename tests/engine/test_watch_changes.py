"""Live reload's source: watch_changes reports every commit another process makes.

SQLite makes a WAL commit visible by updating the wal-index in `-shm`, after the
frames are written to `-wal`; file events for `-shm` are not reliable (it is
memory-mapped). So a file event can arrive, and be read, just before the commit it
belongs to is visible, and no later event need follow. The watcher must still see it."""

from __future__ import annotations

import asyncio

import watchfiles

from engine import MemoryEngine, Settings


async def _early_event_then_silence(*_paths, stop_event=None, rust_timeout=None, yield_on_timeout=False, **_kw):
    """awatch's contract, for the race above: one batch of events (the WAL write), then no
    file event at all; like the real awatch, it yields an empty set on each timeout only
    when asked to (yield_on_timeout)."""
    yield {(watchfiles.Change.modified, "memory.db-wal")}
    while stop_event is None or not stop_event.is_set():
        await asyncio.sleep((rust_timeout or 50) / 1000)
        if yield_on_timeout:
            yield set()


async def test_a_commit_made_visible_after_its_file_event_is_still_reported(engine, db_path, clock, monkeypatch):
    monkeypatch.setattr(watchfiles, "awatch", _early_event_then_silence)
    stop = asyncio.Event()
    changes = engine.watch_changes(stop)
    first = asyncio.ensure_future(changes.__anext__())
    await asyncio.sleep(0.2)  # the early event is read: nothing committed yet, nothing reported
    assert not first.done()

    other = await MemoryEngine.open(db_path, Settings.defaults(), clock=clock, actor="user")
    try:
        made = await other.add("outside/fact", "another process wrote this", actor="cli")
    finally:
        await other.close()
    try:
        change = await asyncio.wait_for(first, timeout=10)
    finally:
        stop.set()
        await changes.aclose()
    assert made.entry.id in change.entry_ids
