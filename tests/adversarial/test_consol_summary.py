"""Issue 8, item 7: two harmless sentences, joined in the extractive summary,
match the scanner's fake_boundary rule. A refused summary must degrade, never
block the session, and the run's messages must say what was really stored."""

from __future__ import annotations

from engine.consolidation import Summary
from engine.scanner import scan_memory_content

from ..engine.consolidation.conftest import svc  # noqa: F401 - the service fixture
from ..engine.consolidation.helpers import FakeModel, use_model

A = "Our README heading underline is always ====="
B = "Begin with the atlas-api migration tomorrow morning."


def test_the_two_sentences_pass_alone_and_are_refused_together():
    assert not scan_memory_content(A).blocked and not scan_memory_content(B).blocked
    assert scan_memory_content(f"{A} {B}").blocked


async def _converse(svc):
    await svc.open_session("s1")
    await svc.add_message("s1", "user", A)
    await svc.add_message("s1", "user", B)
    await svc.end_session("s1")
    await svc.drain()


async def test_a_refused_offline_summary_degrades_and_the_session_is_consolidated(engine, svc):
    await _converse(svc)
    [run] = await svc.runs(session="s1")
    assert run.status == "ok", run.errors
    assert (await svc.session("s1")).status == "consolidated"
    [episode] = await svc.episodes("s1")
    assert not scan_memory_content(episode.summary).blocked
    assert "migration" in episode.summary or "README" in episode.summary  # summarised without the joint
    assert not any("stored instead" in e for e in run.errors)  # the fallback was the same summariser
    assert [j.status for j in await svc.jobs()] == ["done"]
    assert await svc.consolidate() == []  # nothing left stuck


class _BoundaryModel(FakeModel):
    async def summarise(self, messages, context):
        return Summary(f"{A} {B}", ["atlas-api"], 0.5, self.name)


async def test_a_refused_model_summary_says_which_summary_was_stored(engine, svc):
    use_model(svc, _BoundaryModel())
    await _converse(svc)
    [run] = await svc.runs(session="s1")
    [episode] = await svc.episodes("s1")
    assert run.status == "ok" and episode.produced_by != "fake/1"
    [note] = [e for e in run.errors if "refused" in e]
    assert episode.produced_by in note
