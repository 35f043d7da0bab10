"""Curation from the app: undo of a write, tags added and removed, and the history
of decisions on contradictions (with their undo)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Optional

from ..actors import Actor, AnyActor
from ..fields import validate_tags
from ..gate import WriteOutcome, WriteRejected
from ..models import InvalidValue, MemoryEntry, MemoryTier
from ..store import ENTRY_COLUMNS, row_to_entry
from .core import EngineCore


@dataclass(frozen=True)
class UndoStep:
    """One write that can be taken back: the entries as they were before it and the
    versions it created. A purged entry lives on here (in memory) until the app closes."""

    what: str
    before: tuple[MemoryEntry, ...]
    created: tuple[str, ...] = ()

    @classmethod
    def after(cls, what: str, before: Iterable[MemoryEntry], changed: Iterable[MemoryEntry]) -> "UndoStep":
        before = tuple(before)
        known = {e.id for e in before}
        return cls(what, before, tuple(e.id for e in changed if e.id not in known))


class CurationMixin(EngineCore):
    """Undo, tags and contradiction decisions, for the app."""

    # ---- undo, for the app's undo list (issue 9) -------------------------------------------
    async def undo_snapshot(self, entry_ids: Iterable[str]) -> list[MemoryEntry]:
        """Before a write: the entries it may change, as they are now, with their chain
        neighbours (the head a new version will supersede, the versions a purge splices)."""
        ids = list(dict.fromkeys(entry_ids))
        marks = ",".join("?" * len(ids))
        rows = await self.store.fetchall(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id IN ({marks}) OR superseded_by IN ({marks})", ids + ids
        )
        # a decay pass snapshots tens of thousands of entries: decoding them held the caller's loop
        found = await asyncio.to_thread(lambda: {e.id: e for e in map(row_to_entry, rows)})
        for entry in [e for e in found.values() if e.superseded_by is not None]:  # a head is its own head
            head = await self.gate.head_of(entry)
            found.setdefault(head.id, head)
        return list(found.values())

    async def undo(self, step: UndoStep, actor: AnyActor = None) -> list[MemoryEntry]:
        """Take a write back (a person only): see WriteGate.revert."""
        return await self.gate.revert(step.before, step.created, self.who(actor), f"undo: {step.what}")

    # ---- tags, for the app's bulk tag (issue 9) ---------------------------------------------
    @staticmethod
    def check_tags(tags: Iterable[str]) -> list[str]:
        """Tags as the gate takes them, or InvalidValue naming the tag and the limit."""
        return validate_tags(list(tags))

    async def retag(
        self, entry_id: str, add: Iterable[str] = (), remove: Iterable[str] = (), actor: AnyActor = None
    ) -> WriteOutcome:
        """Tags added and removed (case-insensitively) on the live entry: a new version with
        the same content and provenance, through the gate; unchanged when nothing moves."""
        current = await self.get(entry_id)
        if current.superseded_by is not None or current.tier is not MemoryTier.SEMANTIC:
            raise WriteRejected(
                "not_live",
                f"{current.key} v{current.version} is {current.tier.label}; only a live entry is tagged (restore it first)",
            )
        gone = {t.lower() for t in self.check_tags(remove)}
        tags = [t for t in current.tags if t.lower() not in gone]
        tags += [t for t in dict.fromkeys(self.check_tags(add)) if t.lower() not in {k.lower() for k in tags}]
        if tags == current.tags:
            return WriteOutcome("unchanged", current)
        return await self.gate.write(self._next_version(current, tags=tags), self.who(actor), "tag")

    # ---- decisions on contradictions, for the app's history (issue 9) ------------------------
    async def decisions(self, limit: int = 500) -> list["Decision"]:
        """Resolved and dismissed contradictions, newest first: who decided (a person or
        consolidation's policy), when, what, and whether it has been undone."""
        rows = await self.store.fetchall(
            "SELECT r.id, r.contradiction_id, r.action, r.actor, r.at, r.undone_at, "
            "coalesce(a.key, c.entry_a_id), coalesce(b.key, c.entry_b_id), c.description, c.status "
            "FROM resolutions r JOIN contradictions c ON c.id = r.contradiction_id "
            "LEFT JOIN entries a ON a.id = c.entry_a_id LEFT JOIN entries b ON b.id = c.entry_b_id "
            "ORDER BY r.id DESC LIMIT ?",
            (limit,),
        )
        return [
            Decision(
                resolution_id=r[0],
                contradiction_id=r[1],
                action=r[2],
                actor=r[3],
                at=datetime.fromisoformat(r[4]),
                undone_at=datetime.fromisoformat(r[5]) if r[5] else None,
                keys=(r[6], r[7]),
                description=r[8] or "",
                status=r[9],
            )
            for r in rows
        ]

    async def undo_decision(self, contradiction_id: str, actor: AnyActor = None) -> Any:
        """Reopen what a resolution closed (a person only): its entries come back as they
        were; refused, with nothing written, when one changed since."""
        return await self.consolidation.undo(contradiction_id, actor=self.who(actor))


@dataclass(frozen=True)
class Decision:
    """One resolution of a contradiction, as the review history shows it."""

    resolution_id: int
    contradiction_id: str
    action: str  # keep_a, keep_b, keep_both, merge, or auto:<rule> (the policy)
    actor: str
    at: datetime
    undone_at: Optional[datetime]
    keys: tuple[str, str]  # of side A and side B
    description: str = ""
    status: str = ""

    @property
    def by_person(self) -> bool:
        """A person decided (app or CLI), not consolidation's automatic policy."""
        if self.action.startswith("auto"):
            return False
        try:
            return Actor.parse(self.actor).is_person
        except InvalidValue:
            return False
