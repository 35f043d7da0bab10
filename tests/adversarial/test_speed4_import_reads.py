"""Issue 14: an import reads its file once. JSON decoding is most of reading a large
export, and the import used to decode every line twice (once for the entries, once
more looking for judgment lines), which a 100k-line import paid for in seconds."""

from __future__ import annotations

import json
from unittest import mock

from engine import MemoryEngine
from engine.importers import jsonl


async def test_an_import_decodes_each_line_once_and_lands_entries_and_judgments(tmp_path):
    source = tmp_path / "s.db"
    async with await MemoryEngine.open(source, actor="user") as engine:
        for k in range(5):
            entry = (await engine.add(f"fact/{k}", f"fact number {k} about the deploy")).entry
            await engine.judge("deploy facts", entry.id, grade=1)
        export = tmp_path / "export.jsonl"
        await engine.export_jsonl(export)
    lines = export.read_text().splitlines()
    assert sum('"record": "judgment"' in line for line in lines) == 5

    parse = mock.Mock(wraps=jsonl.parse_json_line)
    with mock.patch.object(jsonl, "parse_json_line", parse):
        async with await MemoryEngine.open(tmp_path / "t.db", actor="user") as engine:
            report = await engine.import_jsonl(export)
            judged = await engine.judgments()
    assert (report.landed, report.refused) == (5, [])
    assert report.judgments == {"landed": 5, "unchanged": 0, "refused": 0}
    assert len(judged) == 5
    assert parse.call_count == len(lines), f"{parse.call_count} JSON decodes for {len(lines)} lines"


async def test_a_bad_line_still_names_its_line_number(tmp_path):
    good = {"key": "a", "content": "alpha", "type": "user", "tier": "semantic"}
    judgment = {"record": "judgment", "query": "q", "entry_id": "abc", "grade": 1, "judged_by": "ada", "judged_at": "x"}
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(good) + "\n{not json\n" + json.dumps(judgment) + "\n")
    async with await MemoryEngine.open(tmp_path / "t.db", actor="user") as engine:
        report = await engine.import_jsonl(path)
    by_line = {r["line"]: r for r in report.refused}
    assert report.landed == 1
    assert "malformed JSON" in by_line[2]["message"]
    assert "judged_at" in by_line[3]["message"]
