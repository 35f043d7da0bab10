"""Issue 8, item 2: no provenance laundering through the WORKING tier.

A model_inferred write over a consolidated entry is refused by the guard; the same
text as a model_inferred working note must not come back from consolidation as a
`consolidated` fact that replaces the entry."""

from __future__ import annotations

import pytest

from engine.gate import WriteRejected
from engine.models import ProvenanceLevel

from ..engine.consolidation.conftest import svc  # noqa: F401 - the service fixture

KEY = "atlas-api/python"


async def _head(engine, key):
    [head] = [e for e in await engine.list_entries() if e.key == key and e.superseded_by is None]
    return head


async def test_a_model_inferred_note_cannot_replace_a_consolidated_fact(engine, svc):
    await engine.add(KEY, "atlas-api runs on Python 3.12.", source="consolidated")
    with pytest.raises(WriteRejected):  # the direct route is closed...
        await engine.add(KEY, "atlas-api is on Python 3.13 now.", source="model_inferred")
    await svc.open_session("s1")
    await svc.add_message("s1", "user", "Good morning, let us look at the dashboards.")
    await engine.remember_working("s1", "note", "atlas-api is on Python 3.13 now.", source="model_inferred")
    await svc.end_session("s1")
    await svc.drain()
    head = await _head(engine, KEY)  # ...and so is the one through WORKING
    assert head.content == "atlas-api runs on Python 3.12." and head.source is ProvenanceLevel.CONSOLIDATED
    [run] = await svc.runs(session="s1")
    assert run.status == "ok"
    assert [(r["key"], r["reason"]) for r in run.detail["refused"]] == [(KEY, "provenance_guard")]


async def test_a_note_fact_carries_the_note_provenance_and_a_user_fact_is_consolidated(engine, svc):
    await svc.open_session("s1")
    await svc.add_message("s1", "user", "orbit-web is on pnpm 9 now.")
    await engine.remember_working("s1", "note", "atlas-api is on Python 3.13 now.", source="model_inferred")
    await engine.remember_working("s1", "legacy", "ledger-cli releases are cut every Friday now.", source="legacy")
    await svc.end_session("s1")
    await svc.drain()
    assert (await _head(engine, "orbit-web/package-manager")).source is ProvenanceLevel.CONSOLIDATED
    assert (await _head(engine, KEY)).source is ProvenanceLevel.MODEL_INFERRED
    assert (await _head(engine, "ledger-cli/release")).source is ProvenanceLevel.LEGACY
