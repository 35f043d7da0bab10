"""The memory vector index: one unit vector per memory, exact top-k.

Persistence is the `vectors` table (entry_id, model_id, dim, vector BLOB of
float32); in memory the vectors are rows of one contiguous float32 matrix (removal
swaps the last row into the hole, so the live rows stay contiguous).

Scan backend, chosen by measurement on this machine (2 cores, 100k x 384):
numpy float32 mat-vec ~6.3 ms alone, torch float16 mv ~3.3 ms, torch float32 mv
~16 ms. But numpy's BLAS threads and torch's OpenMP threads (which the query
embedding just used) spin-wait against each other on 2 cores: alternating one
query embedding with one numpy scan took 33 ms against 12 ms with the torch
float16 scan. So whenever torch is loaded (always, when a query vector exists) the
index scans a float16 mirror with torch to shortlist `k + SHORTLIST_MARGIN` rows
and re-scores those exactly in float32 (einsum, no BLAS threads): the scores
returned are exact float32 cosines, and the ranking differs from a full float32
scan only if float16 rounding (~1e-3) pushes a true top-k row below more than the
margin of rows. Without torch (tests, a lexical-only process) it is plain numpy
float32.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

import numpy as np

from ..errors import RecallError
from .lexical import SUPERSEDED
from .topk import stable_top_k

TORCH_MIN_ROWS = 256  # below this a full numpy scan is trivially cheap
SHORTLIST_MARGIN = 64


class VectorDimensionError(RecallError, ValueError):
    """A vector whose length does not match the index's model dimension."""


@dataclass
class VectorHits:
    ids: list[str]
    scores: np.ndarray  # exact float32 cosine similarities, best first

    def __len__(self) -> int:
        return len(self.ids)


class VectorIndex:
    def __init__(self, dim: int, model_id: str = "", backend: str = "auto"):
        if dim <= 0:
            raise ValueError("dimension must be positive")
        if backend not in ("auto", "numpy", "torch16"):
            raise ValueError(f"unknown vector backend {backend!r}")
        self.dim = int(dim)
        self.model_id = model_id
        self.backend = backend
        self._m = np.zeros((16, self.dim), np.float32)
        self._flags = np.zeros(16, np.uint8)
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._n_flagged = 0
        self._m16: Optional[np.ndarray] = None  # float16 mirror for the torch backend

    # ---- bookkeeping ---------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, entry_id: str) -> bool:
        return entry_id in self._row

    def ids(self) -> list[str]:
        return list(self._ids)

    def matrix(self) -> np.ndarray:
        """A view of the live rows (do not modify)."""
        return self._m[: len(self._ids)]

    def get(self, entry_id: str) -> Optional[np.ndarray]:
        row = self._row.get(entry_id)
        return None if row is None else self._m[row].copy()

    def _check(self, vec: np.ndarray, entry_id: str) -> np.ndarray:
        vec = np.asarray(vec, np.float32).reshape(-1)
        if vec.shape[0] != self.dim:
            raise VectorDimensionError(
                f"vector for {entry_id!r} has {vec.shape[0]} dimensions; the index"
                f"{' for ' + self.model_id if self.model_id else ''} expects {self.dim}"
            )
        return vec

    def _writable(self) -> None:
        # add_many may adopt a read-only matrix (decoded straight from the stored
        # blobs, saving a copy at open); the first in-place change copies it
        if not self._m.flags.writeable:
            self._m = self._m.copy()

    def _reserve(self, n: int) -> None:
        if n > len(self._m):
            cap = max(n, 2 * len(self._m))
            m = np.zeros((cap, self.dim), np.float32)
            m[: len(self._ids)] = self._m[: len(self._ids)]
            self._m = m
            f = np.zeros(cap, np.uint8)
            f[: len(self._ids)] = self._flags[: len(self._ids)]
            self._flags = f
            if self._m16 is not None:
                m16 = np.zeros((cap, self.dim), np.float16)
                m16[: len(self._ids)] = self._m16[: len(self._ids)]
                self._m16 = m16

    def add(self, entry_id: str, vec: np.ndarray, flags: int = 0) -> None:
        """Insert or replace the vector of one memory."""
        vec = self._check(vec, entry_id)
        row = self._row.get(entry_id)
        if row is None:
            row = len(self._ids)
            self._reserve(row + 1)
            self._ids.append(entry_id)
            self._row[entry_id] = row
        else:
            self._n_flagged -= int(self._flags[row] != 0)
        self._writable()
        self._m[row] = vec
        self._flags[row] = flags
        self._n_flagged += int(flags != 0)
        if self._m16 is not None:
            self._m16[row] = vec

    def add_many(self, ids: Sequence[str], matrix: np.ndarray, flags: Optional[np.ndarray] = None) -> None:
        """Bulk insert; into an empty index the matrix is adopted, not copied."""
        matrix = np.asarray(matrix, np.float32)
        if matrix.ndim != 2 or (len(ids) and matrix.shape[1] != self.dim):
            got = matrix.shape[1] if matrix.ndim == 2 else matrix.shape
            raise VectorDimensionError(f"vectors have {got} dimensions; the index expects {self.dim}")
        if len(ids) != len(matrix):
            raise ValueError("ids and matrix rows differ in number")
        fresh = not self._ids and len(set(ids)) == len(ids)
        if not fresh:
            for i, entry_id in enumerate(ids):
                self.add(entry_id, matrix[i], 0 if flags is None else int(flags[i]))
            return
        if len(ids) >= len(self._m):
            self._m = matrix  # adopt without copying (see _writable)
            self._flags = np.zeros(len(ids), np.uint8)
        else:
            self._m[: len(ids)] = matrix
        self._ids = list(ids)
        self._row = {d: i for i, d in enumerate(self._ids)}
        if flags is not None:
            self._flags[: len(ids)] = flags
        self._n_flagged = int(np.count_nonzero(self._flags[: len(ids)]))
        if self._m16 is not None:
            self._m16[: len(ids)] = matrix

    def remove(self, entry_id: str) -> bool:
        row = self._row.pop(entry_id, None)
        if row is None:
            return False
        last = len(self._ids) - 1
        self._n_flagged -= int(self._flags[row] != 0)
        if row != last:
            self._writable()
            moved = self._ids[last]
            self._m[row] = self._m[last]
            self._flags[row] = self._flags[last]
            if self._m16 is not None:
                self._m16[row] = self._m16[last]
            self._ids[row] = moved
            self._row[moved] = row
        self._ids.pop()
        self._flags[last] = 0
        return True

    def set_flags(self, entry_id: str, flags: int) -> None:
        row = self._row.get(entry_id)
        if row is not None:
            self._n_flagged += int(flags != 0) - int(self._flags[row] != 0)
            self._flags[row] = flags

    # ---- search --------------------------------------------------------------------
    def _use_torch(self) -> bool:
        if self.backend == "numpy":
            return False
        if self.backend == "torch16":
            return True
        return len(self._ids) >= TORCH_MIN_ROWS and "torch" in sys.modules

    def search(self, query: np.ndarray, k: int, include_superseded: bool = False) -> VectorHits:
        """Top k rows by cosine (dot product of unit vectors), best first; ties by row order."""
        q = self._check(query, "the query")
        n = len(self._ids)
        if n == 0 or k <= 0:
            return VectorHits([], np.zeros(0, np.float32))
        excluded = None
        if not include_superseded and self._n_flagged:
            excluded = (self._flags[:n] & SUPERSEDED) != 0
        if self._use_torch():
            rows = self._shortlist_torch(q, k + SHORTLIST_MARGIN, excluded)
            scores = np.einsum("ij,j->i", self._m[rows], q)
        else:
            scores = np.einsum("ij,j->i", self._m[:n], q) if n < TORCH_MIN_ROWS else self._m[:n] @ q
            rows = np.arange(n)
            if excluded is not None:
                keep = ~excluded
                rows, scores = rows[keep], scores[keep]
        rows, scores = stable_top_k(rows, scores, k)
        return VectorHits([self._ids[r] for r in rows.tolist()], scores.astype(np.float32))

    def _shortlist_torch(self, q: np.ndarray, k: int, excluded: Optional[np.ndarray]) -> np.ndarray:
        import torch

        n = len(self._ids)
        if self._m16 is None:
            self._m16 = np.zeros((len(self._m), self.dim), np.float16)
            self._m16[:n] = self._m[:n]
        mat = torch.from_numpy(self._m16[:n])
        s = mat.mv(torch.from_numpy(q.astype(np.float16)))
        if excluded is not None:
            s[torch.from_numpy(excluded)] = float("-inf")
        k = min(k, n)
        top = torch.topk(s, k).indices.numpy()
        if excluded is not None:
            top = top[~excluded[top]]
        return top.astype(np.int64)


