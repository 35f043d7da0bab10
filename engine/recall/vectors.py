"""The memory vector index: one unit vector per memory, exact top-k.

Persistence is the `vectors` table (entry_id, model_id, dim, vector BLOB of
float32). In memory the rows are a base (bulk-loaded: arrays decoded from the
table, or read-only memory maps of the recall snapshot) and a delta appended to
since; a removed or replaced row is only marked dead, so neither a delete nor an
edit ever copies the base (1.5 GB of float32 at a million memories). The dead rows
and the delta are folded back into one base by `compact` when they grow large,
and whenever the snapshot is written.

Search, chosen by measurement on this machine (2 cores, a million rows x 384):
every row also has int8 codes (quantized.py); a scan over them (384 MB read, no BLAS
or OpenMP team to spin against the query embedding's; split into stripes on threads:
36 ms on one thread, 20 ms on two on this host) shortlists `k + SHORTLIST_MARGIN`
rows, which are re-scored exactly in float32 (einsum, touching only those rows). The
scores returned are exact float32 cosines; the ranking differs from a full float32
scan only if int8 rounding (~1e-3) pushes a true top-k row below more than the margin
of rows (the recall benchmark reports recall@10 against the exact scan). `search(exact=True)` (memory.vectorSearch =
"exact") is the full float32 scan, as is any index under QUANTIZED_MIN_ROWS rows.
The replaced torch float16 scan read twice the bytes (36 ms at a million rows) and
kept a 768 MB float16 copy; the codes cost 388 MB and are kept in the snapshot, so a
reopened index scans them mapped and touches only the shortlisted float32 rows.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

import numpy as np

from ..errors import RecallError
from .lexical import SUPERSEDED
from .quantized import Codes, best_rows, join, quantize, query_codes
from .snapshot import gather_rows, release_pages
from .topk import stable_top_k

QUANTIZED_MIN_ROWS = 256  # below this the exact float32 scan is trivially cheap
SHORTLIST_MARGIN = 64
ADD_CHUNK = 500  # rows add_off_loop writes between yields to the loop


class VectorDimensionError(RecallError, ValueError):
    """A vector whose length does not match the index's model dimension."""


@dataclass
class VectorHits:
    ids: list[str]
    scores: np.ndarray  # exact float32 cosine similarities, best first

    def __len__(self) -> int:
        return len(self.ids)


