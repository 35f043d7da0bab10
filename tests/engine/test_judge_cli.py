"""The headless side: `eval --judgments` reports what MemoryEngine.evaluate_judgments
(the playground's metrics strip) computes on the same store and settings, runs dry,
and `judgments add/list/remove` work by id prefix, refused on a read-only store."""

from __future__ import annotations

import asyncio
import json

from engine import MemoryEngine, Settings
from engine.cli import main
from engine.demo import build_demo
from tests.conftest import FROZEN_NOW


def cli(*argv: str) -> int:
    return main(list(argv))


async def demo_with_judgments(db) -> None:
    async with await MemoryEngine.open(db, actor="user") as engine:
        await build_demo(engine, now=FROZEN_NOW)
        by_key = {e.key: e.id for e in await engine.list_entries() if e.superseded_by is None}
        await engine.judge("editor preference", by_key["user/editor"], 1)
        await engine.judge("editor preference", by_key["user/timezone"], 0)
        keys = sorted(by_key)
        await engine.judge("which database does the project use", by_key[keys[3]], 1)
        await engine.judge("which database does the project use", by_key[keys[5]], 2)


async def test_eval_judgments_equals_the_engine_and_records_nothing(tmp_path, capsys):
    db, config = tmp_path / "d.db", tmp_path / "config.toml"
    config.write_text("[memory]\nrerankEnabled = false\nbm25Weight = 2.0\n")
    await demo_with_judgments(db)
    async with await MemoryEngine.open(db, actor="user") as engine:
        before = await engine.store.fetchall("SELECT id, access_count, last_accessed FROM entries ORDER BY id")
    code = await asyncio.to_thread(
        cli, "--db", str(db), "--config", str(config), "eval", "--judgments", "--set", "memory.rrfK=20", "--json"
    )
    captured = capsys.readouterr()
    assert code == 0
    headless = json.loads(captured.out)
    assert "judging" not in captured.err  # --json into a pipe: no progress line
    async with await MemoryEngine.open(db, Settings.load(config), actor="user") as engine:
        assert await engine.store.fetchall("SELECT id, access_count, last_accessed FROM entries ORDER BY id") == before  # dry
        assert await engine.audit(action="recall") == []
        direct = await engine.evaluate_judgments({"memory.rrfK": 20})
    assert headless["metrics"] == direct["metrics"] and headless["metrics"]["queries"] == 2
    assert headless["per_query"] == direct["per_query"]
    assert headless["overrides"] == {"memory.rrfK": 20}
    assert headless["embedding"] == "ready" and headless["recall_modes"] == {"hybrid": 2}  # both paths ran
    # the plain report names the four numbers
    plain = ("eval", "--judgments", "--set", "memory.rrfK=20")  # the same evaluation as `direct`
    assert await asyncio.to_thread(cli, "--db", str(db), "--config", str(config), *plain) == 0
    out = capsys.readouterr().out
    m = direct["metrics"]
    assert (
        f"2 judged queries: recall@5 {m['recall@5']:.4f}  recall@10 {m['recall@10']:.4f}  "
        f"MRR {m['mrr']:.4f}  nDCG@10 {m['ndcg@10']:.4f}" in out
    )


async def test_eval_judgments_on_a_store_without_any(tmp_path, capsys):
    db = tmp_path / "e.db"
    async with await MemoryEngine.open(db, actor="user") as engine:
        await engine.add("project/atlas", "atlas is a python service")
    assert (
        await asyncio.to_thread(cli, "--db", str(db), "eval", "--judgments", "--set", "memory.embeddingModel=/nonexistent") == 0
    )
    assert "no judged query with a relevant entry" in capsys.readouterr().out


async def test_judgments_add_list_remove_by_prefix_and_read_only(tmp_path, capsys):
    db = tmp_path / "c.db"
    async with await MemoryEngine.open(db, actor="user") as engine:
        atlas = (await engine.add("project/atlas", "atlas is a python service")).entry
        gone = (await engine.add("project/old", "an old project")).entry
        await engine.judge("old project", gone.id, 1)
        await engine.archive(gone.id)
        await engine.purge(gone.id)
    assert await asyncio.to_thread(cli, "--db", str(db), "judgments", "add", "python  service", atlas.id[:8]) == 0
    assert "grade 1 for 'python service'" in capsys.readouterr().out
    assert await asyncio.to_thread(cli, "--db", str(db), "judgments", "list") == 0
    out = capsys.readouterr().out
    assert f" 1 {gone.id[:8]} (entry purged)" in out and f" 1 {atlas.id[:8]} project/atlas" in out
    assert await asyncio.to_thread(cli, "--db", str(db), "--read-only", "judgments", "add", "x", atlas.id[:8]) == 1
    assert "cannot record a judgment" in capsys.readouterr().err
    assert await asyncio.to_thread(cli, "--db", str(db), "judgments", "add", "x", atlas.id[:8], "--grade", "-1") == 2
    assert "grade must be a whole number" in capsys.readouterr().err
    assert await asyncio.to_thread(cli, "--db", str(db), "judgments", "remove", "old project", gone.id, "--json") == 0
    assert json.loads(capsys.readouterr().out) == {"cleared": True}
