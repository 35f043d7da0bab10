"""Issue 9 item 13: over the char budget the WORKING tier loses its least important
entries first; it never keeps a smaller, less important note in place of a larger,
more important one."""

from __future__ import annotations


async def test_budget_cuts_the_least_important_first(engine, clock):
    for key, importance, size in (("user/name", 0.9, 40), ("user/language", 0.8, 120), ("user/editor", 0.6, 20)):
        clock.advance(seconds=1)
        await engine.remember_working("s", key, "w" * size, importance=importance)
    rendered = await engine.render_working("s", char_budget=150)
    assert [e.key for e in rendered.included] == ["user/name"]
    assert [e.key for e in rendered.cut] == ["user/language", "user/editor"]
    kept = min(e.importance for e in rendered.included)
    assert all(e.importance <= kept for e in rendered.cut)
    assert len(rendered.markdown) <= 150


async def test_a_newer_note_for_a_key_replaces_the_older_one_in_the_working_prompt(engine, clock):
    await engine.remember_working("s", "user/name", "Ada")
    clock.advance(seconds=1)
    await engine.remember_working("s", "user/name", "Eve")
    rendered = await engine.render_working("s")
    assert [line for line in rendered.markdown.splitlines() if "user/name" in line] == ["- **user/name**: Eve"]
    assert [e.content for e in await engine.working_entries("s")] == ["Eve"]


async def test_a_working_note_cannot_replace_a_more_credible_one(engine, clock):
    import pytest

    from engine import WriteRejected

    await engine.remember_working("s", "user/tz", "UTC+1", source="consolidated", actor="consolidation")
    with pytest.raises(WriteRejected) as info:
        await engine.remember_working("s", "user/tz", "UTC-5")
    assert info.value.reason == "provenance_guard"
    assert [e.content for e in await engine.working_entries("s")] == ["UTC+1"]


async def test_working_markdown_escapes_emphasis_but_keeps_ordinary_text(engine):
    await engine.remember_working("s", "tool/last", "Ran `pytest tests/test_export.py` in C:\\work; __boss__ **x**")
    line = (await engine.render_working("s")).markdown.splitlines()[1]
    assert line == "- **tool/last**: Ran `pytest tests/test_export.py` in C:\\work; \\_\\_boss\\_\\_ \\*\\*x\\*\\*"
