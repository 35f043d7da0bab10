"""The query language people type: time tokens (ISO dates, spans back from now),
the entry filter (the browser's `/`, tokens like `tier:sem type:env prov:cons`)
and the episode filter (`entity: session: since: until:`). One module, so the
CLI and the app read the same words the same way; every parser answers or
raises InvalidValue naming the token, never anything else."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Mapping, Optional, TypeVar

from .errors import InvalidValue
from .memory import EntryFilter
from .models import MemoryTier, MemoryType, ProvenanceLevel, _NamedEnum, from_iso

SPAN = re.compile(r"^(\d+(?:\.\d+)?)\s*([smhdw])$")
UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}

# Words people type for a value besides the name's unique prefix (`tier:sem`).
TYPE_ALIASES = {"env": "environment", "usr": "user"}
PROVENANCE_ALIASES = {
    "user": "user_stated",
    "inferred": "model_inferred",
    "model": "model_inferred",
    "cons": "consolidated",
    "infr": "model_inferred",
    "legc": "legacy",
}
SOURCE_NAMES = ("source", "prov", "provenance", "src")
EPISODE_NAMES = ("entity", "session", "since", "until")

E = TypeVar("E", bound=_NamedEnum)


def parse_time(value: str, now: datetime) -> datetime:
    """An ISO date or time (naive means UTC), or a span back from now such as 7d, 12h, 2w."""
    text = value.strip()
    relative = SPAN.match(text.lower())
    if relative:
        try:
            return now - timedelta(**{UNITS[relative.group(2)]: float(relative.group(1))})
        except OverflowError:
            raise InvalidValue(f"{value!r} reaches back before year 1") from None
    try:
        parsed = from_iso(text)
    except (ValueError, OverflowError):
        parsed = None
    if parsed is None:
        raise InvalidValue(f"{value!r} is not a time: use an ISO date (2026-11-01), a time, or a span like 7d, 12h, 2w")
    return parsed


def parse_time_option(value: Optional[str], now: datetime) -> Optional[datetime]:
    """parse_time for an option that may be absent."""
    return None if value is None else parse_time(value, now)


def parse_choice(kind: type[E], label: str, value: str, aliases: Mapping[str, str] = {}) -> E:
    """A member by name, value, alias, or unique prefix of its name; otherwise name the choices."""
    wanted = aliases.get(value.strip().lower(), value.strip().lower())
    try:
        return kind.parse(wanted)
    except InvalidValue:
        pass
    prefixed = [m for m in kind if wanted and m.name.lower().startswith(wanted)]
    if len(prefixed) == 1:
        return prefixed[0]
    choices = ", ".join(m.name.lower() for m in kind)
    raise InvalidValue(f"unknown {label} {value!r} (expected one of: {choices})")


def parse_tier(value: str) -> MemoryTier:
    return parse_choice(MemoryTier, "tier", value)


def parse_type(value: str) -> MemoryType:
    return parse_choice(MemoryType, "type", value, TYPE_ALIASES)


def parse_provenance(value: str) -> ProvenanceLevel:
    return parse_choice(ProvenanceLevel, "provenance", value, PROVENANCE_ALIASES)


def split_tokens(text: str) -> list[str]:
    """Words, with quotes grouping ("tag:two words"); an unbalanced quote is just a character."""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def parse_entry_filter(text: str, tier: Optional[str] = None) -> EntryFilter:
    """Free words match key or content; tier: type: prov: tag: session: source: (a
    provenance, or where the entry came from) pinned / -pinned / pinned:no."""
    flt = EntryFilter(tier=parse_tier(tier) if tier else None)
    words: list[str] = []
    for token in split_tokens(text):
        name, sep, value = token.partition(":")
        name = name.lower()
        if not sep:
            if name in ("pinned", "+pinned"):
                flt.pinned = True
            elif name == "-pinned":
                flt.pinned = False
            else:
                words.append(token)
            continue
        if not value:
            raise InvalidValue(f"{name}: needs a value, e.g. {name}:something")
        if name == "tier":
            flt.tier = parse_tier(value)
        elif name == "type":
            flt.type = parse_type(value)
        elif name == "source":
            flt.source, flt.origin = parse_source(value, flt)
        elif name in SOURCE_NAMES:
            flt.source = parse_provenance(value)
        elif name == "tag":
            if flt.tag is not None:
                raise InvalidValue("one tag: at a time")
            flt.tag = value
        elif name == "session":
            flt.session = value
        elif name == "pinned":
            flt.pinned = parse_yes_no(name, value)
        else:
            words.append(token)
    flt.text = " ".join(words) or None
    return flt


def parse_source(value: str, flt: EntryFilter) -> tuple[Optional[ProvenanceLevel], Optional[str]]:
    """source: is a provenance when the value names one (source:user, source:cons), else
    where the entry came from, by prefix: source:mcp, source:mcp:claude-code, source:sync,
    source:person, source:import, source:consolidation."""
    if not value.strip():
        raise InvalidValue("source: needs a value, e.g. source:mcp or source:user")
    try:
        return parse_provenance(value), flt.origin
    except InvalidValue:
        return flt.source, value.strip()


def parse_yes_no(name: str, value: str) -> bool:
    if value.lower() in ("yes", "true", "1", "y"):
        return True
    if value.lower() in ("no", "false", "0", "n"):
        return False
    raise InvalidValue(f"{name}:{value}: expected {name}:yes or {name}:no")


@dataclass
class EpisodeQuery:
    entity: Optional[str] = None
    session: Optional[str] = None
    since: Optional[datetime] = None
    until: Optional[datetime] = None
    text: Optional[str] = None


def parse_episode_filter(text: str, now: datetime) -> EpisodeQuery:
    """entity:NAME session:KEY since:7d|DATE until:DATE; other words match the summary."""
    q = EpisodeQuery()
    words = []
    for token in split_tokens(text):
        name, sep, value = token.partition(":")
        name = name.lower()
        if sep and name in EPISODE_NAMES and not value:
            raise InvalidValue(f"{name}: needs a value")
        if sep and name == "entity":
            q.entity = value
        elif sep and name == "session":
            q.session = value
        elif sep and name == "since":
            q.since = parse_time(value, now)
        elif sep and name == "until":
            q.until = parse_time(value, now)
        else:
            words.append(token)
    if q.since and q.until and q.since > q.until:
        raise InvalidValue("since: is after until:")
    q.text = " ".join(words) or None
    return q
