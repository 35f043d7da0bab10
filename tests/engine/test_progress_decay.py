"""Decay preview and apply report progress and stop when asked (issue 9, long work):
the preview reads a page at a time, the apply archives a batch per transaction, and a
cancelled apply leaves every batch either archived whole or untouched, audited."""

from __future__ import annotations

import pytest

from engine import MemoryTier
from engine.store import Store

N = 45  # entries that decay (plus a pinned one and a fresh one that do not)


async def seed(engine, clock) -> list[str]:
    ids = [(await engine.add(f"old/{n:02d}", f"stale fact number {n}", importance=0.1)).entry.id for n in range(N)]
    pinned = (await engine.add("old/pinned", "a pinned fact", importance=0.1)).entry.id
    await engine.pin(pinned)
    clock.advance(days=365)
    await engine.add("new/fresh", "a fresh fact", importance=0.9)
    return ids


async def tiers(engine, ids) -> dict[str, MemoryTier]:
    return {i: (await engine.get(i)).tier for i in ids}


async def test_preview_reports_each_page_and_finds_what_the_pass_would_archive(engine, clock):
    ids = await seed(engine, clock)
    seen: list[tuple[int, int]] = []
    run = await engine.decay_preview(progress=lambda done, total: seen.append((done, total)), page=10)
    assert not run.cancelled
    assert sorted(c.entry.id for c in run.items) == sorted(ids)
    assert sorted(c.entry.id for c in run.items) == sorted(c.entry.id for c in await engine.decay(dry_run=True))
    total = N + 2  # the pinned and the fresh entry are read too
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) == 1 + 5  # 47 rows in pages of 10


async def test_a_cancelled_preview_stops_between_pages(engine, clock):
    await seed(engine, clock)
    pages: list[int] = []
    run = await engine.decay_preview(progress=lambda done, total: pages.append(done), cancelled=lambda: len(pages) >= 3, page=10)
    assert run.cancelled and run.done == 20 and run.total == N + 2
    assert len(run.items) <= 20


async def test_apply_archives_in_batches_and_reports_counts(engine, clock):
    ids = await seed(engine, clock)
    preview = await engine.decay_preview()
    seen: list[tuple[int, int]] = []
    run = await engine.decay_apply(preview.items, progress=lambda d, t: seen.append((d, t)), batch=20)
    assert not run.cancelled and len(run.items) == N
    assert seen == [(0, N), (20, N), (40, N), (N, N)]
    assert set((await tiers(engine, ids)).values()) == {MemoryTier.ARCHIVAL}
    [summary] = await engine.audit(action="decay_run")
    assert summary.detail == {"candidates": N, "checked": N, "archived": N, "cancelled": False}


async def test_cancelled_apply_keeps_whole_batches_and_audits_what_it_did(engine, clock):
    ids = await seed(engine, clock)
    preview = await engine.decay_preview()
    batches: list[int] = []
    run = await engine.decay_apply(
        preview.items, progress=lambda d, t: batches.append(d), cancelled=lambda: len(batches) >= 3, batch=20
    )  # stop after two batches
    assert run.cancelled and run.done == 40 and len(run.items) == 40
    archived = {c.entry.id for c in preview.items[:40]}
    now = await tiers(engine, ids)
    assert {i for i, t in now.items() if t is MemoryTier.ARCHIVAL} == archived
    assert {i for i, t in now.items() if t is MemoryTier.SEMANTIC} == set(ids) - archived
    assert {r.entry_id for r in await engine.audit(action="archive")} == archived
    [summary] = await engine.audit(action="decay_run")
    assert summary.reason == "cancelled"
    assert summary.detail == {"candidates": N, "checked": 40, "archived": 40, "cancelled": True}
    # the rest are still there for the next pass
    assert {c.entry.id for c in (await engine.decay_preview()).items} == set(ids) - archived


async def test_a_batch_that_fails_midway_is_rolled_back_whole(engine, clock, monkeypatch):
    ids = await seed(engine, clock)
    preview = await engine.decay_preview()
    original = Store.log_change
    calls = []

    async def failing(conn, entry_id, op):
        calls.append(entry_id)
        if len(calls) == 25:  # the fifth entry of the second batch
            raise OSError("disk I/O error")
        await original(conn, entry_id, op)

    monkeypatch.setattr(Store, "log_change", staticmethod(failing))
    with pytest.raises(OSError):
        await engine.decay_apply(preview.items, batch=20)
    monkeypatch.setattr(Store, "log_change", staticmethod(original))
    now = await tiers(engine, ids)
    first = {c.entry.id for c in preview.items[:20]}
    assert {i for i, t in now.items() if t is MemoryTier.ARCHIVAL} == first  # batch 1 whole, batch 2 none
    assert {r.entry_id for r in await engine.audit(action="archive")} == first
