"""`scan --jsonl`: JSON lines in, one verdict per line out, scored in chunks.

The lines that have arrived (up to CHUNK_LINES) are scored together through
scan_many, so the learned layer is batched and a repeated text is scanned once;
each verdict is exactly what the text alone would get. A chunk ends early when
nothing more is waiting on the input, so a caller writing one line and waiting
for its answer gets it at once; each chunk's answers are flushed together."""

from __future__ import annotations

import json
import select
from typing import BinaryIO, Iterator, Optional, TextIO

from .importers.jsonl import bounded_lines, parse_json_line
from .scanner import scan_many

_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
"""One encoder for every verdict (json.dumps with an option builds one per call)."""

CHUNK_LINES = 256
"""Most lines scored in one scan_many call: the learned layer's batching has paid off
well before this, and a chunk's answers wait for its slowest line."""


def _more_waiting(fh: BinaryIO) -> bool:
    """Can the next line be read without waiting for the writer? Always for a file or
    an in-memory stream; for a pipe or terminal, when its descriptor has data (a line
    still in the reader's buffer ends the chunk early: harmless)."""
    try:
        fd = fh.fileno()
    except (OSError, ValueError):  # io.BytesIO and the like: everything has arrived
        return True
    try:
        ready, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(ready)


def _chunks(fh: BinaryIO, size: int) -> Iterator[list[tuple[int, Optional[bytes]]]]:
    """(line number, raw line) lists of at most ``size``, each ending when the input
    has no more lines waiting; blank lines are skipped."""
    chunk: list[tuple[int, Optional[bytes]]] = []
    for line_no, raw in bounded_lines(fh):
        if raw is None or raw.strip():
            chunk.append((line_no, raw))
        if chunk and (len(chunk) >= size or not _more_waiting(fh)):
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _parse(line_no: int, raw: Optional[bytes]) -> tuple[Optional[str], Optional[dict]]:
    """(text, None) for a line holding {"text": "..."}; else (None, the invalid_input record)."""
    data, error = parse_json_line(raw)
    if error is None and not (isinstance(data, dict) and isinstance(data.get("text"), str)):
        error = 'expected a JSON object {"text": "..."}'
    if error is not None:
        # Unreadable input is refused like any other write would be.
        return None, {"line": line_no, "blocked": True, "reason": "invalid_input", "error": error}
    return data["text"], None


def scan_jsonl(fh: BinaryIO, out: TextIO, chunk_lines: int = CHUNK_LINES) -> None:
    """One JSON verdict per non-blank input line, in input order."""
    for chunk in _chunks(fh, chunk_lines):
        parsed = [_parse(line_no, raw) for line_no, raw in chunk]
        verdicts = iter(scan_many(text for text, _ in parsed if text is not None))
        for text, refusal in parsed:
            if text is None:
                out.write(json.dumps(refusal) + "\n")
            else:
                out.write(_ENCODE(next(verdicts).to_dict()) + "\n")
        out.flush()
