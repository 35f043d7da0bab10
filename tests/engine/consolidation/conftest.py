"""Fixtures for consolidation: the engine's own service, with instant retries."""

from __future__ import annotations

import pytest


@pytest.fixture
async def svc(engine):
    service = engine.consolidation
    service.scheduler.backoff_seconds = 0
    try:
        yield service
    finally:
        await service.stop()
