"""Judgments round-trip through export and import; an export made before judgments
existed still imports; a bad judgment line is reported by line and field."""

from __future__ import annotations

import asyncio
import json

from engine import MemoryEngine
from engine.cli import main


async def judged_store(path):
    engine = await MemoryEngine.open(path, actor="user")
    ids = {}
    for key, text in (
        ("project/atlas", "atlas is a python service"),
        ("project/ledger", "ledger is rust"),
        ("user/editor", "prefers neovim"),
    ):
        ids[key] = (await engine.add(key, text)).entry.id
    await engine.judge("python service", ids["project/atlas"], 1)
    await engine.judge("python service", ids["project/ledger"], 0, actor="ada")
    await engine.judge("rust", ids["project/ledger"], 2)
    await engine.judge("editor", ids["user/editor"], 1)
    await engine.archive(ids["user/editor"])
    await engine.purge(ids["user/editor"])  # its judgment stays, as "entry purged"
    return engine, ids


def records(judgments):
    return sorted(json.dumps(j.to_record(), sort_keys=True) for j in judgments)


async def test_judgments_round_trip_through_export_and_import(tmp_path):
    engine, _ids = await judged_store(tmp_path / "a.db")
    try:
        original = await engine.judgments()
        await engine.export_jsonl(tmp_path / "out.jsonl")
    finally:
        await engine.close()
    lines = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert sum(1 for x in lines if x.get("record") == "judgment") == 4
    async with await MemoryEngine.open(tmp_path / "b.db", actor="user") as copy:
        report = await copy.import_jsonl(tmp_path / "out.jsonl", trust_provenance=True)
        assert report.judgments == {"landed": 4, "unchanged": 0, "refused": 0}
        assert records(await copy.judgments()) == records(original)
        assert [j.purged for j in await copy.judgments("editor")] == [True]
        again = await copy.import_jsonl(tmp_path / "out.jsonl", trust_provenance=True)
        assert again.judgments == {"landed": 0, "unchanged": 4, "refused": 0}
        assert len(await copy.audit(action="judge")) == 4  # each imported judgment audited once


async def test_an_export_without_judgments_still_imports(tmp_path):
    old = tmp_path / "old.jsonl"
    async with await MemoryEngine.open(tmp_path / "a.db", actor="user") as engine:
        await engine.add("project/atlas", "atlas is a python service")
        await engine.export_jsonl(old)
    assert all("record" not in json.loads(x) for x in old.read_text().splitlines())
    async with await MemoryEngine.open(tmp_path / "b.db", actor="user") as copy:
        report = await copy.import_jsonl(old)
        assert report.landed == 1 and report.refused == [] and report.judgments is None
        assert "judgments" not in report.to_dict()


async def test_a_bad_judgment_line_is_named_and_the_rest_lands(tmp_path, capsys):
    engine, ids = await judged_store(tmp_path / "a.db")
    await engine.export_jsonl(tmp_path / "out.jsonl")
    await engine.close()
    path = tmp_path / "out.jsonl"
    bad = {
        "record": "judgment",
        "query": "x",
        "entry_id": ids["project/atlas"],
        "grade": "very",
        "judged_by": "user",
        "judged_at": "2026-01-01T00:00:00+00:00",
    }
    path.write_text(path.read_text() + json.dumps(bad) + "\n")
    line = len(path.read_text().splitlines())
    assert await asyncio.to_thread(main, ["--db", str(tmp_path / "b.db"), "import", str(path), "--trust-provenance"]) == 0
    out = capsys.readouterr().out
    assert "judgments landed 4, unchanged 0" in out
    assert f"line {line}: invalid: judgment: grade must be a whole number in [0, 10]" in out
