"""The recall warm-up (index open, torch import, model load) runs in a thread but holds
the GIL for long stretches: at 1M entries a key pressed meanwhile waited 0.3-0.8 s
(issue 14). It now waits for a pause in the keys, says so on the status line, and the
playground starts it at once: recall there still works."""

from __future__ import annotations

import gc
import time

import echo_memory_tui.app_background as background
from echo_memory_tui.widgets.playground import PlaygroundView

from .conftest import open_with_fake_models, ready, recall_settings, wait_until


def spy_warm(app, calls: list[float]):
    """Record when the engine's warm-up is asked for (time.perf_counter, as last_input_at)."""

    async def factory(path, settings, read_only, clock):
        engine = await open_with_fake_models(path, settings, read_only, clock)
        real = engine.warm_recall

        async def warm():
            calls.append(time.perf_counter())
            return await real()

        engine.warm_recall = warm
        return engine

    return factory


async def test_the_warm_up_starts_only_after_a_pause_in_the_keys(demo_db, make_app, monkeypatch):
    monkeypatch.setattr(background, "WARM_IDLE_SECONDS", 3600.0, raising=False)  # held while the store opens
    calls: list[float] = []
    app = make_app(demo_db, recall_settings(), warm_recall=True)
    app.engine_factory = spy_warm(app, calls)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        monkeypatch.setattr(background, "WARM_IDLE_SECONDS", 1.0, raising=False)
        typing = time.perf_counter()
        for _ in range(4):
            await pilot.press("j")
        await wait_until(pilot, lambda: app.recall_state == "ready", what="embeddings ready without the playground")
        assert len(calls) == 1 and calls[0] > typing
        assert calls[0] - app.last_input_at >= 1.0  # began after the last key, once the keys paused


async def test_while_keys_keep_coming_the_status_says_it_waits_and_the_playground_starts_it(demo_db, make_app, monkeypatch):
    monkeypatch.setattr(background, "WARM_IDLE_SECONDS", 3600.0, raising=False)  # a person who never pauses
    calls: list[float] = []
    app = make_app(demo_db, recall_settings(), warm_recall=True)
    app.engine_factory = spy_warm(app, calls)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        await pilot.press("j", "j")
        await pilot.pause(2.0)  # past the first rows and the 1.5 s cap that used to start it
        assert calls == [] and app.engine.recall_status().state == "not_loaded"
        assert app.status.model == "embeddings load once keys pause"
        await pilot.press("2")  # the playground: recall is wanted now
        await wait_until(pilot, lambda: app.recall_state == "ready", what="embeddings ready")
        assert len(calls) == 1
        view = app.query_one(PlaygroundView)
        await wait_until(pilot, lambda: app.focused is view.query_one("#query"), what="query focused")
        await wait_until(pilot, lambda: app.engine.recall_service.pending_count == 0, timeout=60, what="vectors")
        await pilot.press(*"atlas python")
        await wait_until(pilot, lambda: view.result is not None and view.shown_query == "atlas python", what="a recall")
        assert view.result["mode"] == "hybrid" and view.result["results"], view.result["notices"]


async def test_before_the_warm_up_the_heap_made_at_startup_is_out_of_the_collector_s_walk(demo_db, make_app, monkeypatch):
    """Once the first rows are drawn, what the app made to get there (modules, widgets) is
    frozen: a full collection while keys are pressed, before the warm-up, walked all of it
    (0.2-0.5 s at 100k entries, on the loop)."""
    monkeypatch.setattr(background, "WARM_IDLE_SECONDS", 3600.0, raising=False)
    gc.unfreeze()
    app = make_app(demo_db, recall_settings(), engine_factory=open_with_fake_models, warm_recall=True)
    try:
        async with app.run_test(size=(120, 32)) as pilot:
            await ready(pilot)
            assert app.engine.recall_status().state == "not_loaded"  # the warm-up has not run
            assert gc.get_freeze_count() > 0
            assert len(gc.get_objects()) < gc.get_freeze_count()  # a full pass walks what came after only
    finally:
        gc.unfreeze()
