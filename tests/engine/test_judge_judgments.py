"""Relevance judgments in the store: judge, change, clear, list; audited; refused on a
read-only store; kept (and skipped by the metrics) after the entry is purged; the
metrics run dry, so nothing stored changes but the judgments."""

from __future__ import annotations

import pytest

from engine import InvalidValue, MemoryEngine, ReadOnlyStore, Settings
from tests.engine.recall.helpers import FakeEmbedder

FAKE = {"memory.embeddingModel": "fake", "memory.rerankEnabled": False}


@pytest.fixture
async def eng(tmp_path, clock):
    engine = await MemoryEngine.open(
        tmp_path / "j.db", Settings.defaults().override(FAKE), clock=clock, embedder_factory=FakeEmbedder, actor="user"
    )
    try:
        yield engine
    finally:
        await engine.close()


async def seed(engine) -> dict[str, str]:
    facts = {
        "user/editor": "prefers neovim with the lazy plugin manager",
        "project/atlas": "atlas is a python service deployed with docker",
        "project/ledger": "ledger is written in rust and uses sqlite",
        "user/shell": "uses fish as the login shell",
    }
    return {k: (await engine.add(k, v, type="user")).entry.id for k, v in facts.items()}


async def stored_state(engine) -> tuple:
    entries = await engine.store.fetchall("SELECT * FROM entries ORDER BY id")
    audit = await engine.store.fetchall("SELECT * FROM audit ORDER BY id")
    return entries, audit


async def test_judge_change_clear_each_audited_with_who_and_query(eng):
    ids = await seed(eng)
    await eng.judge("which  editor ", ids["user/editor"], 1)
    await eng.judge("which editor", ids["user/shell"], 0, actor="ada")
    found = await eng.judgments("which editor")
    assert [(j.key, j.grade, j.judged_by) for j in found] == sorted(
        [("user/editor", 1, "user"), ("user/shell", 0, "ada")], key=lambda t: ids[t[0]]
    )
    await eng.judge("which editor", ids["user/shell"], 1, actor="ada")  # changed its mind
    assert {j.key: j.grade for j in await eng.judgments()} == {"user/editor": 1, "user/shell": 1}
    assert await eng.unjudge("which editor", ids["user/editor"]) is True
    assert await eng.unjudge("which editor", ids["user/editor"]) is False
    judged = await eng.audit(action="judge")
    assert [(r.actor, r.entry_id, r.detail["query"], r.detail["grade"], r.detail["was"]) for r in judged] == [
        ("ada", ids["user/shell"], "which editor", 1, 0),
        ("ada", ids["user/shell"], "which editor", 0, None),
        ("user", ids["user/editor"], "which editor", 1, None),
    ]
    cleared = await eng.audit(action="unjudge")
    assert [(r.actor, r.entry_id, r.detail["query"]) for r in cleared] == [("user", ids["user/editor"], "which editor")]


async def test_bad_judgments_are_refused_by_field(eng):
    ids = await seed(eng)
    with pytest.raises(InvalidValue, match="grade must be a whole number in \\[0, 10\\]"):
        await eng.judge("editor", ids["user/editor"], 11)
    with pytest.raises(InvalidValue, match="query must not be empty"):
        await eng.judge("   ", ids["user/editor"], 1)
    with pytest.raises(LookupError, match="no entry with id 'nope'"):
        await eng.judge("editor", "nope", 1)
    assert await eng.judgments() == [] and await eng.audit(action="judge") == []


async def test_read_only_store_refuses_a_judgment_and_writes_nothing(tmp_path, clock):
    path = tmp_path / "ro.db"
    async with await MemoryEngine.open(path, actor="user") as engine:
        ids = await seed(engine)
    async with await MemoryEngine.open(path, read_only=True, actor="user") as engine:
        with pytest.raises(ReadOnlyStore, match="cannot record a judgment: .* is open read-only; nothing was written"):
            await engine.judge("editor", ids["user/editor"], 1)
        with pytest.raises(ReadOnlyStore, match="cannot clear a judgment"):
            await engine.unjudge("editor", ids["user/editor"])
        assert await engine.judgments() == []


async def test_purged_entry_keeps_its_judgment_and_the_metrics_skip_it(eng):
    ids = await seed(eng)
    await eng.judge("python service", ids["project/atlas"], 1)
    await eng.judge("python service", ids["project/ledger"], 1)
    await eng.judge("rust sqlite", ids["project/ledger"], 1)
    await eng.archive(ids["project/ledger"])
    await eng.purge(ids["project/ledger"])
    listed = {(j.query, j.entry_id): j for j in await eng.judgments()}
    assert len(listed) == 3
    gone = listed[("rust sqlite", ids["project/ledger"])]
    assert gone.purged and gone.to_dict()["status"] == "entry purged"
    report = await eng.evaluate_judgments()
    # "python service" counts with atlas alone; "rust sqlite" has nothing relevant left
    assert report["skipped"] == {
        "purged_judgments": 2,
        "queries_without_relevant": 1,
        "first_queries_without_relevant": ["rust sqlite"],
    }
    assert report["metrics"]["queries"] == 1
    assert [q["query"] for q in report["per_query"]] == ["python service"]
    assert report["per_query"][0]["relevant"] == 1 and report["metrics"]["recall@5"] == 1.0


async def test_a_judgment_follows_the_entry_to_its_edited_version(eng):
    ids = await seed(eng)
    await eng.judge("login shell", ids["user/shell"], 1)
    edited = await eng.edit(ids["user/shell"], "uses zsh as the login shell now")
    report = await eng.evaluate_judgments()
    assert report["metrics"]["queries"] == 1 and report["metrics"]["recall@5"] == 1.0
    hits = (await eng.recall("login shell", dry=True)).hit_ids
    assert edited.entry.id in hits and ids["user/shell"] not in hits


async def test_metrics_change_nothing_stored_but_the_judgments(eng):
    ids = await seed(eng)
    await eng.judge("python service", ids["project/atlas"], 1)
    await eng.judge("neovim plugins", ids["user/editor"], 2)
    before = await stored_state(eng)
    first = await eng.evaluate_judgments()
    again = await eng.evaluate_judgments({"memory.bm25Weight": 0.5})
    assert await stored_state(eng) == before  # no access count, last_accessed or audit row moved
    assert first["metrics"]["queries"] == again["metrics"]["queries"] == 2
    assert again["overrides"] == {"memory.bm25Weight": 0.5}


async def test_progress_counts_the_judged_queries(eng):
    ids = await seed(eng)
    for query in ("python service", "rust sqlite", "login shell"):
        await eng.judge(query, ids["project/atlas"], 1)
    seen: list[tuple[int, int]] = []
    await eng.evaluate_judgments(progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
