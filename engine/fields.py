"""The limits and grammar of every string the engine stores, in one place, so the
gate, imports, consolidation, sessions and the CLI refuse the same things with the
same words. Each check raises InvalidValue naming the field and the limit."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable, Mapping, Optional

from .models import InvalidValue
from .scanner import MAX_CONTENT_CHARS

MAX_KEY_CHARS = 256
MAX_TAG_CHARS = 64
MAX_TAGS = 32
MAX_SESSION_KEY_CHARS = 256
MAX_ID_CHARS = 128
MAX_MESSAGE_CHARS = 262_144
MAX_SUMMARY_CHARS = MAX_CONTENT_CHARS
MAX_ENTITIES = 256
MAX_ACTOR_CHARS = 256
AUDIT_EXCERPT_CHARS = 2048

# Ids are UUIDs here; other agents' files use short names ("u1", "mem-0042"), and
# embedding ids carry a model stamp ("all-MiniLM-L6-v2:384"). Never spaces or markup.
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+-]*\Z")
# Control, surrogate, private-use and unassigned code points, and the line and
# paragraph separators: none of them belongs in a one-line name. Invisible format
# characters (Cf) are the scanner's: refused there, audited, shown in quarantine.
_NOT_PRINTABLE = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}


def require_str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidValue(f"{field} must be a string, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidValue(f"{field} is not valid UTF-8 text (undecodable byte at offset {exc.start})") from None
    return value


def _check_length(value: str, field: str, limit: int) -> None:
    if len(value) > limit:
        raise InvalidValue(f"{field} is {len(value):,} characters; the limit is {limit:,}")


def validate_name(value: Any, field: str, limit: int) -> str:
    """A one-line printable name (key, tag, session key): not empty, no control
    characters or line breaks, no leading or trailing whitespace."""
    value = require_str(value, field)
    _check_length(value, field, limit)
    if not value.strip():
        raise InvalidValue(f"{field} must not be empty")
    if value != value.strip():
        raise InvalidValue(f"{field} {value[:40]!r} has leading or trailing whitespace")
    if value.isprintable():
        # Printable (str.isprintable) rules out every refused category and every space
        # but " ": the common case, at C speed; otherwise find the character to name.
        return value
    for offset, ch in enumerate(value):
        if unicodedata.category(ch) in _NOT_PRINTABLE or (ch.isspace() and ch != " "):
            raise InvalidValue(
                f"{field} contains U+{ord(ch):04X} at offset {offset}; only printable characters and plain spaces are allowed"
            )
    return value


def validate_key(value: Any) -> str:
    return validate_name(value, "key", MAX_KEY_CHARS)


def validate_session_key(value: Any, field: str = "session key") -> str:
    return validate_name(value, field, MAX_SESSION_KEY_CHARS)


def validate_tags(tags: Any) -> list[str]:
    """A list of tags, each trimmed, empty ones dropped; a bare string is refused (it
    would become one tag per letter), and so is a mapping (its keys are not tags)."""
    if isinstance(tags, (str, bytes, Mapping)) or not isinstance(tags, Iterable):
        raise InvalidValue(f"tags must be a list of strings, got {type(tags).__name__}")
    tags = [require_str(tag, f"tag {i + 1}").strip() for i, tag in enumerate(tags)]
    tags = [tag for tag in tags if tag]
    if len(tags) > MAX_TAGS:
        raise InvalidValue(f"{len(tags)} tags; the limit is {MAX_TAGS}")
    return [validate_name(tag, f"tag {i + 1}", MAX_TAG_CHARS) for i, tag in enumerate(tags)]


def validate_content(value: Any, field: str = "content", limit: int = MAX_CONTENT_CHARS) -> str:
    """Length first, so an oversize text is refused before any other work on it."""
    if isinstance(value, str):
        _check_length(value, field, limit)
    value = require_str(value, field)
    if not value.strip():
        raise InvalidValue(f"{field} must not be empty")
    return value


def validate_id(value: Any, field: str = "id", optional: bool = False) -> Optional[str]:
    """An identifier: 1-128 letters, digits and . _ : / @ + -, starting with a letter or digit."""
    if value is None or (optional and value == ""):
        if optional:
            return value
        raise InvalidValue(f"{field} must not be empty")
    value = require_str(value, field)
    _check_length(value, field, MAX_ID_CHARS)
    if not _ID.match(value):
        raise InvalidValue(f"{field} {value[:40]!r} is not an id (letters, digits and . _ : / @ + - only)")
    return value


def validate_message(content: Any) -> str:
    """A session message: text under MAX_MESSAGE_CHARS (checked before anything else)."""
    return validate_content(content, "message", MAX_MESSAGE_CHARS)


def excerpt(text: str) -> dict[str, Any]:
    """What the audit log keeps of a refused text: its start, length and sha256, so a
    huge refusal costs the store a few KB while the exact text stays identifiable."""
    import hashlib

    return {
        "excerpt": text[:AUDIT_EXCERPT_CHARS],
        "length": len(text),
        "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
    }
