"""The language-model adapter: one interface for the three jobs consolidation asks
of a model (summarise a session, extract facts, judge a candidate contradiction).
The implementations (offline.py, openai_compat.py) build on it, and adapters.py
picks one from the config. Every result names the implementation that produced it."""

from __future__ import annotations

import abc
from dataclasses import dataclass

from ..errors import ModelError, ModelReplyError  # noqa: F401 - their home before engine.errors
from ..models import MemoryEntry
from .records import CandidateFact, Message, Signals, Summary, Verdict


@dataclass(frozen=True)
class ExtractionContext:
    """What an extractor needs to know beyond the transcript."""

    user_name: str = ""  # how facts name the user; "The user" when unknown
    projects: tuple[str, ...] = ()  # project names already in memory

    @property
    def who(self) -> str:
        return self.user_name or "The user"


class LanguageModel(abc.ABC):
    name: str

    @abc.abstractmethod
    async def summarise(self, messages: list[Message], context: ExtractionContext) -> Summary:
        """An episode summary, the entities it involves, and its importance (0-1)."""

    @abc.abstractmethod
    async def extract_facts(self, messages: list[Message], notes: list[str], context: ExtractionContext) -> list[CandidateFact]:
        """Durable facts from the transcript and the session's WORKING notes."""

    @abc.abstractmethod
    async def verify(self, a: MemoryEntry, b: MemoryEntry, signals: Signals) -> Verdict:
        """Do a and b contradict each other, how sure is that, and why."""

    async def aclose(self) -> None:
        """Release connections; the offline rules hold none."""
