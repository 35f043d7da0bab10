"""Property-based checks of the two invariants users rely on most."""

from __future__ import annotations

import asyncio
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import MemoryEngine, ProvenanceLevel, WriteRejected
from engine.decay import effective_importance
from engine.models import MemoryEntry, MemoryType
from tests.conftest import FROZEN_NOW, Clock

levels = st.sampled_from(list(ProvenanceLevel))
writes = st.lists(st.tuples(st.sampled_from(["a", "b"]), levels, st.integers(0, 3)), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writes)
def test_no_write_sequence_lets_lower_provenance_replace_higher(sequence):
    async def scenario():
        with tempfile.TemporaryDirectory() as tmp:
            eng = await MemoryEngine.open(Path(tmp) / "m.db", clock=Clock(), actor="user")
            try:
                highest: dict[str, int] = {}
                for key, level, n in sequence:
                    try:
                        await eng.add(key, f"{key} value {n} at {level.label}", source=level)
                    except WriteRejected as exc:
                        assert exc.reason == "provenance_guard"
                        assert level.value < highest[key]
                        continue
                    assert level.value >= highest.get(key, -1)
                    highest[key] = level.value
                for entry in await eng.list_entries():
                    if entry.superseded_by:
                        newer = await eng.get(entry.superseded_by)
                        assert newer.source.value >= entry.source.value
            finally:
                await eng.close()

    asyncio.run(scenario())


@given(
    importance=st.floats(0, 1),
    access=st.integers(0, 10_000),
    age=st.floats(0, 5000),
    steps=st.lists(st.floats(0, 400), min_size=1, max_size=10),
    base=st.floats(0, 365),
    kind=st.sampled_from(list(MemoryType)),
    pinned=st.booleans(),
)
def test_effective_importance_never_rises_without_access(importance, access, age, steps, base, kind, pinned):
    entry = MemoryEntry(
        key="k",
        content="c",
        importance=importance,
        access_count=access,
        type=kind,
        pinned=pinned,
        last_accessed=FROZEN_NOW - timedelta(days=age),
    )
    now, last = FROZEN_NOW, effective_importance(entry, FROZEN_NOW, base)
    assert 0 <= last <= importance
    for step in steps:
        now += timedelta(days=step)
        current = effective_importance(entry, now, base)
        assert current <= last
        last = current
