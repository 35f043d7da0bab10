"""Writing the recall snapshot of a store's indexes (the file format: snapshot.py).

    stale = await write_snapshot(idx)      # the indexes as they are, atomically

At the first open of a large store the write is split so the open does not wait
for it: `stream_vectors` streams the stored vectors into a new snapshot's float32
section and gives the vector index that section memory-mapped (float32 vectors are
never whole in memory), then the index is in use; `finish_deferred` writes the
rest (lexical arrays, the int8 codes, the footer), fsyncs and renames, in the
background. A crash before the rename leaves the old snapshot or none.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

import numpy as np

from .quantized import Codes, quantize, write_codes
from .snapshot import SnapshotWriter, snapshot_path
from .vectors import VectorIndex, _grown

if TYPE_CHECKING:
    from .indexes import RecallIndexes

log = logging.getLogger(__name__)
VECTOR_COUNT = "SELECT count(*) FROM vectors"  # sizes the codes array before the rows stream


@dataclass
class Deferred:
    """A snapshot whose float32 vectors are written, waiting for the rest."""

    writer: SnapshotWriter
    ids: list[str]  # the vector rows, in the float32 section's order
    m32: np.ndarray  # the float32 section, mapped from the temporary file
    codes: Codes  # their int8 codes (the index scans them)
    seq: int  # the watermark it describes
    fingerprint: list
    vectors: VectorIndex  # the index made from them


async def _fingerprint(idx: "RecallIndexes") -> Optional[list]:
    """The change_log row at the watermark (a snapshot of no history cannot be checked)."""
    row = await idx.store.fetchone("SELECT entry_id, at FROM change_log WHERE seq=?", (idx.watermark,))
    return None if idx.watermark <= 0 or row is None else [row[0], row[1]]


def lexical_arrays(idx: "RecallIndexes") -> dict[str, np.ndarray]:
    arrays = idx.lexical.to_arrays()
    ids = idx.lexical.ids()
    arrays["text_hash"] = np.fromiter((idx.hashes.get(i, 0) for i in ids), np.uint64, len(ids))
    return arrays


def _vectors_into(idx: "RecallIndexes", writer: SnapshotWriter) -> list[tuple[list[str], Codes]]:
    """The vector index's live rows into the writer's float32 section; (ids, int8 codes) per block."""
    assert idx.vectors is not None
    out = []
    idx._vector_changes_saved = idx.vectors.changes
    writer.begin("vec_f32", np.float32, (idx.vectors.dim,), cached=False)
    for ids, m32, codes, _ in idx.vectors.live_chunks():
        writer.write(m32)
        out.append((ids, codes))
    writer.end()
    idx.vectors.release_pages()
    return out


def _finish_vectors(idx: "RecallIndexes", writer: SnapshotWriter, chunks: list, dim: int) -> None:
    """The int8 code sections and each vector row's lexical slot."""
    write_codes(writer, [c for _, c in chunks], dim)
    slots = [idx.lexical.slots(ids) for ids, _ in chunks]
    writer.add("vec_slots", np.concatenate(slots) if slots else np.zeros(0, np.int64))


async def write_snapshot(idx: "RecallIndexes") -> None:
    """Write the snapshot of the indexes at the watermark, from memory."""
    fingerprint = await _fingerprint(idx)
    if fingerprint is None:
        return
    seq, model_id, path = idx.watermark, idx.embedder.model_id, snapshot_path(idx.store.path)
    # lexical.to_arrays may compact: runs under the index lock
    lex = await idx.locked(lambda: asyncio.to_thread(lexical_arrays, idx))
    try:
        with await asyncio.to_thread(SnapshotWriter, path) as writer:
            for name, array in lex.items():
                await asyncio.to_thread(writer.add, name, array)
            chunks = None
            if idx.vectors is not None:
                chunks = await idx.locked(lambda: asyncio.to_thread(_vectors_into, idx, writer))
                await asyncio.to_thread(_finish_vectors, idx, writer, chunks, idx.vectors.dim)
            meta = {"seq": seq, "fingerprint": fingerprint, "model_id": model_id if chunks is not None else None}
            await asyncio.to_thread(writer.finish, meta)
        _drop_legacy(path)
    except OSError as exc:
        log.warning("could not write recall snapshot %s: %s", path, exc)


def _drop_legacy(path) -> None:
    path.with_name(path.name.replace(".snap", ".npz")).unlink(missing_ok=True)  # the format-1 file


class _CodesFill:
    """The int8 codes of the streamed rows, made chunk by chunk as they arrive, while
    the lexical index builds (on the other core: the open waited ~2 s for them after
    the build at a million memories), into one array sized from the vectors table's
    count, so no join copies them beside the build's peak."""

    def __init__(self, rows: int, dim: int):
        self.buf = Codes(np.empty((rows, dim), np.int8), np.empty(rows, np.float32))
        self.n = 0

    def add(self, m32: np.ndarray) -> None:
        end = self.n + len(m32)
        if end > len(self.buf):  # rows committed after the count
            self.buf = Codes(_grown(self.buf.codes, end), _grown(self.buf.scale, end))
        quantize(m32, into=self.buf, at=self.n)
        self.n = end

    def codes(self) -> Codes:
        return Codes(self.buf.codes[: self.n], self.buf.scale[: self.n])


