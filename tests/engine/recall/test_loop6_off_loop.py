"""Vectors reaching the index from an event loop (the backfill's batches, a sync's stored
vectors) copied arrays on that loop: growing the delta copies it whole (tens of MB once
it holds tens of thousands of rows) and a compaction copies every live row; and after
vectors load, every indexed id was walked on the loop. The app's loop stalled on them
during a live-reload burst at 100k entries (issue 14, found with the stack sampler:
vectors.py:_grown, indexes.py:_after_vectors_loaded). The copies and the walk now run in
a thread under the index lock, and the index ends exactly as before."""

from __future__ import annotations

import asyncio
import threading

import numpy as np
import pytest

from engine.recall import indexes
from engine.recall import vectors as vec_mod
from engine.recall.vectors import VectorIndex, add_off_loop

from .helpers import insert, make_entry


def _unit_rows(n: int, dim: int, seed: int) -> np.ndarray:
    m = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _state(index: VectorIndex):
    return index.ids(), np.array(index.matrix()), len(index), index.changes


async def test_adding_off_the_loop_leaves_the_index_a_run_of_add_leaves(monkeypatch):
    monkeypatch.setattr(VectorIndex, "compact_due", lambda self: self._nd + self._n_dead > max(40, self._nb // 4))
    dim, base = 8, _unit_rows(120, 8, 1)
    rows = _unit_rows(300, 8, 2)
    ids = [f"n{i % 250}" for i in range(300)]  # some replaced: dead rows, so compactions
    plain, off = VectorIndex(dim, "m"), VectorIndex(dim, "m")
    for index in (plain, off):
        index.add_many([f"b{i}" for i in range(120)], base)
        index.remove("b3")
    for i, entry_id in enumerate(ids):
        plain.add(entry_id, rows[i], i % 3)
    await add_off_loop(off, [(entry_id, rows[i], i % 3) for i, entry_id in enumerate(ids)])
    a, b = _state(plain), _state(off)
    assert a[0] == b[0] and a[2:] == b[2:]
    np.testing.assert_array_equal(a[1], b[1])
    assert off._n_dead == plain._n_dead and off._nd == plain._nd and off._n_flagged == plain._n_flagged
    for q in _unit_rows(5, dim, 3):
        for exact in (False, True):
            ha, hb = plain.search(q, 10, exact=exact), off.search(q, 10, exact=exact)
            assert ha.ids == hb.ids
            np.testing.assert_array_equal(ha.scores, hb.scores)


async def test_growing_and_compacting_the_vectors_never_copy_on_the_loop_thread(monkeypatch):
    monkeypatch.setattr(VectorIndex, "compact_due", lambda self: self._nd + self._n_dead > 100)
    loop_thread = threading.get_ident()
    copies: list[int] = []  # thread of each array copy that grew an array
    real_grown, real_set_base = vec_mod._grown, VectorIndex.set_base

    def grown(arr, need):
        if need > len(arr):
            copies.append(threading.get_ident())
        return real_grown(arr, need)

    def set_base(self, *args):
        copies.append(threading.get_ident())
        return real_set_base(self, *args)

    index = VectorIndex(8, "m")
    index.add_many([f"b{i}" for i in range(50)], _unit_rows(50, 8, 1))
    monkeypatch.setattr(vec_mod, "_grown", grown)
    monkeypatch.setattr(VectorIndex, "set_base", set_base)
    rows = _unit_rows(400, 8, 2)
    await add_off_loop(index, [(f"n{i}", rows[i], 0) for i in range(400)])
    assert len(index) == 450
    assert len(copies) >= 4  # the delta grew and was compacted several times
    assert loop_thread not in copies  # ...each time in a thread


async def test_finding_the_entries_without_a_vector_walks_the_ids_off_the_loop(store, make_service, monkeypatch):
    svc = await make_service()
    await svc.recall("anything")
    await insert(store, *(make_entry(f"k{i}", f"note {i} about the deploy cluster") for i in range(50)))
    await svc.sync()
    loop_thread = threading.get_ident()
    walked: list[int] = []
    lexical = svc.indexes.lexical
    real_ids = lexical.ids

    def ids():
        walked.append(threading.get_ident())
        return real_ids()

    monkeypatch.setattr(lexical, "ids", ids)
    monkeypatch.setattr(svc, "_start_drain", lambda: None)
    expected = [i for i in real_ids() if i not in svc.indexes.vectors]
    await svc.indexes._after_vectors_loaded([])
    assert walked and loop_thread not in walked
    assert list(svc.indexes.backfill.pending) == expected


async def test_a_backfill_batch_adds_its_vectors_through_the_off_loop_path(store, make_service, monkeypatch):
    svc = await make_service()
    await insert(store, *(make_entry(f"k{i}", f"note {i} about the deploy cluster") for i in range(40)))
    await svc.recall("anything")
    used: list[int] = []
    real = vec_mod.add_off_loop

    async def watched(index, items):
        used.append(len(items))
        return await real(index, items)

    from engine.recall import backfill as backfill_mod

    monkeypatch.setattr(backfill_mod, "add_off_loop", watched)
    await svc.embed_pending()
    await asyncio.sleep(0)
    assert sum(used) >= 40 and svc.pending_count == 0
    assert len(svc.vectors) >= 40


async def test_stored_vectors_are_decoded_off_the_loop_when_they_load(store, make_service, monkeypatch):
    svc = await make_service()
    await insert(store, *(make_entry(f"k{i}", f"note {i} about the deploy cluster") for i in range(60)))
    await svc.recall("anything")
    await svc.embed_pending()
    assert len(svc.vectors) == 60
    before = dict(zip(svc.vectors.ids(), np.array(svc.vectors.matrix())))
    loop_thread = threading.get_ident()
    decoded: list[int] = []
    real = indexes.decode_rows

    def watched(rows, model_id, dim):
        decoded.append(threading.get_ident())
        return real(rows, model_id, dim)

    monkeypatch.setattr(indexes, "decode_rows", watched)
    assert await svc.indexes.load_vectors() == 0
    assert decoded and loop_thread not in decoded
    # the same vector under each id; the load may order ids differently from the backfill
    after = dict(zip(svc.vectors.ids(), np.array(svc.vectors.matrix())))
    assert after.keys() == before.keys()
    for key, row in before.items():
        np.testing.assert_array_equal(after[key], row)


async def test_a_batch_cancelled_while_its_vectors_are_added_stays_pending(store, make_service, monkeypatch):
    svc = await make_service()
    await insert(store, *(make_entry(f"k{i}", f"note {i} about the deploy cluster") for i in range(5)))
    monkeypatch.setattr(svc, "_start_drain", lambda: None)
    await svc.recall("anything")
    await svc.embedder.ensure_loaded()
    backfill = svc.indexes.backfill
    items = await backfill._window(5)
    assert len(items) == 5
    fut = asyncio.get_running_loop().create_future()
    fut.set_result(svc.embedder.encode_sync([t for _, t in items]))

    async def stuck(index, rows):  # the thread making room never comes back before the cancel
        await asyncio.sleep(10)

    from engine.recall import backfill as backfill_mod

    monkeypatch.setattr(backfill_mod, "add_off_loop", stuck)
    task = asyncio.ensure_future(backfill._settle(items, fut))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert all(entry_id in backfill.pending for entry_id, _ in items)  # still queued for their vectors
