"""source: in the one query language: a provenance word keeps meaning provenance,
anything else is where the entry came from (a prefix of mcp:claude-code, sync:hermes,
person…); an empty value is named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import InvalidValue, ProvenanceLevel
from engine.query import parse_entry_filter


@pytest.mark.parametrize(
    "text, origin",
    [
        ("source:mcp", "mcp"),
        ("source:mcp:claude-code", "mcp:claude-code"),
        ("source:sync", "sync"),
        ("SOURCE:sync:hermes deploy", "sync:hermes"),
        ("source:person", "person"),
    ],
)
def test_source_names_where_entries_came_from(text, origin):
    flt = parse_entry_filter(text)
    assert (flt.origin, flt.source) == (origin, None)


def test_source_with_a_provenance_word_still_filters_provenance():
    flt = parse_entry_filter("source:cons")
    assert (flt.source, flt.origin) == (ProvenanceLevel.CONSOLIDATED, None)
    both = parse_entry_filter("source:user source:mcp words")
    assert (both.source, both.origin, both.text) == (ProvenanceLevel.USER_STATED, "mcp", "words")


def test_prov_never_reads_an_origin():
    with pytest.raises(InvalidValue, match="unknown provenance 'mcp'"):
        parse_entry_filter("prov:mcp")


def test_an_empty_source_says_what_it_needs():
    with pytest.raises(InvalidValue, match="source: needs a value"):
        parse_entry_filter("source:")


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=30).filter(lambda v: v.strip() and " " not in v and '"' not in v and "'" not in v))
def test_any_source_value_is_a_provenance_or_an_origin(value):
    try:
        flt = parse_entry_filter(f"source:{value}")
    except InvalidValue as exc:
        assert str(exc)
        return
    assert (flt.source is None) != (flt.origin is None)
