"""The one query language (engine.query): time tokens, entry and episode filter
tokens and their abbreviations. Whatever a person types, its parsers either
answer or raise the engine's InvalidValue with a message naming the token."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import InvalidValue, MemoryTier, MemoryType, ProvenanceLevel
from engine.query import parse_entry_filter, parse_episode_filter, parse_time

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    "text, message",
    [
        ("since:99999999d", "before year 1"),
        ("since:1" + "0" * 400 + "d", "before year 1"),
        ("until:nope", "is not a time"),
        ("since:", "since: needs a value"),
    ],
)
def test_nonsense_time_tokens_say_what_is_wrong(text, message):
    with pytest.raises(InvalidValue, match=message):
        parse_episode_filter(text, NOW)


@pytest.mark.parametrize(
    "text, message",
    [
        ("tier:nope", "unknown tier 'nope'"),
        ("prov:", "prov: needs a value"),
        ("type:x", "unknown type 'x'"),
    ],
)
def test_nonsense_entry_tokens_say_what_is_wrong(text, message):
    with pytest.raises(InvalidValue, match=message):
        parse_entry_filter(text)


def test_abbreviations_work_for_every_kind_of_token():
    flt = parse_entry_filter("tier:sem type:env prov:cons pinned words here")
    assert (flt.tier, flt.type, flt.source, flt.pinned, flt.text) == (
        MemoryTier.SEMANTIC,
        MemoryType.ENVIRONMENT,
        ProvenanceLevel.CONSOLIDATED,
        True,
        "words here",
    )
    assert parse_entry_filter("tier:EPI").tier is MemoryTier.EPISODIC
    assert parse_entry_filter("tier:a").tier is MemoryTier.ARCHIVAL
    assert parse_entry_filter("prov:user").source is ProvenanceLevel.USER_STATED


def test_time_tokens_read_spans_and_dates():
    assert parse_time("3d", NOW) == NOW - timedelta(days=3)
    assert parse_time("90s", NOW) == NOW - timedelta(seconds=90)
    assert parse_time("2026-11-01", NOW) == datetime(2026, 11, 1, tzinfo=timezone.utc)
    q = parse_episode_filter("entity:atlas since:2w until:1d deploy", NOW)
    assert (q.entity, q.since, q.until, q.text) == ("atlas", NOW - timedelta(weeks=2), NOW - timedelta(days=1), "deploy")


TOKENS = st.one_of(
    st.text(max_size=30),
    st.builds(
        lambda k, v: f"{k}:{v}",
        st.sampled_from(["tier", "type", "prov", "source", "tag", "session", "pinned", "since", "until", "entity"]),
        st.one_of(st.text(max_size=20), st.from_regex(r"\d{1,30}(\.\d{0,5})?[smhdw]", fullmatch=True)),
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(TOKENS, max_size=5).map(" ".join))
def test_parsers_raise_nothing_but_invalid_value(text):
    for parse in (lambda: parse_entry_filter(text), lambda: parse_episode_filter(text, NOW)):
        try:
            parse()
        except InvalidValue as exc:
            assert str(exc)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_time_parser_raises_nothing_but_invalid_value(text):
    try:
        parse_time(text, NOW)
    except InvalidValue as exc:
        assert str(exc)
