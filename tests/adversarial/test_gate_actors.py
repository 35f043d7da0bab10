"""Issue 8 items 4 and 5: who may do what. An agent stores at most model_inferred
and meets the guard; restore, resolve, merge, undo and purge need a person; an
unnamed API caller is an agent."""

from __future__ import annotations

import pytest

from engine import Actor, MemoryEngine, MemoryTier, ProvenanceLevel, WriteRejected
from engine.models import Contradiction


async def test_agent_restore_of_an_old_version_is_refused_and_changes_nothing(engine):
    old = (await engine.add("user/tz", "UTC+1", "user", "model_inferred")).entry
    head = (await engine.add("user/tz", "UTC+9", "user", "user_stated")).entry
    with pytest.raises(WriteRejected) as info:
        await engine.restore(old.id, actor="agent")
    assert info.value.reason == "person_required" and "restore needs a person" in info.value.message
    current = await engine.list_entries()
    heads = [e for e in current if e.superseded_by is None and e.tier is MemoryTier.SEMANTIC]
    assert [(e.id, e.source) for e in heads] == [(head.id, ProvenanceLevel.USER_STATED)]
    assert (await engine.quarantine())[0].detail["action"] == "restore"


async def test_an_unnamed_api_caller_is_an_agent(db_path, clock):
    async with await MemoryEngine.open(db_path, clock=clock) as api:
        claimed = (await api.add("user/tz", "UTC+3", "user", "user_stated")).entry
        assert claimed.source is ProvenanceLevel.MODEL_INFERRED  # capped, whatever it claims
        await api.archive(claimed.id)
        with pytest.raises(WriteRejected, match="person_required|needs a person"):
            await api.restore(claimed.id)
        with pytest.raises(WriteRejected, match="purge needs a person"):
            await api.purge(claimed.id)
    async with await MemoryEngine.open(db_path, clock=clock, actor=Actor.person("ada")) as person:
        assert (await person.restore(claimed.id)).entry.tier is MemoryTier.SEMANTIC
        audit = await person.audit(claimed.id, "restore")
        assert audit[0].actor == "person:ada"


async def test_agent_writes_are_capped_and_meet_the_guard(engine):
    mine = (await engine.add("user/tz", "UTC+1", "user", "user_stated")).entry
    with pytest.raises(WriteRejected) as info:
        await engine.add("user/tz", "UTC-5", "user", "user_stated", actor=Actor.agent("bot"))
    assert info.value.reason == "provenance_guard"
    with pytest.raises(WriteRejected, match="provenance_guard|may not archive"):
        await engine.archive(mine.id, actor="agent")
    with pytest.raises(WriteRejected, match="pin needs a person"):
        await engine.pin(mine.id, actor="agent")
    with pytest.raises(WriteRejected) as info:
        await engine.edit(mine.id, "UTC-5", actor="agent")
    assert info.value.reason == "provenance_guard"
    assert (await engine.get(mine.id)).content == "UTC+1" and not (await engine.get(mine.id)).pinned
    # Over its own (model_inferred) writes, an agent keeps working.
    note = (await engine.add("proj/db", "pg 13", actor="agent")).entry
    assert (await engine.edit(note.id, "pg 15", actor="agent")).entry.source is ProvenanceLevel.MODEL_INFERRED


async def _contradiction(engine) -> str:
    a = (await engine.add("user/lang", "Rust", "user", "consolidated")).entry
    b = (await engine.add("user/language", "Go", "user", "model_inferred")).entry
    record = Contradiction(a.id, b.id, "language differs", 0.5)
    async with engine.store.transaction() as conn:
        await conn.execute(
            "INSERT INTO contradictions(id, entry_a_id, entry_b_id, description, confidence, status, created_at, "
            "detector) VALUES (?,?,?,?,?,?,?,?)",
            (record.id, a.id, b.id, record.description, record.confidence, "pending", record.created_at.isoformat(), "test"),
        )
    return record.id


@pytest.mark.parametrize(
    "call",
    [
        lambda svc, cid: svc.resolve(cid, "b", actor="agent"),
        lambda svc, cid: svc.merge(cid, "Rust and Go", actor=Actor.agent("bot")),
        lambda svc, cid: svc.undo(None, actor="agent"),
    ],
)
async def test_manual_resolution_needs_a_person(engine, call):
    cid = await _contradiction(engine)
    with pytest.raises(WriteRejected) as info:
        await call(engine.consolidation, cid)
    assert info.value.reason == "person_required"
    assert (await engine.consolidation.contradiction(cid)).status.label == "pending"
    assert {e.tier for e in await engine.list_entries()} == {MemoryTier.SEMANTIC}


async def test_a_person_still_resolves(engine):
    cid = await _contradiction(engine)
    result = await engine.consolidation.resolve(cid, "b")  # the engine fixture acts as the person
    assert result is not None and (await engine.consolidation.contradiction(cid)).status.label == "resolved"


async def test_key_held_by_a_user_entry_cannot_get_a_pinned_environment_twin(engine):
    await engine.add("user/timezone", "Europe/Paris", "user", "user_stated")
    with pytest.raises(WriteRejected, match="already a user memory"):
        await engine.add("user/timezone", "UTC", "environment", "legacy", pinned=True)
    markdown = (await engine.core_snapshot()).markdown
    assert markdown.count("**user/timezone**") == 1
