"""Issue 10: the spec's EPISODIC rule, "retained by importance". Past
memory.maxEpisodes the least important episodes are demoted to ARCHIVAL entries
(restorable, audited as the policy); an episode a pinned memory came from never is."""

from __future__ import annotations

from engine.consolidation.records import Summary
from engine.models import MemoryTier

from .helpers import FakeModel, converse, fact, use_model

IMPORTANCE = {"pinned": 0.1, "high": 0.9, "low": 0.3, "mid": 0.5}


class ByTopic(FakeModel):
    """Summaries whose importance the conversation's first word sets."""

    async def summarise(self, messages, context):
        topic = messages[0].content.split()[0]
        return Summary(f"We talked about {topic} things.", [topic], IMPORTANCE[topic], self.name)

    async def extract_facts(self, messages, notes, context):
        topic = messages[0].content.split()[0]
        return [fact(f"note/{topic}", f"A durable {topic} note.")] if topic == "pinned" else []


async def episodes_by_topic(svc) -> set[str]:
    return {e.entity_ids[0] for e in await svc.episodes()}


async def with_cap(engine, cap: int) -> None:
    await engine.apply_settings(engine.settings.override({"memory.maxEpisodes": cap}))


async def test_the_least_important_episodes_go_first_and_a_pinned_ones_never(engine, svc):
    use_model(svc, ByTopic())
    await converse(svc, "s-pinned", "pinned topic here", "ok")
    [note] = [e for e in await engine.list_entries() if e.key == "note/pinned"]
    await engine.pin(note.id)
    for topic in ("high", "low", "mid"):
        await converse(svc, f"s-{topic}", f"{topic} topic here", "ok")
    assert await episodes_by_topic(svc) == {"pinned", "high", "low", "mid"}  # under the default cap

    await with_cap(engine, 2)
    preview = await engine.retain_episodes(dry_run=True)
    assert [c.entry.key for c in preview] == ["episode/s-low#0-1", "episode/s-mid#0-1"]  # 0.3, then 0.5
    assert len(await svc.episodes()) == 4  # a preview changes nothing

    demoted = await engine.retain_episodes(dry_run=False, actor="user")
    assert [c.action for c in demoted] == ["demote_episode", "demote_episode"]
    # the pinned memory's episode (importance 0.1) stays; the important one stays
    assert await episodes_by_topic(svc) == {"pinned", "high"}
    archived = {e.key: e for e in await engine.list_entries() if e.key.startswith("episode/")}
    assert set(archived) == {"episode/s-low#0-1", "episode/s-mid#0-1"}
    low = archived["episode/s-low#0-1"]
    assert low.tier is MemoryTier.ARCHIVAL and low.content == "We talked about low things."
    [record] = await engine.audit(entry_id=low.id, action="demote_episode")
    assert record.reason == "memory.maxEpisodes" and record.detail["max_episodes"] == 2
    restored = await engine.restore(low.id)
    assert restored.entry.tier is MemoryTier.SEMANTIC  # demoted, not lost


async def test_consolidation_applies_the_cap_when_it_runs(engine, svc):
    use_model(svc, ByTopic())
    await with_cap(engine, 1)
    await converse(svc, "s-high", "high topic here", "ok")
    await converse(svc, "s-low", "low topic here", "ok")
    assert await episodes_by_topic(svc) == {"high"}
    [run] = await svc.runs(session="s-low")
    assert run.counts["episodes_demoted"] == 1
