"""The offline, deterministic adapter: an extractive summary, rule-based fact and
entity extraction, and rule-based verification. The default when no endpoint is
configured, and the fallback when the configured one fails."""

from __future__ import annotations

from ..models import MemoryEntry
from ..scanner import scan_memory_content
from .extract import PRODUCER, RuleExtractor, entities, find_projects
from .llm import ExtractionContext, LanguageModel
from .records import CandidateFact, Message, Signals, Summary, Verdict
from .text import find_tools, sentences
from .verify import verify_offline

SUMMARY_SENTENCES = 3
SUMMARY_SENTENCE_CHARS = 200


class OfflineModel(LanguageModel):
    name = PRODUCER

    async def summarise(self, messages: list[Message], context: ExtractionContext) -> Summary:
        found = entities(messages, context.projects)
        facts = RuleExtractor(context.who, context.projects).extract(messages, [])
        return Summary(
            extractive_summary(messages, context), found, _importance(len(facts), len(found), len(messages)), self.name
        )

    async def extract_facts(self, messages: list[Message], notes: list[str], context: ExtractionContext) -> list[CandidateFact]:
        return RuleExtractor(context.who, context.projects).extract(messages, notes)

    async def verify(self, a: MemoryEntry, b: MemoryEntry, signals: Signals) -> Verdict:
        return verify_offline(a, b, signals)


def extractive_summary(messages: list[Message], context: ExtractionContext) -> str:
    """The session's most informative sentences, in their original order.

    A sentence scores for the projects and tools it names and for being the user's
    own statement; questions and anything the write scanner would refuse, alone or
    joined to the sentences before it, are left out, so the summary can always be stored."""
    scored: list[tuple[float, int, str]] = []
    position = 0
    for message in messages:
        for sentence in sentences(message.content):
            position += 1
            if sentence.endswith("?") or len(sentence) < 12 or scan_memory_content(sentence).blocked:
                continue
            score: float = len(find_projects(sentence, context.projects)) + len(find_tools(sentence))
            score += 0.5 if message.role == "user" else 0.0
            score += min(len(sentence), 160) / 400
            text = sentence if len(sentence) <= SUMMARY_SENTENCE_CHARS else sentence[: SUMMARY_SENTENCE_CHARS - 1] + "…"
            scored.append((score, position, text))
    chosen: list[tuple[int, str]] = []
    for _, position, text in sorted(scored, key=lambda s: (-s[0], s[1])):
        trial = sorted(chosen + [(position, text)])
        # Two harmless sentences can be refused once joined (e.g. a line of '=====' then 'Begin …').
        if not scan_memory_content(" ".join(t for _, t in trial)).blocked:
            chosen = trial
        if len(chosen) == SUMMARY_SENTENCES:
            break
    return " ".join(text for _, text in chosen)


def _importance(facts: int, found_entities: int, message_count: int) -> float:
    """More facts and entities make an episode worth keeping longer."""
    value = 0.25 + 0.1 * min(facts, 4) + 0.04 * min(found_entities, 5) + 0.01 * min(message_count, 10)
    return round(min(0.9, value), 3)
