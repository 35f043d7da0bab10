"""The recall snapshot (`<db>.recall.snap`): what is read back is the index that was
saved, memory-mapped read-only, and what changed after it is what recall finds."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.recall.lexical import LexicalIndex
from engine.recall.quantized import Codes, quantize
from engine.recall.snapshot import SnapshotWriter, read_snapshot, snapshot_path
from engine.recall.vectors import VectorIndex

from .helpers import insert, make_entry, update

WORDS = ["apple", "berry", "cherry", "damson", "elder", "fig", "grape", "hazel", "kiwi", "lemon", "mango", "olive"]

docs = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), min_size=1, max_size=30)
queries = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), min_size=1, max_size=5)


def _roundtrip(index: LexicalIndex, path) -> LexicalIndex:
    with SnapshotWriter(path) as w:
        for name, array in index.to_arrays().items():
            w.add(name, array)
        w.finish({})
    return LexicalIndex.from_arrays(read_snapshot(path))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(docs=docs, edits=st.lists(st.tuples(st.integers(0, 29), st.lists(st.sampled_from(WORDS), max_size=5))), qs=queries)
def test_lexical_index_read_back_scores_like_one_built_fresh(tmp_path, docs, edits, qs):
    """Saved after any mix of adds, edits and removes, the index read back gives every
    document the score a fresh build over the final texts gives it."""
    ids = [f"d{i}" for i in range(len(docs))]
    index = LexicalIndex.from_tokens(ids, docs)
    final = dict(zip(ids, docs))
    for slot, tokens in edits:
        doc_id = f"d{slot}"
        if tokens:
            index.add(doc_id, tokens)
            final[doc_id] = tokens
        elif doc_id in final:
            index.remove(doc_id)
            del final[doc_id]
    loaded = _roundtrip(index, tmp_path / "lex.snap")
    fresh = LexicalIndex.from_tokens(list(final), list(final.values()))
    for q in qs:
        got, want = loaded.get_scores(q), fresh.get_scores(q)
        assert got.keys() == want.keys()
        assert all(got[k] == pytest.approx(want[k], rel=1e-12, abs=1e-12) for k in want)


FACTS = [(f"fact{i}", f"{WORDS[i % 12]} {WORDS[(i * 5) % 12]} note number {i}") for i in range(40)]


async def _seed(store):
    return await insert(store, *[make_entry(k, c) for k, c in FACTS])


async def test_reopened_from_snapshot_answers_like_a_rebuild(store, make_service):
    await _seed(store)
    first = await make_service(snapshot_min_entries=1)
    await first.embed_pending()
    await first.close()  # the vectors embedded since open go into the snapshot
    again = await make_service(snapshot_min_entries=1)
    fresh = await make_service(snapshot=False)
    assert again.open_report.source == "snapshot" and fresh.open_report.source == "rebuild"
    assert again.open_report.vectors == len(FACTS) == fresh.open_report.vectors
    rng = np.random.default_rng(3)
    for _ in range(15):
        q = " ".join(rng.choice(WORDS, int(rng.integers(1, 4))))
        a, b = await again.recall(q, limit=20), await fresh.recall(q, limit=20)
        assert [(h.id, h.bm25.score, h.vector.score if h.vector else None) for h in a.results] == [
            (h.id, h.bm25.score, h.vector.score if h.vector else None) for h in b.results
        ]


async def test_mapped_arrays_are_read_only_and_edits_never_reach_the_file(store, make_service):
    entries = await _seed(store)
    first = await make_service(snapshot_min_entries=1)
    await first.embed_pending()
    await first.close()
    path = snapshot_path(store.path)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    svc = await make_service(snapshot_min_entries=10**9)  # never rewrites the snapshot
    assert svc.open_report.source == "snapshot"
    snap = read_snapshot(path)
    for name in ("lex_tslots", "lex_ttf", "vec_f32", "vec_i8", "vec_i8_scale"):
        with pytest.raises(ValueError, match="read-only"):
            snap[name][0] = 1
    with pytest.raises(ValueError, match="read-only"):
        svc.vectors.matrix()[0, 0] = 2.0
    # edits, deletes and new vectors land in the in-memory delta, not in the mapped file
    entries[0].content = "quince quince quince"
    await update(store, entries[0])
    await insert(store, make_entry("new", "walnut walnut"))
    await svc.sync()
    await svc.embed_pending()
    assert (await svc.recall("quince")).hit_ids[0] == entries[0].id
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


async def test_an_entry_edited_after_the_snapshot_is_found_by_its_new_text(store, make_service):
    entries = await _seed(store)
    first = await make_service(snapshot_min_entries=1)
    await first.embed_pending()
    await first.close()
    target = entries[7]
    old_words = target.content.split()[:2]
    target.content = "persimmon tamarind"
    await update(store, target)
    svc = await make_service(snapshot_min_entries=1)
    assert svc.open_report.source == "snapshot" and svc.open_report.replayed == 1
    assert (await svc.recall("persimmon tamarind")).hit_ids[0] == target.id
    old = await svc.recall(" ".join(old_words), limit=40)
    assert target.id not in {h.id for h in old.results if h.bm25.rank}
    # its old vector is never used again: the one it gets is made from the new text
    await svc.embed_pending()
    new_vec = svc.embedder.encode_sync(["fact7\npersimmon tamarind"])[0]
    np.testing.assert_allclose(svc.vectors.get(target.id), new_vec, atol=1e-6)
    assert target.id not in svc.backfill


def test_vector_index_over_mapped_rows_adds_and_removes_without_copying(tmp_path):
    rng = np.random.default_rng(0)
    m = rng.standard_normal((300, 8)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    codes = quantize(m)
    with SnapshotWriter(tmp_path / "v.snap") as w:
        w.add("f32", m)
        w.add("i8", codes.codes)
        w.add("i8_scale", codes.scale)
        w.finish({})
    snap = read_snapshot(tmp_path / "v.snap")
    ids = [f"e{i:03d}" for i in range(300)]
    mapped = VectorIndex(8)
    mapped.set_base(ids, snap["f32"], Codes(snap["i8"], snap["i8_scale"]), None)
    plain = VectorIndex(8)
    plain.add_many(ids, m.copy())
    for index in (mapped, plain):
        index.remove("e005")
        index.add("e010", -m[10])
        index.add("new", m[20])
    assert isinstance(mapped._b32, np.memmap)  # still the mapped base: nothing copied it
    for exact in (True, False):
        for j in range(5):
            q = m[j * 7]
            a, b = mapped.search(q, 10, exact=exact), plain.search(q, 10, exact=exact)
            assert a.ids == b.ids and np.allclose(a.scores, b.scores)
    assert "e005" not in mapped.search(m[5], 300).ids


async def test_the_old_format_snapshot_file_is_removed_when_the_new_one_is_written(store, make_service):
    await _seed(store)
    legacy = store.path.with_name(store.path.name + ".recall.npz")
    legacy.write_bytes(b"format 1")
    svc = await make_service(snapshot_min_entries=1)
    assert svc.open_report.source == "rebuild"
    await svc.settle()  # the first open's snapshot is finished in the background
    assert snapshot_path(store.path).exists() and not legacy.exists()


async def test_a_read_only_store_gets_no_snapshot_written(store, make_service):
    from engine.store import Store

    await _seed(store)
    ro = await Store.open(store.path, read_only=True)
    try:
        svc = await make_service(snapshot_min_entries=1, store_=ro)
        assert svc.open_report.source == "rebuild" and len(svc.lexical) == len(FACTS)
        await svc.close()
        assert not snapshot_path(store.path).exists()
    finally:
        await ro.close()


async def test_close_drops_the_indexes_and_a_later_recall_reopens_them(store, make_service):
    await _seed(store)
    svc = await make_service(snapshot_min_entries=1)
    await svc.embed_pending()
    want = [(h.id, h.bm25.score) for h in (await svc.recall("grape fig")).results]
    await svc.close(release_models=False)
    assert len(svc.lexical) == 0 and svc.vectors is None  # nothing of a large index stays in memory
    assert [(h.id, h.bm25.score) for h in (await svc.recall("grape fig")).results] == want
