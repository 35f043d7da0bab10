"""Issue 14: a backfill killed with SIGKILL mid-way resumes on the next open with no
vector lost, duplicated or unstamped, and embeds only what was still missing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from engine.config import Settings
from engine.recall import embedder as emb
from engine.recall.service import RecallService
from engine.store import Store
from tests.engine.recall.helpers import FakeEmbedder, insert, make_entry

REPO = Path(__file__).resolve().parents[2]
N = 3000
SETTINGS = {"memory.embeddingModel": "fake", "memory.rerankEnabled": False}

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    sys.path.insert(0, {repo!r})
    from engine.config import Settings
    from engine.recall.service import RecallService
    from engine.store import Store
    from tests.engine.recall.helpers import FakeEmbedder

    async def main():
        store = await Store.open({db!r})
        svc = RecallService(store, Settings.defaults().override({settings!r}),
                            lambda name: FakeEmbedder(name, delay=0.1), snapshot=False)
        await svc.open()
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


async def test_backfill_killed_mid_way_resumes_without_losing_or_redoing_a_vector(tmp_path):
    db = tmp_path / "kill.db"
    store = await Store.open(db)
    await insert(store, *[make_entry(f"k{i}", f"memory number {i} " + "word " * (i % 40)) for i in range(N)])
    await store.close()

    script = tmp_path / "child.py"
    script.write_text(CHILD.format(repo=str(REPO), db=str(db), settings=SETTINGS))
    env = dict(os.environ, HF_HUB_OFFLINE="1", ECHO_MEMORY_BACKFILL_WORKERS="2")
    child = subprocess.Popen([sys.executable, str(script)], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(6000):  # until a few batches are committed
            if child.poll() is not None or (db.exists() and stored(db) >= 192):
                break
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
        rows = await store.fetchall("SELECT entry_id, model_id, dim, vector FROM vectors")
        kept = len(rows)
        assert 0 < kept < N
        assert {(r[1], r[2], len(r[3])) for r in rows} == {("fake:64", 64, 64 * 4)}  # every vector stamped
        assert len({r[0] for r in rows}) == kept
        orphans = await store.fetchone("SELECT count(*) FROM vectors WHERE entry_id NOT IN (SELECT id FROM entries)")
        assert orphans[0] == 0
        before = {r[0]: r[3] for r in rows}

        fake = FakeEmbedder("fake")
        fake._pool = emb.ModelWorkers(1)  # one worker, so its count of embedded texts is exact
        svc = RecallService(store, Settings.defaults().override(SETTINGS), lambda name: fake, snapshot=False)
        report = await svc.open()
        assert report.vectors == kept and report.pending == N - kept  # only what was missing is pending
        assert await svc.embed_pending() == N - kept
        assert fake.encoded == N - kept  # nothing persisted before the kill was embedded again
        await svc.close()
        after = dict(await store.fetchall("SELECT entry_id, vector FROM vectors"))
        assert len(after) == N
        assert all(after[i] == blob for i, blob in before.items())
        assert (await store.fetchone("SELECT count(DISTINCT model_id) FROM vectors"))[0] == 1
    finally:
        await store.close()
