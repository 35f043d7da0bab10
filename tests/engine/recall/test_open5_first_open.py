"""A first open without a snapshot (the index rebuilt, the vectors streamed into a new
snapshot) recalls exactly what an open that loads the vectors from the table does:
a superseded memory stays out of vector results, a working memory's vector is never
recalled, and every score is the same."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from engine.models import MemoryTier
from engine.recall import indexes, snapshot_save
from engine.recall.lexical import LexicalIndex
from engine.recall.quantized import agrees
from engine.recall.snapshot import snapshot_path
from engine.recall.vectors import encode_vector

from .helpers import insert, make_entry

WORDS = ["apple", "berry", "cherry", "damson", "elder", "fig", "grape", "hazel"]


def _hits(result):
    return [(h.id, h.bm25.score, h.vector.score if h.vector else None) for h in result.results]


@pytest.mark.parametrize("working_vector", [False, True])
async def test_first_open_streaming_vectors_recalls_like_a_plain_load(store, make_service, working_vector):
    facts = [make_entry(f"fact{i}", f"{WORDS[i % 8]} {WORDS[(i * 3) % 8]} note {i}") for i in range(24)]
    old = make_entry("old.fact", "apple cherry retired note", superseded_by=facts[0].id)
    scratch = make_entry("scratch", "apple cherry working note", tier=MemoryTier.WORKING)
    await insert(store, *facts, old, scratch)
    seeder = await make_service(snapshot=False)
    await seeder.embed_pending()
    if working_vector:  # a vector stored for a working memory: streamed, then left out
        emb = seeder.embedder
        vec = emb.encode_sync(["apple cherry working note"])[0]
        async with store.transaction() as conn:
            await conn.execute(
                "INSERT INTO vectors(entry_id, model_id, dim, vector) VALUES (?,?,?,?)",
                (scratch.id, emb.model_id, emb.dim, encode_vector(vec)),
            )
    await seeder.close()
    snapshot_path(store.path).unlink(missing_ok=True)

    streamed = await make_service(snapshot_min_entries=1)  # rebuilds; vectors stream into a snapshot
    loaded = await make_service(snapshot=False)  # rebuilds; vectors loaded from the table
    assert streamed.open_report.source == loaded.open_report.source == "rebuild"
    assert streamed.open_report.vectors == loaded.open_report.vectors == len(facts) + 1
    for q in ("apple cherry", "retired note", "working note", "grape hazel"):
        a, b = await streamed.recall(q, limit=30), await loaded.recall(q, limit=30)
        assert _hits(a) == _hits(b)
        assert old.id not in a.hit_ids and scratch.id not in a.hit_ids
    # the vector candidates (what the fused pool is drawn from) keep the superseded one out
    _, vec = await streamed.candidates("apple cherry retired note", 30)
    assert len(vec.ids) == len(facts) and old.id not in vec.ids
    _, vec = await streamed.candidates("apple cherry retired note", 30, include_superseded=True)
    assert old.id in vec.ids


async def test_codes_made_while_streaming_are_the_float32_rows_codes(store, make_service, monkeypatch):
    """The int8 codes are made chunk by chunk as the vectors stream (beside the build),
    into an array sized from a count taken first: with rows arriving after that count
    (the array grows) they are still exactly the codes of the mapped float32 rows; and
    the index is made from a million ids off the loop thread."""
    await insert(store, *[make_entry(f"fact{i}", f"{WORDS[i % 8]} note {i}") for i in range(40)])
    seeder = await make_service(snapshot=False)
    await seeder.embed_pending()
    await seeder.close()
    snapshot_path(store.path).unlink(missing_ok=True)
    monkeypatch.setattr(snapshot_save, "VECTOR_COUNT", "SELECT 3")  # as if 37 rows came after the count
    monkeypatch.setattr(indexes, "VECTOR_ROWS", 7)  # several chunks, several growths
    loop_thread, seen = threading.get_ident(), []
    real = LexicalIndex.flags_of
    monkeypatch.setattr(LexicalIndex, "flags_of", lambda self, ids: seen.append(threading.get_ident()) or real(self, ids))
    streamed = await make_service(snapshot_min_entries=1)
    vectors = streamed.indexes.vectors
    assert streamed.open_report.source == "rebuild" and len(vectors) == 40
    matrix = np.asarray(vectors.matrix())
    assert agrees(vectors._bq, matrix, sample=len(matrix))
    assert seen and loop_thread not in seen


async def test_a_disk_that_fills_while_the_vectors_stream_leaves_no_partial_snapshot(store, make_service, monkeypatch):
    """The stream writes one chunk while the next is read: when a write fails (disk
    full) on the third chunk, the half-written file is removed, the vectors load from
    the table instead, and recall finds every memory by both paths."""
    facts = [make_entry(f"fact{i}", f"{WORDS[i % 8]} {WORDS[(i * 5) % 8]} note {i}") for i in range(40)]
    await insert(store, *facts)
    seeder = await make_service(snapshot=False)
    await seeder.embed_pending()
    await seeder.close()
    snap = snapshot_path(store.path)
    snap.unlink(missing_ok=True)
    monkeypatch.setattr(indexes, "VECTOR_ROWS", 7)
    writes = []
    real = snapshot_save.SnapshotWriter.write

    def filling(self, array):
        writes.append(len(array))
        if len(writes) == 3:
            raise OSError(28, "No space left on device")
        return real(self, array)

    monkeypatch.setattr(snapshot_save.SnapshotWriter, "write", filling)
    svc = await make_service(snapshot_min_entries=1)
    assert len(writes) == 3
    assert svc.open_report.source == "rebuild" and svc.open_report.vectors == len(facts)
    assert not snap.exists() and not list(snap.parent.glob(snap.name + "*"))
    result = await svc.recall("grape note", limit=40)
    assert {h.id for h in result.results if h.vector.rank} >= {f.id for f in facts if "grape" in f.content}


async def test_entries_without_a_vector_at_a_streamed_first_open_are_queued_in_index_order(store, make_service):
    """The streamed open learns which indexed entries have no vector from the same
    pass that flags the rows: exactly those, in the order a plain load queues them,
    wait for the backfill (a removed or working entry never does)."""
    facts = [make_entry(f"fact{i}", f"{WORDS[i % 8]} note {i}") for i in range(30)]
    scratch = make_entry("scratch", "apple working note", tier=MemoryTier.WORKING)
    await insert(store, *facts[:20], scratch)
    seeder = await make_service(snapshot=False)
    await seeder.embed_pending()
    await seeder.close()
    await insert(store, *facts[20:])  # stored after the vectors were made: none yet
    async with store.transaction() as conn:  # and two of the embedded ones lose theirs
        await conn.execute("DELETE FROM vectors WHERE entry_id IN (?, ?)", (facts[3].id, facts[11].id))
    snapshot_path(store.path).unlink(missing_ok=True)

    streamed = await make_service(snapshot_min_entries=1)
    loaded = await make_service(snapshot=False)
    want = [f.id for f in facts if f in (facts[3], facts[11]) or f in facts[20:]]
    assert streamed.open_report.vectors == 18
    assert sorted(streamed.indexes.backfill.pending) == sorted(want)
    assert list(streamed.indexes.backfill.pending) == list(loaded.indexes.backfill.pending)
