"""Judgments imported from a BEIR qrels file and a LongMemEval file: corpus ids are
placed on the entries whose id, key or a tag carries them; unknown ids are counted
and the first few named, and the import carries on. A BEIR folder missing a file
is named by `eval --beir`."""

from __future__ import annotations

import asyncio
import csv
import json

from engine import MemoryEngine
from engine.cli import main
from tests.conftest import shared_data


def cli(*argv: str) -> int:
    return main(list(argv))


async def test_scifact_qrels_with_unknown_ids_land_what_they_can(tmp_path, capsys):
    qrels = shared_data("scifact-train", "qrels", "train.tsv")
    with open(qrels, encoding="utf-8") as fh:
        rows = [r for r in csv.reader(fh, delimiter="\t")][1:]
    corpus_ids = sorted({r[1] for r in rows})
    db = tmp_path / "s.db"
    async with await MemoryEngine.open(db, actor="user") as engine:
        # two papers the agent remembered, tagged with their corpus ids; a third carries it as its key
        await engine.add("paper/biomaterials", "0-dimensional biomaterials and inductive properties", tags=["31715818"])
        await engine.add("paper/prion", "PrP positivity in the UK population", tags=["scifact", "13734012"])
        await engine.add(rows[2][1], "a paper stored under its corpus id as key")
    code = await asyncio.to_thread(cli, "--db", str(db), "judgments", "import", "--qrels", str(qrels), "--json")
    captured = capsys.readouterr()
    assert code == 0
    report = json.loads(captured.out)
    placed = {"31715818", "13734012", rows[2][1]}
    assert report["landed"] == sum(1 for r in rows if r[1] in placed) and report["refused"] == []
    unknown = report["unknown_corpus_ids"]
    assert unknown["count"] == len(corpus_ids) - 3 and len(unknown["first"]) == 5
    assert (
        f"warning: {len(corpus_ids) - 3} unknown corpus ids skipped: {', '.join(unknown['first'])} and "
        f"{len(corpus_ids) - 8} more" in captured.err
    )
    async with await MemoryEngine.open(db, actor="user") as engine:
        found = {(j.query, j.key, j.grade) for j in await engine.judgments()}
        assert ("0-dimensional biomaterials lack inductive properties.", "paper/biomaterials", 1) in found
        assert ("1 in 5 million in UK have abnormal PrP positivity.", "paper/prion", 1) in found
        assert all(r.actor == "import:judgments" for r in await engine.audit(action="judge"))


async def test_qrels_with_unknown_query_ids_and_nothing_placed(tmp_path, capsys):
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "python service"}) + "\n")
    (folder / "qrels" / "dev.tsv").write_text("query-id\tcorpus-id\tscore\nq1\tdoc-9\t1\nq7\tdoc-1\t1\n")
    db = tmp_path / "n.db"
    async with await MemoryEngine.open(db, actor="user") as engine:
        await engine.add("project/atlas", "atlas is a python service")
    code = await asyncio.to_thread(cli, "--db", str(db), "judgments", "import", "--qrels", str(folder / "qrels" / "dev.tsv"))
    err = capsys.readouterr().err
    assert code == 2  # nothing could be placed
    assert "1 unknown corpus id skipped: doc-1" in err or "1 unknown corpus id skipped: doc-9" in err
    assert "1 unknown query id skipped: q7" in err


async def test_bad_qrels_score_names_the_line(tmp_path, capsys):
    qrels = tmp_path / "q.tsv"
    qrels.write_text("q1\tdoc\t1\nq1\tdoc2\tmaybe\n")
    (tmp_path / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "x"}) + "\n")
    code = await asyncio.to_thread(
        cli,
        "--db",
        str(tmp_path / "b.db"),
        "--create",
        "judgments",
        "import",
        "--qrels",
        str(qrels),
        "--queries",
        str(tmp_path / "queries.jsonl"),
    )
    assert code == 2
    assert f"{qrels}: line 2: score 'maybe'" in capsys.readouterr().err


async def test_longmemeval_file_as_judgments(tmp_path, capsys):
    path = tmp_path / "lme.json"
    path.write_text(
        json.dumps(
            [
                {"question_id": "q1", "question": "Which editor do I use?", "answer_session_ids": ["s-editor"]},
                {"question_id": "q2_abs", "question": "What is my cat called?", "answer_session_ids": []},
                {"question_id": "q3", "question": "Where is atlas deployed?", "answer_session_ids": ["s-atlas", "s-gone"]},
            ]
        )
    )
    db = tmp_path / "l.db"
    async with await MemoryEngine.open(db, actor="user") as engine:
        editor = (await engine.add("user/editor", "prefers neovim", tags=["s-editor"])).entry.id
        turn1 = (await engine.add("atlas/1", "atlas runs on docker", tags=["s-atlas"])).entry.id
        turn2 = (await engine.add("atlas/2", "atlas deploys to fly.io", tags=["s-atlas"])).entry.id
    code = await asyncio.to_thread(cli, "--db", str(db), "judgments", "import", "--longmemeval", str(path))
    assert code == 0
    assert "1 unknown corpus id skipped: s-gone" in capsys.readouterr().err
    async with await MemoryEngine.open(db, actor="user") as engine:
        found = {(j.query, j.entry_id) for j in await engine.judgments()}
    assert found == {("Which editor do I use?", editor), ("Where is atlas deployed?", turn1), ("Where is atlas deployed?", turn2)}


async def test_not_a_longmemeval_file(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text('{"not": "a list"}')
    code = await asyncio.to_thread(
        cli, "--db", str(tmp_path / "x.db"), "--create", "judgments", "import", "--longmemeval", str(path)
    )
    assert code == 2 and "is not a LongMemEval file" in capsys.readouterr().err


async def test_beir_folder_missing_a_file_is_named(tmp_path, capsys):
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "text": "x"}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("q1\td1\t1\n")
    code = await asyncio.to_thread(cli, "eval", "--beir", str(folder))
    assert code == 2
    assert f"{folder} is not a BEIR dataset: no such file queries.jsonl" in capsys.readouterr().err
