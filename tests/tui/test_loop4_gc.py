"""The cyclic garbage collector held the app's loop (issue 14): with the recall indexes
and the embedding model loaded, a full collection walked ~520k objects at 100k entries
(~0.3 s of CPU with the GIL held), the longest stall while other processes wrote. Once
the embeddings have settled the app takes its long-lived objects out of that walk."""

from __future__ import annotations

import gc

from .conftest import ready, wait_until


async def test_once_the_embeddings_settle_a_full_collection_skips_the_long_lived_heap(demo_db, make_app):
    app = make_app(demo_db, warm_recall=True)
    try:
        async with app.run_test(size=(120, 32)) as pilot:
            await ready(pilot)
            await wait_until(pilot, lambda: app.recall_state in ("ready", "failed"), timeout=120, what="embeddings")
            await wait_until(pilot, lambda: gc.get_freeze_count() > 0, timeout=10, what="the heap frozen")
            assert app.engine.recall_status().indexed > 0  # the recall index is among what was set aside
            assert len(gc.get_objects()) < gc.get_freeze_count()  # a full pass walks what came after only
    finally:
        gc.unfreeze()
