"""hermes-agent memory: MEMORY.md (environment facts) and USER.md (the user),
entries separated by a line holding only `§`. They carry no provenance, so they
come in as legacy; the key is a slug of each entry's first words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from ..models import InvalidValue, MemoryEntry, MemoryType, ProvenanceLevel
from . import read_capped

FILES = {"MEMORY.md": MemoryType.ENVIRONMENT, "USER.md": MemoryType.USER}
_SEPARATOR = re.compile(r"^\s*§\s*$", re.MULTILINE)


# Short enough that "hermes/", the slug and a "-N" for repeats stay well inside a key.
MAX_SLUG_CHARS = 64


def slug(text: str, words: int = 6) -> str:
    tokens = re.findall(r"\w+", text.lower())[:words]
    return "-".join(tokens)[:MAX_SLUG_CHARS].rstrip("-_") or "entry"


def split_entries(text: str) -> list[str]:
    return [part.strip() for part in _SEPARATOR.split(text) if part.strip()]


def read_folder(folder: Path) -> Iterator[tuple[dict, MemoryEntry | str]]:
    found = False
    for name, type_ in FILES.items():
        path = folder / name
        if not path.exists():
            continue
        found = True
        try:
            text = read_capped(path).decode("utf-8")
        except InvalidValue as exc:
            yield {"file": name}, str(exc)
            continue
        except UnicodeDecodeError as exc:
            yield {"file": name}, f"{name} is not UTF-8 (byte {exc.start})"
            continue
        seen: dict[str, int] = {}
        for index, body in enumerate(split_entries(text)):
            key = f"hermes/{slug(body)}"
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                key = f"{key}-{seen[key]}"
            yield (
                {"file": name, "index": index},
                MemoryEntry(
                    key=key,
                    content=body,
                    type=type_,
                    source=ProvenanceLevel.LEGACY,
                    tags=["hermes"],
                ),
            )
    if not found:
        raise InvalidValue(f"{folder} holds neither MEMORY.md nor USER.md")
