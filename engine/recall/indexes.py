"""The recall indexes of one store (BM25 and vectors), loaded and kept in step with it.

    idx = RecallIndexes(store, embedder, backfill)
    report = await idx.open(use_snapshot=True, snapshot_min=20_000)
    await idx.sync()              # apply change_log rows past the watermark
    await idx.save_snapshot()     # `<db>.recall.snap`, if the indexes changed

The indexes hold derived data only. Vectors come from the `vectors` table, stamped
with the active model; entries without a usable vector go to the backfill. The
watermark is the change_log position the indexes reflect; a sync replays the rows
after it, and a gap (pruned rows) or a large burst rebuilds from `entries`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np

from ..collector import collector_paused
from ..models import MemoryTier
from ..store import Store
from . import embedder as emb
from .embedder import Embedder, EmbeddingModelError
from .lexical import LexicalIndex
from .quantized import snapshot_codes
from .rebuild import entry_flags, rebuild_lexical, text_hash
from .snapshot import Snapshot, SnapshotError, read_snapshot, snapshot_path, verify
from .snapshot_save import Deferred, finish_deferred, stream_vectors, write_snapshot
from .tokenize import entry_text, index_tokens
from .vectors import VectorIndex, add_off_loop, decode_rows, queue_reembed

if TYPE_CHECKING:
    from .backfill import Backfill

log = logging.getLogger(__name__)

REBUILD_FRACTION = 0.5  # a sync touching more than this share of the index rebuilds it
CHUNK = APPLY_CHUNK = 500  # ids per `IN (...)` query; entries a sync re-tokenizes between yields to the loop
VECTOR_ROWS = 20_000  # stored vectors per chunk when loading


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
        self._vector_changes_saved = 0
        self.lock = asyncio.Lock()
        self.sync_lock = asyncio.Lock()
        self.snapshot_lock = asyncio.Lock()  # one snapshot write at a time
        self.deferred: Optional[Deferred] = None  # a first open's snapshot, half written
        self.unverified: Optional[Snapshot] = None  # read, its large arrays not yet checked
        self.snapshot_write_s: Optional[float] = None  # the last background write's time
        self.snapshot_verify_s: Optional[float] = None  # the last background check's time

    def release(self) -> None:
        """Forget the loaded indexes (at close): the next open loads them again."""
        self.lexical, self.vectors, self.hashes = LexicalIndex(), None, {}
        if self.deferred is not None:  # never finished: its temporary file goes
            self.deferred.writer.__exit__(None, None, None)
        self.deferred = self.unverified = None

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
    async def open(self, use_snapshot: bool, snapshot_min: int) -> OpenReport:
        """Load the indexes from the snapshot if it is usable, else rebuild them from the
        store (and, for a large store, begin the snapshot on the way: the vectors stream
        from the table into it and are mapped back, never held whole in float32; the
        caller finishes it in the background with finish_snapshot); then replay what
        changed since."""
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        t = time.perf_counter()
        snap = await self._load_snapshot() if use_snapshot else None
        if snap is None:
            with collector_paused():  # millions of rows and tokens, freed by refcount
                self.watermark = await self.max_seq()

                async def build(started: float = t):
                    await self.rebuild_lexical()
                    timings["lexical_build_s"] = time.perf_counter() - started

                building = asyncio.ensure_future(build())
                (indexable,) = await self.store.fetchone("SELECT count(*) FROM entries WHERE tier != 'working'")
                worth = use_snapshot and not self.store.read_only and indexable >= snapshot_min
                # the vectors stream into the snapshot while worker processes build the index
                streamed = await stream_vectors(self, building) if worth and self.embedder.model_id is not None else None
                await building
                if streamed is None:
                    self.changes_since_snapshot += 1  # the service writes one once it is worth it
                    t = time.perf_counter()
                    stale = await self.load_vectors()
                else:
                    stale = streamed  # vectors_s: from the start, overlapping the build
                source = "rebuild"
        else:
            source = "snapshot"
            timings["snapshot_s"] = time.perf_counter() - t
            self.lexical, self.hashes, self.watermark = snap[1], snap[2], snap[3]
            t = time.perf_counter()
            stale = await self._vectors_from_snapshot(snap[0])
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
                self.changes_since_snapshot += 1
                source = "rebuild"
        return OpenReport(
            seconds=time.perf_counter() - t0,
            source=source,
            entries=len(self.lexical),
            vectors=0 if self.vectors is None else len(self.vectors),
            pending=len(self.backfill),
            stale=stale,
            replayed=replayed,
            timings={k: round(v, 4) for k, v in timings.items()},
        )

    async def _vector_pages(self):
        """Rows of the vectors table in rowid order, VECTOR_ROWS at a time (keyset
        paging: a million rows are never all in memory as Python objects), each starting
        with its rowid; the next page is read while the caller works on this one (a
        first open's stream otherwise waited on each read in turn)."""
        sql = f"SELECT rowid, entry_id, model_id, dim, vector FROM vectors WHERE rowid > ? ORDER BY rowid LIMIT {VECTOR_ROWS}"
        ahead = asyncio.ensure_future(self.store.fetchall(sql, (0,)))
        try:
            while rows := await ahead:
                ahead = asyncio.ensure_future(self.store.fetchall(sql, (rows[-1][0],)))
                yield rows
        finally:
            ahead.cancel()

    async def rebuild_lexical(self) -> None:
        """Rebuild the lexical index (and the text hashes) from entries (see rebuild.py)."""
        lexical, hashes = await rebuild_lexical(self.store)
        async with self.lock:
            self.lexical, self.hashes = lexical, hashes

    async def _vector_chunks(self, model_id: str, dim: int, stale: list[tuple[str, str]], indexed: bool = True):
        """(ids, float32 matrix) of stored vectors of entries the lexical index holds,
        VECTOR_ROWS at a time; rows that cannot be used are appended to stale. With
        indexed=False, of every entry (the index is still being built: the caller filters)."""
        async for rows in self._vector_pages():
            # joining, decoding and filtering 20k rows (30 MB of float32): in a thread
            lexical = self.lexical if indexed else None  # the index as it is now, as on the loop
            ids, matrix, bad = await asyncio.to_thread(_decode_chunk, rows, model_id, dim, lexical)
            stale.extend(bad)
            yield ids, matrix

    async def load_vectors(self) -> int:
        """(Re)load stored vectors stamped with the active model into memory; queue the
        others. Returns how many stored vectors could not be used."""
        model_id = self.embedder.model_id
        if model_id is None:
            # the dimension is unknown until the model loads (hub name): load vectors then
            self.vectors_deferred = self.embedder.status != emb.FAILED
            self.vectors = None
            self.backfill.reset(self.lexical.ids())
            return 0
        self.vectors_deferred = False
        dim = self.embedder.dim
        stale: list[tuple[str, str]] = []
        ids: list[str] = []
        parts: list[np.ndarray] = []
        async for chunk_ids, matrix in self._vector_chunks(model_id, dim, stale):
            ids.extend(chunk_ids)
            parts.append(matrix)

        def assemble():
            index = VectorIndex(dim, model_id)
            matrix = np.concatenate(parts) if parts else np.zeros((0, dim), np.float32)
            flags = np.fromiter((self.lexical.flags(i) or 0 for i in ids), np.uint8, len(ids))
            index.add_many(ids, matrix, flags)
            return index

        self.vectors = await self.locked(lambda: asyncio.to_thread(assemble))
        self._vector_changes_saved = -1  # a snapshot never holds vectors loaded this way
        await self._after_vectors_loaded(stale)
        return len(stale)

    async def _after_vectors_loaded(self, stale: list[tuple[str, str]], missing: Optional[list[str]] = None) -> None:
        """Queue for the backfill the indexed entries without a vector (``missing``, in
        ``lexical.ids()`` order, when the caller already knows them), and the stale ones
        for re-embedding."""
        if missing is None:
            have = self.vectors
            # a walk of every indexed id (~0.3 s at 1M): in a thread, under the index lock
            missing = await self.locked(lambda: asyncio.to_thread(lambda: have.missing(self.lexical.ids())))
        self.backfill.reset(missing)
        if stale and not self.store.read_only:
            await queue_reembed(self.store, stale)

    async def ensure_vector_index(self) -> None:
        if self.vectors is None or self.vectors_deferred:
            if self.embedder.model_id is None:
                raise EmbeddingModelError(self.embedder.message or "embedding model not loaded")
            await self.load_vectors()

    # ---- snapshot ------------------------------------------------------------------
    async def _load_snapshot(self) -> Optional[tuple[Snapshot, LexicalIndex, dict[str, int], int]]:
        """The snapshot's indexes if it describes a moment of this store's history, else
        None (logged: the caller rebuilds)."""
        path = snapshot_path(self.store.path)

        def read():
            snap = read_snapshot(path)
            if snap is None:
                return None
            lexical = LexicalIndex.from_arrays(snap)
            hashes = snap["text_hash"]
            if len(hashes) != len(lexical):
                raise SnapshotError("text hashes and entries differ in number")
            return snap, lexical, dict(zip(lexical.ids(), hashes.tolist()))

        try:
            loaded = await asyncio.to_thread(read)
        except (SnapshotError, ValueError, KeyError, OSError) as exc:  # a cache: any problem means rebuild
            log.warning("recall snapshot %s is unusable (%s); rebuilding the index from the store", path, exc)
            return None
        if loaded is None:
            return None
        snap, lexical, hashes = loaded
        seq = int(snap.meta.get("seq", 0))
        row = await self.store.fetchone("SELECT entry_id, at FROM change_log WHERE seq=?", (seq,))
        if seq <= 0 or row is None or [row[0], row[1]] != snap.meta.get("fingerprint"):
            log.warning("recall snapshot %s belongs to another history of this store; rebuilding", path)
            return None
        return snap, lexical, hashes, seq

    async def _vectors_from_snapshot(self, snap: Snapshot) -> int:
        """Adopt the snapshot's vectors (memory-mapped) if they carry the active model's
        stamp, and pick up vectors stored since for entries still without one."""
        model_id, dim = self.embedder.model_id, self.embedder.dim
        if model_id is None or snap.meta.get("model_id") != model_id or "vec_f32" not in snap:
            return await self.load_vectors()
        self.vectors_deferred = False

        def adopt():
            slots = np.asarray(snap["vec_slots"], np.int64)
            lex_ids = self.lexical.ids()
            if len(slots) and (slots.max() >= len(lex_ids) or snap["vec_f32"].shape[1] != dim):
                raise SnapshotError("vector rows do not fit the index")
            index = VectorIndex(dim, model_id)
            ids = [lex_ids[s] for s in slots.tolist()]
            index.set_base(ids, snap["vec_f32"], snapshot_codes(snap), np.asarray(snap["lex_flags"])[slots])
            return index

        try:
            self.vectors = await self.locked(lambda: asyncio.to_thread(adopt))
        except SnapshotError as exc:
            log.warning("recall snapshot %s: %s; loading vectors from the store", snap.path, exc)
            return await self.load_vectors()
        self._vector_changes_saved = self.vectors.changes
        self.unverified = snap
        await self._after_vectors_loaded([])
        if self.backfill:
            await self._adopt_stored_vectors(list(self.backfill.pending))
        return 0

    async def save_snapshot(self):
        """Rewrite the snapshot (atomically) if the indexes changed since the last one."""
        # vectors added or removed since the snapshot was written or read count too
        vectors_behind = self.vectors is not None and self.vectors.changes != self._vector_changes_saved
        if self.store.read_only or not (self.changes_since_snapshot or vectors_behind):
            return None
        async with self.snapshot_lock, self.sync_lock:  # the watermark and the index: one moment
            self.changes_since_snapshot = 0
            await write_snapshot(self)
        path = snapshot_path(self.store.path)
        return path if path.exists() else None

    async def finish_snapshot(self) -> None:
        """The background half of a first open's snapshot (see snapshot_save.py)."""
        await finish_deferred(self)

    async def verify_snapshot(self) -> None:
        """Check the snapshot's large arrays the open did not (seconds at a million
        memories, in a thread); damaged vectors are reloaded from the store and the
        snapshot is rewritten at the next save."""
        snap, self.unverified = self.unverified, None
        if snap is None:
            return
        t = time.perf_counter()
        try:
            await asyncio.to_thread(verify, snap)
            self.snapshot_verify_s = round(time.perf_counter() - t, 4)
        except (SnapshotError, OSError) as exc:
            log.warning("recall snapshot %s is damaged (%s); reloading the vectors from the store", snap.path, exc)
            async with self.sync_lock:
                await self.load_vectors()
                self.changes_since_snapshot += 1

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
            for n, entry_id in enumerate(ids, 1):
                need_vector += [entry_id] if self._apply(entry_id, current.get(entry_id)) else []
                if n % APPLY_CHUNK == 0:  # thousands of entries (idempotent if cancelled): the caller's loop keeps drawing
                    await asyncio.sleep(0)
            self.watermark = top
        if self.lexical.compact_due():
            await self.locked(self._compact_lexical)
        self.changes_since_snapshot += len(ids)
        if need_vector:
            await self._adopt_stored_vectors(need_vector)
        return len(ids)

    async def _compact_lexical(self) -> None:
        """Fold the lexical delta into its base in a thread (at 100k entries it takes a
        second or more; on the loop the app stalled) and swap the copy in on the loop.
        Run under the lock (`locked`): nothing mutates the index while it is copied."""
        lexical = self.lexical
        lexical.adopt(await asyncio.to_thread(lexical.compacted))

    def _apply(self, entry_id: str, row: Optional[tuple]) -> bool:
        """Bring one entry's index state to its current row (None: gone); returns whether
        it is new to the index (another process may have stored its vector)."""
        if row is None or row[1] == MemoryTier.WORKING.value:
            self.lexical.remove(entry_id, compact=False)
            if self.vectors is not None:
                self.vectors.remove(entry_id)
            self.hashes.pop(entry_id, None)
            self.backfill.discard(entry_id)
            return False
        text = entry_text(row[2], row[3], json.loads(row[4]))
        h = text_hash(text)
        flags = entry_flags(row[5])
        old = self.hashes.get(entry_id)
        if old == h and entry_id in self.lexical:
            self.lexical.set_flags(entry_id, flags)
            if self.vectors is not None:
                self.vectors.set_flags(entry_id, flags)
            return False
        self.lexical.add(entry_id, index_tokens(text), flags, compact=False)
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
                    "SELECT entry_id, model_id, dim, vector FROM vectors "
                    f"WHERE entry_id IN ({','.join('?' * len(chunk))}) ORDER BY rowid",
                    chunk,
                )
                good, matrix, _ = decode_rows(rows, model_id, self.embedder.dim)
                found.update({g: matrix[j] for j, g in enumerate(good)})
        async with self.lock:
            # in the table's order, as a load from the table would have them (ties in a scan)
            adds: list[tuple[str, np.ndarray, int]] = []
            for n, entry_id in enumerate([*found, *(i for i in ids if i not in found)], 1):
                if n % APPLY_CHUNK == 0:  # up to 10k entries after a sync: the caller's loop keeps drawing
                    await asyncio.sleep(0)
                if entry_id not in self.lexical:
                    continue
                if entry_id in found and self.vectors is not None:
                    adds.append((entry_id, found[entry_id], self.lexical.flags(entry_id) or 0))
                else:
                    self.backfill.add(entry_id)
            if self.vectors is not None:
                await add_off_loop(self.vectors, adds)  # the array copies in a thread
            for entry_id, _, _ in adds:  # only once in the index: a cancelled add leaves them queued
                self.backfill.discard(entry_id)


def _decode_chunk(rows: list[tuple], model_id: str, dim: int, lexical: Optional[LexicalIndex]):
    """(ids, float32 matrix, stale) of one chunk of `vectors` rows (rowid first); with a
    lexical index, only of the entries it holds."""
    ids, matrix, bad = decode_rows((r[1:] for r in rows), model_id, dim)
    if lexical is None:
        return ids, matrix, bad
    bad = [s for s in bad if s[0] in lexical]
    keep = [j for j, i in enumerate(ids) if i in lexical]
    if len(keep) != len(ids):
        ids, matrix = [ids[j] for j in keep], matrix[keep]
    return ids, matrix, bad
