"""Hostile judgment input: export lines with bad fields, qrels that are not text or
name nothing, queries too long or with control characters. Each is refused with
the field or line named, and nothing else stored changes."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine import InvalidValue, MemoryEngine
from engine.cli import main


async def entries_and_audit(engine) -> tuple:
    return (
        await engine.store.fetchall("SELECT * FROM entries ORDER BY id"),
        await engine.store.fetchall("SELECT action, entry_id FROM audit WHERE action != 'judge' ORDER BY id"),
    )


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("grade", -1, "grade must be a whole number in [0, 10]"),
        ("grade", True, "grade must be a whole number"),
        ("grade", 1.5, "grade must be a whole number"),
        ("query", "", "query must not be empty"),
        ("query", "x" * 2001, "query is 2,001 characters; the limit is 2,000"),
        ("query", "ok\x00then", "query contains U+0000"),
        ("entry_id", "../../etc/passwd", "is not an id"),
        ("entry_id", 7, "must be a string"),
        ("judged_at", "yesterday", "field 'judged_at' must be an ISO date and time"),
        ("judged_by", "a\nb", "field 'judged_by' contains U+000A"),
    ],
    ids=[
        "negative-grade",
        "bool-grade",
        "fraction-grade",
        "empty-query",
        "long-query",
        "nul-in-query",
        "path-as-id",
        "number-as-id",
        "bad-date",
        "newline-in-name",
    ],
)
async def test_a_bad_judgment_line_is_refused_by_field(tmp_path, field, value, message):
    good = {
        "record": "judgment",
        "query": "python service",
        "entry_id": "abc123",
        "grade": 1,
        "judged_by": "ada",
        "judged_at": "2026-01-01T00:00:00+00:00",
    }
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({**good, "query": "kept"}) + "\n" + json.dumps({**good, field: value}) + "\n")
    async with await MemoryEngine.open(tmp_path / "s.db", actor="user") as engine:
        report = await engine.import_jsonl(path)
        assert report.judgments == {"landed": 1, "unchanged": 0, "refused": 1}
        refused = report.refused[0]
        assert refused["line"] == 2 and message in refused["message"], refused
        assert [j.query for j in await engine.judgments()] == ["kept"]


async def test_query_normalisation_keeps_one_judgment_per_query(tmp_path):
    async with await MemoryEngine.open(tmp_path / "s.db", actor="user") as engine:
        entry = (await engine.add("k", "some content")).entry
        for query in ("python  service", " python service", "python\tservice"):
            await engine.judge(query, entry.id, 1)
        assert [j.query for j in await engine.judgments()] == ["python service"]
        assert len(await engine.audit(action="judge")) == 1  # the repeats changed nothing
        with pytest.raises(InvalidValue, match="query is 2,001 characters"):
            await engine.judge("y" * 2001, entry.id, 1)


async def test_qrels_that_are_not_text_change_nothing(tmp_path, capsys):
    qrels = tmp_path / "q.tsv"
    qrels.write_bytes(b"q1\tdoc\t1\n\xff\xfe\x00garbage\n")
    (tmp_path / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "x"}) + "\n")
    db = tmp_path / "b.db"
    async with await MemoryEngine.open(db, actor="user") as engine:
        await engine.add("doc", "a document stored under its corpus id")
        before = await entries_and_audit(engine)
    code = await asyncio.to_thread(
        main, ["--db", str(db), "judgments", "import", "--qrels", str(qrels), "--queries", str(tmp_path / "queries.jsonl")]
    )
    assert code == 2 and f"{qrels} is not UTF-8 text" in capsys.readouterr().err
    async with await MemoryEngine.open(db, actor="user") as engine:
        assert await engine.judgments() == [] and await entries_and_audit(engine) == before


async def test_qrels_without_a_queries_file_says_where_it_looked(tmp_path, capsys):
    (tmp_path / "qrels").mkdir()
    qrels = tmp_path / "qrels" / "test.tsv"
    qrels.write_text("q1\tdoc\t1\n")
    code = await asyncio.to_thread(
        main, ["--db", str(tmp_path / "b.db"), "--create", "judgments", "import", "--qrels", str(qrels)]
    )
    assert code == 2
    assert f"no queries file {tmp_path / 'queries.jsonl'}: give the BEIR queries.jsonl with --queries" in capsys.readouterr().err


async def test_judgment_import_on_a_read_only_store(tmp_path, capsys):
    db = tmp_path / "r.db"
    lme = tmp_path / "lme.json"
    lme.write_text(json.dumps([{"question_id": "q", "question": "editor?", "answer_session_ids": ["s1"]}]))
    async with await MemoryEngine.open(db, actor="user") as engine:
        await engine.add("user/editor", "prefers neovim", tags=["s1"])
    code = await asyncio.to_thread(main, ["--db", str(db), "--read-only", "judgments", "import", "--longmemeval", str(lme)])
    assert code == 1 and "cannot import judgments: " in capsys.readouterr().err
    async with await MemoryEngine.open(db, actor="user") as engine:
        assert await engine.judgments() == []
