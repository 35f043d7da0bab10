"""Recall through the facade: hybrid recall (a rehearsal unless dry), the model's
warm-up and the embedding backlog, the recall log (why is this memory in my
prompts?) and relevance judgments with their metrics."""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from ..actors import Actor, AnyActor
from ..errors import StoreError
from ..models import InvalidValue, from_iso, to_iso
from .core import EngineCore

if TYPE_CHECKING:
    from ..judgments import Judgment, JudgmentImport
    from ..recall.episodes import EpisodeSearchResult
    from ..recall.results import RecallResult
    from ..recall.service import ModelStatus

log = logging.getLogger(__name__)

# The recall log keeps this much of each query: enough to recognise it.
RECALL_LOG_QUERY_CHARS = 500


@dataclass(frozen=True)
class RecallRecord:
    """One time a non-dry recall returned an entry."""

    at: datetime
    query: str
    rank: int
    actor: str

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at.isoformat(), "query": self.query, "rank": self.rank, "actor": self.actor}


@dataclass(frozen=True)
class RecallHistory:
    """An entry's recalls in the log: how many, and the newest few."""

    total: int
    recent: list[RecallRecord]

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "recent": [r.to_dict() for r in self.recent]}


class RecallMixin(EngineCore):
    """Recall, the recall log and relevance judgments."""

    async def recall(
        self,
        query: str,
        limit: int = 10,
        dry: bool = False,
        overrides: Optional[dict] = None,
        include_superseded: bool = False,
        actor: AnyActor = None,
    ) -> "RecallResult":
        """Hybrid recall with every stage's score. Unless dry, each hit is a rehearsal:
        access_count and last_accessed move, and the recall log records who asked what
        (the app's playground recalls dry)."""
        result = await self.recall_service.recall(
            query, limit=limit, dry=dry, overrides=overrides, include_superseded=include_superseded, now=self.clock()
        )
        if not dry and not self.read_only:
            await self.record_access(result.hit_ids)
        if not dry:
            await self._log_recall(query, result, self.who(actor))
        return result

    async def prepare_recall(self) -> "ModelStatus":
        """recall_status(), without the first call's cost on the caller's event loop: the
        recall stack's modules (numpy, the tokenizer, the pipeline, the backfill: ~0.1 s of
        imports holding the loop the first time) import in a thread. Nothing opens or loads."""
        if "_recall" not in self.__dict__:
            await asyncio.to_thread(importlib.import_module, "..recall.service", __package__)
        return self.recall_status()

    async def warm_recall(self) -> "ModelStatus":
        """Open the recall indexes and start loading the embedding model in the background;
        a backlog paused by pause_embedding resumes. The recall modules import in a thread
        first (prepare_recall)."""
        await self.prepare_recall()
        service = self.recall_service
        if not service.open_report:
            await service.open()
        service.backfill.resume()
        return await service.warm()

    async def search_episodes(
        self,
        query: str,
        entity: Optional[str] = None,
        since: Optional[datetime] = None,
        until: Optional[datetime] = None,
        limit: int = 10,
    ) -> "EpisodeSearchResult":
        """Episodes ranked by embedding similarity to query, filtered by entity and time."""
        return await self.recall_service.search_episodes(query, entity=entity, since=since, until=until, limit=limit)

    def recall_status(self) -> "ModelStatus":
        return self.recall_service.model_status()

    # ---- the embedding backlog: pause (issue 9, long work) ---------------------------------
    async def pause_embedding(self) -> int:
        """Stop embedding the vector backlog in the background; returns how many entries
        still have no vector (recall finds them by BM25 meanwhile). warm_recall resumes."""
        recall = self.__dict__.get("_recall")
        if recall is None:
            return 0
        recall.backfill.pause()
        return recall.pending_count

    def embedding_running(self) -> bool:
        """Batches are being embedded right now (a pause lets these finish and save)."""
        recall = self.__dict__.get("_recall")
        task = recall.backfill.task if recall is not None else None
        return task is not None and not task.done()

    # ---- for the app's detail pane (issue 9) --------------------------------------------
    async def vector_state(self, entry_id: str) -> dict[str, Any]:
        """The entry's vector: model stamp and state (current, pending, stale, none, unchecked)."""
        return await self.recall_service.vector_state(entry_id)

    # ---- the recall log: why is this memory in my prompts? (issue 9) -----------------------
    async def _log_recall(self, query: str, result: "RecallResult", actor: Actor) -> None:
        """One row per returned entry (when, query, rank, who), the oldest trimmed to
        memory.recallLog.maxRows in the same transaction. Never fails the recall: on a
        read-only or unwritable store the result says the recall was not logged."""
        from ..recall.results import Notice

        if not result.results:
            return
        keep = int(self.settings.get("memory.recallLog.maxRows"))
        why = "the store is read-only" if self.read_only else ""
        if not why:
            at, text = to_iso(self.clock()), query[:RECALL_LOG_QUERY_CHARS]
            rows = [(at, text, hit.rank, str(actor), hit.id) for hit in result.results] if keep else []
            try:
                async with self.store.transaction() as conn:
                    # an entry purged since the recall read it has nothing to log against
                    await conn.executemany(
                        "INSERT INTO recall_log(entry_id, at, query, rank, actor) SELECT id, ?, ?, ?, ? FROM entries WHERE id=?",
                        rows,
                    )
                    await conn.execute("DELETE FROM recall_log WHERE id <= (SELECT max(id) FROM recall_log) - ?", (keep,))
            except (sqlite3.Error, StoreError) as exc:
                log.warning("recall log of %s not written: %s", self.path, exc)
                why = f"the store refused the write ({exc})"
        if why:
            result.notices.append(Notice("recall_not_logged", f"this recall was not recorded in the recall log: {why}"))

    async def recent_recalls(self, entry_id: str, limit: int = 10) -> "RecallHistory":
        """How often non-dry recalls returned the entry (as far as the log reaches back),
        and the newest `limit` of them."""
        total = (await self.store.fetchone("SELECT count(*) FROM recall_log WHERE entry_id=?", (entry_id,)))[0]
        rows = await self.store.fetchall(
            "SELECT at, query, rank, actor FROM recall_log WHERE entry_id=? ORDER BY id DESC LIMIT ?", (entry_id, limit)
        )
        return RecallHistory(total, [RecallRecord(from_iso(at), query, rank, actor) for at, query, rank, actor in rows])

    # ---- relevance judgments (engine/judgments.py; metrics: engine/recall/judgments.py) ----
    async def judge(self, query: str, entry_id: str, grade: int = 1, actor: AnyActor = None) -> "Judgment":
        """Record that entry_id is relevant (grade >= 1) or not (0) to query; audited."""
        from ..judgments import judge

        return await judge(self.store, query, entry_id, grade, self.who(actor), self.clock())

    async def unjudge(self, query: str, entry_id: str, actor: AnyActor = None) -> bool:
        """Clear a judgment (audited); False if there was none."""
        from ..judgments import unjudge

        return await unjudge(self.store, query, entry_id, self.who(actor), self.clock())

    async def judgments(self, query: Optional[str] = None) -> list["Judgment"]:
        """Every judgment, or one query's; a purged entry's judgment is marked purged."""
        from ..judgments import list_judgments

        return await list_judgments(self.store, query)

    async def import_judgments(
        self,
        qrels: Optional[str | os.PathLike] = None,
        queries: Optional[str | os.PathLike] = None,
        longmemeval: Optional[str | os.PathLike] = None,
        actor: str = "import",
    ) -> "JudgmentImport":
        """Judgments from a BEIR qrels file (query texts from queries) or a LongMemEval
        file, placed on the entries whose id, key or a tag is the corpus id."""
        from .. import judgments

        if (qrels is None) == (longmemeval is None):
            raise InvalidValue("give a qrels file or a LongMemEval file (one of them)")
        if qrels is not None:
            return await judgments.import_qrels(self.store, Path(qrels), Path(queries) if queries else None, actor, self.clock())
        return await judgments.import_longmemeval(self.store, Path(str(longmemeval)), actor, self.clock())
