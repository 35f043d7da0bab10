"""The embedding backlog: entries recall knows that have no current vector yet.

    backfill = Backfill(service)
    backfill.add(entry_id)          # new or changed text (sync, open)
    await backfill.run()            # embed everything pending, persisting per batch
    backfill.start()                # the same, as a background task

The service owns the indexes; this module owns the pending set and the work of
embedding it. Vectors are written through `write_vectors` (stamped with the
model id, one transaction per batch), so a process killed mid-way loses at most
the batch in flight: on the next open only entries without a current vector are
pending again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Iterable, Optional

from .tokenize import entry_text
from .vectors import write_vectors

if TYPE_CHECKING:
    from .service import RecallService

log = logging.getLogger(__name__)


class Backfill:
    def __init__(self, service: "RecallService"):
        self.service = service
        self.pending: dict[str, None] = {}  # ordered set of ids needing a vector
        self._task: Optional[asyncio.Task] = None

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

    async def run(self, batch: int = 64, max_items: Optional[int] = None) -> int:
        """Embed entries without a current vector (batched, in a thread) and store the vectors.
        Loads the model if needed; returns how many vectors were written."""
        svc = self.service
        if not self.pending:
            return 0
        await svc.embedder.ensure_loaded()
        await svc._ensure_vector_index()
        done = 0
        while self.pending and (max_items is None or done < max_items):
            take = batch if max_items is None else min(batch, max_items - done)
            ids = list(self.pending)[:take]
            rows = await svc._fetch_rows(ids, "id, key, content, tags")
            texts = {r[0]: entry_text(r[1], r[2], json.loads(r[3])) for r in rows}
            for missing in set(ids) - set(texts):
                self.pending.pop(missing, None)
            order = [i for i in ids if i in texts]
            if not order:
                continue
            matrix = await svc.embedder.embed([texts[i] for i in order], batch_size=batch)
            keep_ids, keep_rows = [], []
            async with svc._lock:
                for j, entry_id in enumerate(order):
                    if not svc._current(entry_id, texts[entry_id]):
                        continue  # changed or removed while we embedded: sync queued it again
                    svc.vectors.add(entry_id, matrix[j], svc.lexical.flags(entry_id) or 0)
                    self.pending.pop(entry_id, None)
                    keep_ids.append(entry_id)
                    keep_rows.append(j)
            if keep_ids and not svc.store.read_only:
                await write_vectors(svc.store, keep_ids, matrix[keep_rows], svc.embedder.model_id)
            done += len(keep_ids)
            if not keep_ids and len(order) == len(ids):
                break  # nothing settled this round; the next sync will requeue
        return done

    def start(self) -> None:
        """Drain the backlog in the background (once the model is ready)."""
        if self.pending and (self._task is None or self._task.done()) and self.service.embedder.ready:
            self._task = self.service._spawn(self._drain())

    @property
    def task(self) -> Optional[asyncio.Task]:
        return self._task

    async def _drain(self) -> None:
        while self.pending:
            try:
                n = await self.run(batch=32, max_items=32)
            except Exception as exc:  # keep serving lexical recall; the status says why
                log.warning("background embedding stopped: %s", exc)
                return
            if n == 0:
                return
            await asyncio.sleep(0)

    async def stop(self) -> None:
        """Cancel the background embedding, waiting until it has stopped."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
