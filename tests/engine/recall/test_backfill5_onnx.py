"""Issue 14: a large backlog is embedded on ONNX Runtime (the same network, exported from
the loaded model), its vectors agree with torch's and keep the model's stamp; when the
export cannot be used the backfill finishes on torch and says why."""

from __future__ import annotations

import asyncio
import sys
import threading

import numpy as np
import pytest

from engine.recall import embedder as emb
from engine.recall import onnx_encoder
from engine.recall.embedder import Embedder
from engine.recall.tokenize import entry_text

from .helpers import FakeEmbedder, insert, make_entry

MODEL = "all-MiniLM-L6-v2"
TOPICS = ("the user's cat Miso sleeps on the radiator", "deploys go out on Tuesdays after review", "dark roast, no sugar")


async def backlog(store, n: int) -> dict[str, str]:
    """n entries of mixed length; their embedding texts by id."""
    entries = [make_entry(f"k{i}", f"{TOPICS[i % 3]} (note {i}) " + "and more detail " * (i % 23)) for i in range(n)]
    await insert(store, *entries)
    return {e.id: entry_text(e.key, e.content, e.tags) for e in entries}


async def backfill(make_service, settings) -> Embedder:
    svc = await make_service(settings_=settings.override({"memory.embeddingModel": MODEL}), embedder_factory=Embedder)
    await svc.embedder.ensure_loaded()
    svc.embedder.start_bulk(len(svc.backfill))
    if svc.embedder._bulk_future is not None:
        svc.embedder._bulk_future.result(timeout=600)  # the export done: every batch runs on it
    await svc.embed_pending()
    return svc.embedder


async def stored(store) -> dict[str, tuple[str, np.ndarray]]:
    rows = await store.fetchall("SELECT entry_id, model_id, vector FROM vectors")
    return {r[0]: (r[1], np.frombuffer(r[2], np.float32)) for r in rows}


@pytest.mark.slow
async def test_a_large_backlog_is_embedded_on_onnx_with_torchs_vectors(
    store, make_service, settings, real_embedding_model, monkeypatch
):
    monkeypatch.setattr(emb, "ONNX_BACKFILL_MIN", 100)
    texts = await backlog(store, 150)
    embedder = await backfill(make_service, settings)
    assert embedder.bulk_message.startswith("ONNX Runtime"), embedder.bulk_message
    vectors = await stored(store)
    assert set(vectors) == set(texts)
    assert {model_id for model_id, _ in vectors.values()} == {f"{MODEL}:384"}
    ids = list(texts)
    torch_vecs = embedder.encode_sync([texts[i] for i in ids], batch_size=len(ids))
    cosines = np.array([vectors[i][1] @ torch_vecs[j] for j, i in enumerate(ids)])
    assert cosines.min() >= onnx_encoder.MIN_COSINE


@pytest.mark.slow
async def test_a_small_backlog_stays_on_torch_without_an_export(store, make_service, settings, real_embedding_model, monkeypatch):
    monkeypatch.setattr(emb, "ONNX_BACKFILL_MIN", 100)
    await backlog(store, 20)
    embedder = await backfill(make_service, settings)
    assert embedder._bulk_future is None and embedder.bulk_message == "torch"
    assert len(await stored(store)) == 20


@pytest.mark.slow
async def test_onnx_vectors_that_drift_from_torch_are_never_stored(
    store, make_service, settings, real_embedding_model, monkeypatch
):
    monkeypatch.setattr(emb, "ONNX_BACKFILL_MIN", 0)
    monkeypatch.setattr(onnx_encoder, "MIN_COSINE", 1.5)  # no export can agree this well
    texts = await backlog(store, 40)
    embedder = await backfill(make_service, settings)
    assert embedder.bulk_message.startswith("torch (ONNX vectors differ from torch's"), embedder.bulk_message
    vectors = await stored(store)
    ids = list(texts)
    torch_vecs = embedder.encode_sync([texts[i] for i in ids], batch_size=len(ids))
    assert all(np.array_equal(vectors[i][1], torch_vecs[j]) for j, i in enumerate(ids))


@pytest.mark.slow
async def test_without_onnxruntime_the_backfill_finishes_on_torch_and_says_why(
    store, make_service, settings, real_embedding_model, monkeypatch
):
    monkeypatch.setattr(emb, "ONNX_BACKFILL_MIN", 0)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails as if not installed
    await backlog(store, 40)
    embedder = await backfill(make_service, settings)
    assert embedder.bulk_message.startswith("torch (onnxruntime is not installed"), embedder.bulk_message
    assert len(await stored(store)) == 40


async def test_a_query_is_answered_while_the_export_is_still_running(monkeypatch):
    """The export takes seconds: it has a thread of its own, not the model worker a
    query needs (here the only one)."""
    monkeypatch.setattr(emb, "ONNX_BACKFILL_MIN", 0)
    exporting, release = threading.Event(), threading.Event()

    def slow_build(self) -> None:
        exporting.set()
        release.wait(60)

    monkeypatch.setattr(FakeEmbedder, "_build_bulk", slow_build)
    fake = FakeEmbedder("fake")
    fake._pool = emb.ModelWorkers(1)
    try:
        await fake.ensure_loaded()
        fake.start_bulk(10_000)
        assert await asyncio.to_thread(exporting.wait, 60)
        vec = await asyncio.wait_for(fake.embed_query("where does Miso sleep"), 30)
        assert vec.shape == (64,) and not fake._bulk_future.done()
    finally:
        release.set()
        fake.close()
