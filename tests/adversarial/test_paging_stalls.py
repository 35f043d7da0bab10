"""Work that held the app's event loop (issue 14: the decay preview blocked it ~234 ms at
30k entries): the per-entry work now runs in a thread, so the loop keeps drawing and
answering keys. Asserted by where the work runs, not by timing it."""

from __future__ import annotations

import threading
from datetime import timedelta

import engine.facade.jobs as jobs
from engine import MemoryEntry, MemoryTier


async def test_decay_preview_scores_entries_off_the_event_loop(engine, clock, monkeypatch):
    old = clock() - timedelta(days=400)
    entries = [
        (
            {"n": i},
            MemoryEntry(
                key=f"old/{i}",
                content=f"stale note {i}",
                tier=MemoryTier.SEMANTIC,
                importance=0.1,
                created_at=old,
                updated_at=old,
                last_accessed=old,
            ),
        )
        for i in range(30)
    ]
    await engine.import_entries(entries, actor="test", verbatim=True, trust_provenance=True)
    loop_thread = threading.current_thread()
    seen: list[threading.Thread] = []
    real = jobs.below_threshold

    def watched(*args, **kwargs):
        seen.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(jobs, "below_threshold", watched)
    run = await engine.decay_preview(page=10)
    assert len(run.items) == 30  # the preview still finds every stale entry
    assert seen and all(t is not loop_thread for t in seen)
