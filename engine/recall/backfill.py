"""The embedding backlog: entries recall knows that have no current vector yet.

    backfill = Backfill(service)
    backfill.add(entry_id)          # new or changed text (sync, open)
    await backfill.run()            # embed everything pending, persisting per batch
    backfill.start()                # the same, as a background task

The service owns the indexes; this module owns the pending set and the work of
embedding it: windows of pending entries sorted by text length (a batch pads
little), one batch per model worker at background priority plus one queued (a
recall's query embedding runs before the next batch, never after the backlog); a large
backlog runs on ONNX Runtime once the embedder has exported it (embedder.start_bulk),
with the same vectors as torch. Vectors are
written through `write_vectors` (stamped with the model id, one transaction per
batch), so a process killed mid-way loses at most the batches in flight: on the
next open only entries without a current vector are pending again. `stop()` (at
close) lets the batches in flight finish and persist.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections import deque
from typing import TYPE_CHECKING, Iterable, Optional

import numpy as np

from .embedder import BACKFILL_WORKERS
from .tokenize import entry_text
from .vectors import add_off_loop, write_vectors

if TYPE_CHECKING:
    from .service import RecallService

log = logging.getLogger(__name__)

# texts per batch: the longest a query waits for the backfill is one batch on one core
# (~0.25 s idle). Sorted by length, 32 embedded as many entries per CPU-second as 64 or
# 128 (~127/s on one core here, against ~94 unsorted and ~70 one at a time); on ONNX
# Runtime (a backlog of embedder.ONNX_BACKFILL_MIN or more) 32 beat 64 and 128 (~270,
# ~245, ~205 per CPU-second; 16 about as 32).
BATCH = 32
WINDOW = 4096  # pending entries sorted by length together


class Backfill:
    def __init__(self, service: "RecallService"):
        self.service = service
        self.pending: dict[str, None] = {}  # ordered set of ids needing a vector
        self._task: Optional[asyncio.Task] = None
        self._stopping = False
        self.paused = False  # a person paused it: new writes wait too, until warmed again

    def __len__(self) -> int:
        return len(self.pending)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self.pending

    def add(self, entry_id: str) -> None:
        self.pending[entry_id] = None

    def discard(self, entry_id: str) -> None:
        self.pending.pop(entry_id, None)

    def reset(self, ids: Iterable[str]) -> None:
        self.pending = dict.fromkeys(ids)

    async def run(self, batch: int = BATCH, max_items: Optional[int] = None) -> int:
        """Embed entries without a current vector and store the vectors; returns how many
        were written. Loads the model if needed.

        Works through windows of WINDOW pending entries sorted by text length, so the
        texts of one batch pad little; one batch per model worker runs at a time, at
        background priority (a query goes first), and each is persisted on its own."""
        svc = self.service
        if not self.pending:
            return 0
        await svc.embedder.ensure_loaded()
        await svc._ensure_vector_index()
        svc.embedder.start_bulk(len(self.pending))
        done = 0
        while self.pending and not (self._stopping or self.paused) and (max_items is None or done < max_items):
            window = await self._window(WINDOW if max_items is None else min(WINDOW, max_items - done))
            batches = [window[i : i + batch] for i in range(0, len(window), batch)]
            in_flight: deque = deque()
            settled = 0
            try:
                for items in batches:
                    if self._stopping or self.paused:
                        break
                    job = svc.embedder.embed([t for _, t in items], batch_size=len(items), background=True)
                    in_flight.append((items, asyncio.ensure_future(job)))
                    # one batch queued beyond the workers, so none idles while a finished
                    # batch is persisted (a query still goes before the queued batch)
                    if len(in_flight) > BACKFILL_WORKERS:
                        settled += await self._settle(*in_flight.popleft())
                while in_flight:
                    settled += await self._settle(*in_flight.popleft())
            finally:
                for _, fut in in_flight:
                    fut.cancel()
            done += settled
            if window and not settled:
                break  # every text changed while it was embedded: the next sync queues them again
        return done

    async def _window(self, n: int) -> list[tuple[str, str]]:
        """Up to n pending (id, text) pairs, shortest first; ids whose entry is gone leave the set."""
        svc = self.service
        ids = list(itertools.islice(self.pending, n))
        rows = await svc._fetch_rows(ids, "id, key, content, tags")
        texts = {r[0]: entry_text(r[1], r[2], json.loads(r[3])) for r in rows}
        for missing in set(ids) - set(texts):
            self.pending.pop(missing, None)
        return sorted(texts.items(), key=lambda item: len(item[1]))

    async def _settle(self, items: list[tuple[str, str]], fut: "asyncio.Future[np.ndarray]") -> int:
        """Persist one embedded batch (stamped with the model id, one transaction), then
        add it to the index; a text changed meanwhile is left for its new version."""
        svc = self.service
        matrix = await fut
        keep = [j for j, (entry_id, text) in enumerate(items) if svc._current(entry_id, text)]
        if not keep:
            return 0
        if not svc.store.read_only:
            await write_vectors(svc.store, [items[j][0] for j in keep], matrix[keep], svc.embedder.model_id)
        async with svc._lock:
            rows = []
            for j in keep:
                entry_id, text = items[j]
                if svc.vectors is not None and svc._current(entry_id, text):
                    rows.append((entry_id, matrix[j], svc.lexical.flags(entry_id) or 0))
            if svc.vectors is not None:
                # growing the delta copies it whole (tens of MB): in a thread, not on the loop
                await add_off_loop(svc.vectors, rows)
            for entry_id, _, _ in rows:  # only once in the index: a cancelled add leaves them pending
                self.pending.pop(entry_id, None)
        return len(rows)

    def start(self) -> None:
        """Drain the backlog in the background (once the model is ready, unless paused)."""
        if not self.paused and self.pending and (self._task is None or self._task.done()) and self.service.embedder.ready:
            self._task = self.service._spawn(self._drain())

    @property
    def task(self) -> Optional[asyncio.Task]:
        return self._task

    async def _drain(self) -> None:
        try:
            await self.run()
        except Exception as exc:  # keep serving lexical recall; the status says why
            log.warning("background embedding stopped: %s", exc)

    def pause(self) -> None:
        """Stop taking new batches and stay stopped (new writes included) until warmed
        again; the batches already running finish and are saved, without the caller waiting."""
        self.paused = True

    def resume(self) -> None:
        """Undo pause(): the next start() drains the backlog again."""
        self.paused = False

    async def stop(self) -> None:
        """Stop the background embedding after the batches in progress are persisted
        (cancelling it if the wait itself is cancelled)."""
        task = self._task
        if task is None or task.done():
            return
        self._stopping = True
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():  # our wait was cancelled, not the backfill
                task.cancel()
                raise
        finally:
            self._stopping = False
