"""Fixtures for the app's tests: the seeded demo store built once with a frozen
`now`, copied per test, and an app factory with a frozen clock (so ages render
the same every run), no live watcher and no model warm-up unless asked."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from engine import MemoryEngine, Settings  # noqa: E402
from engine.demo import build_demo  # noqa: E402

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
SIZE = (140, 44)


def frozen_clock() -> datetime:
    return NOW


async def _build(path: Path) -> None:
    engine = await MemoryEngine.open(path, clock=frozen_clock)
    try:
        await build_demo(engine, now=NOW)
    finally:
        await engine.close()


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo-template")
    path = folder / "demo.db"
    asyncio.run(_build(path))
    for suffix in ("-wal", "-shm"):
        assert not Path(str(path) + suffix).exists() or Path(str(path) + suffix).stat().st_size == 0
    return path


@pytest.fixture
def demo_db(demo_template: Path, tmp_path: Path) -> Path:
    """A fresh copy of the demo store named demo.db (the name shows in the app)."""
    target = tmp_path / "store" / "demo.db"
    target.parent.mkdir()
    shutil.copy(demo_template, target)
    return target


@pytest.fixture
def make_app() -> Callable[..., Any]:
    from echo_memory_tui.app import EchoMemoryApp

    def make(db: Path, settings: Settings | None = None, **kw: Any) -> EchoMemoryApp:
        kw.setdefault("clock", frozen_clock)
        kw.setdefault("live", False)
        kw.setdefault("warm_recall", False)
        return EchoMemoryApp(db, settings, **kw)

    return make


async def wait_until(pilot, condition: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    """Let the app run until condition() holds (workers post their messages)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():
                return
        except Exception:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await pilot.pause(0.02)


async def ready(pilot) -> None:
    """The store is open, the first page is drawn and the detail shows its entry."""
    app = pilot.app
    from echo_memory_tui.widgets.browser import EntryBrowser
    from echo_memory_tui.widgets.detail import EntryDetail

    await wait_until(pilot, lambda: app.engine is not None or app.status.error, what="engine open")
    if app.engine is None:
        return
    await wait_until(pilot, lambda: app.query_one(EntryBrowser).total >= 0, what="count")
    browser = app.query_one(EntryBrowser)
    if browser.total > 0:
        await wait_until(pilot, lambda: app.query_one(EntryDetail).data is not None, what="detail")
    await wait_until(pilot, lambda: getattr(app, "stats", None) is not None, what="stats")
    await pilot.pause()


async def select_key(pilot, key: str) -> Any:
    """Filter the browser to one key (programmatically: typing is tested elsewhere)
    and wait until the detail shows the live entry for it."""
    from echo_memory_tui.widgets.browser import EntryBrowser
    from echo_memory_tui.widgets.detail import EntryDetail

    app = pilot.app
    view = app.memory_view
    view.action_filter()
    view.query_one("#filter").value = key
    view._apply_filter(key)
    browser = app.query_one(EntryBrowser)

    def settled() -> bool:
        entry = browser.current_entry()
        detail = app.query_one(EntryDetail).data
        return entry is not None and entry.key == key and detail is not None and detail.entry.id == entry.id

    await wait_until(pilot, settled, what=f"entry {key}")
    browser.focus()
    await pilot.pause()
    return browser.current_entry()


RECALL_SETTINGS = {"memory.embeddingModel": "fake", "memory.rerankEnabled": False}


def recall_settings() -> Settings:
    """Recall with the deterministic fake embedder and no cross-encoder (no weights offline)."""
    return Settings.defaults().override(RECALL_SETTINGS)


async def open_with_fake_embedder(path, settings, read_only, clock):
    """An engine whose recall uses the fake embedder (tests never load the real model).

    Uses the engine's own hook when it has one (embedder_factory), else wires a
    RecallService onto the engine for the playground to call."""
    import inspect

    from tests.engine.recall.helpers import FakeEmbedder

    def factory(name: str, **kw):
        return FakeEmbedder(name, **kw)

    params = inspect.signature(MemoryEngine.open).parameters
    if "embedder_factory" in params:
        return await MemoryEngine.open(path, settings, read_only=read_only, clock=clock, embedder_factory=factory)
    engine = await MemoryEngine.open(path, settings, read_only=read_only, clock=clock)
    if not hasattr(engine, "recall"):
        from engine.recall import RecallService

        service = RecallService(engine.store, settings, embedder_factory=factory, snapshot=False)

        async def recall(query, limit=10, dry=True, overrides=None):
            return await service.recall(query, limit=limit, dry=dry, overrides=overrides, now=clock())

        engine.recall = recall
        engine.recall_status = service.model_status
        engine.warm_recall = service.warm
    return engine
