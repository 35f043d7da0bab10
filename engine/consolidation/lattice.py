"""The version lattice: for any entry, the connected supersession graph around it,
in one call. Versions of one key form a chain; a contradiction resolution links
two keys (the loser points at the winner); a merge joins two entries into a
third. Walking superseded_by both ways from the entry finds all of it."""

from __future__ import annotations

import json

from ..gate import EntryNotFound
from ..models import MemoryEntry
from ..store import ENTRY_COLUMNS, Store, row_to_entry
from .records import Lattice, lattice_node

MAX_NODES = 5000  # a runaway graph (corrupt pointers) must not hang the app


async def build_lattice(store: Store, entry_id: str) -> Lattice:
    start = await store.get_entry(entry_id)
    if start is None:
        raise EntryNotFound(entry_id)
    found: dict[str, MemoryEntry] = {start.id: start}
    frontier = [start]
    while frontier and len(found) < MAX_NODES:
        current = frontier.pop()
        rows = await store.fetchall(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE superseded_by=? OR id=?", (current.id, current.superseded_by or "")
        )
        for entry in map(row_to_entry, rows):
            if entry.id not in found:
                found[entry.id] = entry
                frontier.append(entry)
    merges = set()
    ids = list(found)
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        rows = await store.fetchall(
            "SELECT merged_entry_id, before FROM resolutions WHERE undone_at IS NULL AND merged_entry_id IN "
            f"({','.join('?' * len(chunk))})",
            chunk,
        )
        for merged_id, before in rows:
            merges |= {(state["id"], merged_id) for state in json.loads(before)["entries"]}
    edges = [
        {"from": e.id, "to": e.superseded_by, "kind": "merge" if (e.id, e.superseded_by) in merges else "supersede"}
        for e in found.values()
        if e.superseded_by in found
    ]
    ordered = sorted(found.values(), key=lambda e: (e.created_at, e.version, e.id))
    edges.sort(key=lambda e: (e["to"], e["from"]))
    return Lattice(start.id, [lattice_node(e) for e in ordered], edges)
