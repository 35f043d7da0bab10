"""Issue 14 (backfill >= 300 entries/s): while a finished batch is being persisted, the
model workers already hold the next batches, so no worker sits idle on a database
write; every vector still lands once, stamped."""

from __future__ import annotations

import pytest

from engine.config import Settings
from engine.recall import backfill as backfill_mod
from engine.recall import embedder as emb
from engine.recall.service import RecallService
from engine.store import Store
from tests.engine.recall.helpers import FakeEmbedder, insert, make_entry

SETTINGS = Settings.defaults().override({"memory.embeddingModel": "fake", "memory.rerankEnabled": False})


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "b.db")
    yield s
    await s.close()


async def test_the_workers_have_the_next_batch_while_one_is_persisted(store, monkeypatch):
    await insert(store, *[make_entry(f"k{i}", f"memory {i} " + "word " * (i % 7)) for i in range(200)])
    embedder = FakeEmbedder("fake", delay=0.01)
    handed: list[int] = []
    original_embed = embedder.embed

    async def embed(texts, *args, **kwargs):
        handed.append(len(texts))
        return await original_embed(texts, *args, **kwargs)

    embedder.embed = embed
    at_write: list[int] = []
    original_write = backfill_mod.write_vectors

    async def write(store_, ids, matrix, model_id):
        at_write.append(len(handed))
        await original_write(store_, ids, matrix, model_id)

    monkeypatch.setattr(backfill_mod, "write_vectors", write)
    svc = RecallService(store, SETTINGS, lambda name: embedder, snapshot=False)
    await svc.open()
    assert await svc.embed_pending(batch=10) == 200
    # the first batch is persisted only once every worker has a batch and one more waits
    assert at_write[0] == emb.BACKFILL_WORKERS + 1
    rows = await store.fetchall("SELECT entry_id, model_id FROM vectors")
    assert len(rows) == len({r[0] for r in rows}) == 200 and {r[1] for r in rows} == {embedder.model_id}
    await svc.close()
