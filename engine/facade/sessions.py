"""The WORKING tier (a ring buffer per session, mirrored to the store), the core
snapshot every prompt starts with, and session messages for consolidation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..actors import AnyActor
from ..fields import validate_session_key
from ..gate import WriteOutcome
from ..models import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel, validate_importance
from ..store import ENTRY_COLUMNS, row_to_entry
from ..working import Rendered, WorkingMemory, render_markdown
from .core import EngineCore
from .filter import EntryFilter

if TYPE_CHECKING:
    from ..consolidation.records import JobRecord, Message, SessionInfo


class SessionsMixin(EngineCore):
    """The WORKING tier and session messages."""

    # ---- WORKING tier and core snapshot -------------------------------------------
    async def remember_working(
        self,
        session_key: str,
        key: str,
        content: str,
        importance: float = 0.5,
        type: MemoryType | str = MemoryType.ENVIRONMENT,
        source: ProvenanceLevel | str = ProvenanceLevel.MODEL_INFERRED,
        actor: AnyActor = "agent",
    ) -> WriteOutcome:
        """Push into the session's ring buffer (gated, mirrored to the store so the app sees it).
        Working notes are the agent's own unless a caller says otherwise."""
        validate_session_key(session_key)
        buffer = await self._working_buffer(session_key)
        now = self.clock()
        entry = MemoryEntry(
            key=key,
            content=content,
            type=MemoryType.parse(type),
            tier=MemoryTier.WORKING,
            source_session=session_key,
            created_at=now,
            updated_at=now,
            last_accessed=now,
            importance=validate_importance(importance),
            source=ProvenanceLevel.parse(source),
        )
        actor = self.who(actor)
        outcome = await self.gate.write(entry, actor, "working")
        if outcome.replaced is not None:
            buffer.discard(outcome.replaced.id)
        evicted = buffer.push(outcome.entry)
        if evicted is not None:
            await self.gate.drop_working([evicted.id], actor, "ring buffer full")
        return outcome

    async def _working_buffer(self, session_key: str) -> WorkingMemory:
        buffer = self._working.get(session_key)
        if buffer is None:
            buffer = WorkingMemory(int(self.settings.get("memory.workingMaxEntries")))
            rows = await self.list_entries(
                EntryFilter(tier=MemoryTier.WORKING, session=session_key), order_by="created_at", descending=False
            )
            for entry in rows:
                evicted = buffer.push(entry)
                if evicted is not None and not self.read_only:
                    await self.gate.drop_working([evicted.id], "engine", "ring buffer full")
            self._working[session_key] = buffer
        return buffer

    async def working_entries(self, session_key: Optional[str] = None) -> list[MemoryEntry]:
        return await self.list_entries(
            EntryFilter(tier=MemoryTier.WORKING, session=session_key), order_by="created_at", descending=False
        )

    async def render_working(self, session_key: Optional[str] = None, char_budget: Optional[int] = None) -> Rendered:
        budget = int(char_budget or self.settings.get("memory.workingCharBudget"))
        return render_markdown(await self.working_entries(session_key), budget, "Working memory")

    async def core_snapshot(self, char_budget: Optional[int] = None) -> Rendered:
        """Pinned and USER entries that are live: what every prompt starts with."""
        budget = int(char_budget or self.settings.get("memory.workingCharBudget"))
        rows = await self.store.fetchall(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE superseded_by IS NULL AND tier='semantic' "
            "AND (pinned=1 OR type='user') ORDER BY pinned DESC, importance DESC, key"
        )
        return render_markdown([row_to_entry(r) for r in rows], budget, "Core memory")

    async def open_session(self, key: str) -> "SessionInfo":
        return await self.consolidation.open_session(key)

    async def add_message(self, key: str, role: str, content: str) -> "Message":
        """A session message; its size is checked before anything else reads it."""
        return await self.consolidation.add_message(key, role, content)

    async def end_session(self, key: str) -> "JobRecord":
        """End the session and schedule its consolidation in the background; returns at once."""
        return await self.consolidation.end_session(key)

    async def clear_working(self, session_key: str, actor: AnyActor = None) -> int:
        """Drop a session's WORKING entries (through the gate) and forget its ring buffer;
        the audit names who did (consolidation passes itself)."""
        entries = await self.working_entries(session_key)
        await self.gate.drop_working([e.id for e in entries], self.who(actor), "session consolidated")
        self._working.pop(session_key, None)
        return len(entries)
