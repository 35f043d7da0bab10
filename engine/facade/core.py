"""What every part of the facade stands on: the open store with its settings and
gate, who writes when a call names no one, and the recall and consolidation
services, each made on first use so opening a store loads no model."""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable, Optional, Self

from ..actors import Actor, AnyActor
from ..config import Settings
from ..gate import EntryNotFound, WriteGate
from ..models import MemoryEntry, MemoryTier, utcnow
from ..store import Store
from ..working import WorkingMemory

if TYPE_CHECKING:
    from ..consolidation.service import ConsolidationService
    from ..recall.service import RecallService


class EngineCore:
    """The state the facade's parts share; MemoryEngine (engine/memory.py) adds the rest."""

    if TYPE_CHECKING:  # defined by MemoryEngine, used by the parts
        list_entries: Callable[..., Awaitable[list[MemoryEntry]]]

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], datetime] = utcnow,
        embedder_factory: Optional[Callable] = None,
        reranker_factory: Optional[Callable] = None,
        actor: AnyActor = None,
    ):
        self.store = store
        self.settings = settings
        self.clock = clock
        self.actor = Actor.parse(actor)
        self.gate = WriteGate(store, settings, clock)
        self._working: dict[str, WorkingMemory] = {}
        self._model_factories = {"embedder_factory": embedder_factory, "reranker_factory": reranker_factory}

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike,
        settings: Optional[Settings] = None,
        read_only: bool = False,
        clock: Callable[[], datetime] = utcnow,
        embedder_factory: Optional[Callable] = None,
        reranker_factory: Optional[Callable] = None,
        actor: AnyActor = None,
    ) -> Self:
        """Open a store. The factories replace how models load (tests use small local ones);
        actor is who writes when a call names no one (an agent unless said otherwise)."""
        store = await Store.open(path, read_only=read_only)
        return cls(store, settings or Settings.defaults(), clock, embedder_factory, reranker_factory, actor)

    def who(self, actor: AnyActor = None) -> Actor:
        """The actor a call names, or this engine's own."""
        return Actor.parse(actor, default=self.actor)

    async def close(self) -> None:
        """Stop background consolidation and recall (if they were started), then close the store."""
        service = self.__dict__.get("_consolidation")
        if service is not None:
            await service.stop()
        recall = self.__dict__.get("_recall")
        if recall is not None:
            await recall.close()
        await self.store.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def path(self) -> Path:
        return self.store.path

    async def get(self, entry_id: str) -> MemoryEntry:
        entry = await self.store.get_entry(entry_id)
        if entry is None:
            raise EntryNotFound(entry_id)
        return entry

    @property
    def recall_service(self) -> "RecallService":
        """The hybrid recall pipeline over this store; created on first use (no model loads yet)."""
        service = self.__dict__.get("_recall")
        if service is None:
            from ..recall.service import RecallService

            factories: dict[str, Any] = {k: v for k, v in self._model_factories.items() if v is not None}
            service = self._recall = RecallService(self.store, self.settings, **factories)
        return service

    @property
    def consolidation(self) -> "ConsolidationService":
        """Sessions, the consolidation pipeline and its scheduler, contradictions and the
        version lattice; created on first use (engine/consolidation/service.py)."""
        service = self.__dict__.get("_consolidation")
        if service is None:
            from ..consolidation.service import ConsolidationService

            service = self._consolidation = ConsolidationService(self)
        return service

    async def record_access(self, entry_ids: Iterable[str]) -> None:
        await self.gate.record_access(entry_ids)

    def _next_version(self, current: MemoryEntry, **changes: Any) -> MemoryEntry:
        """The live entry's next version as the gate takes it (same key, type, history and
        provenance, made now), with the changes an edit or a tag makes."""
        now = self.clock()
        return replace(
            MemoryEntry(
                key=current.key,
                content=current.content,
                type=current.type,
                tier=MemoryTier.SEMANTIC,
                tags=list(current.tags),
                source_session=current.source_session,
                created_at=now,
                updated_at=now,
                importance=current.importance,
                last_accessed=now,
                source=current.source,
                pinned=current.pinned,
                episode_id=current.episode_id,
            ),
            **changes,
        )

    async def apply_settings(self, settings: Settings) -> None:
        """Adopt new knobs (the app's saved playground settings) in the running engine."""
        self.settings = settings
        self.gate.settings = settings
        recall = self.__dict__.get("_recall")
        if recall is not None:
            await recall.reconfigure(settings)
