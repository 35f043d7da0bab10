"""The detail pane answers "why is this memory in my prompts?": how many non-dry
recalls returned the entry, and the newest with when, which query, rank and who."""

from __future__ import annotations

from engine import MemoryEngine

from .conftest import fake_embedder, frozen_clock, ready, recall_settings, select_key, wait_until
from .test_trust_status import detail_text


async def recall_outside(db, query: str, actor: str) -> None:
    """A real (non-dry) recall by another process, e.g. an agent over MCP."""
    engine = await MemoryEngine.open(
        db,
        recall_settings().override({"memory.rerankEnabled": False}),
        clock=frozen_clock,
        embedder_factory=fake_embedder,
        actor=actor,
    )
    try:
        assert (await engine.recall(query)).results
    finally:
        await engine.close()


async def test_detail_shows_the_recent_recalls_of_the_entry(demo_db, make_app):
    await recall_outside(demo_db, "which editor does the user prefer", "mcp:claude")
    await recall_outside(demo_db, "editor keybindings", "cli")
    app = make_app(demo_db)
    async with app.run_test(size=(160, 48)) as pilot:
        await ready(pilot)
        entry = await select_key(pilot, "user/editor")
        history = await app.engine.recent_recalls(entry.id)
        assert history.total == 2
        text = detail_text(app)
        newest, older = history.recent
        assert f"recalls {history.total} · 2026-11-29 12:00 'editor keybindings' #{newest.rank} cli" in text
        assert f"'which editor does the user prefer' #{older.rank} mcp:claude" in text


async def test_an_entry_never_recalled_says_so(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(160, 48)) as pilot:
        await ready(pilot)
        await select_key(pilot, "user/editor")
        await wait_until(pilot, lambda: "recalls" in detail_text(app), what="recalls row")
        assert "none logged" in detail_text(app)
