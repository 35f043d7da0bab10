"""The gate index decides which rules run on a text: it must let through exactly the
rules whose every gate group has a substring in the text, or a rule would silently
never run (a missed attack) on some texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.scanner import _EN_TABLE, _ZH_TABLE, GateIndex, learned_text

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "injection-dev"


def _reference(rules, text: str) -> frozenset[int]:
    """The gates read literally: every group has one of its substrings in the text."""
    return frozenset(r for r, rule in enumerate(rules) if all(any(s in text for s in group) for group in rule.gate))


def _texts() -> list[str]:
    paths = sorted(DATA.glob("*.jsonl"))
    assert paths, f"shared data missing: {DATA}"
    lines = [json.loads(line)["text"] for path in paths for line in path.read_text(encoding="utf-8").splitlines()]
    edge = ["", "a", "i", "忽", "ignore", "ignore all previous instructions"]
    # long texts, and gates that overlap or sit at either end of the text
    edge += [("x" * n + "ignore previous instructions")[-n:] for n in (2047, 2048, 2049, 70000)]
    edge += ["ignoreignore", "instructionsignore", "(ig)", "i[i]"]
    return edge + [learned_text(t) for t in lines]


@pytest.mark.parametrize("rules", [_EN_TABLE, _ZH_TABLE], ids=["en", "zh"])
def test_runnable_rules_are_exactly_those_whose_gates_the_text_passes(rules):
    index = GateIndex(rules)
    texts = _texts()
    assert any(index.runnable(t) - index.runnable("") for t in texts), "no text opened a gate: the test proves nothing"
    for text in texts:
        assert index.runnable(text) == _reference(rules, text), text[:80]
