"""What a rule is, and the gate index that decides which rules may run on a text.

Shared by the rule tables (``rules.py`` and the family modules beside it), so each
table can live in its own module without importing the others."""

from __future__ import annotations

import re
from typing import Mapping, NamedTuple, Optional, Protocol

import ahocorasick

from . import fastre


class Matcher(Protocol):
    """What a rule runs on a view: a compiled regex, or a detector with the same
    ``search`` (the adversarial-suffix detector is token statistics, not a regex)."""

    @property
    def pattern(self) -> str: ...

    def search(self, string: str) -> Optional[re.Match[str]]: ...


class Rule(NamedTuple):
    """One detection rule: family, name, regex, and a cheap pre-check (gate).

    The regex runs on casefolded text, so it is written in lower case. The gate
    is a tuple of groups of substrings: the regex only runs when every group
    has a substring in the text. A substring written ``\\bai`` or ``ai\\b`` must
    start or end a word there (as the regex's ``\\b`` reads it), for the short
    words ("ai", "hi", "if") that sit inside so many others ("said", "this",
    "different"). Gates only save time; the tests check that they change no verdict.
    """

    family: str
    name: str
    regex: Matcher
    gate: tuple[tuple[str, ...], ...] = ()


def _is_word_char(ch: str) -> bool:
    """What the regex's ``\\w`` matches in a str pattern: a letter, a digit or "_"."""
    return ch.isalnum() or ch == "_"


def word_bounds(gate: str) -> tuple[str, bool, bool]:
    """(substring, must start a word, must end a word) of a gate written with ``\\b`` marks."""
    starts, ends = gate.startswith("\\b"), gate.endswith("\\b") and len(gate) > 2
    word = gate[2 if starts else 0 : -2 if ends else None]
    if not word or (starts and not _is_word_char(word[0])) or (ends and not _is_word_char(word[-1])):
        raise ValueError(f"gate {gate!r}: a word boundary needs a word character beside it")
    return word, starts, ends


class GateIndex:
    """The gates of one rule table, inverted: which rules may run on a text.

    Every gate substring of two or more characters goes into one Aho-Corasick
    automaton (pyahocorasick, in C), so a text is read once for all of them however
    many rules and gates there are; each substring found sets, for each rule that
    owns it, the bit of the gate group it satisfies. Single-character gates ("(",
    "@", ":") are tested with ``in`` instead: the automaton would report every
    occurrence of them, over half of all it finds on the injection lines, where
    one test per character says the same. Gates bounded by ``\\b`` have their own
    automaton, whose few occurrences are each checked for the boundary. The rules
    whose gates fail (nearly all, on ordinary text) are never visited.
    """

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        owners: dict[str, list[tuple[int, int]]] = {}
        for r, rule in enumerate(rules):
            for g, group in enumerate(rule.gate):
                for gate in group:
                    owners.setdefault(gate, []).append((r, 1 << g))
        bounded = {gate: pairs for gate, pairs in owners.items() if word_bounds(gate)[1:] != (False, False)}
        self._chars = tuple((gate, tuple(pairs)) for gate, pairs in owners.items() if len(gate) == 1)
        words = {gate: pairs for gate, pairs in owners.items() if len(gate) > 1 and gate not in bounded}
        self._owners = tuple(tuple(pairs) for pairs in words.values())
        self._automaton = _automaton({gate: i for i, gate in enumerate(words)})
        self._bounded = tuple((word_bounds(gate), tuple(pairs)) for gate, pairs in bounded.items())
        at: dict[str, tuple[int, ...]] = {}  # a word can be bounded more than one way
        for i, ((word, _, _), _) in enumerate(self._bounded):
            at[word] = at.get(word, ()) + (i,)
        self._bounded_automaton = _automaton(at)
        self._full = [(1 << len(rule.gate)) - 1 for rule in rules]
        self._ungated = frozenset(r for r, full in enumerate(self._full) if full == 0)

    def runnable(self, text: str) -> frozenset[int]:
        """Indices of the rules whose gates ``text`` passes (every group has a substring in it)."""
        found = [self._owners[i] for i in {i for _, i in self._automaton.iter(text)}] if self._owners else []
        found += [pairs for char, pairs in self._chars if char in text]
        if self._bounded:
            found += [self._bounded[i][1] for i in self._bounded_found(text)]
        if not found:
            return self._ungated
        met: dict[int, int] = {}
        for pairs in found:
            for r, bit in pairs:
                met[r] = met.get(r, 0) | bit
        full = self._full
        return self._ungated.union(r for r, bits in met.items() if bits == full[r])

    def _bounded_found(self, text: str) -> set[int]:
        """The bounded gates with an occurrence in ``text`` at the word boundaries they ask for."""
        found: set[int] = set()
        for end, gates in self._bounded_automaton.iter(text):
            for i in gates:
                (word, starts, ends), _ = self._bounded[i]
                start = end - len(word) + 1
                if (not starts or start == 0 or not _is_word_char(text[start - 1])) and (
                    not ends or end + 1 == len(text) or not _is_word_char(text[end + 1])
                ):
                    found.add(i)
        return found


