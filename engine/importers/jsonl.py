"""Our own export format: one MemoryEntry.to_dict() per line, then one line per
relevance judgment ({"record": "judgment", ...}; engine/judgments.py). An export made
before judgments existed has only entry lines and reads the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, Optional

from ..judgments import Judgment
from ..models import InvalidValue, MemoryEntry

# A line holds one entry: 65,536 characters of content at most 4 bytes each, plus the
# other fields. Anything longer is refused without being read whole.
MAX_LINE_BYTES = 1 << 20


def bounded_lines(fh: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[tuple[int, Optional[bytes]]]:
    """Yield (line number, bytes) for each line, or (line number, None) for a line longer
    than limit bytes, which is skipped in chunks so memory stays bounded."""
    line_no = 0
    while True:
        line = fh.readline(limit + 1)
        if not line:
            return
        line_no += 1
        if len(line) > limit and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = fh.readline(limit)
            yield line_no, None
            continue
        yield line_no, line


def parse_json_line(line: Optional[bytes], limit: int = MAX_LINE_BYTES) -> tuple[Any, Optional[str]]:
    """(value, None) for a line of UTF-8 JSON, or (None, why not)."""
    if line is None:
        return None, f"line is longer than {limit:,} bytes; not read"
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 (byte {exc.start})"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"malformed JSON: {exc.msg} at column {exc.colno}"
    except RecursionError:
        return None, "JSON nested too deeply"
    except ValueError as exc:  # e.g. an integer literal of thousands of digits
        return None, f"malformed JSON: {exc}"


def _read_objects(path: Path) -> Iterator[tuple[int, Optional[dict], Optional[str]]]:
    """(line number, object, None) or (line number, None, error) for each non-blank line."""
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise InvalidValue(f"cannot read {path}: {exc.strerror}") from exc
    with fh:
        for line_no, line in bounded_lines(fh):
            if line is not None and not line.strip():
                continue
            data, error = parse_json_line(line)
            if error is None and not isinstance(data, dict):
                error = "expected a JSON object"
            yield line_no, (data if error is None else None), error


def _is_judgment(data: Optional[dict]) -> bool:
    return data is not None and data.get("record") == "judgment"


def _entry_line(line_no: int, data: Optional[dict], error: Optional[str]) -> tuple[int, Optional[MemoryEntry], Optional[str]]:
    if data is None:
        return line_no, None, error
    try:
        return line_no, MemoryEntry.from_dict(data), None
    except (ValueError, OverflowError, TypeError) as exc:
        return line_no, None, str(exc)


def _judgment_line(line_no: int, data: dict) -> tuple[int, Optional[Judgment], Optional[str]]:
    try:
        return line_no, Judgment.from_record(data), None
    except (ValueError, OverflowError, TypeError) as exc:
        return line_no, None, str(exc)


def read_jsonl_entries(path: Path) -> Iterator[tuple[int, Optional[MemoryEntry], Optional[str]]]:
    """Yield (line number, entry, None) or (line number, None, error) for each entry line."""
    for line_no, data, error in _read_objects(path):
        if not _is_judgment(data):
            yield _entry_line(line_no, data, error)


def read_jsonl_export(
    path: Path, on_entries: Optional[Callable[[list[MemoryEntry]], None]] = None, chunk: int = 5000
) -> tuple[list[tuple[int, Optional[MemoryEntry], Optional[str]]], list[tuple[int, Optional[Judgment], Optional[str]]]]:
    """(entry lines, judgment lines) of an export, as read_jsonl_entries yields them, from
    one pass that parses each line once: JSON decoding is most of reading a large file.
    ``on_entries`` gets the valid entries every ``chunk`` lines, while the rest is read
    (an import starts scanning them)."""
    entries, judgments = [], []
    fresh: list[MemoryEntry] = []
    for line_no, data, error in _read_objects(path):
        if _is_judgment(data):
            judgments.append(_judgment_line(line_no, data or {}))
        else:
            entries.append(_entry_line(line_no, data, error))
            entry = entries[-1][1]
            if on_entries is not None and entry is not None:
                fresh.append(entry)
                if len(fresh) >= chunk:
                    on_entries(fresh)
                    fresh = []
    if on_entries is not None and fresh:
        on_entries(fresh)
    return entries, judgments
