"""Where each entry came from: the actor of its first audit row, named as people read
it (person, consolidation, mcp:claude-code, sync:hermes, import:…), fetched for a
page of entries at once, and filterable with source:."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from engine import Actor, EntryFilter, ProvenanceLevel, parse_entry_filter
from engine.bridge.sync import FolderSync


async def seed(engine, tmp_path: Path) -> dict[str, str]:
    """One entry from each kind of writer; key -> id."""
    ids = {}
    ids["by-person"] = (await engine.add("by-person", "The user types in Dvorak", source="user_stated")).entry.id
    claude = Actor.mcp_client("claude-code", ProvenanceLevel.USER_STATED)
    ids["by-claude"] = (await engine.add("by-claude", "Builds run with make", actor=claude)).entry.id
    cursor = Actor.mcp_client("cursor", ProvenanceLevel.USER_STATED)
    ids["by-cursor"] = (await engine.add("by-cursor", "Tests use pytest", actor=cursor)).entry.id
    ids["by-pipeline"] = (await engine.add("by-pipeline", "The team meets on Mondays", actor="consolidation")).entry.id
    folder = tmp_path / "hermes"
    folder.mkdir()
    (folder / "MEMORY.md").write_text("The staging host is atlas-2\n", encoding="utf-8")
    await FolderSync(engine, "hermes", folder).run(write_back=False)
    [synced] = [e for e in await engine.list_entries() if e.content == "The staging host is atlas-2"]
    ids["by-sync"] = synced.id
    return ids


async def test_origins_name_each_writer_for_a_whole_page(engine, tmp_path):
    ids = await seed(engine, tmp_path)
    origins = await engine.entry_origins(ids.values())
    assert {key: origins[i].origin for key, i in ids.items()} == {
        "by-person": "person",
        "by-claude": "mcp:claude-code",
        "by-cursor": "mcp:cursor",
        "by-pipeline": "consolidation",
        "by-sync": "sync:hermes",
    }


async def test_an_edit_by_the_person_is_the_new_versions_origin_and_the_old_ones_last_touch(engine, tmp_path, clock):
    ids = await seed(engine, tmp_path)
    clock.advance(minutes=1)
    edited = (await engine.edit(ids["by-claude"], "Builds run with make -j4")).entry
    origins = await engine.entry_origins([ids["by-claude"], edited.id])
    assert origins[edited.id].origin == "person"
    old = origins[ids["by-claude"]]
    assert (old.origin, old.last, old.last_action) == ("mcp:claude-code", "person", "supersede")


async def test_source_filter_matches_where_entries_came_from_by_prefix(engine, tmp_path):
    await seed(engine, tmp_path)

    async def keys(text: str) -> set[str]:
        return {e.key for e in await engine.list_entries(parse_entry_filter(text))}

    assert await keys("source:mcp") == {"by-claude", "by-cursor"}
    assert await keys("source:mcp:claude-code") == {"by-claude"}
    assert await keys("source:MCP:Cursor") == {"by-cursor"}
    assert len(await keys("source:sync")) == 1 and await keys("source:sync:hermes") == await keys("source:sync")
    assert await keys("source:person") == {"by-person"}
    assert await keys("source:consolidation") == {"by-pipeline"}
    assert await keys("source:nobody-wrote-this") == set()
    assert await engine.count_entries(parse_entry_filter("source:mcp")) == 2
    # a provenance word still filters by provenance, as before
    assert await keys("source:user") == {"by-person"}


async def test_recent_writers_are_agents_seen_in_the_window(engine, tmp_path, clock):
    await seed(engine, tmp_path)
    clock.advance(minutes=30)
    late = Actor.mcp_client("hermes", ProvenanceLevel.MODEL_INFERRED)
    await engine.add("late", "The cache lives in /var/cache/app", actor=late)
    recent = await engine.recent_writers(clock() - timedelta(minutes=10))
    assert [w.actor for w in recent] == ["mcp:hermes"]
    everyone = {w.actor for w in await engine.recent_writers(clock() - timedelta(hours=1))}
    assert everyone == {"mcp:hermes", "mcp:claude-code", "mcp:cursor", "sync:hermes"}


async def test_entry_filter_origin_is_a_plain_field(engine, tmp_path):
    await seed(engine, tmp_path)
    assert await engine.count_entries(EntryFilter(origin="sync:hermes")) == 1
