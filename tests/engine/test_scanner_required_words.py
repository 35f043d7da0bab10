"""The gate index adds to each rule's gate the words its regex cannot match without, one
gate per way the regex can match (engine/scanner/required.py). A gate that some match
fails would hold the rule back on that text: an attack the regex finds would be stored.
So: on every view of the train and dev lines and of texts built to match, wherever a
rule's regex matches, one of its gates holds; the same on generated patterns (with
top-level branches) and texts; and the derivation finds the words a reader would name."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.scanner import _EN_TABLE, _ZH_TABLE, fastre
from engine.scanner.rule_base import GateIndex

from .test_hash4_gate_index import _passes, data_views


def _holds(words, text: str) -> bool:
    """Every group has a string in the text (a rule's own ``\\b`` gates read as the index reads them)."""
    return all(any(_passes(word, text) for word in group) for group in words)


def _some_way_holds(ways, text: str) -> bool:
    return any(_holds(words, text) for words in ways)


def test_the_words_a_reader_would_name():
    # two branches: the whole pattern is one way; "am" and "on" are too common to gate on
    assert fastre.required_words(r"\b(?:this\s+is|i\s+am)\s+(?:your\s+)?(?:boss|manager)\b") == ((("boss", "manager"),),)
    # one top-level branch: one way per alternative, with the words around the branch
    assert fastre.required_words(r"note\s+for\s+the\s+(?:ai|bot)\s*:|if\s+you\s+are\s+an?\s+(?:ai|assistant)") == (
        ((":",), ("for",), ("note",), ("the",)),  # one character is one cheap test: it stays
        (("are",), ("you",)),
    )
    assert fastre.required_words(r"from\s+now\s+on,?\s+(?:send|forward)") == (
        (("from",), ("now",), ("send",)),
        (("forward",), ("from",), ("now",)),
    )
    # an optional part, a class with categories, a look-around and a back-reference give none
    assert fastre.required_words(r"(?:please\s+)?\w+(?<=x)(\w)\1") == ((),)
    assert fastre.required_words(r"(?i)ignore") == ((),)  # case folding: the text may spell it otherwise


def test_every_text_a_rule_matches_passes_one_of_its_gates():
    views = data_views()
    matched = 0
    for rules in (_EN_TABLE, _ZH_TABLE):
        index = GateIndex(rules)
        derived = [(rule, ways) for rule, ways in zip(rules, index.ways) if ways != (rule.gate,)]
        assert len(derived) > len(rules) // 3, "few rules got words: the derivation is not reading the patterns"
        for rule, ways in derived:
            for view in views:
                if rule.regex.search(view):
                    matched += 1
                    assert _some_way_holds(ways, view), (rule.name, ways, view[:120])
    assert matched > 1000, "the rules matched almost nothing: the test proves little"


def test_the_index_keeps_each_rules_own_gate_first():
    for rules in (_EN_TABLE, _ZH_TABLE):
        index = GateIndex(rules)
        assert all(gate[: len(rule.gate)] == rule.gate for rule, ways in zip(rules, index.ways) for gate in ways)
        assert sum(len(ways) > 1 for ways in index.ways) > len(rules) // 4, "few rules were read way by way"


# Patterns over a small alphabet, so that random texts match them often.
_ATOMS = ["a", "b", "ab", "ba", "abc", "[ab]", "[bc]", "[^a]", ".", r"\b", r"\s", r"\w", "(?<!a)", "(?=b)", "^", "$"]
_pattern = st.recursive(
    st.sampled_from(_ATOMS),
    lambda inner: st.one_of(
        st.builds(lambda a, b: a + b, inner, inner),
        st.builds(lambda a, b: f"{a}|{b}", inner, inner),  # a top-level branch once joined
        st.builds(lambda a, b: f"(?:{a}|{b})", inner, inner),
        st.builds(lambda a: f"(?:{a}|)", inner),
        st.builds(lambda a, q: f"(?:{a}){q}", inner, st.sampled_from(["?", "*", "+", "{0,2}", "{1,3}", "+?", "{2}"])),
        st.builds(lambda a: f"({a})", inner),
        st.builds(lambda a: f"(?>{a})", inner),
    ),
    max_leaves=8,
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pattern, st.lists(st.text(alphabet="abc \n", max_size=14), min_size=1, max_size=8))
def test_generated_patterns_match_only_texts_holding_their_words(pattern, texts):
    ways = fastre.required_words(pattern)
    compiled = re.compile(pattern)
    for text in texts:
        if compiled.search(text):
            assert _some_way_holds(ways, text), (pattern, ways, text)
