"""Pin, archive, restore (decayed and superseded), purge, access, decay pass."""

from __future__ import annotations

import pytest

from engine import EntryNotFound, MemoryTier, ProvenanceLevel, WriteRejected


async def test_pin_and_unpin_are_audited(engine):
    e = (await engine.add("k", "v")).entry
    assert (await engine.pin(e.id)).entry.pinned
    assert not (await engine.unpin(e.id)).entry.pinned
    assert [r.action for r in await engine.audit(e.id)][:2] == ["unpin", "pin"]


async def test_archive_then_restore_reactivates(engine, clock):
    e = (await engine.add("k", "v")).entry
    clock.advance(days=100)
    await engine.archive(e.id)
    assert (await engine.get(e.id)).tier is MemoryTier.ARCHIVAL
    restored = (await engine.restore(e.id)).entry
    assert restored.tier is MemoryTier.SEMANTIC and restored.last_accessed == clock.now
    # a fresh restore is not immediately re-archived by decay
    assert await engine.decay(dry_run=True) == []


async def test_restore_superseded_version_becomes_new_head(engine):
    v1 = (await engine.add("k", "first", source="consolidated")).entry
    v2 = (await engine.add("k", "second", source="user_stated")).entry
    out = await engine.restore(v1.id)
    head = out.entry
    assert head.content == "first" and head.version == 3 and head.superseded_by is None
    assert (await engine.get(v2.id)).superseded_by == head.id
    assert (await engine.get(v1.id)).superseded_by == v2.id  # the chain stays v1 -> v2 -> v3
    assert head.source is ProvenanceLevel.USER_STATED  # a person chose it


async def test_restore_of_live_entry_is_refused(engine):
    e = (await engine.add("k", "v")).entry
    with pytest.raises(WriteRejected, match="not archived"):
        await engine.restore(e.id)


async def test_purge_only_archived_and_splices_chain(engine):
    v1 = (await engine.add("k", "1")).entry
    v2 = (await engine.add("k", "2")).entry
    v3 = (await engine.add("k", "3")).entry
    with pytest.raises(WriteRejected, match="only archived"):
        await engine.purge(v3.id)
    await engine.purge(v2.id)
    assert (await engine.get(v1.id)).superseded_by == v3.id
    with pytest.raises(EntryNotFound):
        await engine.get(v2.id)
    assert (await engine.audit(v2.id))[0].action == "purge"


async def test_purge_expired_respects_retention(engine, clock):
    old = (await engine.add("a", "1")).entry
    await engine.archive(old.id)
    clock.advance(days=91)
    fresh = (await engine.add("b", "2")).entry
    await engine.archive(fresh.id)
    purged = await engine.purge_expired()
    assert [e.id for e in purged] == [old.id]


async def test_decay_pass_dry_run_changes_nothing_then_apply_archives(engine, clock):
    e = (await engine.add("proj/x", "fact", importance=0.5)).entry
    user = (await engine.add("user/x", "me", "user", importance=0.5)).entry
    pinned = (await engine.add("proj/p", "pinned fact", importance=0.5, pinned=True)).entry
    clock.advance(days=200)  # 0.5 * 0.5**(200/30) ~ 0.005 < 0.05
    preview = await engine.decay(dry_run=True)
    assert [c.entry.id for c in preview] == [e.id]
    assert (await engine.get(e.id)).tier is MemoryTier.SEMANTIC
    applied = await engine.decay(dry_run=False)
    assert [c.entry.id for c in applied] == [e.id]
    assert (await engine.get(e.id)).tier is MemoryTier.ARCHIVAL
    assert (await engine.get(user.id)).tier is MemoryTier.SEMANTIC
    assert (await engine.get(pinned.id)).tier is MemoryTier.SEMANTIC
    assert (await engine.audit(e.id))[0].reason == "decay"


async def test_access_reinforcement_counts_and_slows_decay(engine, clock):
    a = (await engine.add("a", "x")).entry
    b = (await engine.add("b", "y")).entry
    for _ in range(3):
        await engine.record_access([a.id])
    a2, b2 = await engine.get(a.id), await engine.get(b.id)
    assert a2.access_count == 3 and b2.access_count == 0
    clock.advance(days=60)
    assert engine.explain_decay(a2)["effective_importance"] > engine.explain_decay(b2)["effective_importance"]
