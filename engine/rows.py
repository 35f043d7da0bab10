"""How entries and episodes map to table rows: the column lists every SELECT uses,
and the conversions both ways. Shared by the store, the gate and recall, which read
rows raw where building a MemoryEntry would cost too much."""

from __future__ import annotations

import json
import sqlite3

from .models import Episode, MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel, from_iso, to_iso

ENTRY_COLUMNS = (
    "id, type, tier, key, content, tags, source_session, created_at, updated_at, importance, "
    "access_count, last_accessed, embedding_id, episode_id, version, superseded_by, source, pinned"
)
ENTRY_FIELDS = tuple(name.strip() for name in ENTRY_COLUMNS.split(","))
# Position of each field in a row selected with ENTRY_COLUMNS, for code that reads rows raw.
COL = {name: i for i, name in enumerate(ENTRY_FIELDS)}
# json.dumps builds a new encoder on each call that passes an option: one, made once.
_TAGS_JSON = json.JSONEncoder(ensure_ascii=False).encode


def entry_to_row(e: MemoryEntry) -> tuple:
    return (
        e.id,
        e.type.value,
        e.tier.value,
        e.key,
        e.content,
        _TAGS_JSON(e.tags),
        e.source_session,
        to_iso(e.created_at),
        to_iso(e.updated_at),
        e.importance,
        e.access_count,
        to_iso(e.last_accessed),
        e.embedding_id,
        e.episode_id,
        e.version,
        e.superseded_by,
        e.source.value,
        int(e.pinned),
    )


def row_to_entry(row: sqlite3.Row | tuple) -> MemoryEntry:
    return MemoryEntry(
        id=row[0],
        type=MemoryType(row[1]),
        tier=MemoryTier(row[2]),
        key=row[3],
        content=row[4],
        tags=json.loads(row[5]),
        source_session=row[6],
        created_at=from_iso(row[7]),
        updated_at=from_iso(row[8]),
        importance=row[9],
        access_count=row[10],
        last_accessed=from_iso(row[11]),
        embedding_id=row[12],
        episode_id=row[13],
        version=row[14],
        superseded_by=row[15],
        source=ProvenanceLevel(row[16]),
        pinned=bool(row[17]),
    )


def row_to_episode(row) -> Episode:
    return Episode(
        id=row[0],
        session_key=row[1],
        summary=row[2],
        message_range_start=row[3],
        message_range_end=row[4],
        entity_ids=json.loads(row[5]),
        importance=row[6],
        created_at=from_iso(row[7]),
        produced_by=row[8],
    )


EPISODE_COLUMNS = (
    "id, session_key, summary, message_range_start, message_range_end, entity_ids, importance, created_at, produced_by"
)
CONTRADICTION_COLUMNS = (
    "id, entry_a_id, entry_b_id, description, confidence, resolution, resolved_at, created_at, status, detector, detail"
)
