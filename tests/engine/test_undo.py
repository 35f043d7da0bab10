"""Undo through the gate (engine.undo_snapshot / engine.undo): a person takes back a
write; an agent may not, and a key taken meanwhile refuses the undo with nothing written."""

from __future__ import annotations

import pytest

from engine import UndoStep, WriteRejected


async def test_an_agent_cannot_undo_and_the_attempt_is_audited(engine):
    entry = (await engine.add("proj/db", "Uses Postgres.", source="user_stated", actor="user")).entry
    before = await engine.undo_snapshot([entry.id])
    out = await engine.archive(entry.id, actor="user")
    step = UndoStep.after("archived proj/db", before, out.changed)
    with pytest.raises(WriteRejected) as refused:
        await engine.undo(step, actor="agent")
    assert refused.value.reason == "person_required"
    assert (await engine.get(entry.id)).tier.label == "archival"
    assert any(r.action == "reject" for r in await engine.audit(action="reject"))


async def test_undo_refused_when_another_entry_took_the_key(engine):
    entry = (await engine.add("proj/db", "Uses Postgres.", source="user_stated", actor="user")).entry
    before = await engine.undo_snapshot([entry.id])
    out = await engine.archive(entry.id, actor="user")
    step = UndoStep.after("archived proj/db", before, out.changed)
    taker = (await engine.add("proj/db", "Uses SQLite.", source="user_stated", actor="user")).entry
    with pytest.raises(WriteRejected) as refused:
        await engine.undo(step, actor="user")
    assert refused.value.reason == "key_taken"
    assert (await engine.get(entry.id)).tier.label == "archival"
    assert (await engine.get(taker.id)).tier.label == "semantic"
