"""Int8 codes of the memory vectors: the coarse scan that shortlists rows for exact
float32 rescoring (see VectorIndex.search).

Each row is stored as int8 codes with its own scale (row ~= codes * scale, scale =
max |component| / 127), a quarter of the float32 bytes. A scan over them is bound by
memory bandwidth: at a million rows x 384 it reads 384 MB where the float16 scan it
replaces read 768 MB. numkong's int8 dot kernel (AVX-512 VNNI here, runtime
dispatched) measured 14 ms single-threaded against 36 ms for torch's float16 `mv` on
the machine it was chosen on, and it starts no thread team of its own. On a host
with less memory bandwidth per core one thread took 36 ms, so the scan is split
into stripes on a small thread pool (`best_rows`).

The shortlist is exact-ish: a row's coarse score is off by about 1e-3 (rounding
of its codes and of the query's), so a true top-k row is only lost if more than
the shortlist margin of rows crowd within that distance of it; the recall
benchmark measures recall@10 against the exact scan.
"""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Optional

import numkong
import numpy as np

from .snapshot import gather_rows

LEVELS = 127.0
SCAN_STRIPES = max(1, int(os.environ.get("ECHO_MEMORY_SCAN_STRIPES", str(min(os.cpu_count() or 1, 4)))))
"""Threads one coarse scan is split across. numkong releases the GIL, and one thread
does not saturate memory: at a million rows on this 2-core machine the dot took 36 ms
on one thread and 20 ms on two."""
STRIPE_MIN_ROWS = 131_072  # a smaller scan is not worth a thread hand-off
CODES, SCALES = "vec_i8", "vec_i8_scale"  # their arrays in the recall snapshot (beside vec_f32)

log = logging.getLogger(__name__)


@dataclass
class Codes:
    """int8 rows and their per-row float32 scales (arrays may be read-only maps)."""

    codes: np.ndarray  # (n, dim) int8
    scale: np.ndarray  # (n,) float32

    def __len__(self) -> int:
        return len(self.codes)

    def take(self, rows: np.ndarray) -> "Codes":
        return Codes(self.codes[rows], self.scale[rows])


def quantize(matrix: np.ndarray, block: int = 65_536, into: Optional[Codes] = None, at: int = 0) -> Codes:
    """The int8 codes of float32 rows (an all-zero row gets scale 0), a block at a
    time through one scratch block: no float temporary the size of a million-row
    matrix, and no fresh one per block (a first open quantizes a million rows while
    the index builds; each new temporary was pages the kernel had to zero). into:
    write them there from row `at` instead of into new arrays."""
    n, dim = matrix.shape
    out = into if into is not None else Codes(np.empty((n, dim), np.int8), np.empty(n, np.float32))
    scratch = np.empty((min(block, n), dim), np.float32)
    for a in range(0, n, block):
        m = np.asarray(matrix[a : a + block], np.float32)
        work = scratch[: len(m)]
        np.abs(m, out=work)
        scale = (work.max(axis=1) / LEVELS).astype(np.float32)
        inv = np.divide(1.0, scale, out=np.zeros_like(scale), where=scale > 0)
        np.multiply(m, inv[:, None], out=work)
        np.rint(work, out=work)
        out.codes[at + a : at + a + len(m)] = work
        out.scale[at + a : at + a + len(m)] = scale
    return out


def agrees(codes: Codes, matrix: np.ndarray, sample: int = 256) -> bool:
    """Whether stored codes are those of these float32 rows, checked on a spread of
    rows (quantizing is deterministic): codes from another matrix or a damaged file
    would shortlist the wrong rows."""
    if codes.codes.shape != matrix.shape or codes.scale.shape != (len(matrix),):
        return False
    if not len(matrix):
        return True
    rows = np.unique(np.linspace(0, len(matrix) - 1, min(sample, len(matrix))).astype(np.int64))
    want = quantize(gather_rows(matrix, rows))  # a fancy index on a map would fault in whole folios
    return bool(np.array_equal(want.codes, codes.codes[rows]) and np.array_equal(want.scale, codes.scale[rows]))


