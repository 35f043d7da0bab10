"""Pilot tests of the recall playground on the real engine.recall (fake embedder
and cross-encoder injected through MemoryEngine.open's model factories): search
as you type (debounced, stale results dropped, dry: nothing recorded), knobs that
recompute at once (invalid ones shown and never used), the baseline's rank
changes, saving knobs to the config file, a reranker that cannot load."""

from __future__ import annotations

import tomllib

from textual.widgets import Input

from echo_memory_tui.widgets.knobs import KnobPanel, knob_id
from engine import Settings
from engine.errors import RecallError

from .conftest import SIZE, open_with_fake_models, ready, recall_settings, wait_until


def make_recall_app(make_app, db, settings=None, **kw):
    return make_app(db, settings or recall_settings(), engine_factory=open_with_fake_models, **kw)


async def open_playground(pilot):
    app = pilot.app
    await ready(pilot)
    await pilot.press("2")
    await wait_until(pilot, lambda: app._view_widget("recall") is not None, what="playground mounted")
    view = app._view_widget("recall")
    await wait_until(pilot, lambda: app.focused is view.query_one("#query"), what="query focused")
    return view


async def access_state(engine) -> dict[str, tuple]:
    entries = await engine.list_entries(limit=10_000)
    return {e.id: (e.access_count, e.last_accessed) for e in entries}


async def test_type_a_query_and_see_every_score(demo_db, make_app):
    app = make_recall_app(make_app, demo_db)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        before = await access_state(app.engine)
        await app.engine.warm_recall()  # recall itself never embeds: let the backfill give every entry a vector
        await wait_until(pilot, lambda: app.engine.recall_service.pending_count == 0, timeout=60, what="vectors backfilled")
        await pilot.press(*"atlas python")
        await wait_until(
            pilot,
            lambda: view.result is not None and view.query_text == "atlas python" and view.result.get("results"),
            timeout=20,
            what="results",
        )
        first = view.result["results"][0]
        for field in ("bm25", "vector", "rrf", "gate", "rerank", "decay", "final", "rank"):
            assert field in first
        assert view.result["mode"] == "hybrid", view.result["notices"]
        assert any(r["vector"]["score"] is not None for r in view.result["results"])  # the fake embedder ran
        assert first["rerank"]["status"] == "reranked" and first["rerank"]["score"] is not None
        assert view.result["settings"]["dry"] is True
        # typing fast: one search (or two) ran, not one per key; stale ones were dropped
        assert view.searches <= 3
        table = view.query_one("#pg-results")
        assert table.row_count == len(view.result["results"])
        assert "timings" in str(view.query_one("#pg-timings").border_title).lower()
        # browse: move through the candidates, run another query; the playground is dry
        await pilot.press("enter")  # to the candidates table
        for _ in range(3):
            await pilot.press("down")
        seen = view.searches
        view.query_one("#query", Input).value = "ledger rust"
        await wait_until(pilot, lambda: view.searches > seen, timeout=20, what="second query")
        assert await access_state(app.engine) == before  # no access_count / last_accessed moved
        assert app.recall_state == "ready" and "embeddings ready" in app.status.model


async def test_reranker_that_cannot_load_says_why(demo_db, make_app):
    async def no_weights(path, settings, read_only, clock):
        return await open_with_fake_models(path, settings, read_only, clock, reranker_fail="load")

    app = make_app(demo_db, recall_settings(), engine_factory=no_weights)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        view.query_one("#query", Input).value = "atlas python"
        await wait_until(pilot, lambda: view.result is not None and view.result.get("results"), timeout=20, what="results")
        rerank = view.result["results"][0]["rerank"]
        assert rerank["score"] is None and rerank["status"] in ("failed", "not_loaded")
        assert "not installed" in rerank["reason"]
        table = view.query_one("#pg-results")
        assert str(table.get_cell_at((0, 8))) in ("failed", "not ready")  # the rerank column names the state
        assert "not installed" in str(view.query_one("#pg-content").render())  # and the detail line says why
        await wait_until(pilot, lambda: "reranker failed" in app.status.model, what="status line")
        assert app.is_running


