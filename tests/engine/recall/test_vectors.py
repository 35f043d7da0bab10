"""Vector index, stored vectors and their model stamps, the knowledge-base sidecar."""

from __future__ import annotations

import numpy as np
import pytest

from engine.recall.knowledge import KnowledgeBase, KnowledgeBaseError, sidecar_path
from engine.recall.lexical import SUPERSEDED
from engine.recall.vectors import VectorDimensionError, VectorIndex, decode_rows, encode_vector

from .helpers import FakeEmbedder, insert, make_entry


def unit(rng, n, d):
    m = rng.standard_normal((n, d)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@pytest.mark.parametrize("exact", [True, False])
def test_exact_top_k_matches_brute_force(exact):
    rng = np.random.default_rng(0)
    m = unit(rng, 3000, 48)
    index = VectorIndex(48, "m:48")
    index.add_many([f"e{i}" for i in range(3000)], m)
    for _ in range(10):
        q = unit(rng, 1, 48)[0]
        hits = index.search(q, 20, exact=exact)
        want = np.argsort(-(m @ q), kind="stable")[:20]
        assert hits.ids == [f"e{i}" for i in want]
        assert np.allclose(hits.scores, (m @ q)[want], atol=1e-6)


def test_add_replace_remove_and_superseded_exclusion():
    index = VectorIndex(3)
    index.add("a", [1, 0, 0])
    index.add("b", [0, 1, 0])
    index.add("c", [0.9, 0.1, 0], flags=SUPERSEDED)
    assert index.search(np.array([1, 0, 0], np.float32), 3).ids == ["a", "b"]
    assert index.search(np.array([1, 0, 0], np.float32), 3, include_superseded=True).ids == ["a", "c", "b"]
    index.add("a", [0, 0, 1])  # replace
    assert index.search(np.array([1, 0, 0], np.float32), 1, include_superseded=True).ids == ["c"]
    assert index.search(np.array([0, 0, 1], np.float32), 1).ids == ["a"]
    assert index.remove("b") and not index.remove("b")
    assert sorted(index.ids()) == ["a", "c"] and len(index) == 2
    assert index.search(np.array([0, 0, 1], np.float32), 5).ids == ["a"]


def test_wrong_dimension_is_a_clear_error():
    index = VectorIndex(4, "all-MiniLM-L6-v2:384")
    with pytest.raises(VectorDimensionError, match="has 3 dimensions.*expects 4"):
        index.add("x", [1, 2, 3])
    with pytest.raises(VectorDimensionError):
        index.search(np.zeros(5, np.float32), 3)
    with pytest.raises(VectorDimensionError):
        index.add_many(["a"], np.zeros((1, 7), np.float32))


def test_decode_rows_separates_stale_stamps_and_bad_lengths():
    good = encode_vector(np.ones(4, np.float32))
    rows = [("a", "m:4", 4, good), ("b", "other:4", 4, good), ("c", "m:4", 4, good[:8]), ("d", "m:4", 5, good)]
    ids, matrix, stale = decode_rows(rows, "m:4", 4)
    assert ids == ["a"] and matrix.shape == (1, 4)
    reasons = dict(stale)
    assert "model changed" in reasons["b"] and "wrong dimension" in reasons["c"] and "wrong dimension" in reasons["d"]


async def test_stamp_mismatch_goes_to_reembed_queue_and_never_into_results(store, make_service, fake_factory, settings):
    a, b = await insert(store, make_entry("pet", "the dog is called rex"), make_entry("car", "drives a red volvo"))
    # a vector for `a` made by another model, and one for `b` with the wrong dimension under the active stamp
    async with store.transaction() as conn:
        await conn.execute("INSERT INTO vectors VALUES (?,?,?,?)", (a.id, "old-model:64", 64, encode_vector(np.ones(64))))
        await conn.execute("INSERT INTO vectors VALUES (?,?,?,?)", (b.id, "fake:64", 64, encode_vector(np.ones(12))))
    svc = await make_service()
    assert svc.open_report.stale == 2 and svc.vectors is not None and len(svc.vectors) == 0
    queued = dict(await store.fetchall("SELECT entry_id, reason FROM reembed_queue"))
    assert "model changed" in queued[a.id] and "wrong dimension" in queued[b.id]
    await svc.embed_pending()  # the backfill re-embeds the stale rows
    res = await svc.recall("dog rex", overrides={"memory.poolSize": 50})
    ids = res.hit_ids
    assert a.id in ids
    # the stale vector was replaced by one under the active stamp and the queue drained
    rows = await store.fetchall("SELECT entry_id, model_id FROM vectors")
    assert dict(rows) == {a.id: "fake:64", b.id: "fake:64"}
    assert await store.fetchall("SELECT * FROM reembed_queue") == []
    # the stored vector is the fresh one (not the all-ones stale vector)
    assert not np.allclose(svc.vectors.get(a.id), np.ones(64) / 8)


async def test_stale_vector_not_used_before_reembedding(store, make_service, fake_factory):
    (a,) = await insert(store, make_entry("k", "alpha"))
    ones = np.ones(64, np.float32) / 8
    async with store.transaction() as conn:
        await conn.execute("INSERT INTO vectors VALUES (?,?,?,?)", (a.id, "other:64", 64, encode_vector(ones)))
    svc = await make_service()
    assert a.id not in svc.vectors and svc.pending_count == 1


async def test_vectors_reload_from_table_on_reopen(store, make_service):
    await insert(store, *[make_entry(f"k{i}", f"content number {i}") for i in range(5)])
    svc = await make_service()
    assert await svc.embed_pending() == 5
    again = await make_service()
    assert again.open_report.vectors == 5 and again.pending_count == 0
    assert np.allclose(
        again.vectors.matrix()[np.argsort(again.vectors.ids())], svc.vectors.matrix()[np.argsort(svc.vectors.ids())]
    )


# ---- knowledge base sidecar -----------------------------------------------------------
def test_knowledge_base_sidecar_roundtrip(tmp_path):
    db = tmp_path / "m.db"
    kb = KnowledgeBase.open(db, "m:3", 3)
    kb.add(["doc#0", "doc#1"], np.array([[1, 0, 0], [0, 1, 0]], np.float32), ["first", "second"])
    path = kb.save()
    assert path == sidecar_path(db) and path.name == "m.db.kb.npz"
    kb2 = KnowledgeBase.open(db, "m:3", 3)
    hits = kb2.search(np.array([0.1, 1, 0], np.float32), 1)
    assert hits[0].id == "doc#1" and hits[0].text == "second"
    assert kb2.remove(["doc#1"]) == 1 and kb2.ids() == ["doc#0"]
    kb2.add(["doc#0"], np.array([0, 0, 2], np.float32), ["replaced"])
    assert len(kb2) == 1 and kb2.search(np.array([0, 0, 1], np.float32), 5)[0].score == pytest.approx(1.0)
    with pytest.raises(VectorDimensionError):
        kb2.add(["x"], np.zeros((1, 4), np.float32))
    with pytest.raises(KnowledgeBaseError, match="kb build --reset"):
        KnowledgeBase.open(db, "other:3", 3)
    assert len(KnowledgeBase.open(db, "other:3", 3, reset_on_model_change=True)) == 0


async def test_knowledge_base_vectors_never_in_memory_recall(store, make_service, tmp_path):
    await insert(store, make_entry("pet", "the dog is called rex"))
    svc = await make_service()
    await svc.embed_pending()
    kb = KnowledgeBase.open(store.path, svc.embedder.model_id or "fake:64", 64)
    fe = FakeEmbedder("fake")
    fe._load()
    kb.add(["kb-doc"], fe.encode_sync(["the dog is called rex exactly"]), ["kb text"])
    kb.save()
    res = await svc.recall("dog rex")
    assert "kb-doc" not in res.hit_ids and len(res.results) == 1


def test_adopted_read_only_matrix_copies_on_first_change():
    blob = np.arange(8, dtype=np.float32).tobytes()
    ids, matrix, _ = decode_rows([("a", "m:4", 4, blob[:16]), ("b", "m:4", 4, blob[16:])], "m:4", 4)
    assert not matrix.flags.writeable
    index = VectorIndex(4, "m:4")
    index.add_many(ids, matrix)
    index.add("a", [1, 0, 0, 0])  # replace in place
    index.add("c", [0, 1, 0, 0])  # grow
    assert index.remove("a")
    assert sorted(index.ids()) == ["b", "c"]
    assert np.allclose(index.get("b"), [4, 5, 6, 7])
