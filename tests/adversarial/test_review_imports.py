"""Review of issue 8 items 3, 9, 10 and 16 along other import paths: an archived
line stays archived history, another agent's entry is not lost to the key the
importer made up for it, and a store's own export always imports back."""

from __future__ import annotations

import json

from engine import MemoryEngine, MemoryTier
from engine.cli import main
from engine.fields import MAX_KEY_CHARS
from engine.models import MAX_COUNT, MemoryEntry, ProvenanceLevel


async def test_an_archived_line_never_replaces_a_live_entry(engine, tmp_path):
    live = (await engine.add("db/engine", "Postgres 16", source="legacy")).entry
    old = MemoryEntry(key="db/engine", content="MySQL 5.7 (the user wants it back)", tier=MemoryTier.ARCHIVAL)
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(old.to_dict()) + "\n")
    report = await engine.import_jsonl(path)
    assert report.landed == 0 and report.refused[0]["line"] == 1 and report.refused[0]["reason"] == "key_taken"
    current = [e for e in await engine.list_entries() if e.tier is MemoryTier.SEMANTIC]
    assert [(e.id, e.content) for e in current] == [(live.id, "Postgres 16")]


async def test_an_archived_line_for_a_new_key_lands_archived(engine, tmp_path):
    old = MemoryEntry(key="db/engine", content="MySQL 5.7", tier=MemoryTier.ARCHIVAL)
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(old.to_dict()) + "\n")
    assert (await engine.import_jsonl(path)).landed == 1
    assert (await engine.get(old.id)).tier is MemoryTier.ARCHIVAL


def test_a_hermes_entry_with_a_long_first_word_is_not_lost(tmp_path, capsys):
    folder = tmp_path / "hermes"
    folder.mkdir()
    url = "https://example.com/" + "a" * 300
    (folder / "MEMORY.md").write_text(f"{url} is the deploy dashboard\n§\nDeploys run on Fridays\n")
    db = str(tmp_path / "m.db")
    assert main(["--db", db, "import", "--from", "hermes", str(folder)]) == 0
    assert "landed 2, unchanged 0, refused 0" in capsys.readouterr().out
    assert main(["--db", db, "list", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert any(e["content"].startswith(url) for e in entries)
    assert all(len(e["key"]) <= MAX_KEY_CHARS for e in entries)


async def test_a_store_reimports_its_export_after_counts_reach_their_limit(engine, tmp_path):
    """Rehearsal never pushes access_count past what an import accepts."""
    busy = MemoryEntry(key="tool/editor", content="Uses Helix", access_count=MAX_COUNT)
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(busy.to_dict()) + "\n")
    assert (await engine.import_jsonl(path)).landed == 1
    await engine.record_access([busy.id])
    assert (await engine.get(busy.id)).access_count == MAX_COUNT
    await engine.export_jsonl(tmp_path / "out.jsonl")
    async with await MemoryEngine.open(tmp_path / "copy.db", actor="user") as copy:
        report = await copy.import_jsonl(tmp_path / "out.jsonl", trust_provenance=True)
        assert (report.landed, report.refused) == (1, [])


def test_a_trusted_reimport_says_why_it_cannot_raise_what_a_plain_import_stored(tmp_path, capsys):
    """Imported once without the flag (legacy, unpinned), the same file with
    --trust-provenance changes nothing: it must say so, not report "unchanged"."""
    db = str(tmp_path / "m.db")
    mine = MemoryEntry(key="user/name", content="Ada", source=ProvenanceLevel.USER_STATED, pinned=True)
    path = tmp_path / "export.jsonl"
    path.write_text(json.dumps(mine.to_dict()) + "\n")
    assert main(["--db", db, "import", str(path)]) == 0
    capsys.readouterr()
    assert main(["--db", db, "import", "--trust-provenance", str(path)]) == 3
    out = capsys.readouterr().out
    assert "line 1" in out and "already stored as legacy" in out and "empty store" in out
    assert main(["--db", db, "list", "--json"]) == 0
    [stored] = json.loads(capsys.readouterr().out)
    assert (stored["source"], stored["pinned"]) == ("legacy", False)
