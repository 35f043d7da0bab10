"""Readers that turn other memory formats into MemoryEntry objects; landing them
is the engine's job (through the write gate)."""

from __future__ import annotations

from pathlib import Path

# Other agents' memory files are read whole (a JSON array, a markdown file): far
# beyond any real memory folder, and refused before reading past it.
MAX_FILE_BYTES = 64 << 20


def read_capped(path: Path) -> bytes:
    """The file's bytes, or InvalidValue naming the file when it is larger than MAX_FILE_BYTES."""
    from ..models import InvalidValue

    limit = MAX_FILE_BYTES
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise InvalidValue(f"{path.name} is larger than {limit:,} bytes; not read")
    return data
