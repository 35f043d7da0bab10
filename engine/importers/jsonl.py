"""Our own export format: one MemoryEntry.to_dict() per line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator, Optional

from ..models import InvalidValue, MemoryEntry


def read_jsonl_entries(path: Path) -> Iterator[tuple[int, Optional[MemoryEntry], Optional[str]]]:
    """Yield (line number, entry, None) or (line number, None, error) for each non-blank line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InvalidValue(f"cannot read {path}: {exc.strerror}") from exc
    for line_no, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield line_no, None, f"not UTF-8 (byte {exc.start})"
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            yield line_no, None, f"malformed JSON: {exc.msg} at column {exc.colno}"
            continue
        if not isinstance(data, dict):
            yield line_no, None, "expected a JSON object"
            continue
        try:
            yield line_no, MemoryEntry.from_dict(data), None
        except InvalidValue as exc:
            yield line_no, None, str(exc)
