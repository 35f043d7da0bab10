"""The ONNX export for a large backlog runs in a child process and is kept on disk.

Before, torch's exporter ran on a thread of the app's process and held the GIL for
stretches of up to ~0.7 s: the longest stall of the event loop at every first open of a
store with a backlog. Every open exported again."""

from __future__ import annotations

import pytest
import torch

from engine.recall import embedder as emb
from engine.recall import onnx_encoder
from engine.recall.embedder import Embedder

MODEL = "all-MiniLM-L6-v2"


async def bulk_encoder(monkeypatch) -> Embedder:
    """A fresh embedder whose backfill encoder has been built (or refused)."""
    monkeypatch.setattr(emb, "ONNX_BACKFILL_MIN", 0)
    embedder = Embedder(MODEL)
    await embedder.ensure_loaded()
    embedder.start_bulk(10_000)
    embedder._bulk_future.result(timeout=600)
    return embedder


def refuse(what: str):
    def fail(*args, **kwargs):
        raise AssertionError(f"{what} was called")

    return fail


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ECHO_MEMORY_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.mark.slow
async def test_the_export_runs_in_another_process_and_the_next_open_loads_it(cache, real_embedding_model, monkeypatch):
    monkeypatch.setattr(torch.onnx, "export", refuse("torch.onnx.export in the app's process"))
    first = await bulk_encoder(monkeypatch)
    assert first.bulk_message.startswith("ONNX Runtime") and "exported" in first.bulk_message, first.bulk_message
    assert list((cache / "onnx").glob("*.onnx")) == [onnx_encoder.cached_path(first._path)]
    first.close()

    monkeypatch.setattr(onnx_encoder, "export_in_child", refuse("a second export"))
    second = await bulk_encoder(monkeypatch)
    assert "cached" in second.bulk_message, second.bulk_message
    vec = second._bulk(["where does Miso sleep"])
    assert vec.shape == (1, 384) and abs(float(vec[0] @ vec[0]) - 1) < 1e-5
    second.close()


@pytest.mark.slow
async def test_a_corrupt_cached_export_is_made_again(cache, real_embedding_model, monkeypatch):
    path = onnx_encoder.cached_path(emb.resolve_model_path(MODEL))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"half an ONNX file")
    embedder = await bulk_encoder(monkeypatch)
    assert "exported" in embedder.bulk_message, embedder.bulk_message
    assert path.stat().st_size > 1_000_000
    embedder.close()


@pytest.mark.slow
async def test_an_export_process_that_overruns_leaves_the_backfill_on_torch_and_says_why(
    cache, real_embedding_model, monkeypatch
):
    monkeypatch.setattr(onnx_encoder, "EXPORT_TIMEOUT_S", 0.5)
    embedder = await bulk_encoder(monkeypatch)
    assert embedder._bulk is None
    assert "the export process took longer than 0.5s" in embedder.bulk_message, embedder.bulk_message
    assert embedder.bulk_message.startswith("torch (")
    assert not list((cache / "onnx").glob("*")), "nothing half-written is left in the cache"
    embedder.close()