async def test_knob_change_recomputes_and_moves_ranks(demo_db, make_app):
    app = make_recall_app(make_app, demo_db)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        view.query_one("#query", Input).value = "atlas-api python version"
        await wait_until(pilot, lambda: view.result is not None and view.result.get("results"), timeout=20, what="results")
        before = view.ranks()
        view.action_pin_baseline()
        assert view.baseline == before
        seen = view.searches
        view.set_knob("memory.importanceDecayDays", 1)  # a one-day half-life: stale facts sink
        await wait_until(pilot, lambda: view.searches > seen, what="recomputed")
        after = view.ranks()
        assert after != before
        assert view.result["settings"].get("memory.importanceDecayDays") == 1
        # the Δ column shows the moves against the baseline
        table = view.query_one("#pg-results")
        deltas = {str(table.get_cell_at((row, 1))) for row in range(table.row_count)}
        assert deltas & {"▲1", "▲2", "▲3", "▼1", "▼2", "▼3", "new"} or any(d.startswith(("▲", "▼")) for d in deltas)


async def test_invalid_knob_is_shown_and_never_used(demo_db, make_app):
    app = make_recall_app(make_app, demo_db)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        view.query_one("#query", Input).value = "ledger rust"
        await wait_until(pilot, lambda: view.result is not None, timeout=20, what="results")
        seen = view.searches
        panel = view.query_one(KnobPanel)
        field = panel.query_one(f"#{knob_id('memory.rrfK')}", Input)
        field.value = "-3"
        await pilot.pause(0.3)
        assert "memory.rrfK" in panel.invalid and field.has_class("-invalid")
        assert panel.values["memory.rrfK"] == 60  # the last valid value stays in force
        assert view.searches == seen  # nothing recomputed with the bad value
        error = panel.query_one(f"#{knob_id('memory.rrfK')}-row .knob-error")
        assert "-3" in str(error.render())
        field.value = "15"
        await wait_until(pilot, lambda: view.searches > seen, what="valid value used")
        assert view.result["settings"]["memory.rrfK"] == 15


async def test_save_knobs_to_config(demo_db, make_app, tmp_path):
    config = tmp_path / "config.toml"
    settings = recall_settings()
    settings = Settings(settings.as_dict(), {}, config)
    app = make_recall_app(make_app, demo_db, settings)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        view.set_knob("memory.poolSize", 25)
        await pilot.pause(0.2)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: config.exists(), what="config written")
        saved = tomllib.loads(config.read_text())
        assert saved["memory"]["poolSize"] == 25
        assert app.settings.get("memory.poolSize") == 25


async def test_failing_recall_is_shown_in_place(demo_db, make_app):
    async def broken(path, settings, read_only, clock):
        engine = await open_with_fake_models(path, settings, read_only, clock)

        async def recall(*args, **kwargs):
            raise RecallError("index exploded")  # the engine's refusal; a bug (RuntimeError) stops the app

        engine.recall = recall
        return engine

    app = make_app(demo_db, recall_settings(), engine_factory=broken)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        await pilot.press(*"deploy")
        await wait_until(pilot, lambda: "index exploded" in str(view.query_one("#pg-summary").render()), what="error shown")
        assert view.query_one("#query", Input).value == "deploy"  # nothing typed is lost
        assert app.is_running


async def test_session_boost_is_shown_where_it_moves_a_score(demo_db, make_app):
    """memory.sessionBoost adds to a candidate's RRF before decay; the table marks
    the fused score with `+` and the detail line gives the amount, so the final
    score never differs from its parts without a visible reason."""
    app = make_recall_app(make_app, demo_db)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        await app.engine.warm_recall()
        await wait_until(pilot, lambda: app.engine.recall_service.pending_count == 0, timeout=60, what="vectors backfilled")
        await pilot.press(*"atlas python")
        await wait_until(pilot, lambda: view.result is not None and view.result.get("results"), timeout=20, what="results")
        rows = view.result["results"]
        boosted = [i for i, r in enumerate(rows) if r["session_boost"] > 0]
        assert boosted, "the demo store has agent sessions whose memories answer together"
        table = view.query_one("#pg-results")
        rrf_col = [c.label.plain for c in table.columns.values()].index("rrf")
        for i, r in enumerate(rows):
            assert str(table.get_row_at(i)[rrf_col]).endswith("+") == (r["session_boost"] > 0)
        table.move_cursor(row=boosted[0])
        await wait_until(
            pilot,
            lambda: f"session boost: +{rows[boosted[0]]['session_boost']:.4f}" in str(view.query_one("#pg-content").render()),
            what="the detail line names the boost",
        )
