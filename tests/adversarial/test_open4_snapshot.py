"""Issue 14 (first open at a million): the first open's snapshot is finished in the
background, so a kill before its rename leaves no snapshot (or the old one), never
half of one; and a snapshot whose bytes changed where its structure still holds (a
flipped byte inside an array) is caught by its checksums, at open for the lexical
arrays and in the background for the large vector arrays."""

from __future__ import annotations

import json
import logging
import os
import signal
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from engine.config import Settings
from engine.recall import snapshot as snapshot_mod
from engine.recall.service import RecallService
from engine.recall.snapshot import snapshot_path
from engine.store import Store
from tests.engine.recall.helpers import FakeEmbedder, insert, make_entry

SETTINGS = Settings.defaults().override({"memory.embeddingModel": "fake", "memory.rerankEnabled": False})
WORDS = ["amber", "basalt", "cobalt", "dolomite", "emerald", "feldspar", "garnet", "hematite"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "m.db")
    await insert(s, *[make_entry(f"k{i}", f"{WORDS[i % 8]} {WORDS[(i * 3) % 8]} sample {i}") for i in range(60)])
    yield s
    await s.close()


async def _open(store) -> RecallService:
    svc = RecallService(store, SETTINGS, lambda name: FakeEmbedder(name), snapshot_min_entries=1)
    await svc.open()
    return svc


async def _answers(svc) -> list:
    out = []
    for w in WORDS:
        res = await svc.recall(w, limit=10)
        out.append([(h.id, h.bm25.score, getattr(h.vector, "score", None)) for h in res.results])
    return out


async def _good_snapshot(store) -> list:
    svc = await _open(store)
    await svc.embed_pending()
    want = await _answers(svc)
    await svc.close()
    assert snapshot_path(store.path).exists()
    return want


async def _embedded_without_snapshot(store) -> list:
    """Every entry gets its stored vector (no snapshot written); the answers then."""
    svc = RecallService(store, SETTINGS, lambda name: FakeEmbedder(name), snapshot=False)
    await svc.open()
    await svc.embed_pending()
    want = await _answers(svc)
    await svc.close()
    return want


