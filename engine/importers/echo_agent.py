"""Echo-Agent memory folders: user_memory.json and env_memory.json, JSON arrays of
entries. Timestamps are naive local ISO strings; `source` (newer versions only)
is free text. Entries without a recognisable source come in as legacy; the import
keeps a declared source only when told to trust it (MemoryEngine.import_entries)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from ..models import InvalidValue, MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel
from . import read_capped

FILES = {"user_memory.json": MemoryType.USER, "env_memory.json": MemoryType.ENVIRONMENT}

_SOURCE_WORDS = {
    ProvenanceLevel.USER_STATED: ("user_stated", "user stated", "user-stated", "user", "stated"),
    ProvenanceLevel.CONSOLIDATED: ("consolidated", "consolidation"),
    ProvenanceLevel.MODEL_INFERRED: ("model_inferred", "model inferred", "inferred", "model", "llm"),
    ProvenanceLevel.LEGACY: ("legacy",),
}
_TYPE_WORDS = {"user": MemoryType.USER, "environment": MemoryType.ENVIRONMENT, "env": MemoryType.ENVIRONMENT}


def provenance_from_text(value: Any) -> ProvenanceLevel:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return ProvenanceLevel(value)
    if isinstance(value, str):
        text = value.strip().lower()
        for level, words in _SOURCE_WORDS.items():
            if text in words:
                return level
    return ProvenanceLevel.LEGACY


def _local_to_utc(value: Any, field: str) -> datetime | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise InvalidValue(f"{field} must be an ISO timestamp string")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidValue(f"{field} {value!r} is not an ISO timestamp") from None
    try:
        if parsed.tzinfo is None:
            parsed = parsed.astimezone()  # naive means the machine's local time
        return parsed.astimezone(timezone.utc)
    except (OverflowError, OSError):
        raise InvalidValue(f"{field} {value!r} is out of range") from None


def convert(raw: dict[str, Any], default_type: MemoryType) -> MemoryEntry:
    data = {
        k: raw.get(k)
        for k in (
            "id",
            "key",
            "content",
            "tags",
            "source_session",
            "importance",
            "access_count",
            "embedding_id",
            "episode_id",
            "version",
            "superseded_by",
        )
        if raw.get(k) is not None
    }
    type_text = str(raw.get("type") or default_type.value).strip().lower()
    if type_text not in _TYPE_WORDS:
        raise InvalidValue(f"unknown type {raw.get('type')!r}")
    data["type"] = _TYPE_WORDS[type_text]
    data["tier"] = MemoryTier.parse(raw.get("tier") or "semantic")
    data["source"] = provenance_from_text(raw.get("source"))
    for field in ("created_at", "updated_at", "last_accessed"):
        stamp = _local_to_utc(raw.get(field), field)
        if stamp is not None:
            data[field] = stamp
    if data.get("superseded_by") and data["tier"] is not MemoryTier.ARCHIVAL:
        data["tier"] = MemoryTier.ARCHIVAL  # the spec: superseded entries live in ARCHIVAL
    entry = MemoryEntry.from_dict(
        {k: v for k, v in data.items() if k not in ("type", "tier", "source", "created_at", "updated_at", "last_accessed")}
    )
    for name in ("type", "tier", "source", "created_at", "updated_at", "last_accessed"):
        if name in data:
            setattr(entry, name, data[name])
    return entry


def _version_of(raw: Any) -> int:
    version = raw.get("version") if isinstance(raw, dict) else None
    return version if isinstance(version, int) and not isinstance(version, bool) else 0


def read_folder(folder: Path) -> Iterator[tuple[dict, MemoryEntry | str]]:
    """Yield (where, entry or error message) for every entry in the folder's files."""
    found = False
    for name, default_type in FILES.items():
        path = folder / name
        if not path.exists():
            continue
        found = True
        try:
            items = json.loads(read_capped(path).decode("utf-8"))
        except InvalidValue as exc:
            yield {"file": name}, str(exc)
            continue
        except (UnicodeDecodeError, ValueError) as exc:
            yield {"file": name}, f"{name} is not valid UTF-8 JSON: {exc}"
            continue
        except RecursionError:
            yield {"file": name}, f"{name}: JSON nested too deeply"
            continue
        if not isinstance(items, list):
            yield {"file": name}, f"{name} must hold a JSON array of entries"
            continue
        # Oldest versions first, so chains land in order.
        ordered = sorted(enumerate(items), key=lambda p: _version_of(p[1]))
        for index, raw in ordered:
            where = {"file": name, "index": index}
            if not isinstance(raw, dict):
                yield where, "entry is not a JSON object"
                continue
            try:
                yield where, convert(raw, default_type)
            except (ValueError, OverflowError, TypeError) as exc:
                yield where, str(exc)
    if not found:
        raise InvalidValue(f"{folder} holds neither user_memory.json nor env_memory.json")