class VectorIndex:
    def __init__(self, dim: int, model_id: str = ""):
        if dim <= 0:
            raise ValueError("dimension must be positive")
        self.dim = int(dim)
        self.model_id = model_id
        self._b32 = np.zeros((0, self.dim), np.float32)  # base rows (may be read-only maps)
        self._bq = quantize(self._b32)  # their int8 codes (may be read-only maps)
        self._d32 = np.zeros((16, self.dim), np.float32)  # delta rows, appended
        self._dq = quantize(self._d32)  # their codes, made as each row is added
        self._nd = 0
        self._ids: list[Optional[str]] = []  # per row (base, then delta); None: dead
        self._row: dict[str, int] = {}
        self._flags = np.zeros(16, np.uint8)  # per row
        self._dead = np.zeros(16, bool)  # per row
        self._n_dead = 0
        self._n_flagged = 0
        self.changes = 0  # counts adds and removes: whether a saved snapshot is behind

    # ---- bookkeeping ---------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._row)

    def __contains__(self, entry_id: str) -> bool:
        return entry_id in self._row

    def missing(self, ids: Iterable[str]) -> list[str]:
        """The ids without a vector here, in order (one dict probe each, not a method
        call: a first open walks a million)."""
        row = self._row
        return [i for i in ids if i not in row]

    @property
    def _nb(self) -> int:
        return len(self._b32)

    def ids(self) -> list[str]:
        return [d for d in self._ids if d is not None]

    def _vec(self, row: int) -> np.ndarray:
        return self._b32[row] if row < self._nb else self._d32[row - self._nb]

    def _rows32(self, rows: np.ndarray) -> np.ndarray:
        """The float32 rows at these indexes (a fancy-index copy: only they are read)."""
        nb = self._nb
        if len(rows) and rows.max() < nb:
            return gather_rows(self._b32, rows)
        out = np.empty((len(rows), self.dim), np.float32)
        inb = rows < nb
        out[inb] = gather_rows(self._b32, rows[inb])
        out[~inb] = self._d32[rows[~inb] - nb]
        return out

    def _codes(self, rows: np.ndarray) -> Codes:
        """The int8 codes of the rows at these indexes."""
        inb = rows < self._nb
        return join([self._bq.take(rows[inb]), self._dq.take(rows[~inb] - self._nb)], self.dim)

    def live_chunks(self, size: int = 65_536):
        """(ids, float32 rows, their Codes, flags) of the live rows in blocks, in ids()
        order: what the snapshot writes, without materialising the whole matrix."""
        n = len(self._ids)
        for a in range(0, n, size):
            rows = np.arange(a, min(n, a + size))
            rows = rows[~self._dead[rows]]
            yield [self._ids[r] for r in rows.tolist()], self._rows32(rows), self._codes(rows), self._flags[rows]

    def release_pages(self) -> None:
        """Drop the mapped base's pages from the resident set after a full pass over it."""
        release_pages(self._b32)

    def matrix(self) -> np.ndarray:
        """The live rows in ids() order (the base itself when nothing was added or removed)."""
        n = len(self._ids)
        if self._nd == 0 and self._n_dead == 0:
            return self._b32
        return self._rows32(np.flatnonzero(~self._dead[:n]))

    def get(self, entry_id: str) -> Optional[np.ndarray]:
        row = self._row.get(entry_id)
        return None if row is None else np.array(self._vec(row), np.float32)

    def _check(self, vec: np.ndarray, entry_id: str) -> np.ndarray:
        vec = np.asarray(vec, np.float32).reshape(-1)
        if vec.shape[0] != self.dim:
            raise VectorDimensionError(
                f"vector for {entry_id!r} has {vec.shape[0]} dimensions; the index"
                f"{' for ' + self.model_id if self.model_id else ''} expects {self.dim}"
            )
        return vec

    def add(self, entry_id: str, vec: np.ndarray, flags: int = 0, compact: bool = True) -> None:
        """Insert or replace the vector of one memory (a replaced row is marked dead).
        compact=False leaves a due compaction to the caller (`compact_due`, `compacted`:
        off the event loop, see `add_off_loop`)."""
        vec = self._check(vec, entry_id)
        self.remove(entry_id)
        self.adopt(self.room(1))
        self._d32[self._nd] = vec
        row_codes = quantize(vec[None, :])
        self._dq.codes[self._nd], self._dq.scale[self._nd] = row_codes.codes[0], row_codes.scale[0]
        self._nd += 1
        row = len(self._ids)
        self._ids.append(entry_id)
        self._row[entry_id] = row
        self._flags[row] = flags
        self._n_flagged += int(flags != 0)
        self.changes += 1
        if compact:
            self._maybe_compact()

    def room(self, extra: int) -> Optional[dict[str, object]]:
        """The delta and per-row arrays grown to take `extra` more adds without a copy
        (None if they already can): the copies are the whole delta (tens of MB once it
        holds tens of thousands of rows), so callers on an event loop make them in a
        thread and `adopt` the result under the index lock."""
        need_d, need_rows = self._nd + extra, len(self._ids) + extra
        if need_d <= len(self._d32) and need_rows <= len(self._flags):
            return None
        return {
            "_d32": _grown(self._d32, need_d),
            "_dq": Codes(_grown(self._dq.codes, need_d), _grown(self._dq.scale, need_d)),
            "_flags": _grown(self._flags, need_rows),
            "_dead": _grown(self._dead, need_rows),
        }

    def compact_due(self) -> bool:
        return self._nd + self._n_dead > max(50_000, self._nb // 4)

    def compacted(self) -> dict[str, object]:
        """What `compact` would leave (the state's arrays, built without touching this
        index): for `adopt`, so the copy can be made in a thread."""
        n = len(self._ids)
        rows = np.flatnonzero(~self._dead[:n])
        new = VectorIndex(self.dim, self.model_id)
        new.set_base([self._ids[r] for r in rows.tolist()], self._rows32(rows), self._codes(rows), self._flags[rows].copy())
        state = dict(new.__dict__)
        state.pop("changes")
        return state

    def adopt(self, state: Optional[dict[str, object]]) -> None:
        """Take the arrays `room` or `compacted` prepared (nothing changed the index since)."""
        if state:
            self.__dict__.update(state)

    def add_many(self, ids: Sequence[str], matrix: np.ndarray, flags: Optional[np.ndarray] = None) -> None:
        """Bulk insert; into an empty index the matrix becomes the base (adopted, not copied)."""
        matrix = np.asarray(matrix, np.float32)
        if matrix.ndim != 2 or (len(ids) and matrix.shape[1] != self.dim):
            got = matrix.shape[1] if matrix.ndim == 2 else matrix.shape
            raise VectorDimensionError(f"vectors have {got} dimensions; the index expects {self.dim}")
        if len(ids) != len(matrix):
            raise ValueError("ids and matrix rows differ in number")
        if self._ids or len(set(ids)) != len(ids):
            for i, entry_id in enumerate(ids):
                self.add(entry_id, matrix[i], 0 if flags is None else int(flags[i]))
            return
        self.set_base(list(ids), matrix, None, flags)

    def set_base(
        self,
        ids: list[str],
        m32: np.ndarray,
        codes: Optional[Codes],
        flags: Optional[np.ndarray],
        rows: Optional[dict[str, int]] = None,
    ) -> None:
        """Replace everything with these rows (arrays adopted as they are: they may be
        read-only memory maps); codes, if given, are their int8 codes, else made here;
        rows, if given, is each id's position in ids (adopted: a caller that made it
        piece by piece spares the dict of a million ids here)."""
        n = len(ids)
        if codes is None:
            codes = quantize(m32)
            release_pages(m32)
        self._b32, self._bq = m32, codes
        self._d32 = np.zeros((16, self.dim), np.float32)
        self._dq, self._nd = quantize(self._d32), 0
        self._ids = list(ids)
        self._row = dict(zip(self._ids, range(n))) if rows is None else rows
        self._flags = np.zeros(max(16, n), np.uint8)
        if flags is not None:
            self._flags[:n] = flags
        self._dead = np.zeros(max(16, n), bool)
        self._n_dead = 0
        self._n_flagged = int(np.count_nonzero(self._flags[:n]))

    def remove(self, entry_id: str) -> bool:
        row = self._row.pop(entry_id, None)
        if row is None:
            return False
        self._n_flagged -= int(self._flags[row] != 0)
        self._flags[row] = 0
        self._dead[row] = True
        self._ids[row] = None
        self._n_dead += 1
        self.changes += 1
        return True

    def set_flags(self, entry_id: str, flags: int) -> None:
        row = self._row.get(entry_id)
        if row is not None:
            self._n_flagged += int(flags != 0) - int(self._flags[row] != 0)
            self._flags[row] = flags

    def _maybe_compact(self) -> None:
        if self.compact_due():
            self.compact()

    def compact(self) -> None:
        """Fold the delta into a new base (in memory) and drop the dead rows."""
        self.adopt(self.compacted())

    # ---- search --------------------------------------------------------------------
    def search(self, query: np.ndarray, k: int, include_superseded: bool = False, exact: bool = False) -> VectorHits:
        """Top k rows by cosine (dot product of unit vectors), best first; ties by row
        order, which is the `vectors` table's rowid order (rows are only appended).
        exact: a full float32 scan instead of the int8 shortlist."""
        q = self._check(query, "the query")
        n = len(self._ids)
        if not self._row or k <= 0:
            return VectorHits([], np.zeros(0, np.float32))
        excluded = self._dead[:n] if self._n_dead else None
        if not include_superseded and self._n_flagged:
            sup = (self._flags[:n] & SUPERSEDED) != 0
            excluded = sup if excluded is None else excluded | sup
        if exact or n < QUANTIZED_MIN_ROWS:
            parts = [self._b32 @ q if self._nb >= QUANTIZED_MIN_ROWS else np.einsum("ij,j->i", self._b32, q)]
            if self._nd:
                parts.append(np.einsum("ij,j->i", self._d32[: self._nd], q))
            scores = np.concatenate(parts) if len(parts) > 1 else parts[0]
            rows = np.arange(n)
            if excluded is not None:
                keep = ~excluded
                rows, scores = rows[keep], scores[keep]
        else:
            rows = self._shortlist(q, k + SHORTLIST_MARGIN, excluded)
            scores = np.einsum("ij,j->i", self._rows32(rows), q)
        rows, scores = stable_top_k(rows, scores, k)
        return VectorHits([self._ids[r] for r in rows.tolist()], scores.astype(np.float32))

    def _shortlist(self, q: np.ndarray, k: int, excluded: Optional[np.ndarray]) -> np.ndarray:
        """The k rows with the best int8 scores (live ones only)."""
        parts = [self._bq] + ([Codes(self._dq.codes[: self._nd], self._dq.scale[: self._nd])] if self._nd else [])
        return best_rows(parts, query_codes(q), k, excluded).astype(np.int64)


async def add_off_loop(index: VectorIndex, items: Sequence[tuple[str, np.ndarray, int]]) -> None:
    """Add (id, vector, flags) rows from an event loop, the caller holding the index lock:
    the array copies (growing the delta, a due compaction) run in a thread, so the loop
    only writes rows. The index ends as a run of `add` would leave it."""
    if not items:
        return
    index.adopt(await asyncio.to_thread(index.room, len(items)))
    for n, (entry_id, vec, flags) in enumerate(items, 1):
        index.add(entry_id, vec, flags, compact=False)
        if index.compact_due():
            index.adopt(await asyncio.to_thread(index.compacted))
            index.adopt(await asyncio.to_thread(index.room, len(items) - n))
        elif n % ADD_CHUNK == 0:
            await asyncio.sleep(0)


def _grown(arr: np.ndarray, need: int) -> np.ndarray:
    """arr, or a copy with room for at least need rows (zeros after the old ones)."""
    if need <= len(arr):
        return arr
    new = np.zeros((max(need, 2 * len(arr), 16), *arr.shape[1:]), arr.dtype)
    new[: len(arr)] = arr
    return new


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
