"""Test helpers for consolidation: a scripted fake model and a conversation replayer."""

from __future__ import annotations

from typing import Optional

from engine.consolidation import CandidateFact, LanguageModel, Summary, Verdict
from engine.models import MemoryType


async def converse(service, key: str, *turns: str, end: bool = True, clock=None) -> None:
    """Open key, add turns (alternating user/assistant, user first), end and wait."""
    await service.open_session(key)
    for i, text in enumerate(turns):
        if clock is not None:
            clock.advance(minutes=1)
        await service.add_message(key, "user" if i % 2 == 0 else "assistant", text)
    if end:
        await service.end_session(key)
        await service.drain()


def fact(
    key: str, content: str, type_: MemoryType = MemoryType.ENVIRONMENT, tags=(), importance=0.5, produced_by="fake/1"
) -> CandidateFact:
    return CandidateFact(key, content, type_, list(tags), importance, produced_by)


class FakeModel(LanguageModel):
    """A model whose answers (or failures) a test scripts."""

    name = "fake/1"

    def __init__(
        self,
        facts: Optional[list[CandidateFact]] = None,
        verdict: Optional[Verdict] = None,
        summary: str = "A scripted summary.",
        fail: Optional[Exception] = None,
    ):
        self.facts = facts or []
        self.verdict = verdict
        self.summary = summary
        self.fail = fail
        self.calls: list[str] = []

    def _maybe_fail(self, call: str) -> None:
        self.calls.append(call)
        if self.fail is not None:
            raise self.fail

    async def summarise(self, messages, context):
        self._maybe_fail("summarise")
        return Summary(self.summary, ["scripted"], 0.5, self.name)

    async def extract_facts(self, messages, notes, context):
        self._maybe_fail("extract")
        return list(self.facts)

    async def verify(self, a, b, signals):
        self._maybe_fail("verify")
        return self.verdict or Verdict(False, 0.0, "none", "no", "no", self.name)


def use_model(service, model: LanguageModel) -> None:
    """Make the service's pipeline ask model (the offline rules stay the fallback)."""
    service.model = service.pipeline.model = model