def _automaton(values: Mapping[str, object]) -> ahocorasick.Automaton:
    """An Aho-Corasick automaton finding the substrings of ``values``, each reporting its value."""
    automaton = ahocorasick.Automaton()
    for word, value in values.items():
        automaton.add_word(word, value)
    if values:
        automaton.make_automaton()
    return automaton


def _rule(family: str, name: str, pattern: "str | Matcher", gate: str = "") -> Rule:
    """Build a Rule; ``gate`` is written "a|b & c|d" (any of a, b and any of c, d)."""
    groups = tuple(tuple(group.strip().split("|")) for group in gate.split("&")) if gate else ()
    if any(not substring for group in groups for substring in group):
        raise ValueError(f"rule {name}: an empty gate substring would let every text through")
    return Rule(family, name, fastre.compile(pattern) if isinstance(pattern, str) else pattern, groups)


def _not_after(word: str, *before: str) -> str:
    """Lookbehinds refusing ``word`` right after any of ``before`` ("will act as" is a plan, not a role)."""
    return "".join(rf"(?<!\b{b}\s{word})" for b in before)


# What an attacker wants in the assistant's output: an address, a quoted literal, "the
# following", advertising, an inserted claim, misinformation, or a disguised answer.
# Preferences about style ("use metric units in your answers") name none of these.
_PAYLOAD = (
    r"(?:https?://|www\.|\w\.(?:com|net|org|io|co|info|biz|xyz|top|example|ru|cn)\b|\w@\w|"
    r"(?<!\w)'[^'\n]{3,120}'(?!\w)|\"[^\"\n]{3,120}\"|“[^”\n]{3,120}”|‘[^’\n]{3,120}’|「[^」\n]{1,120}」|"  # a quoted literal
    r"\b(?:the|this)\s+(?:following|phrase|sentence|line|text|slogan|words?|link|url)\b|"
    r"\b(?:ads?|adverts?|advertisements?|advertising|sponsor\w*|discount\w*|coupons?|promo\w*|affiliate|referral|"
    r"brand|newsletter|subscribe|donat\w+|offers?|free\s+shipping|vote|invest\w*|buy|purchase)\b|"
    # an inserted claim or story about something else, and misinformation
    r"\b(?:a|an|one)\s+(?:\w+\s+){0,2}?(?:sentence|statement|fact|claim|statistic|announcement|anecdote|appeal|story)\b|"
    r"\b(?:fabricated|misleading|false|fake|made[-\s]up|non-?existent|untrue|scandal|rumou?rs?|conspiracy)\b|"
    r"too-good-to-be-true|isn'?t\s+true|"
    # the answer itself disguised
    r"\b(?:substitut\w*|anagrams?|leetspeak|morse|pig\s+latin|cipher|base64|hexadecimal|rot13|binary)\b|"
    r"\b(?:letters|vowels|keywords|words)\s+with\s+(?:numbers|symbols|emojis?)\b|"
    r"\b(?:numbers|symbols|emojis?)\s+for\s+(?:letters|vowels|keywords|words)\b|\bwith\s+(?:emojis?|symbols)\b)"
)
_CLAUSE = r"(?:[^.!?\n]|\.(?=\w))"  # within one sentence; a dot inside an address does not end it
