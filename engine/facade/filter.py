"""EntryFilter: what the browser, `list` and the query language filter entries by,
as one SQL WHERE clause."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..models import MemoryTier, MemoryType, ProvenanceLevel
from ..paging import SORTABLE
from .sources import FIRST_ORIGIN_SQL

__all__ = ["SORTABLE", "EntryFilter"]


@dataclass
class EntryFilter:
    """What the browser and `list` can filter by; None means any."""

    tier: Optional[MemoryTier] = None
    type: Optional[MemoryType] = None
    source: Optional[ProvenanceLevel] = None
    pinned: Optional[bool] = None
    text: Optional[str] = None
    tag: Optional[str] = None
    session: Optional[str] = None
    origin: Optional[str] = None  # prefix of where the entry came from: mcp, sync:hermes, person (entry_origins)

    def where(self) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if self.tier is not None:
            clauses.append("tier=?")
            params.append(self.tier.value)
        if self.type is not None:
            clauses.append("type=?")
            params.append(self.type.value)
        if self.source is not None:
            clauses.append("source=?")
            params.append(self.source.value)
        if self.pinned is not None:
            clauses.append("pinned=?")
            params.append(int(self.pinned))
        if self.text:
            clauses.append("(instr(lower(content), ?) > 0 OR instr(lower(key), ?) > 0)")
            params += [self.text.lower(), self.text.lower()]
        if self.tag:
            clauses.append("EXISTS (SELECT 1 FROM json_each(entries.tags) WHERE lower(value)=?)")
            params.append(self.tag.lower())
        if self.session:
            clauses.append("source_session=?")
            params.append(self.session)
        if self.origin:
            clauses.append(f"substr(lower({FIRST_ORIGIN_SQL}), 1, ?) = ?")
            params += [len(self.origin), self.origin.lower()]
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), params
