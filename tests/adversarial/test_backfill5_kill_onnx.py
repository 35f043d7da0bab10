"""Issue 14: a backfill killed with SIGKILL while it embeds on ONNX Runtime resumes (here
on torch) with no vector lost, duplicated or unstamped, and the two encoders' vectors
side by side in one store agree with torch's."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from engine.config import Settings
from engine.recall import embedder as emb
from engine.recall import onnx_encoder
from engine.recall.service import RecallService
from engine.recall.tokenize import entry_text
from engine.store import Store
from tests.engine.recall.helpers import insert, make_entry

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]
N = 1200
SETTINGS = {"memory.embeddingModel": "all-MiniLM-L6-v2", "memory.rerankEnabled": False}

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    sys.path.insert(0, {repo!r})
    from engine.config import Settings
    from engine.recall.service import RecallService
    from engine.store import Store

    async def main():
        store = await Store.open({db!r})
        svc = RecallService(store, Settings.defaults().override({settings!r}), snapshot=False)
        await svc.open()
        await svc.embedder.ensure_loaded()
        svc.embedder.start_bulk(len(svc.backfill))
        await asyncio.wrap_future(svc.embedder._bulk_future)
        print(svc.embedder.bulk_message, flush=True)
        await svc.embed_pending()
        print("finished", flush=True)

    asyncio.run(main())
    """
)


def stored(db: Path) -> int:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return con.execute("SELECT count(*) FROM vectors").fetchone()[0]
    finally:
        con.close()


async def test_an_onnx_backfill_killed_mid_way_resumes_with_every_vector_once_and_alike(tmp_path, monkeypatch):
    db = tmp_path / "kill.db"
    store = await Store.open(db)
    entries = [make_entry(f"k{i}", f"memory number {i} about the garden " + "and the weather " * (i % 30)) for i in range(N)]
    await insert(store, *entries)
    texts = {e.id: entry_text(e.key, e.content, e.tags) for e in entries}
    await store.close()

    script = tmp_path / "child.py"
    script.write_text(CHILD.format(repo=str(REPO), db=str(db), settings=SETTINGS))
    env = dict(os.environ, HF_HUB_OFFLINE="1", ECHO_MEMORY_BACKFILL_WORKERS="2", ECHO_MEMORY_ONNX_BACKFILL_MIN="0")
    child = subprocess.Popen(
        [sys.executable, str(script)], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        encoder = child.stdout.readline()  # the export is ready before the first batch
        assert encoder.startswith("ONNX Runtime"), f"{encoder!r} {child.stderr.read() if child.poll() is not None else ''}"
        while child.poll() is None and stored(db) < 256:  # a few batches committed
            time.sleep(0.01)
        assert child.poll() is None, f"the backfill ended before it could be killed: {child.stderr.read()!r}"
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL

    store = await Store.open(db)
    try:
        assert (await store.fetchone("PRAGMA integrity_check"))[0] == "ok"
        kept = stored(db)
        assert 0 < kept < N
        before = dict(await store.fetchall("SELECT entry_id, vector FROM vectors"))
        monkeypatch.setattr(emb, "ONNX_BACKFILL_MIN", -1)  # this process resumes on torch
        svc = RecallService(store, Settings.defaults().override(SETTINGS), snapshot=False)
        report = await svc.open()
        assert report.pending == N - kept  # only what was missing is pending
        assert await svc.embed_pending() == N - kept
        rows = await store.fetchall("SELECT entry_id, model_id, dim, vector FROM vectors")
        assert len(rows) == len({r[0] for r in rows}) == N  # every entry once
        assert {(r[1], r[2], len(r[3])) for r in rows} == {("all-MiniLM-L6-v2:384", 384, 384 * 4)}
        after = {r[0]: r[3] for r in rows}
        assert all(after[i] == blob for i, blob in before.items())  # nothing embedded twice
        ids = [r[0] for r in rows]
        torch_vecs = svc.embedder.encode_sync([texts[i] for i in ids], batch_size=N)
        got = np.stack([np.frombuffer(r[3], np.float32) for r in rows])
        assert (got * torch_vecs).sum(1).min() >= onnx_encoder.MIN_COSINE
        await svc.close()
    finally:
        await store.close()