def decode_rows(rows: Iterable[tuple], model_id: str, dim: int):
    """Split (entry_id, model_id, dim, blob) rows into loadable ids + one matrix,
    and the rest with the reason each needs re-embedding."""
    good_ids: list[str] = []
    blobs: list[bytes] = []
    stale: list[tuple[str, str]] = []
    want = dim * 4
    for entry_id, stamp, row_dim, blob in rows:
        if stamp != model_id:
            stale.append((entry_id, f"model changed: stored {stamp}, active {model_id}"))
        elif row_dim != dim or len(blob) != want:
            stale.append((entry_id, f"wrong dimension: stored {len(blob) // 4} (dim column {row_dim}), expected {dim}"))
        else:
            good_ids.append(entry_id)
            blobs.append(blob)
    if blobs:
        matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dim)
    else:
        matrix = np.zeros((0, dim), np.float32)
    return good_ids, matrix, stale


def encode_vector(vec: np.ndarray) -> bytes:
    return np.ascontiguousarray(vec, dtype=np.float32).tobytes()


UPSERT_SQL = (
    "INSERT OR REPLACE INTO vectors(entry_id, model_id, dim, vector) "
    "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM entries WHERE id=?)"
)


async def write_vectors(store, ids: Sequence[str], matrix: np.ndarray, model_id: str) -> None:
    """Persist vectors (skipping entries deleted meanwhile) and clear them from the re-embed queue."""
    if not len(ids):
        return
    dim = matrix.shape[1]
    async with store.transaction() as conn:
        await conn.executemany(UPSERT_SQL, [(i, model_id, dim, encode_vector(matrix[j]), i) for j, i in enumerate(ids)])
        await conn.executemany("DELETE FROM reembed_queue WHERE entry_id=?", [(i,) for i in ids])


async def queue_reembed(store, items: Sequence[tuple[str, str]]) -> None:
    """Record entries whose stored vector cannot be used (reason per entry)."""
    if not items:
        return
    from ..models import to_iso, utcnow

    now = to_iso(utcnow())
    async with store.transaction() as conn:
        await conn.executemany(
            "INSERT OR IGNORE INTO reembed_queue(entry_id, reason, queued_at) "
            "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM entries WHERE id=?)",
            [(i, reason, now, i) for i, reason in items],
        )
