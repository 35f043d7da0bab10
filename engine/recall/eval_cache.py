"""An embedding cache for evaluation runs (`echo-memory eval --cache DIR`), so
fusion experiments and repeated evaluations do not re-embed the same haystacks (LongMemEval sessions take
minutes on 2 cores, turns ~20 min).

Vectors are stored in `<folder>/<model>.npz`, keyed by the blake2b hash of the
exact text embedded; a different model name is a different file, so a cached
vector can only be reused for the same model and the same text."""

from __future__ import annotations

import hashlib
import re
import threading
from pathlib import Path
from typing import Sequence

import numpy as np

from .embedder import Embedder


def _key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


class VectorCache:
    def __init__(self, folder: str | Path, model: str):
        self.path = Path(folder) / (re.sub(r"[^A-Za-z0-9_.-]+", "_", model) + ".npz")
        self._lock = threading.Lock()
        self._vecs: dict[str, np.ndarray] = {}
        self._dirty = 0
        if self.path.exists():
            with np.load(self.path) as data:
                keys, mat = data["keys"], data["vecs"]
            self._vecs = {str(k): mat[i] for i, k in enumerate(keys)}

    def get(self, text: str):
        return self._vecs.get(_key(text))

    def put(self, texts: Sequence[str], mat: np.ndarray) -> None:
        with self._lock:
            for t, v in zip(texts, mat):
                self._vecs[_key(t)] = v
            self._dirty += len(texts)
            due = self._dirty >= 2000
        if due:
            self.save()

    def save(self) -> None:
        """Write the cache, keeping what another run saved to the same file meanwhile."""
        with self._lock:
            if not self._dirty or not self._vecs:
                return
            if self.path.exists():
                with np.load(self.path) as data:
                    for k, v in zip(data["keys"], data["vecs"]):
                        self._vecs.setdefault(str(k), v)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(f".{threading.get_ident()}.tmp.npz")
            np.savez(tmp, keys=np.array(list(self._vecs)), vecs=np.stack(list(self._vecs.values())))
            tmp.replace(self.path)
            self._dirty = 0


class CachedEmbedder(Embedder):
    """The real embedder, answering from the cache where it can."""

    def __init__(self, name: str, cache: VectorCache):
        super().__init__(name)
        self.cache = cache

    def encode_sync(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        texts = list(texts)
        found = [self.cache.get(t) for t in texts]
        missing = [t for t, v in zip(texts, found) if v is None]
        if missing:
            fresh = np.asarray(super().encode_sync(missing, batch_size)).reshape(len(missing), -1)
            self.cache.put(missing, fresh)
            it = iter(fresh)
            found = [v if v is not None else next(it) for v in found]
        return np.ascontiguousarray(np.stack(found), dtype=np.float32)

    def close(self) -> None:
        self.cache.save()
        super().close()


def cached_embedder_factory(folder: str | Path):
    caches: dict[str, VectorCache] = {}

    def make(name: str) -> CachedEmbedder:
        if name not in caches:
            caches[name] = VectorCache(folder, name)
        return CachedEmbedder(name, caches[name])

    return make
