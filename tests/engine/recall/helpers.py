"""Helpers shared by the recall tests: a deterministic fake embedder and
direct store writes (the write gate is not under test here)."""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from datetime import datetime, timezone
from typing import Optional

import numpy as np

from engine.models import MemoryEntry
from engine.recall import embedder as emb
from engine.recall.embedder import Embedder
from engine.recall.tokenize import content_tokens, tokenize
from engine.store import Store

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


class FakeEmbedder(Embedder):
    """Deterministic bag-of-words embedder: hashed content tokens, unit length.
    Texts sharing words are close; `delay` slows each encode; `fail` breaks loading."""

    def __init__(
        self, name: str = "fake", dim: int = 64, delay: float = 0.0, fail: Optional[str] = None, load_delay: float = 0.0
    ):
        self.name = name
        self.status = emb.NOT_LOADED
        self.message = ""
        self._model = None
        self._dim = dim
        self._path = name
        self._future = None
        self._lock = threading.Lock()
        self._pool = emb.ModelWorkers(emb.BACKFILL_WORKERS)
        self.load_seconds = None
        self._query_cache = OrderedDict()
        self.delay = delay
        self.fail = fail
        self.load_delay = load_delay
        self.encoded = 0

    def _load(self) -> None:
        time.sleep(self.load_delay)
        if self.fail:
            self.status, self.message = emb.FAILED, f"memory.embeddingModel={self.name!r} could not be loaded: {self.fail}"
            raise emb.EmbeddingModelError(self.message)
        self._model = object()
        self.status, self.message = emb.READY, "fake ready"

    def encode_sync(self, texts, batch_size: int = 64) -> np.ndarray:
        time.sleep(self.delay)
        out = np.zeros((len(texts), self._dim), np.float32)
        for i, text in enumerate(texts):
            for tok in content_tokens(tokenize(text)) or tokenize(text) or ["<empty>"]:
                h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "little")
                out[i, h % self._dim] += 1.0 if (h >> 40) & 1 else -1.0
            n = np.linalg.norm(out[i])
            out[i] = out[i] / n if n else out[i]
            if not n:
                out[i, 0] = 1.0
        self.encoded += len(texts)
        return out


def make_entry(key: str, content: str, **kw) -> MemoryEntry:
    kw.setdefault("created_at", NOW)
    kw.setdefault("updated_at", NOW)
    kw.setdefault("last_accessed", NOW)
    return MemoryEntry(key=key, content=content, **kw)


async def insert(store: Store, *entries: MemoryEntry) -> list[MemoryEntry]:
    async with store.transaction() as conn:
        for e in entries:
            await Store.insert_entry(conn, e)
    return list(entries)


async def update(store: Store, *entries: MemoryEntry) -> None:
    async with store.transaction() as conn:
        for e in entries:
            await Store.update_entry(conn, e)


async def delete(store: Store, *ids: str) -> None:
    async with store.transaction() as conn:
        for i in ids:
            await Store.delete_entry(conn, i)
