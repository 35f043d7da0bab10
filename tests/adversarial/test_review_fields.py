"""Review of issue 8 items 1 and 16 along the API: a mapping is not a list of
tags, and a key that ends in a backslash cannot unclose its own bold in the prompt."""

from __future__ import annotations

import pytest

from engine import InvalidValue


async def test_tags_given_as_a_mapping_are_refused(engine):
    with pytest.raises(InvalidValue, match="tags must be a list of strings, got dict"):
        await engine.add("proj/db", "pg 15", tags={"db": 1, "infra": 2})
    assert await engine.list_entries() == []


async def test_a_key_ending_in_a_backslash_still_renders_as_one_bold_key(engine):
    await engine.add("path\\", "C:\\Users\\ada", "user", "user_stated")
    markdown = (await engine.core_snapshot()).markdown
    # CommonMark: "\\" is one literal backslash, so the closing ** still closes the key.
    assert "- **path\\\\**: C:\\Users\\ada" in markdown
