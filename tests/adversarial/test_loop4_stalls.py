"""Work that held the app's event loop for hundreds of ms at 100k entries (issue 14),
found by sampling the loop thread's stack during the TUI bench's stall scenarios:
the undo snapshot before a decay apply decoded every archived entry on the loop, and
a job line appearing or going away laid out and redrew the whole screen. Asserted by
where the work runs and by what moves on screen, never by timing it."""

from __future__ import annotations

import threading
from datetime import timedelta

import engine.facade.curation as curation
from engine import MemoryEntry, MemoryTier


async def test_the_undo_snapshot_of_a_decay_pass_decodes_its_entries_off_the_loop(engine, clock, monkeypatch):
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
    run = await engine.decay_preview()
    loop_thread = threading.current_thread()
    seen: list[threading.Thread] = []
    real = curation.row_to_entry

    def watched(row):
        seen.append(threading.current_thread())
        return real(row)

    monkeypatch.setattr(curation, "row_to_entry", watched)
    before = await engine.undo_snapshot(c.entry.id for c in run.items)
    assert sorted(e.key for e in before) == sorted(f"old/{i}" for i in range(30))  # every entry, as it was
    assert len(seen) == 30 and all(t is not loop_thread for t in seen)
