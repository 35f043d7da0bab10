"""A sync conflict (the folder and the store both changed one fact) follows the
spec's contradiction rules: the file's text is never lost, and the disagreement is a
contradiction record, resolved by the rules (higher provenance, then recency) or
left pending for a person (an unsure verdict, a pinned entry that would lose)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bridge.sync import CONFLICT_TAG, FolderSync
from engine.importers.hermes import split_entries

MEMORY = ["The project uses Python 3.12", "Deploys run on Fridays"]
USER = ["The user prefers dark mode", "The user lives in Berlin"]


def write(folder: Path, name: str, entries: list[str]) -> None:
    (folder / name).write_text("\n§\n".join(entries) + "\n", encoding="utf-8")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "hermes"
    path.mkdir()
    write(path, "MEMORY.md", MEMORY)
    write(path, "USER.md", USER)
    return path


async def entry_with(engine, text: str):
    [entry] = [e for e in await engine.list_entries() if e.content == text]
    return entry


async def test_a_person_and_the_file_disagreeing_is_resolved_by_provenance_and_nothing_is_lost(engine, folder):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=True)
    python = await entry_with(engine, MEMORY[0])
    person = (await engine.edit(python.id, "The project uses Python 3.13")).entry  # user_stated
    write(folder, "MEMORY.md", ["The project uses Python 3.11", MEMORY[1]])  # the agent, meanwhile
    report = await sync.run(write_back=True)
    [record] = await engine.consolidation.contradictions()
    assert {record.entry_a_id, record.entry_b_id} >= {person.id}
    assert record.status.value == "resolved" and record.detail["preview"]["rule"] == "provenance"
    assert report.conflicts[0]["contradiction"] == record.id
    agents = await entry_with(engine, "The project uses Python 3.11")  # kept, as a superseded version
    assert agents.superseded_by == person.id and CONFLICT_TAG in agents.tags
    written = split_entries((folder / "MEMORY.md").read_text(encoding="utf-8"))
    assert "The project uses Python 3.13" in written and "The project uses Python 3.11" not in written


async def test_a_disagreement_the_verifier_cannot_name_waits_for_a_person(engine, folder):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=True)
    dark = await entry_with(engine, USER[0])
    person = (await engine.edit(dark.id, "The user prefers dark mode, except in the terminal")).entry
    write(folder, "USER.md", ["The user prefers dark mode everywhere", USER[1]])
    report = await sync.run(write_back=True)
    [record] = await engine.consolidation.contradictions(status="pending")
    sibling = await entry_with(engine, "The user prefers dark mode everywhere")
    assert {record.entry_a_id, record.entry_b_id} == {person.id, sibling.id}
    assert "both" in record.description and dark.key in record.description
    assert report.conflicts[0]["contradiction"] == record.id
    assert sibling.superseded_by is None and person.superseded_by is None  # both stay until a person decides


async def test_an_agent_level_conflict_over_a_pinned_entry_stays_pending_instead_of_replacing_it(engine, folder, clock):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=True)
    python = await entry_with(engine, MEMORY[0])
    await engine.pin(python.id)  # a person's pin: never superseded automatically
    clock.advance(minutes=1)
    agent = (await engine.add(python.key, "The project uses Python 3.13", actor="agent")).entry
    clock.advance(minutes=1)
    write(folder, "MEMORY.md", ["The project uses Python 3.11", MEMORY[1]])
    report = await sync.run(write_back=False)
    head = await engine.get(agent.id)
    assert head.superseded_by is None and head.pinned  # the pinned fact was not replaced
    [record] = await engine.consolidation.contradictions(status="pending")
    other = await entry_with(engine, "The project uses Python 3.11")
    assert {record.entry_a_id, record.entry_b_id} == {agent.id, other.id}
    assert "pinned" in record.detail["preview"]["reason"]
    assert report.conflicts[0]["contradiction"] == record.id


async def test_a_write_back_cut_short_is_no_conflict(engine, folder):
    """The file already holds the store's new text (a write-back killed before it saved
    its state): nothing to keep beside, no contradiction, no duplicate in the file."""
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=True)
    deploys = await entry_with(engine, MEMORY[1])
    await engine.edit(deploys.id, "Deploys run on Thursdays")  # a person, user_stated
    write(folder, "MEMORY.md", [MEMORY[0], "Deploys run on Thursdays"])  # what the cut-short write-back wrote
    report = await sync.run(write_back=True)
    assert report.conflicts == [] and await engine.consolidation.contradictions() == []
    assert split_entries((folder / "MEMORY.md").read_text(encoding="utf-8")).count("Deploys run on Thursdays") == 1
