"""Issue 14: a damaged recall snapshot (truncated, garbage, a flipped byte in its footer,
arrays that do not fit together, an interrupted write) is never trusted: the index is
rebuilt from the store with a log line that names the file and the problem, recall
answers as before, and a good snapshot is written again."""

from __future__ import annotations

import json
import logging
import struct

import pytest

from engine.config import Settings
from engine.recall.service import RecallService
from engine.recall.snapshot import MAGIC, snapshot_path
from engine.store import Store
from tests.engine.recall.helpers import FakeEmbedder, insert, make_entry

SETTINGS = Settings.defaults().override({"memory.embeddingModel": "fake", "memory.rerankEnabled": False})
WORDS = ["amber", "basalt", "cobalt", "dolomite", "emerald", "feldspar", "garnet", "hematite"]


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
    return [[(h.id, h.bm25.score) for h in (await svc.recall(w, limit=10)).results] for w in WORDS]


async def _good_snapshot(store) -> list:
    svc = await _open(store)
    await svc.embed_pending()
    want = await _answers(svc)
    await svc.close()
    assert snapshot_path(store.path).exists()
    return want


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _garbage(data: bytes) -> bytes:
    return b"\x00garbage" * 10


def _footer_flip(data: bytes) -> bytes:
    length = struct.unpack("<Q", data[-16:-8])[0]
    start = len(data) - 16 - length
    return data[:start] + b"}" + data[start + 1 :]


def _arrays_past_the_end(data: bytes) -> bytes:
    length = struct.unpack("<Q", data[-16:-8])[0]
    start = len(data) - 16 - length
    footer = json.loads(data[start:-16])
    footer["arrays"]["lex_tslots"]["shape"] = [10**9]
    raw = json.dumps(footer).encode()
    return data[:start] + raw + struct.pack("<Q8s", len(raw), MAGIC)


def _inconsistent_postings(data: bytes) -> bytes:
    length = struct.unpack("<Q", data[-16:-8])[0]
    start = len(data) - 16 - length
    footer = json.loads(data[start:-16])
    # a posting list that claims one entry fewer: structurally valid, but it does not add up
    footer["arrays"]["lex_ttf"]["shape"] = [footer["arrays"]["lex_ttf"]["shape"][0] - 1]
    raw = json.dumps(footer).encode()
    return data[:start] + raw + struct.pack("<Q8s", len(raw), MAGIC)


@pytest.mark.parametrize("damage", [_truncate, _garbage, _footer_flip, _arrays_past_the_end, _inconsistent_postings])
async def test_a_damaged_snapshot_is_rebuilt_with_a_clear_log_line(store, caplog, damage):
    want = await _good_snapshot(store)
    path = snapshot_path(store.path)
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.WARNING, logger="engine.recall.indexes"):
        svc = await _open(store)
    assert svc.open_report.source == "rebuild"
    lines = [r.getMessage() for r in caplog.records if "snapshot" in r.getMessage()]
    assert lines and str(path) in lines[0] and "rebuilding" in lines[0]
    assert await _answers(svc) == want
    await svc.close()
    # the rebuild wrote a good snapshot again
    again = await _open(store)
    assert again.open_report.source == "snapshot"
    assert await _answers(again) == want
    await again.close()


async def test_a_write_interrupted_before_the_rename_leaves_the_old_snapshot(store):
    want = await _good_snapshot(store)
    path = snapshot_path(store.path)
    before = path.read_bytes()
    # what a crash mid-write leaves: a half-written temporary file beside the snapshot
    path.with_name(path.name + ".tmp").write_bytes(before[: len(before) // 3])
    svc = await _open(store)
    assert svc.open_report.source == "snapshot" and await _answers(svc) == want
    await svc.close()
    assert path.read_bytes() == before
