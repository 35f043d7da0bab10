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


async def build_synthetic(path: Path, entries: int) -> None:
    """A store of `entries` synthetic memories (the TUI bench's), imported verbatim."""
    from benchmarks.tui_bench import synthetic_entries
    from engine import Actor

    engine = await MemoryEngine.open(path, clock=frozen_clock, actor=Actor.person("test"))
    try:
        await engine.import_entries(list(synthetic_entries(entries)), actor="test", verbatim=True, trust_provenance=True)
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


async def decay_preview_open(pilot, app, timeout: float = 60.0) -> None:
    """Wait for the decay preview with its buttons: the screen becomes current a frame
    before its children mount, so a test that pressed `#yes` at once raced the mount."""
    from echo_memory_tui.screens.dialogs import DecayPreviewScreen

    def mounted() -> bool:
        return isinstance(app.screen, DecayPreviewScreen) and bool(app.screen.query("#yes"))

    await wait_until(pilot, mounted, timeout=timeout, what="decay preview")


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
        if entry is not None and entry.key == key and entry.superseded_by is not None:  # a version tied with the head
            rows = [browser.row_at(i) for i in range(max(0, browser.total))]
            live = [i for i, row in enumerate(rows) if row and row.entry.key == key and not row.entry.superseded_by]
            if live:
                browser.set_cursor(live[0])
            return False
        detail = app.query_one(EntryDetail).data
        return entry is not None and entry.key == key and detail is not None and detail.entry.id == entry.id

    await wait_until(pilot, settled, what=f"entry {key}")
    browser.focus()
    await pilot.pause()
    return browser.current_entry()


RECALL_SETTINGS = {"memory.embeddingModel": "fake", "memory.rerankEnabled": True, "memory.rerankModel": "fake-ce"}


def recall_settings() -> Settings:
    """Recall with the deterministic fake embedder and the fake cross-encoder below."""
    return Settings.defaults().override(RECALL_SETTINGS)


def fake_reranker_class():
    import re

    import numpy as np

    from engine.recall.rerank import Reranker

    class FakeReranker(Reranker):
        """A cross-encoder without weights: the logit is the number of query words
        found in the passage, minus 2 (so scores spread around 0.5). fail='load'
        behaves like a model that is not installed."""

        def __init__(self, name: str, fail: str | None = None):
            super().__init__(name)
            self.fail = fail

        def load_model(self):
            if self.fail == "load":
                raise OSError(f"{self.name} is not installed (offline)")
            return object()

        def predict_sync(self, pairs):
            def words(text: str) -> set[str]:
                return set(re.findall(r"\w+", text.lower()))

            return np.array([len(words(q) & words(p)) - 2.0 for q, p in pairs], np.float64)

    return FakeReranker


def fake_embedder(name: str, **kw):
    from tests.engine.recall.helpers import FakeEmbedder

    return FakeEmbedder(name, **kw)


async def open_with_fake_models(path, settings, read_only, clock, reranker_fail: str | None = None):
    """The real engine, with the fake embedder and cross-encoder injected through
    MemoryEngine.open's model factories (tests never load real weights)."""
    reranker = fake_reranker_class()
    return await MemoryEngine.open(
        path,
        settings,
        read_only=read_only,
        clock=clock,
        embedder_factory=fake_embedder,
        reranker_factory=lambda name: reranker(name, fail=reranker_fail),
    )
