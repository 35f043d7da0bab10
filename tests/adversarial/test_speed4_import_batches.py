"""Issue 14: an import checks its next batch (the scanner) while the previous batch is
written. Whatever the batch size, an import lands, refuses and audits exactly what
one entry per batch does: the same report and the same store."""

from __future__ import annotations

import asyncio
import copy
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import MemoryEngine
from tests.adversarial.test_bulk_equivalence import entries, store_state
from tests.conftest import Clock


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    items=st.lists(entries(), min_size=1, max_size=14),
    size=st.integers(min_value=2, max_value=5),
    verbatim=st.booleans(),
)
def test_an_import_in_batches_lands_what_one_entry_per_batch_lands(items, size, verbatim):
    async def land(batch: int, folder: Path):
        seen: list[tuple[int, int]] = []
        eng = await MemoryEngine.open(folder / f"{batch}.db", clock=Clock(), actor="user")
        try:
            todo = [({"line": n}, entry) for n, entry in enumerate(copy.deepcopy(items), start=1)]
            report = await eng.import_entries(todo, "import", verbatim=verbatim, batch=batch, progress=lambda *p: seen.append(p))
            if seen:  # batches were written (not every line refused before the gate): the bar ends full
                assert seen[-1] == (len(items), len(items)), seen
            return report.to_dict(), len(seen) > 0, await store_state(eng)
        finally:
            await eng.close()

    async def scenario():
        with tempfile.TemporaryDirectory() as tmp:
            single = await land(1, Path(tmp))
            batched = await land(size, Path(tmp))
        assert batched == single

    asyncio.run(scenario())
