"""The false-positive target (at most 1% of ordinary text refused) held on text no rule
was written from and the learned layer never saw: LongMemEval chat turns and SciFact
abstracts (../shared/data). A seeded sample of each, so the suite stays quick; the full
count is `python -m benchmarks.scanner_benign`. Fails if a rule change starts refusing
ordinary chat or science."""

from __future__ import annotations

import random

from benchmarks.scanner_benign import abstracts, chat_turns
from engine.scanner import scan_many
from tests.conftest import shared_data

SAMPLE = 1500


def _refused_share(texts: list[str]) -> tuple[float, list[str]]:
    texts = random.Random(11).sample(texts, min(SAMPLE, len(texts)))
    verdicts = scan_many(texts)
    return sum(v.blocked for v in verdicts) / len(texts), [v.pattern for v in verdicts if v.blocked]


def test_chat_turns_are_stored():
    share, why = _refused_share(chat_turns(shared_data("longmemeval-dev", "longmemeval_s_dev.json")))
    assert share <= 0.01, why


def test_research_abstracts_are_stored():
    share, why = _refused_share(abstracts(shared_data("scifact-train", "corpus.jsonl")))
    assert share <= 0.01, why