def _flip_inside(path: Path, name: str) -> None:
    """Flip one byte in the middle of an array: the footer and the shapes still agree."""
    data = bytearray(path.read_bytes())
    length = struct.unpack("<Q", data[-16:-8])[0]
    spec = json.loads(bytes(data[len(data) - 16 - length : -16]))["arrays"][name]
    nbytes = int(np.prod(spec["shape"])) * np.dtype(spec["dtype"]).itemsize
    data[spec["offset"] + nbytes // 2] ^= 0x40
    path.write_bytes(bytes(data))


async def test_the_first_open_is_usable_before_its_snapshot_is_written(store):
    want = await _embedded_without_snapshot(store)
    svc = await _open(store)
    assert svc.open_report.source == "rebuild"
    assert svc.indexes.deferred is not None or snapshot_path(store.path).exists()
    assert await _answers(svc) == want  # recall works while the snapshot is being finished
    await svc.settle()
    assert snapshot_path(store.path).exists()
    assert not list(store.path.parent.glob("*.tmp"))
    assert await _answers(svc) == want  # its vectors now live in the renamed file
    await insert(store, make_entry("extra", "garnet extra"))
    await svc.sync()
    await svc.embed_pending()
    assert await svc.save_snapshot() is not None  # a newer file takes the snapshot's name
    moved_on = await _answers(svc)  # the old maps still read the old file, not the new one
    await svc.close()
    fresh = RecallService(store, SETTINGS, lambda name: FakeEmbedder(name), snapshot=False)
    await fresh.open()
    assert await _answers(fresh) == moved_on
    await fresh.close()
    again = await _open(store)
    assert again.open_report.source == "snapshot"
    assert await _answers(again) == moved_on
    await again.close()


async def test_a_flipped_byte_inside_a_lexical_array_is_caught_at_open(store, caplog):
    want = await _good_snapshot(store)
    path = snapshot_path(store.path)
    _flip_inside(path, "lex_ttf")  # a term frequency: structurally fine, scores wrong
    with caplog.at_level(logging.WARNING):
        svc = await _open(store)
    assert svc.open_report.source == "rebuild"
    lines = [r.getMessage() for r in caplog.records if "checksum" in r.getMessage()]
    assert lines and str(path) in lines[0] and "lex_ttf" in lines[0]
    assert await _answers(svc) == want
    await svc.close()


async def test_a_flipped_byte_in_the_vectors_is_caught_in_the_background(store, caplog, monkeypatch):
    want = await _good_snapshot(store)
    path = snapshot_path(store.path)
    _flip_inside(path, "vec_f32")
    _flip_inside(path, "vec_i8")
    monkeypatch.setattr(snapshot_mod, "LAZY_CHECK_BYTES", 1024)  # as the vectors are at a million
    with caplog.at_level(logging.WARNING):
        svc = await _open(store)
        assert svc.open_report.source == "snapshot"  # the open did not read the vectors whole
        await svc.settle()
    lines = [r.getMessage() for r in caplog.records if "damaged" in r.getMessage()]
    assert lines and str(path) in lines[0] and "checksum" in lines[0]
    assert await _answers(svc) == want  # the vectors came back from the store
    await svc.close()  # and the snapshot is rewritten
    again = await _open(store)
    await again.settle()
    assert again.open_report.source == "snapshot"
    assert await _answers(again) == want
    await again.close()


KILLED_MID_WRITE = textwrap.dedent(
    """
    import asyncio, os, sys
    sys.path.insert(0, {root!r})
    from engine.recall import snapshot
    from engine.store import Store
    from tests.adversarial.test_open4_snapshot import _open

    def stall(self, meta):  # the background write is about to rename: stop here
        print("writing", flush=True)
        os.kill(os.getpid(), 9)

    snapshot.SnapshotWriter.finish = stall
    snapshot._DIRECT_MIN = {direct_min}  # 1: the vectors go past the page cache (O_DIRECT)
    write = snapshot._DirectWrites.write

    def direct(self, data, offset):
        print("direct", flush=True)
        snapshot._DirectWrites.write = write
        return write(self, data, offset)

    snapshot._DirectWrites.write = direct

    async def main():
        store = await Store.open({db!r})
        svc = await _open(store)
        print("opened", svc.open_report.source, flush=True)
        await svc.settle()

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("direct", [False, True], ids=["buffered", "o_direct"])
async def test_a_kill_before_the_background_rename_leaves_no_half_snapshot(store, tmp_path, monkeypatch, direct):
    """kill -9 as the background write is about to rename, with the vectors written
    buffered (60 small rows) or, forced, past the page cache: no snapshot, the next open
    rebuilds and removes the orphan, and the snapshot it writes (the same way) reads back."""
    if direct:
        monkeypatch.setattr(snapshot_mod, "_DIRECT_MIN", 1)
    want = await _embedded_without_snapshot(store)
    script = tmp_path / "kill.py"
    script.write_text(KILLED_MID_WRITE.format(root=str(ROOT), db=str(store.path), direct_min=1 if direct else 1 << 20))
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    # the vectors stream into the snapshot during the open
    assert proc.stdout.split() == [*(["direct"] if direct else []), "opened", "rebuild", "writing"]
    path = snapshot_path(store.path)
    assert not path.exists()  # never renamed: no snapshot rather than half of one
    assert list(path.parent.glob(path.name + ".*.tmp"))  # what the killed write left
    svc = await _open(store)
    assert svc.open_report.source == "rebuild"
    assert await _answers(svc) == want
    await svc.settle()
    assert path.exists() and not list(path.parent.glob(path.name + ".*.tmp"))  # the orphan is gone
    await svc.close()
    reopened = await _open(store)
    assert reopened.open_report.source == "snapshot"
    assert await _answers(reopened) == want
    await reopened.close()


async def test_a_stored_vector_of_a_working_memory_is_left_out_of_the_first_open(store):
    from engine.models import MemoryTier
    from engine.recall.vectors import write_vectors

    want = await _embedded_without_snapshot(store)
    (working,) = await insert(store, make_entry("scratch", "amber scratch note", tier=MemoryTier.WORKING))
    await write_vectors(store, [working.id], np.ones((1, 64), np.float32) / 8.0, "fake:64")
    svc = await _open(store)
    assert svc.open_report.source == "rebuild" and svc.indexes.deferred is None  # no half snapshot to finish
    assert working.id not in svc.vectors and len(svc.vectors) == 60
    assert await _answers(svc) == want
    await svc.close()  # the snapshot is written whole instead
    again = await _open(store)
    assert again.open_report.source == "snapshot" and await _answers(again) == want
    await again.close()