async def stream_vectors(idx: "RecallIndexes", building: "asyncio.Future[None]") -> Optional[int]:
    """Stream the stored vectors into a new snapshot while `building` (the lexical
    index) runs, then make the vector index from them (float32 memory-mapped, its
    int8 codes made from the file in memory); the rest is left for finish_deferred. Returns how many stored vectors
    could not be used (queued for re-embedding), or None if no snapshot could be
    started (the caller loads the vectors from the table). Returns after building."""
    fingerprint = await _fingerprint(idx)
    writer = None
    if fingerprint is not None:
        try:
            writer = await asyncio.to_thread(SnapshotWriter, snapshot_path(idx.store.path))
        except OSError as exc:
            log.warning("could not write recall snapshot %s: %s", snapshot_path(idx.store.path), exc)
    if writer is None:
        await building
        return None
    model_id, dim = idx.embedder.model_id, idx.embedder.dim
    stale: list[tuple[str, str]] = []
    ids: list[str] = []
    rows: dict[str, int] = {}  # the vector index's row of each id, filled as they stream
    (count,) = await idx.store.fetchone(VECTOR_COUNT)
    fill = _CodesFill(int(count), dim)

    def take(chunk_ids: list[str], matrix: np.ndarray) -> None:
        writer.write(matrix)
        rows.update(zip(chunk_ids, range(fill.n, fill.n + len(chunk_ids))))
        fill.add(matrix)

    taking: Optional[asyncio.Future[None]] = None  # one chunk written while the next is read
    try:
        writer.begin("vec_f32", np.float32, (dim,), cached=False)
        async for chunk_ids, matrix in idx._vector_chunks(model_id, dim, stale, indexed=False):
            if taking is not None:
                await taking
            taking = asyncio.ensure_future(asyncio.to_thread(take, chunk_ids, matrix))
            ids.extend(chunk_ids)
        if taking is not None:
            await taking
        writer.end()
        m32 = await asyncio.to_thread(writer.mapped, "vec_f32")
    except BaseException as exc:
        if taking is not None and not taking.done():
            await asyncio.wait([taking])  # the writer must not close under a write
        writer.__exit__(None, None, None)  # removes the temporary file
        if not isinstance(exc, OSError):
            raise
        log.warning("could not write recall snapshot %s: %s", writer.path, exc)
        await building
        return None
    try:
        await building
    except BaseException:
        writer.__exit__(None, None, None)
        raise
    lexical, codes = idx.lexical, fill.codes()

    def make_index() -> tuple[VectorIndex, list[str], list[str]]:
        """The index, its rows flagged from the lexical index (a million ids against a
        dict: in a thread; the rows' own dict was made as they streamed); with the ids
        not indexed and the indexed ids without a vector."""
        index = VectorIndex(dim, model_id)
        flags, unindexed, uncovered = lexical.flags_of(ids)
        index.set_base(ids, m32, codes, flags, rows)
        for entry_id in unindexed:  # vectors of working memories or of entries gone: not recalled
            index.remove(entry_id)
        return index, unindexed, uncovered

    index, unindexed, uncovered = await idx.locked(lambda: asyncio.to_thread(make_index))
    async with idx.lock:
        idx.vectors, idx.vectors_deferred = index, False
    if unindexed:  # the snapshot has no place for them: the next save writes one whole
        writer.__exit__(None, None, None)
        idx.changes_since_snapshot += 1
    else:
        idx.deferred = Deferred(writer, ids, m32, codes, idx.watermark, fingerprint, index)
        idx._vector_changes_saved = index.changes
    await idx._after_vectors_loaded([s for s in stale if s[0] in lexical], uncovered)
    return len(stale)


async def finish_deferred(idx: "RecallIndexes") -> None:
    """Write the rest of the snapshot stream_vectors began and rename it into place. If
    the indexes moved on meanwhile it is dropped, and the next save writes one whole."""
    d, idx.deferred = idx.deferred, None
    if d is None:
        return
    t = time.perf_counter()
    async with idx.snapshot_lock:
        with d.writer as writer:  # removes the temporary file unless finished
            async with idx.sync_lock:  # the arrays and the watermark: one moment
                if idx.watermark != d.seq or idx.vectors is not d.vectors:
                    idx.changes_since_snapshot += 1
                    return

                def capture():
                    return lexical_arrays(idx), idx.lexical.slots(d.ids)

                lex, slots = await idx.locked(lambda: asyncio.to_thread(capture))
            try:
                for name, array in lex.items():
                    await asyncio.to_thread(writer.add, name, array)
                await asyncio.to_thread(write_codes, writer, [d.codes], d.vectors.dim)
                await asyncio.to_thread(writer.add, "vec_slots", slots)
                meta = {"seq": d.seq, "fingerprint": d.fingerprint, "model_id": d.vectors.model_id}
                await asyncio.to_thread(writer.finish, meta)
                if isinstance(d.m32, np.memmap):  # renamed: the same file under its new name
                    d.m32.filename = str(writer.path)
                _drop_legacy(writer.path)
            except OSError as exc:
                log.warning("could not write recall snapshot %s: %s", writer.path, exc)
                idx.changes_since_snapshot += 1
                return
    idx.snapshot_write_s = round(time.perf_counter() - t, 4)
