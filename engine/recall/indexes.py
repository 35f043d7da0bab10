"""The recall indexes of one store (BM25 and vectors), loaded and kept in step with it.

    idx = RecallIndexes(store, embedder, backfill)
    report = await idx.open(use_snapshot=True, snapshot_min=20_000)
    await idx.sync()              # apply change_log rows past the watermark
    await idx.save_snapshot()     # `<db>.recall.npz`, if the index changed

The indexes hold derived data only. Vectors come from the `vectors` table, stamped
with the active model; entries without a usable vector go to the backfill. The
watermark is the change_log position the indexes reflect; a sync replays the rows
after it, and a gap (pruned rows) or a large burst rebuilds from `entries`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np

from ..models import MemoryTier
from ..store import Store
from . import embedder as emb
from .embedder import Embedder, EmbeddingModelError
from .lexical import SUPERSEDED, LexicalIndex
from .snapshot import read_snapshot, snapshot_arrays, snapshot_path, write_snapshot
from .tokenize import entry_text, index_tokens
from .vectors import VectorIndex, decode_rows, queue_reembed

if TYPE_CHECKING:
    from .backfill import Backfill

log = logging.getLogger(__name__)

REBUILD_FRACTION = 0.5  # a sync touching more than this share of the index rebuilds it
CHUNK = 500  # ids per `IN (...)` query


def text_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def _flags(superseded_by: Optional[str]) -> int:
    return SUPERSEDED if superseded_by else 0


@dataclass
class OpenReport:
    seconds: float
    source: str  # snapshot | rebuild
    entries: int
    vectors: int
    pending: int
    stale: int  # stored vectors not loaded (other model stamp / wrong dimension), queued
    replayed: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class RecallIndexes:
    """The lexical and vector indexes, their open, their sync and their snapshot.

    `lock` serialises index work (a search in a thread never overlaps a mutation);
    `sync_lock` keeps the watermark and the indexes describing the same moment."""

    def __init__(self, store: Store, embedder: Embedder, backfill: "Backfill"):
        self.store = store
        self.embedder = embedder  # replaced by the service when the model changes
        self.backfill = backfill
        self.lexical = LexicalIndex()
        self.vectors: Optional[VectorIndex] = None
        self.hashes: dict[str, int] = {}
        self.watermark = 0
        self.changes_since_snapshot = 0
        self.vectors_deferred = False
        self.lock = asyncio.Lock()
        self.sync_lock = asyncio.Lock()

    async def locked(self, make_future):
        """Run a thread job under the index lock, holding the lock until the job has
        really finished even if the caller is cancelled (search-as-you-type cancels a
        lot): a mutation must never overlap a search still running in its thread."""
        async with self.lock:
            fut = asyncio.ensure_future(make_future())
            try:
                return await asyncio.shield(fut)
            except asyncio.CancelledError:
                while not fut.done():
                    try:
                        await asyncio.wait([fut])
                    except asyncio.CancelledError:
                        continue
                raise

    async def max_seq(self) -> int:
        row = await self.store.fetchone("SELECT COALESCE(MAX(seq), 0) FROM change_log")
        return int(row[0])

    async def fetch_rows(self, ids: Sequence[str], columns: str) -> list[tuple]:
        out: list[tuple] = []
        ids = list(ids)
        for i in range(0, len(ids), CHUNK):
            chunk = ids[i : i + CHUNK]
            out.extend(
                await self.store.fetchall(f"SELECT {columns} FROM entries WHERE id IN ({','.join('?' * len(chunk))})", chunk)
            )
        return out

    def current(self, entry_id: str, text: str) -> bool:
        """Whether `text` is what the index holds for entry_id (a vector made from it may be kept)."""
        return self.hashes.get(entry_id) == text_hash(text) and entry_id in self.lexical

    # ---- open ----------------------------------------------------------------------
    async def open(self, use_snapshot: bool, snapshot_min: int) -> tuple[OpenReport, bool]:
        """Load the lexical index (from the snapshot if usable) and the stamped vectors,
        then replay what changed since. Returns the report and whether a snapshot is
        worth writing (the index was rebuilt and is large)."""
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        seq0 = await self.max_seq()
        source = "rebuild"
        t = time.perf_counter()
        loaded = await self._load_snapshot() if use_snapshot else None
        if loaded is not None:
            self.lexical, self.hashes, self.watermark = loaded
            source = "snapshot"
            timings["snapshot_s"] = time.perf_counter() - t
        else:
            await self.rebuild_lexical()
            self.watermark = seq0
            timings["lexical_build_s"] = time.perf_counter() - t
        t = time.perf_counter()
        stale = await self.load_vectors()
        timings["vectors_s"] = time.perf_counter() - t
        t = time.perf_counter()
        replayed = await self.sync()
        timings["sync_s"] = time.perf_counter() - t
        if source == "snapshot":
            row = await self.store.fetchone("SELECT count(*) FROM entries WHERE tier != 'working'")
            if int(row[0]) != len(self.lexical):
                log.warning("recall snapshot disagrees with the store (%s vs %s entries); rebuilding", len(self.lexical), row[0])
                self.watermark = await self.max_seq()
                await self.rebuild_lexical()
                stale = await self.load_vectors()
                source = "rebuild"
        report = OpenReport(
            seconds=time.perf_counter() - t0,
            source=source,
            entries=len(self.lexical),
            vectors=0 if self.vectors is None else len(self.vectors),
            pending=len(self.backfill),
            stale=stale,
            replayed=replayed,
            timings={k: round(v, 4) for k, v in timings.items()},
        )
        return report, source == "rebuild" and use_snapshot and len(self.lexical) >= snapshot_min

    async def rebuild_lexical(self) -> None:
        rows = await self.store.fetchall(
            "SELECT id, key, content, tags, superseded_by FROM entries WHERE tier != 'working' ORDER BY rowid"
        )

        def build():
            ids = [r[0] for r in rows]
            texts = [entry_text(r[1], r[2], json.loads(r[3])) for r in rows]
            flags = np.fromiter((_flags(r[4]) for r in rows), np.uint8, len(rows))
            hashes = {i: text_hash(t) for i, t in zip(ids, texts)}
            return LexicalIndex.build(ids, texts, flags), hashes

        self.lexical, self.hashes = await self.locked(lambda: asyncio.to_thread(build))

    async def load_vectors(self) -> int:
        """(Re)load stored vectors stamped with the active model; queue the others.
        Returns how many stored vectors could not be used."""
        model_id = self.embedder.model_id
        if model_id is None:
            # the dimension is unknown until the model loads (hub name): load vectors then
            self.vectors_deferred = self.embedder.status != emb.FAILED
            self.vectors = None
            self.backfill.reset(self.lexical.ids())
            return 0
        self.vectors_deferred = False
        dim = self.embedder.dim
        rows = await self.store.fetchall("SELECT entry_id, model_id, dim, vector FROM vectors")

        def decode():
            ids, matrix, stale = decode_rows(rows, model_id, dim)
            keep = [j for j, i in enumerate(ids) if i in self.lexical]
            if len(keep) != len(ids):
                ids = [ids[j] for j in keep]
                matrix = matrix[keep]
            flags = np.fromiter((self.lexical.flags(i) or 0 for i in ids), np.uint8, len(ids))
            index = VectorIndex(dim, model_id)
            index.add_many(ids, matrix, flags)
            return index, [s for s in stale if s[0] in self.lexical]

        self.vectors, stale = await self.locked(lambda: asyncio.to_thread(decode))
        have = self.vectors
        self.backfill.reset(i for i in self.lexical.ids() if i not in have)
        if stale and not self.store.read_only:
            await queue_reembed(self.store, stale)
        return len(stale)

    async def ensure_vector_index(self) -> None:
        if self.vectors is None or self.vectors_deferred:
            if self.embedder.model_id is None:
                raise EmbeddingModelError(self.embedder.message or "embedding model not loaded")
            await self.load_vectors()

    # ---- snapshot ------------------------------------------------------------------
    async def _load_snapshot(self):
        path = snapshot_path(self.store.path)
        loaded = await asyncio.to_thread(read_snapshot, path)
        if loaded is None:
            return None
        meta, lexical, hashes = loaded
        seq = int(meta.get("seq", 0))
        if seq <= 0:
            return None
        row = await self.store.fetchone("SELECT entry_id, at FROM change_log WHERE seq=?", (seq,))
        if row is None or [row[0], row[1]] != meta.get("fingerprint"):
            log.info("recall snapshot %s belongs to another history of this store; rebuilding", path)
            return None
        return lexical, hashes, seq

    async def save_snapshot(self):
        """Write `<db>.recall.npz` (atomically) if the index changed since the last one."""
        if self.store.read_only or not self.changes_since_snapshot:
            return None
        async with self.sync_lock:  # the watermark and the index must describe the same moment
            seq = self.watermark
            if seq <= 0:
                return None
            row = await self.store.fetchone("SELECT entry_id, at FROM change_log WHERE seq=?", (seq,))
            if row is None:
                return None
            # to_arrays may compact: runs under the index lock
            arrays = await self.locked(lambda: asyncio.to_thread(snapshot_arrays, self.lexical, self.hashes))
            self.changes_since_snapshot = 0
        return await asyncio.to_thread(write_snapshot, snapshot_path(self.store.path), arrays, seq, [row[0], row[1]])

    # ---- keeping up with the store -------------------------------------------------
    async def sync(self) -> int:
        """Apply change_log rows past the watermark; returns how many entries changed."""
        async with self.sync_lock:
            return await self._sync()

    async def _reload(self, top: int, changed: int) -> int:
        self.watermark = top
        await self.rebuild_lexical()
        await self.load_vectors()
        self.changes_since_snapshot += changed
        return changed

    async def _sync(self) -> int:
        if self.watermark < await self.store.change_log_floor():
            # Rows this index never saw were pruned: it cannot replay, so it reloads.
            await self._reload(await self.max_seq(), 1)
            return len(self.lexical)
        rows = await self.store.fetchall("SELECT seq, entry_id, op FROM change_log WHERE seq > ? ORDER BY seq", (self.watermark,))
        if not rows:
            return 0
        top = rows[-1][0]
        # an 'access' row (recall reinforcement) changes neither text, tier nor supersession
        ids = list(dict.fromkeys(r[1] for r in rows if r[2] != "access"))
        if not ids:
            self.watermark = top
            return 0
        if len(ids) > max(10_000, REBUILD_FRACTION * len(self.lexical)):
            return await self._reload(top, len(ids))
        current = {r[0]: r for r in await self.fetch_rows(ids, "id, tier, key, content, tags, superseded_by")}
        need_vector: list[str] = []
        async with self.lock:
            for entry_id in ids:
                if self._apply(entry_id, current.get(entry_id)):
                    need_vector.append(entry_id)
            self.watermark = top
        self.changes_since_snapshot += len(ids)
        if need_vector:
            await self._adopt_stored_vectors(need_vector)
        return len(ids)

    def _apply(self, entry_id: str, row: Optional[tuple]) -> bool:
        """Bring one entry's index state to its current row (None: gone); returns whether
        it is new to the index (another process may have stored its vector)."""
        if row is None or row[1] == MemoryTier.WORKING.value:
            self.lexical.remove(entry_id)
            if self.vectors is not None:
                self.vectors.remove(entry_id)
            self.hashes.pop(entry_id, None)
            self.backfill.discard(entry_id)
            return False
        text = entry_text(row[2], row[3], json.loads(row[4]))
        h = text_hash(text)
        flags = _flags(row[5])
        old = self.hashes.get(entry_id)
        if old == h and entry_id in self.lexical:
            self.lexical.set_flags(entry_id, flags)
            if self.vectors is not None:
                self.vectors.set_flags(entry_id, flags)
            return False
        self.lexical.add(entry_id, index_tokens(text), flags)
        self.hashes[entry_id] = h
        # the text changed: a vector in the index describes the old text
        dropped = self.vectors is not None and self.vectors.remove(entry_id)
        self.backfill.add(entry_id)
        return old is None and not dropped

    async def _adopt_stored_vectors(self, ids: Sequence[str]) -> None:
        """Use vectors already stored for newly seen entries; queue the rest for embedding."""
        model_id = self.embedder.model_id
        found: dict[str, np.ndarray] = {}
        if model_id is not None and self.vectors is not None:
            for i in range(0, len(ids), CHUNK):
                chunk = list(ids[i : i + CHUNK])
                rows = await self.store.fetchall(
                    f"SELECT entry_id, model_id, dim, vector FROM vectors WHERE entry_id IN ({','.join('?' * len(chunk))})",
                    chunk,
                )
                good, matrix, _ = decode_rows(rows, model_id, self.embedder.dim)
                found.update({g: matrix[j] for j, g in enumerate(good)})
        async with self.lock:
            for entry_id in ids:
                if entry_id not in self.lexical:
                    continue
                if entry_id in found and self.vectors is not None:
                    self.vectors.add(entry_id, found[entry_id], self.lexical.flags(entry_id) or 0)
                    self.backfill.discard(entry_id)
                else:
                    self.backfill.add(entry_id)