def join(parts: list[Codes], dim: int) -> Codes:
    if not parts:
        return Codes(np.zeros((0, dim), np.int8), np.zeros(0, np.float32))
    return Codes(np.concatenate([p.codes for p in parts]), np.concatenate([p.scale for p in parts]))


def query_codes(query: np.ndarray) -> np.ndarray:
    """The query's int8 codes (its own scale is left out: it does not change the order)."""
    amax = float(np.abs(query).max())
    return np.rint(query * (LEVELS / amax if amax > 0 else 0.0)).astype(np.int8)


def coarse_scores(codes: Codes, q8: np.ndarray) -> np.ndarray:
    """Approximate cosines of every row with the query, up to one positive factor."""
    if not len(codes):
        return np.zeros(0, np.float32)
    return np.asarray(numkong.dot(q8, codes.codes)).reshape(-1) * codes.scale


_stripe_pool: Optional[ThreadPoolExecutor] = None
_pool_lock = threading.Lock()


def best_rows(parts: list[Codes], q8: np.ndarray, k: int, excluded: Optional[np.ndarray]) -> np.ndarray:
    """Indexes of the (at most) k rows with the best coarse scores, rows numbered
    through the parts in order, leaving out rows where `excluded` is set. A large
    scan runs in stripes on threads, each keeping its own k best."""
    stripes, offset = [], 0
    for codes in parts:
        n = len(codes)
        cuts = np.linspace(0, n, SCAN_STRIPES + 1 if n >= STRIPE_MIN_ROWS else 2).astype(np.int64)
        stripes += [(codes, offset, int(a), int(z)) for a, z in zip(cuts[:-1], cuts[1:]) if z > a]
        offset += n
    if not stripes:
        return np.zeros(0, np.int64)

    def scan(stripe) -> tuple[np.ndarray, np.ndarray]:
        codes, offset, a, z = stripe
        s = coarse_scores(Codes(codes.codes[a:z], codes.scale[a:z]), q8)
        if excluded is not None:
            s[excluded[offset + a : offset + z]] = -np.inf
        top = _k_largest(s, k)
        return top + (offset + a), s[top]

    found = [scan(stripes[0])] if len(stripes) == 1 else list(_pool().map(scan, stripes))
    rows = np.concatenate([r for r, _ in found])
    scores = np.concatenate([s for _, s in found])
    top = _k_largest(scores, k)
    rows, scores = rows[top], scores[top]
    return rows[scores > -np.inf]


def _k_largest(s: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k largest values (all of them when there are fewer), unordered."""
    if len(s) <= k:
        return np.arange(len(s))
    return np.argpartition(s, len(s) - k)[len(s) - k :]


def _pool() -> ThreadPoolExecutor:
    global _stripe_pool
    with _pool_lock:
        if _stripe_pool is None:
            _stripe_pool = ThreadPoolExecutor(SCAN_STRIPES, thread_name_prefix="vector-scan")
        return _stripe_pool


def write_codes(writer, parts: list[Codes], dim: int) -> None:
    """The codes into a SnapshotWriter, after its vec_f32 section."""
    writer.add_chunks(CODES, np.int8, (dim,), (p.codes for p in parts))
    writer.add_chunks(SCALES, np.float32, (), (p.scale for p in parts))


def snapshot_codes(snap) -> Optional[Codes]:
    """A Snapshot's codes of its vec_f32 rows, or None (VectorIndex then makes them from
    the float32 rows): when it has none (written before they existed) or they are not
    those rows' codes (damaged; logged)."""
    if CODES not in snap:
        return None
    codes = Codes(snap[CODES], snap[SCALES] if SCALES in snap else np.zeros(0, np.float32))
    if agrees(codes, snap["vec_f32"]):
        return codes
    log.warning("recall snapshot %s: its int8 vector codes do not match its vectors; re-quantizing them", snap.path)
    return None
