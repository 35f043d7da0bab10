"""Shared fixtures: offline model loading, a fresh store per test, a settable clock."""

from __future__ import annotations

import gc
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from engine import MemoryEngine, Settings  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
FROZEN_NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="session", autouse=True)
def _model_export_cache(tmp_path_factory):
    """ONNX exports made by the tests go to this run's temporary folder, not ~/.cache."""
    os.environ["ECHO_MEMORY_CACHE_DIR"] = str(tmp_path_factory.mktemp("export-cache"))


class Clock:
    """A clock tests move by hand."""

    def __init__(self, now: datetime = FROZEN_NOW):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def collector_on():
    """The cyclic collector as a process normally runs it, whatever the test runner set."""
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
async def engine(db_path: Path, clock: Clock):
    eng = await MemoryEngine.open(db_path, Settings.defaults(), clock=clock, actor="user")  # the person
    try:
        yield eng
    finally:
        await eng.close()


def shared_data(*parts: str) -> Path:
    """A file under ../shared/data; fails loudly (never silently passes) when it is missing."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"test data missing: {path} (the checkout needs ../shared/data beside it)")
    return path
