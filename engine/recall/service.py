"""RecallService: the recall side of a store, kept in memory and in step with it.

    svc = RecallService(store, settings)
    await svc.open()                  # lexical index + stamped vectors, timed
    await svc.sync()                  # apply change_log rows past the watermark
    await svc.embed_pending()         # embed entries that have no current vector
    res = await svc.recall("where does the user live", limit=10)
    res.hit_ids                       # the facade reinforces these unless dry

Derived data only: the service writes `vectors` and `reembed_queue` (through
store.transaction(); they are not memory content, so not through the write
gate), and a snapshot file `<db>.recall.npz` that makes reopening a large store
fast. The snapshot is a cache: it records the change_log position it reflects
(and that row's fingerprint); anything after is replayed from change_log, and any
mismatch rebuilds the index from `entries`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ..models import MemoryEntry, MemoryTier
from ..store import ENTRY_COLUMNS, Store, row_to_entry
from . import embedder as emb
from .backfill import Backfill
from .embedder import Embedder, EmbeddingModelError, EmbeddingTimeout
from .episodes import EpisodeIndex, EpisodeSearchResult
from .lexical import SUPERSEDED, LexicalIndex
from .pipeline import prepare_query, run_pipeline
from .rerank import Reranker, make_reranker
from .results import Notice, RecallResult
from .tokenize import entry_text, index_tokens
from .vectors import VectorIndex, decode_rows, queue_reembed

log = logging.getLogger(__name__)

SNAPSHOT_FORMAT = 1
SNAPSHOT_MIN_ENTRIES = 20_000  # smaller stores rebuild in well under a second
REBUILD_FRACTION = 0.5  # a sync touching more than this share of the index rebuilds it
SCAN_THREADS = int(os.environ.get("ECHO_MEMORY_SCAN_THREADS", "1"))  # see embedder.QUERY_THREADS
_CHUNK = 500


def text_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def snapshot_path(db_path: os.PathLike | str) -> Path:
    p = Path(db_path)
    return p.with_name(p.name + ".recall.npz")


def _flags(superseded_by: Optional[str]) -> int:
    return SUPERSEDED if superseded_by else 0


@dataclass
class ModelStatus:
    """For the app's status bar: the embedding model (and the reranker, if used)."""

    state: str  # not_loaded | loading | ready | failed
    message: str
    model_id: Optional[str] = None
    pending: int = 0  # entries waiting for a vector
    indexed: int = 0  # entries recall knows (pending of them have no vector yet)
    reranker_state: str = "not_loaded"
    reranker_message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


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


