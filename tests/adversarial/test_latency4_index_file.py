"""Issue 14: the int8 codes the vector search shortlists with live in the recall
snapshot. Damaged or missing codes never give wrong results: they are made again
from the float32 vectors (with a log line naming the file when they were damaged)."""

from __future__ import annotations

import logging

import numpy as np

from engine.config import Settings
from engine.recall.service import RecallService
from engine.recall.snapshot import SnapshotWriter, read_snapshot, snapshot_path
from engine.store import Store
from tests.engine.recall.helpers import FakeEmbedder, insert, make_entry

SETTINGS = Settings.defaults().override({"memory.embeddingModel": "fake", "memory.rerankEnabled": False})
WORDS = "apple river stone cloud maple copper violin harbor lantern meadow quartz ember".split()
QUERIES = ["apple river", "copper violin harbor", "meadow", "ember quartz stone", "lantern cloud"]


async def _service(store, **kw) -> RecallService:
    svc = RecallService(store, SETTINGS, lambda name: FakeEmbedder(name), **kw)
    await svc.open()
    return svc


async def _answers(svc) -> list:
    out = []
    for q in QUERIES:
        res = await svc.recall(q, limit=20)
        out.append([(h.id, h.vector.rank, h.vector.score) for h in res.results])
    return out


async def _seeded(tmp_path):
    """A store of 600 entries with vectors, its snapshot written, and the answers of
    a service that never read a snapshot."""
    store = await Store.open(tmp_path / "m.db")
    rng = np.random.default_rng(0)
    await insert(store, *[make_entry(f"k{i}", " ".join(rng.choice(WORDS, 4))) for i in range(600)])
    first = await _service(store, snapshot_min_entries=1)
    await first.embed_pending()
    await first.close()
    fresh = await _service(store, snapshot=False)
    want = await _answers(fresh)
    await fresh.close()
    assert "vec_i8" in read_snapshot(snapshot_path(store.path))
    return store, want


async def test_damaged_codes_are_logged_and_made_again(tmp_path, caplog):
    store, want = await _seeded(tmp_path)
    path = snapshot_path(store.path)
    codes = read_snapshot(path)["vec_i8"]
    offset, size = codes.offset, codes.nbytes
    del codes
    with open(path, "r+b") as f:  # same shape, wrong bytes
        f.seek(offset)
        f.write(np.random.default_rng(1).integers(-127, 128, size, dtype=np.int8).tobytes())
    try:
        with caplog.at_level(logging.WARNING):
            svc = await _service(store, snapshot_min_entries=1)
        # the array's checksum catches it at read (or, for a file without checksums, the
        # codes' spot check): either way the file and the array are named, never trusted
        assert any(
            str(path) in r.getMessage() and ("int8 vector codes do not match" in r.getMessage() or "vec_i8" in r.getMessage())
            for r in caplog.records
        )
        assert await _answers(svc) == want
        await svc.close()
    finally:
        await store.close()


async def test_a_snapshot_without_codes_is_searched_right(tmp_path):
    store, want = await _seeded(tmp_path)
    path = snapshot_path(store.path)
    old = read_snapshot(path)
    with SnapshotWriter(path) as w:  # the same snapshot as an earlier version wrote it: no codes
        for name, array in old.arrays.items():
            if not name.startswith("vec_i8"):
                w.add(name, np.asarray(array))
        w.finish(old.meta)
    del old
    try:
        svc = await _service(store, snapshot_min_entries=1)
        assert svc.open_report.source == "snapshot"
        assert await _answers(svc) == want
        await svc.close()
    finally:
        await store.close()
