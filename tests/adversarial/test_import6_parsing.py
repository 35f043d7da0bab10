"""Issue 14, import speed: an imported line's enum fields are parsed through a table
of each member's spellings (a search over the members, per field per line, was most of
MemoryEntry.from_dict's time), and a name (key, tag, session key) that str.isprintable
passes skips the per-character check. Both must answer exactly as before."""

from __future__ import annotations

import sys
import unicodedata
from dataclasses import replace

import pytest

from engine.fields import _NOT_PRINTABLE
from engine.models import ContradictionStatus, InvalidValue, MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel

ENUMS = (MemoryType, MemoryTier, ProvenanceLevel, ContradictionStatus)


def searched(cls, text: str):
    """The first member, in member order, whose name or value reads as text."""
    wanted = text.strip().lower()
    return next((m for m in cls if m.name.lower() == wanted or str(m.value).lower() == wanted), None)


@pytest.mark.parametrize("cls", ENUMS)
def test_every_spelling_parses_to_the_member_a_search_finds(cls):
    for member in cls:
        for text in (member.name, member.name.lower(), f"  {member.name.title()} ", str(member.value)):
            assert cls.parse(text) is searched(cls, text) is not None


@pytest.mark.parametrize("cls", ENUMS)
def test_an_unknown_spelling_is_refused_naming_the_choices(cls):
    with pytest.raises(InvalidValue, match="expected one of"):
        cls.parse("no such member")


def test_from_dict_still_refuses_an_unknown_field_by_name():
    with pytest.raises(InvalidValue, match="unknown field.*colour"):
        MemoryEntry.from_dict({"key": "k", "content": "c", "colour": "red"})


def test_no_character_isprintable_passes_is_one_a_name_refuses():
    refused = [
        hex(cp)
        for cp in range(sys.maxunicode + 1)
        if chr(cp).isprintable() and (unicodedata.category(chr(cp)) in _NOT_PRINTABLE or (chr(cp).isspace() and chr(cp) != " "))
    ]
    assert refused == []


def test_with_fields_copies_as_replace_does_and_refuses_an_unknown_field():
    entry = MemoryEntry(key="k", content="c", tags=["a"], source=ProvenanceLevel.USER_STATED, pinned=True)
    copy = entry.with_fields(source=ProvenanceLevel.LEGACY, pinned=False)
    assert copy == replace(entry, source=ProvenanceLevel.LEGACY, pinned=False)
    assert (entry.source, entry.pinned) == (ProvenanceLevel.USER_STATED, True)  # the original is untouched
    with pytest.raises(TypeError, match="colour"):
        entry.with_fields(colour="red")
