"""RecallService: the recall facade of a store (recall, candidates, episodes, model status).

    svc = RecallService(store, settings)
    await svc.open()                  # lexical index + stamped vectors, timed
    await svc.sync()                  # apply change_log rows past the watermark
    await svc.embed_pending()         # embed entries that have no current vector
    res = await svc.recall("where does the user live", limit=10)
    res.hit_ids                       # the facade reinforces these unless dry

Derived data only: the indexes and their sync with the store live in
`indexes.py` (the snapshot file format in `snapshot.py`), the embedding backlog
in `backfill.py`; this module runs recall over them and owns the models.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from ..models import MemoryEntry
from ..store import ENTRY_COLUMNS, Store, row_to_entry
from . import embedder as emb
from .backfill import Backfill
from .embedder import Embedder, EmbeddingTimeout
from .episodes import EpisodeIndex, EpisodeSearchResult
from .heap import release_free_memory
from .indexes import OpenReport, RecallIndexes
from .lexical import LexicalIndex
from .pipeline import prepare_query, run_pipeline
from .rerank import Reranker, make_reranker
from .results import Notice, RecallResult
from .snapshot import snapshot_path
from .vectors import VectorIndex

__all__ = ["ModelStatus", "OpenReport", "RecallService", "snapshot_path"]


SNAPSHOT_MIN_ENTRIES = 20_000  # smaller stores rebuild in well under a second


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
        self.embedder: Embedder = self._embedder_factory(settings.get("memory.embeddingModel"))
        self._rerankers: dict[str, Reranker] = {}
        self.backfill = Backfill(self)
        self.indexes = RecallIndexes(store, self.embedder, self.backfill)
        self._tasks: set[asyncio.Task] = set()
        self._opened = False
        self.episodes = EpisodeIndex(store, self)
        self.open_report: Optional[OpenReport] = None

    # ---- the indexes (indexes.py) ----------------------------------------------------
    @property
    def lexical(self) -> LexicalIndex:
        return self.indexes.lexical

    @property
    def vectors(self) -> Optional[VectorIndex]:
        return self.indexes.vectors

    @property
    def _lock(self) -> asyncio.Lock:
        return self.indexes.lock

    @property
    def _watermark(self) -> int:
        return self.indexes.watermark

    def _current(self, entry_id: str, text: str) -> bool:
        return self.indexes.current(entry_id, text)

    async def _ensure_vector_index(self) -> None:
        await self.indexes.ensure_vector_index()

    async def _fetch_rows(self, ids: Sequence[str], columns: str) -> list[tuple]:
        return await self.indexes.fetch_rows(ids, columns)

    # ---- helpers -------------------------------------------------------------------
    async def _cpu(self, fn, *args):
        """Index work in a thread, never concurrently with a mutation."""
        return await self.indexes.locked(lambda: asyncio.to_thread(fn, *args))

    async def _cpu_model_thread(self, fn, *args):
        """The vector scan, on the embedder's thread (see Embedder.run_in_model_thread)."""
        return await self.indexes.locked(lambda: self.embedder.run_in_model_thread(fn, *args))

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

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

    # ---- open and sync -----------------------------------------------------------
    async def open(self) -> OpenReport:
        """Load the lexical index and the vectors stamped with the active model."""
        self.open_report = await self.indexes.open(self._use_snapshot, self._snapshot_min)
        self._opened = True
        if self.indexes.deferred is not None:
            self._spawn(self.indexes.finish_snapshot())
        if self.indexes.unverified is not None:
            self._spawn(self.indexes.verify_snapshot())
        if self.indexes.changes_since_snapshot and len(self.lexical) >= self._snapshot_min:
            self._spawn(self.save_snapshot())
        return self.open_report

    async def save_snapshot(self) -> Optional[Path]:
        """Rewrite `<db>.recall.snap` (atomically) if the indexes changed since the last one."""
        if not self._use_snapshot:
            return None
        return await self.indexes.save_snapshot()

    async def sync(self) -> int:
        """Apply change_log rows past the watermark; returns how many entries changed."""
        changed = await self.indexes.sync()
        if changed and self.embedder.ready:
            self._start_drain()  # new or edited entries get their vectors in the background
        return changed

    async def embed_pending(self, batch: int = 64, max_items: Optional[int] = None) -> int:
        """Embed entries without a current vector and store the vectors (see Backfill.run)."""
        return await self.backfill.run(batch=batch, max_items=max_items)

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
        self.embedder = self.indexes.embedder = self._embedder_factory(settings.get("memory.embeddingModel"))
        self.episodes = EpisodeIndex(self.store, self)
        if self._opened:
            async with self.indexes.sync_lock:
                await self.indexes.load_vectors()

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

    async def settle(self) -> None:
        """Wait for the background work other than the backfill (a first open's snapshot
        write, the snapshot check) to finish."""
        for task in list(self._tasks):
            if task is not self.backfill.task:
                try:
                    await task
                except Exception:
                    pass

    async def close(self, release_models: bool = True) -> None:
        """Stop background work, save the snapshot if worthwhile and drop the indexes;
        release the model worker threads unless the embedder is shared (release_models=False)."""
        await self.settle()
        await self.backfill.stop()
        if len(self.lexical) >= self._snapshot_min:
            await self.save_snapshot()
        self.indexes.release()  # a million memories' indexes are gigabytes; a later call reopens
        await asyncio.to_thread(release_free_memory)
        self._opened = False
        if release_models:
            self.embedder.close()
            for rr in self._rerankers.values():
                rr.close()
