"""Why is this memory in my prompts? Every non-dry recall leaves, per returned entry,
when, which query, the rank and who asked, in a bounded log in the store (issue 9)."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine import ConfigError, MemoryEngine, Settings
from engine.cli import main
from tests.engine.recall.helpers import FakeEmbedder

SETTINGS = Settings.defaults().override({"memory.embeddingModel": "fake", "memory.rerankEnabled": False})
FACTS = [
    ("user/editor", "the user prefers neovim as editor with a dark theme"),
    ("user/shell", "the user works in fish shell on linux"),
    ("atlas/db", "atlas stores its data in postgres 16"),
    ("orbit/tests", "orbit runs its tests with pytest and hypothesis"),
]


async def open_engine(path, settings: Settings = SETTINGS, clock=None, **kw) -> MemoryEngine:
    extra = {"clock": clock} if clock is not None else {}
    return await MemoryEngine.open(path, settings, embedder_factory=lambda name, **k: FakeEmbedder(name, **k), **extra, **kw)


async def filled(path, settings: Settings = SETTINGS, clock=None) -> MemoryEngine:
    engine = await open_engine(path, settings, clock, actor="user")
    for key, content in FACTS:
        await engine.add(key, content, source="user_stated")
    return engine


async def test_a_real_recall_logs_each_hit_with_its_rank_query_and_actor(db_path, clock):
    engine = await filled(db_path, clock=clock)
    try:
        result = await engine.recall("editor preference neovim", limit=3, actor="mcp:claude")
        assert result.results
        for hit in result.results:
            history = await engine.recent_recalls(hit.id)
            assert history.total == 1
            [record] = history.recent
            assert (record.query, record.rank, record.actor) == ("editor preference neovim", hit.rank, "mcp:claude")
            assert record.at == clock.now
        clock.advance(hours=1)
        await engine.recall("which editor does the user use", limit=3)  # the engine's own actor: the person
        top = result.results[0].id
        history = await engine.recent_recalls(top)
        assert history.total == 2
        assert [r.query for r in history.recent] == ["which editor does the user use", "editor preference neovim"]
        assert history.recent[0].actor == "user"
    finally:
        await engine.close()


async def test_a_dry_recall_logs_nothing(db_path):
    engine = await filled(db_path)
    try:
        result = await engine.recall("editor preference neovim", dry=True)
        assert result.results
        for hit in result.results:
            assert (await engine.recent_recalls(hit.id)).total == 0
    finally:
        await engine.close()


async def test_the_log_keeps_at_most_max_rows_newest_first(db_path, clock):
    engine = await filled(db_path, SETTINGS.override({"memory.recallLog.maxRows": 5}), clock)
    try:
        for n in range(6):
            clock.advance(minutes=1)
            await engine.recall(f"editor neovim theme {n}", limit=4)
        rows = await engine.store.fetchall("SELECT query FROM recall_log ORDER BY id")
        assert len(rows) == 5
        assert rows[-1][0] == "editor neovim theme 5"  # the oldest went, the newest stayed
        assert "editor neovim theme 0" not in {r[0] for r in rows}
    finally:
        await engine.close()


async def test_max_rows_zero_keeps_no_log(db_path):
    engine = await filled(db_path, SETTINGS.override({"memory.recallLog.maxRows": 0}))
    try:
        result = await engine.recall("editor neovim")
        assert result.results
        assert (await engine.store.fetchone("SELECT count(*) FROM recall_log"))[0] == 0
    finally:
        await engine.close()


async def test_a_read_only_store_still_recalls_and_says_it_logged_nothing(db_path):
    engine = await filled(db_path)
    await engine.close()
    engine = await open_engine(db_path, read_only=True)
    try:
        result = await engine.recall("editor preference neovim")
        assert result.results
        assert "recall_not_logged" in result.notice_codes()
        assert (await engine.recent_recalls(result.results[0].id)).total == 0
    finally:
        await engine.close()


async def test_purging_an_entry_removes_its_log_rows(db_path):
    engine = await filled(db_path)
    try:
        result = await engine.recall("atlas postgres data")
        atlas = next(h.id for h in result.results if h.key == "atlas/db")
        assert (await engine.recent_recalls(atlas)).total == 1
        await engine.archive(atlas)
        await engine.purge(atlas)
        assert (await engine.store.fetchone("SELECT count(*) FROM recall_log WHERE entry_id=?", (atlas,)))[0] == 0
    finally:
        await engine.close()


async def test_a_long_query_is_kept_short_in_the_log(db_path):
    engine = await filled(db_path)
    try:
        result = await engine.recall("neovim editor " + "x" * 5000)
        record = (await engine.recent_recalls(result.results[0].id)).recent[0]
        assert record.query.startswith("neovim editor") and len(record.query) <= 500
    finally:
        await engine.close()


@pytest.mark.parametrize("body", ["[memory.recallLog]\nmaxRows = -1\n", '[memory.recallLog]\nmaxRows = "10"\n'])
def test_the_bound_is_a_validated_config_key(tmp_path, body):
    path = tmp_path / "config.toml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=r"memory\.recallLog\.maxRows: .* expected an integer in \[0"):
        Settings.load(path)


def test_the_bound_loads_from_the_config_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[memory.recallLog]\nmaxRows = 250\n")
    assert Settings.load(path).get("memory.recallLog.maxRows") == 250
    assert Settings.defaults().get("memory.recallLog.maxRows") == 10_000


def test_cli_show_lists_the_recent_recalls(tmp_path, capsys):
    db = tmp_path / "memory.db"

    async def recall_once():
        engine = await filled(db)
        try:
            return (await engine.recall("editor preference neovim", actor="mcp:claude")).results[0]
        finally:
            await engine.close()

    top = asyncio.run(recall_once())
    assert main(["--db", str(db), "show", top.id[:8]]) == 0
    shown = capsys.readouterr().out
    assert "recent recalls: 1" in shown
    assert "'editor preference neovim' #1 by mcp:claude" in shown
    assert main(["--db", str(db), "show", top.id[:8], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["recalls"]["total"] == 1
    assert data["recalls"]["recent"][0]["query"] == "editor preference neovim"
