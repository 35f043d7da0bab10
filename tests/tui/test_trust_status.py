"""The status line shows the real embedding backlog and says ready only when every
entry has a vector (defect 8); the detail pane shows an entry's vector state: model
stamp, pending, stale (defect 10)."""

from __future__ import annotations

import sqlite3

from .conftest import open_with_fake_models, ready, recall_settings, select_key, wait_until


async def no_drain(path, settings, read_only, clock):
    """The real engine with fake models whose background embedding never starts:
    the backlog stays until the test embeds it."""
    engine = await open_with_fake_models(path, settings, read_only, clock)
    engine.recall_service._start_drain = lambda: None
    return engine


def detail_text(app) -> str:
    import io

    from rich.console import Console

    console = Console(file=io.StringIO(), width=200)
    console.print(app.memory_view.detail.query_one("#detail-fields").content)
    return console.file.getvalue()


async def test_status_line_counts_the_embedding_backlog(demo_db, make_app):
    app = make_app(demo_db, recall_settings(), engine_factory=no_drain, warm_recall=True)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: app.recall_state == "ready" or "embedding " in app.status.model, what="model loaded")
        service = app.engine.recall_service
        total, pending = service.stats()["entries"], service.pending_count
        assert pending > 0
        await wait_until(pilot, lambda: f"embedding {total - pending:,} / {total:,}" in app.status.model, what="backlog shown")
        assert "ready" not in app.status.model
        await service.embed_pending()
        await wait_until(pilot, lambda: app.status.model == "embeddings ready", what="ready once embedded")


async def test_detail_shows_the_vector_state(demo_db, make_app):
    app = make_app(demo_db, recall_settings(), engine_factory=no_drain, warm_recall=True)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        service = app.engine.recall_service
        await wait_until(pilot, lambda: app.recall_state == "ready", what="model loaded")  # and the warm-up done
        entry = await select_key(pilot, "user/editor")
        app.memory_view.detail.reload()
        await wait_until(pilot, lambda: "pending" in detail_text(app), what="pending shown")
        await service.embed_pending()
        app.memory_view.detail.reload()
        await wait_until(pilot, lambda: f"{service.model_id} · current" in detail_text(app), what="stamp shown")
    with sqlite3.connect(demo_db) as conn:  # a vector made by another model
        conn.execute("UPDATE vectors SET model_id='other-model:64' WHERE entry_id=?", (entry.id,))
    app = make_app(demo_db, recall_settings(), engine_factory=no_drain, warm_recall=True)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: app.recall_state == "ready", what="model loaded")
        await select_key(pilot, "user/editor")
        app.memory_view.detail.reload()
        await wait_until(pilot, lambda: "stale" in detail_text(app) and "other-model:64" in detail_text(app), what="stale shown")