class RecallService:
    def __init__(
        self,
        store: Store,
        settings=None,
        embedder_factory: Optional[Callable[[str], Embedder]] = None,
        reranker_factory: Optional[Callable[[str], Reranker]] = None,
        *,
        snapshot: bool = True,
        snapshot_min_entries: int = SNAPSHOT_MIN_ENTRIES,
    ):
        if settings is None:
            from ..config import Settings

            settings = Settings.defaults()
        self.store = store
        self.settings = settings
        self._embedder_factory = embedder_factory or emb.default_embedder_factory
        self._reranker_factory = reranker_factory or make_reranker
        self._use_snapshot = snapshot and str(store.path) != ":memory:"
        self._snapshot_min = snapshot_min_entries
        self.lexical = LexicalIndex()
        self.vectors: Optional[VectorIndex] = None
        self.embedder: Embedder = self._embedder_factory(settings.get("memory.embeddingModel"))
        self._rerankers: dict[str, Reranker] = {}
        self._hashes: dict[str, int] = {}
        self.backfill = Backfill(self)
        self._watermark = 0
        self._changes_since_snapshot = 0
        self._lock = asyncio.Lock()
        self._sync_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()
        self._opened = False
        self._vectors_deferred = False
        self.episodes = EpisodeIndex(store, self)
        self.open_report: Optional[OpenReport] = None

    # ---- helpers -------------------------------------------------------------------
    async def _locked(self, make_future):
        """Run a thread job under the index lock, holding the lock until the job has
        really finished even if the caller is cancelled (search-as-you-type cancels a
        lot): a mutation must never overlap a search still running in its thread."""
        async with self._lock:
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

    async def _cpu(self, fn, *args):
        """Index work in a thread, never concurrently with a mutation."""
        return await self._locked(lambda: asyncio.to_thread(fn, *args))

    async def _cpu_model_thread(self, fn, *args):
        """The vector scan, on the embedder's thread (see Embedder.run_in_model_thread)."""
        return await self._locked(lambda: self.embedder.run_in_model_thread(fn, *args, threads=SCAN_THREADS))

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _max_seq(self) -> int:
        row = await self.store.fetchone("SELECT COALESCE(MAX(seq), 0) FROM change_log")
        return int(row[0])

    async def _fetch_rows(self, ids: Sequence[str], columns: str) -> list[tuple]:
        out: list[tuple] = []
        ids = list(ids)
        for i in range(0, len(ids), _CHUNK):
            chunk = ids[i : i + _CHUNK]
            out.extend(
                await self.store.fetchall(f"SELECT {columns} FROM entries WHERE id IN ({','.join('?' * len(chunk))})", chunk)
            )
        return out

    async def fetch_entries(self, ids: Sequence[str]) -> dict[str, MemoryEntry]:
        rows = await self._fetch_rows(ids, ENTRY_COLUMNS)
        return {r[0]: row_to_entry(r) for r in rows}

    async def fetch_rows(self, ids: Sequence[str]) -> dict[str, tuple]:
        """Raw entry rows (ENTRY_COLUMNS order) by id; the pipeline parses what it shows."""
        return {r[0]: r for r in await self._fetch_rows(ids, ENTRY_COLUMNS)}

    @property
    def model_id(self) -> Optional[str]:
        return self.embedder.model_id

    @property
    def pending_count(self) -> int:
        return len(self.backfill)

    # ---- open ----------------------------------------------------------------------
    async def open(self) -> OpenReport:
        """Load the lexical index and the vectors stamped with the active model."""
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        seq0 = await self._max_seq()
        source = "rebuild"
        replayed = 0
        t = time.perf_counter()
        loaded = await self._load_snapshot() if self._use_snapshot else None
        if loaded is not None:
            lexical, hashes, snap_seq = loaded
            self.lexical, self._hashes, self._watermark = lexical, hashes, snap_seq
            source = "snapshot"
            timings["snapshot_s"] = time.perf_counter() - t
        else:
            await self._rebuild_lexical()
            self._watermark = seq0
            timings["lexical_build_s"] = time.perf_counter() - t
        t = time.perf_counter()
        stale = await self._load_vectors()
        timings["vectors_s"] = time.perf_counter() - t
        t = time.perf_counter()
        replayed = await self.sync()
        timings["sync_s"] = time.perf_counter() - t
        if source == "snapshot":
            row = await self.store.fetchone("SELECT count(*) FROM entries WHERE tier != 'working'")
            if int(row[0]) != len(self.lexical):
                log.warning("recall snapshot disagrees with the store (%s vs %s entries); rebuilding", len(self.lexical), row[0])
                self._watermark = await self._max_seq()
                await self._rebuild_lexical()
                stale = await self._load_vectors()
                source = "rebuild"
        self._opened = True
        if source == "rebuild" and self._use_snapshot and len(self.lexical) >= self._snapshot_min:
            self._changes_since_snapshot = 1
            self._spawn(self.save_snapshot())
        self.open_report = OpenReport(
            seconds=time.perf_counter() - t0,
            source=source,
            entries=len(self.lexical),
            vectors=0 if self.vectors is None else len(self.vectors),
            pending=len(self.backfill),
            stale=stale,
            replayed=replayed,
            timings={k: round(v, 4) for k, v in timings.items()},
        )
        return self.open_report

    async def _rebuild_lexical(self) -> None:
        rows = await self.store.fetchall(
            "SELECT id, key, content, tags, superseded_by FROM entries WHERE tier != 'working' ORDER BY rowid"
        )

        def build():
            ids = [r[0] for r in rows]
            texts = [entry_text(r[1], r[2], json.loads(r[3])) for r in rows]
            flags = np.fromiter((_flags(r[4]) for r in rows), np.uint8, len(rows))
            hashes = {i: text_hash(t) for i, t in zip(ids, texts)}
            return LexicalIndex.build(ids, texts, flags), hashes

        self.lexical, self._hashes = await self._locked(lambda: asyncio.to_thread(build))

    async def _load_vectors(self) -> int:
        """(Re)load stored vectors stamped with the active model; queue the others.
        Returns how many stored vectors could not be used."""
        model_id = self.embedder.model_id
        if model_id is None:
            # the dimension is unknown until the model loads (hub name): load vectors then
            self._vectors_deferred = self.embedder.status != emb.FAILED
            self.vectors = None
            self.backfill.reset(self.lexical.ids())
            return 0
        self._vectors_deferred = False
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

        self.vectors, stale = await self._locked(lambda: asyncio.to_thread(decode))
        have = self.vectors
        self.backfill.reset(i for i in self.lexical.ids() if i not in have)
        if stale and not self.store.read_only:
            await queue_reembed(self.store, stale)
        return len(stale)

    # ---- snapshot ------------------------------------------------------------------
    async def _load_snapshot(self):
        path = snapshot_path(self.store.path)
        if not path.exists():
            return None
        try:

            def read():
                with np.load(path, allow_pickle=False) as data:
                    meta = json.loads(bytes(data["meta"]).decode())
                    if meta.get("format") != SNAPSHOT_FORMAT:
                        raise ValueError("snapshot format differs")
                    lexical = LexicalIndex.from_arrays(data)
                    hashes = dict(zip(lexical.ids(), data["text_hash"].tolist()))
                return meta, lexical, hashes

            meta, lexical, hashes = await asyncio.to_thread(read)
        except Exception as exc:  # a cache: any problem means rebuild
            log.info("ignoring recall snapshot %s: %s", path, exc)
            return None
        seq = int(meta.get("seq", 0))
        if seq <= 0:
            return None
        row = await self.store.fetchone("SELECT entry_id, at FROM change_log WHERE seq=?", (seq,))
        if row is None or [row[0], row[1]] != meta.get("fingerprint"):
            log.info("recall snapshot %s belongs to another history of this store; rebuilding", path)
            return None
        return lexical, hashes, seq

    async def save_snapshot(self) -> Optional[Path]:
        """Write `<db>.recall.npz` (atomically) if the index changed since the last one."""
        if not self._use_snapshot or self.store.read_only or not self._changes_since_snapshot:
            return None
        async with self._sync_lock:  # the watermark and the index must describe the same moment
            seq = self._watermark
            if seq <= 0:
                return None
            row = await self.store.fetchone("SELECT entry_id, at FROM change_log WHERE seq=?", (seq,))
            if row is None:
                return None

            def collect():
                arrays = self.lexical.to_arrays()  # may compact: runs under the index lock
                ids = self.lexical.ids()
                arrays["text_hash"] = np.fromiter((self._hashes.get(i, 0) for i in ids), np.uint64, len(ids))
                return arrays

            arrays = await self._locked(lambda: asyncio.to_thread(collect))
            meta = {"format": SNAPSHOT_FORMAT, "seq": seq, "fingerprint": [row[0], row[1]]}
            arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
            self._changes_since_snapshot = 0
        path = snapshot_path(self.store.path)
        tmp = path.with_name(path.name + ".tmp.npz")

        def write():
            np.savez(tmp, **arrays)
            os.replace(tmp, path)

        try:
            await asyncio.to_thread(write)
        except OSError as exc:
            log.warning("could not write recall snapshot %s: %s", path, exc)
            return None
        return path

    # ---- keeping up with the store -------------------------------------------------
    async def sync(self) -> int:
        """Apply change_log rows past the watermark; returns how many entries changed."""
        async with self._sync_lock:
            changed = await self._sync()
        if changed and self.embedder.ready:
            self._start_drain()  # new or edited entries get their vectors in the background
        return changed

    async def _sync(self) -> int:
        if self._watermark < await self.store.change_log_floor():
            # Rows this index never saw were pruned: it cannot replay, so it reloads.
            self._watermark = await self._max_seq()
            await self._rebuild_lexical()
            await self._load_vectors()
            self._changes_since_snapshot += 1
            return len(self.lexical)
        rows = await self.store.fetchall(
            "SELECT seq, entry_id, op FROM change_log WHERE seq > ? ORDER BY seq", (self._watermark,)
        )
        if not rows:
            return 0
        top = rows[-1][0]
        # an 'access' row (recall reinforcement) changes neither text, tier nor supersession
        ids = list(dict.fromkeys(r[1] for r in rows if r[2] != "access"))
        if not ids:
            self._watermark = top
            return 0
        if len(ids) > max(10_000, REBUILD_FRACTION * len(self.lexical)):
            self._watermark = top
            await self._rebuild_lexical()
            await self._load_vectors()
            self._changes_since_snapshot += len(ids)
            return len(ids)
        current = {r[0]: r for r in await self._fetch_rows(ids, "id, tier, key, content, tags, superseded_by")}
        need_vector: list[str] = []
        async with self._lock:
            for entry_id in ids:
                row = current.get(entry_id)
                if row is None or row[1] == MemoryTier.WORKING.value:
                    self.lexical.remove(entry_id)
                    if self.vectors is not None:
                        self.vectors.remove(entry_id)
                    self._hashes.pop(entry_id, None)
                    self.backfill.discard(entry_id)
                    continue
                text = entry_text(row[2], row[3], json.loads(row[4]))
                h = text_hash(text)
                flags = _flags(row[5])
                old = self._hashes.get(entry_id)
                if old == h and entry_id in self.lexical:
                    self.lexical.set_flags(entry_id, flags)
                    if self.vectors is not None:
                        self.vectors.set_flags(entry_id, flags)
                    continue
                self.lexical.add(entry_id, index_tokens(text), flags)
                self._hashes[entry_id] = h
                if self.vectors is not None and entry_id in self.vectors:
                    # the text changed: the stored vector describes the old text
                    self.vectors.remove(entry_id)
                    self.backfill.add(entry_id)
                else:
                    self.backfill.add(entry_id)
                    if old is None:
                        need_vector.append(entry_id)  # new to us: another process may have embedded it
            self._watermark = top
        self._changes_since_snapshot += len(ids)
        if need_vector:
            await self._adopt_stored_vectors(need_vector)
        return len(ids)

    async def _adopt_stored_vectors(self, ids: Sequence[str]) -> None:
        """Use vectors already stored for newly seen entries; queue the rest for embedding."""
        model_id = self.embedder.model_id
        found: dict[str, np.ndarray] = {}
        if model_id is not None and self.vectors is not None:
            for i in range(0, len(ids), _CHUNK):
                chunk = list(ids[i : i + _CHUNK])
                rows = await self.store.fetchall(
                    f"SELECT entry_id, model_id, dim, vector FROM vectors WHERE entry_id IN ({','.join('?' * len(chunk))})",
                    chunk,
                )
                good, matrix, _ = decode_rows(rows, model_id, self.embedder.dim)
                found.update({g: matrix[j] for j, g in enumerate(good)})
        async with self._lock:
            for entry_id in ids:
                if entry_id not in self.lexical:
                    continue
                if entry_id in found and self.vectors is not None:
                    self.vectors.add(entry_id, found[entry_id], self.lexical.flags(entry_id) or 0)
                    self.backfill.discard(entry_id)
                else:
                    self.backfill.add(entry_id)

    async def embed_pending(self, batch: int = 64, max_items: Optional[int] = None) -> int:
        """Embed entries without a current vector and store the vectors (see Backfill.run)."""
        return await self.backfill.run(batch=batch, max_items=max_items)

    def _current(self, entry_id: str, text: str) -> bool:
        """Whether `text` is what the index holds for entry_id (a vector made from it may be kept)."""
        return self._hashes.get(entry_id) == text_hash(text) and entry_id in self.lexical

    async def _ensure_vector_index(self) -> None:
        if self.vectors is None or self._vectors_deferred:
            if self.embedder.model_id is None:
                raise EmbeddingModelError(self.embedder.message or "embedding model not loaded")
            await self._load_vectors()

    def _start_drain(self) -> None:
        self.backfill.start()

    async def warm(self) -> ModelStatus:
        """Load the embedding model in the background thread, then embed what is pending."""
        try:
            await self.embedder.ensure_loaded()
            await self._ensure_vector_index()
        except Exception:
            return self.model_status()
        self._start_drain()
        return self.model_status()

    def model_status(self) -> ModelStatus:
        rr = self._rerankers.get(self.settings.get("memory.rerankModel"))
        return ModelStatus(
            state=self.embedder.status,
            message=self.embedder.message,
            model_id=self.embedder.model_id,
            pending=len(self.backfill),
            indexed=len(self.lexical),
            reranker_state=rr.status if rr else "not_loaded",
            reranker_message=rr.message if rr else "",
        )

    async def reconfigure(self, settings) -> None:
        """Adopt new settings. A different memory.embeddingModel swaps the embedder:
        vectors stamped with the old model stop being used at once and are queued
        for re-embedding (the spec's rule at open, applied live)."""
        old_name = self.settings.get("memory.embeddingModel")
        self.settings = settings
        if settings.get("memory.embeddingModel") == old_name:
            return
        await self.backfill.stop()
        self.embedder.close()
        self.embedder = self._embedder_factory(settings.get("memory.embeddingModel"))
        self.episodes = EpisodeIndex(self.store, self)
        if self._opened:
            async with self._sync_lock:
                await self._load_vectors()

    def reranker_for(self, name: str) -> Reranker:
        rr = self._rerankers.get(name)
        if rr is None:
            rr = self._rerankers[name] = self._reranker_factory(name)
        return rr

    # ---- recall --------------------------------------------------------------------
    async def recall(
        self,
        query: str,
        limit: int = 10,
        dry: bool = True,
        overrides: Optional[dict] = None,
        include_superseded: bool = False,
        now: Optional[datetime] = None,
    ) -> RecallResult:
        """Hybrid recall. Never writes memory content: the facade reinforces `hit_ids` unless dry.
        Raises RecallInputError (bad query/limit) or ConfigError (bad override)."""
        settings = self.settings.override(overrides) if overrides else self.settings
        if not self._opened:
            await self.open()
        await self.sync()
        t0 = time.perf_counter()
        vectors: Optional[VectorIndex] = self.vectors
        reason = ""
        wanted = settings.get("memory.embeddingModel")
        prepared = prepare_query(query)  # an empty query fails here, before any model work
        if not (prepared.tokens and prepared.content):
            vectors = None  # nothing to search for: the pipeline answers with a notice at once
        elif wanted != self.embedder.name:
            vectors, reason = (
                None,
                (
                    f"memory.embeddingModel={wanted!r} differs from the model the index "
                    f"was built with ({self.embedder.name!r}); vector path skipped"
                ),
            )
        elif self.embedder.status == emb.FAILED:
            vectors, reason = None, self.embedder.message
        else:
            load_timeout = float(settings.get(emb.LOAD_KEY))
            try:
                await self.embedder.ensure_loaded(load_timeout)
                await self._ensure_vector_index()
                vectors = self.vectors
            except EmbeddingTimeout as exc:
                vectors, reason = None, f"{exc} ({emb.LOAD_KEY}={load_timeout:g})"
            except Exception as exc:
                vectors, reason = None, str(exc)
        wait_ms = round((time.perf_counter() - t0) * 1000, 3)

        reranker = self.reranker_for(settings.get("memory.rerankModel")) if settings.get("memory.rerankEnabled") else None
        result = await run_pipeline(
            query,
            lexical=self.lexical,
            vectors=vectors,
            embed_query=self.embedder.embed_query if vectors is not None else None,
            fetch_entries=self.fetch_rows,
            reranker=reranker,
            settings=settings,
            limit=limit,
            include_superseded=include_superseded,
            now=now,
            cpu=self._cpu,
            vector_cpu=self._cpu_model_thread,
            vector_unavailable_reason=reason,
            extra_settings={"dry": dry, "embedding_model_id": self.embedder.model_id},
            unembedded=self.backfill.pending,
        )
        if wait_ms > 1:  # waiting for the model to load
            result.timings_ms["prepare"] = wait_ms
        if self.backfill:
            for hit in result.results:
                hit.vector_pending = hit.id in self.backfill
            if result.mode == "hybrid":
                result.notices.append(
                    Notice(
                        "vectors_pending",
                        f"{len(self.backfill)} memories have no vector yet (being embedded); BM25 can still find "
                        "them, and their results say vector: pending",
                    )
                )
            self._start_drain()
        return result

    async def candidates(self, query: str, pool: int, include_superseded: bool = False):
        """The raw BM25 and vector candidate lists for query (evaluation, debugging)."""
        prepared = prepare_query(query)
        bm25 = await self._cpu(self.lexical.search, prepared.content, pool, include_superseded)
        vec = None
        if self.vectors is not None and self.embedder.ready:
            qv = await self.embedder.embed_query(prepared.text)
            vec = await self._cpu(self.vectors.search, qv, pool, include_superseded)
        return bm25, vec

    # ---- episodes ------------------------------------------------------------------
    async def search_episodes(
        self,
        query: str,
        entity: Optional[str] = None,
        since: Optional[datetime] = None,
        until: Optional[datetime] = None,
        limit: int = 10,
    ) -> EpisodeSearchResult:
        return await self.episodes.search(query, entity=entity, since=since, until=until, limit=limit)

    # ---- lifecycle -----------------------------------------------------------------
    async def vector_state(self, entry_id: str) -> dict[str, Any]:
        """An entry's stored vector, for the app's detail pane: its model stamp and
        whether it is current, pending (none yet, or its text changed) or stale
        (made by another model). With no model loaded the stamp cannot be judged."""
        row = await self.store.fetchone("SELECT model_id, dim FROM vectors WHERE entry_id=?", (entry_id,))
        queued = await self.store.fetchone("SELECT reason FROM reembed_queue WHERE entry_id=?", (entry_id,))
        stamp, active = (row[0] if row else None), self.model_id
        if row is None:
            waiting = entry_id in self.backfill or queued or not self.open_report  # unopened: all wait
            state = "pending" if waiting else "none"
        elif active is None:
            state = "unchecked"
        elif stamp != active:
            state = "stale"
        elif entry_id in self.backfill or queued:
            state = "pending"  # the text changed since this vector was made
        else:
            state = "current"
        return {
            "state": state,
            "model_id": stamp,
            "active_model_id": active,
            "dim": row[1] if row else None,
            "queued": queued[0] if queued else None,
        }

    def stats(self) -> dict[str, Any]:
        return {
            "entries": len(self.lexical),
            "vectors": 0 if self.vectors is None else len(self.vectors),
            "pending": len(self.backfill),
            "watermark": self._watermark,
            "vocabulary": self.lexical.vocabulary_size,
            "model": self.model_status().to_dict(),
        }

    async def close(self, release_models: bool = True) -> None:
        """Stop background work and save the snapshot if worthwhile; release the model
        worker threads unless the embedder is shared (release_models=False)."""
        for task in list(self._tasks):
            if task is not self.backfill.task:
                try:
                    await task
                except Exception:
                    pass
        await self.backfill.stop()
        if len(self.lexical) >= self._snapshot_min:
            await self.save_snapshot()
        if release_models:
            self.embedder.close()
            for rr in self._rerankers.values():
                rr.close()
