"""Issue 14: at 1M entries the app's counts (the pyramid, the status line's total, the
review and quarantine tabs) cost a pass over the store on the one connection the
browser pages through. The browser's first rows come first, and a burst of refreshes
(a live reload of many writes) costs one count, not one per refresh."""

from __future__ import annotations

import asyncio

from engine import MemoryEngine

from .conftest import SIZE, ready, wait_until


async def test_the_first_rows_are_read_before_the_store_is_counted(demo_db, make_app, monkeypatch):
    app = make_app(demo_db)
    rows_up_at_count: list[bool] = []
    real = MemoryEngine.stats

    async def stats(engine):
        rows_up_at_count.append("first_rows" in app.milestones)
        return await real(engine)

    monkeypatch.setattr(MemoryEngine, "stats", stats)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: app.stats is not None, what="the counts")
        assert app.status.entries > 0
    assert rows_up_at_count and rows_up_at_count[0], "the store was counted before the browser had its rows"


async def test_a_burst_of_refreshes_counts_the_store_once(demo_db, make_app, monkeypatch):
    app = make_app(demo_db)
    calls: list[int] = []
    real = MemoryEngine.stats

    async def stats(engine):
        calls.append(1)
        await asyncio.sleep(0.2)  # a count that takes a while, as at 1M entries
        return await real(engine)

    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: app.stats is not None, what="the first counts")
        monkeypatch.setattr(MemoryEngine, "stats", stats)
        for _ in range(10):
            app.refresh_all()
            for _ in range(3):
                await asyncio.sleep(0)  # the worker starts (and, before, its count began)
        app.stats = None
        await wait_until(pilot, lambda: app.stats is not None, what="the counts after the burst")
    assert len(calls) <= 2, f"{len(calls)} counts for one burst of 10 refreshes"
