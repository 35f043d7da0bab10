"""Two-way sync with a hermes-agent folder (MEMORY.md / USER.md, `§`-separated)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine.bridge.sync import CONFLICT_TAG, HERMES_LIMITS, FolderSync, replace_if_unchanged
from engine.consolidation import Signals, Verdict
from engine.importers.hermes import split_entries
from engine.models import MemoryTier, MemoryType

MEMORY = ["The project uses sqlite 3.40", "Deploys run on Fridays", "The API listens on port 8080", "CI runs on every push"]
USER = ["The user prefers dark mode", "The user lives in Berlin"]


def write(folder: Path, name: str, entries: list[str]) -> None:
    (folder / name).write_text("\n§\n".join(entries) + "\n", encoding="utf-8")


def read(folder: Path, name: str) -> list[str]:
    """The file as hermes reads it."""
    return split_entries((folder / name).read_text(encoding="utf-8"))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "hermes"
    path.mkdir()
    write(path, "MEMORY.md", MEMORY)
    write(path, "USER.md", USER)
    return path


async def live(engine, type_=None) -> dict[str, str]:
    from engine import EntryFilter

    return {e.key: e.content for e in await engine.list_entries(EntryFilter(tier=MemoryTier.SEMANTIC, type=type_))}


async def by_content(engine, text: str):
    [entry] = [e for e in await engine.list_entries() if e.content == text and e.superseded_by is None]
    return entry


async def test_a_folder_lands_through_the_gate_once(engine, folder):
    report = await FolderSync(engine, "hermes", folder).run(write_back=False)
    assert len(report.landed) == 6 and not report.errors
    assert sorted((await live(engine, MemoryType.USER)).values()) == sorted(USER)
    writes = [r for r in await engine.audit(action="write")]
    assert {r.actor for r in writes} == {"sync:hermes"} and len(writes) == 6
    again = await FolderSync(engine, "hermes", folder).run(write_back=False)  # a fresh process, same state
    write(folder, "USER.md", USER)  # rewritten, same text: still nothing to do
    third = await FolderSync(engine, "hermes", folder).run(write_back=False)
    assert again.landed == third.landed == [] and len(await engine.audit(action="write")) == 6


async def test_curation_is_written_back_in_hermes_format(engine, folder, clock):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=False)
    sqlite, fridays = await by_content(engine, MEMORY[0]), await by_content(engine, MEMORY[1])
    port, ci = await by_content(engine, MEMORY[2]), await by_content(engine, MEMORY[3])
    await engine.edit(sqlite.id, "The project uses sqlite 3.45")
    await engine.pin(ci.id)
    await engine.archive(fridays.id)
    svc = engine.consolidation
    contradiction, _ = await svc.book.record(
        port, ci, Verdict(True, 0.4, "value", "port", "why", "test/1", {}), Signals(0.5, 0.5), "run-1", "test"
    )
    await svc.merge(contradiction.id, "The API listens on port 8080 and CI runs on every push")
    report = await sync.run(write_back=True)
    assert report.written == {"MEMORY.md": 2, "USER.md": 2} and not report.errors
    assert read(folder, "MEMORY.md") == [
        "The project uses sqlite 3.45",
        "The API listens on port 8080 and CI runs on every push",
    ] or read(folder, "MEMORY.md") == ["The API listens on port 8080 and CI runs on every push", "The project uses sqlite 3.45"]
    assert sorted(read(folder, "USER.md")) == sorted(USER)
    assert read(folder, "MEMORY.md.bak") == MEMORY  # the previous file is kept
    assert (await sync.run(write_back=True)).landed == []  # our own write does not come back in


async def test_pinned_and_important_entries_win_when_the_limit_cuts(engine, folder):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=False)
    filler = "x" * 900
    for n in range(3):
        await engine.add(f"big{n}", f"Big fact {n} {filler}", "environment", importance=0.9 - n / 10)
    await engine.pin((await by_content(engine, MEMORY[3])).id)
    report = await sync.run(write_back=True)
    written = read(folder, "MEMORY.md")
    assert written[0] == MEMORY[3]  # pinned first
    assert len((folder / "MEMORY.md").read_text(encoding="utf-8")) <= HERMES_LIMITS["MEMORY.md"] + 1
    assert f"Big fact 0 {filler}" in written and f"Big fact 2 {filler}" not in written
    assert "big2" in report.left_out


async def test_an_entry_removed_from_the_file_is_archived_not_purged(engine, folder):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=False)
    write(folder, "MEMORY.md", MEMORY[1:])
    report = await sync.run(write_back=False)
    gone = await by_content(engine, MEMORY[0])
    assert report.archived == [gone.key] and gone.tier is MemoryTier.ARCHIVAL


async def test_an_edit_in_the_file_becomes_a_new_version(engine, folder):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=True)
    write(folder, "USER.md", ["The user prefers dark mode in every editor", USER[1]])
    await sync.run(write_back=False)
    entry = await by_content(engine, "The user prefers dark mode in every editor")
    assert entry.version == 2 and len(await live(engine, MemoryType.USER)) == 2


async def test_conflicting_edits_on_both_sides_lose_no_text(engine, folder):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=True)
    dark = await by_content(engine, USER[0])
    await engine.edit(dark.id, "The user prefers dark mode, except in the terminal")  # a person, user_stated
    write(folder, "USER.md", ["The user prefers dark mode everywhere", USER[1]])  # the agent, meanwhile
    report = await sync.run(write_back=True)
    assert [c["key"] for c in report.conflicts] == [dark.key]
    texts = set((await live(engine, MemoryType.USER)).values())
    assert {"The user prefers dark mode, except in the terminal", "The user prefers dark mode everywhere"} <= texts
    sibling = await by_content(engine, "The user prefers dark mode everywhere")
    assert CONFLICT_TAG in sibling.tags
    assert {"The user prefers dark mode, except in the terminal", "The user prefers dark mode everywhere"} <= set(
        read(folder, "USER.md")
    )


async def test_both_sides_changed_at_agent_level_makes_a_new_version_keeping_the_old(engine, folder):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=True)
    berlin = await by_content(engine, USER[1])
    await engine.add(berlin.key, "The user lives in Berlin-Mitte", "user", actor="agent")  # model_inferred
    write(folder, "USER.md", [USER[0], "The user lives in Berlin since 2020"])
    report = await sync.run(write_back=False)
    head = await by_content(engine, "The user lives in Berlin since 2020")
    assert head.key == berlin.key and head.version == 3 and report.conflicts
    versions = {e.content for e in await engine.list_entries() if e.key == berlin.key}
    assert versions == {USER[1], "The user lives in Berlin-Mitte", "The user lives in Berlin since 2020"}


async def test_an_unreadable_file_is_reported_and_never_overwritten(engine, folder):
    sync = FolderSync(engine, "hermes", folder)
    await sync.run(write_back=True)
    broken = b"The user prefers dark mode\n\xff\xfe\n"
    (folder / "USER.md").write_bytes(broken)
    report = await sync.run(write_back=True)
    assert report.errors == ["USER.md is not UTF-8 (byte 27)"]
    assert (folder / "USER.md").read_bytes() == broken  # not written back over
    assert report.archived == [] and len(await live(engine, MemoryType.USER)) == 2
    assert report.written == {"MEMORY.md": 4}


async def test_a_missing_folder_is_a_clear_error(engine, tmp_path):
    sync = FolderSync(engine, "hermes", tmp_path / "gone")
    with pytest.raises(Exception, match="is not a folder"):
        await sync.run(write_back=False)


def test_a_file_changed_after_it_was_read_is_not_written_over(tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_text("The agent's newer text\n", encoding="utf-8")
    (tmp_path / ".MEMORY.md.k1lled.tmp").write_text("half a file")  # left by a killed write
    read_earlier = hashlib.sha256(b"The text we read\n").hexdigest()
    assert not replace_if_unchanged(path, b"Ours\n", read_earlier, None)
    assert path.read_text(encoding="utf-8") == "The agent's newer text\n"
    assert replace_if_unchanged(path, b"Ours\n", hashlib.sha256(path.read_bytes()).hexdigest(), None)
    assert path.read_bytes() == b"Ours\n" and (tmp_path / "MEMORY.md.bak").read_text() == "The agent's newer text\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md", "MEMORY.md.bak"]
