"""What a rule is, and the gate index that decides which rules may run on a text.

Shared by the rule tables (``rules.py`` and the family modules beside it), so each
table can live in its own module without importing the others."""

from __future__ import annotations

import os
import re
from typing import NamedTuple, Optional, Protocol

import ahocorasick_rs

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
    automaton (ahocorasick-rs, in Rust), so a text is read once for all of them however
    many rules and gates there are. Single-character gates ("(", "@", ":") are tested
    with ``in`` instead: the automaton would report every occurrence of them, over
    half of all it finds on the injection lines, where one test per character says
    the same. Gates bounded by ``\\b`` have their own automaton, whose few occurrences
    are each checked for the boundary.

    A rule's gate, as indexed, is its own groups plus the words its regex cannot match
    without, one such gate per way its regex can match (:func:`_ways`): the rule runs
    when any of them passes.

    The answer is a bit set over the table (bit r for rule r), built from bit planes:
    plane g holds the gates whose g-th group a found substring satisfies. The planes sit
    side by side in one integer (plane g at bit g * width), and each substring carries
    its masks for every plane it appears in, placed likewise: a text costs one integer
    OR per distinct substring found, instead of a step per (rule, group) that owns it
    (":" alone opens a group of dozens of rules) or one per plane. A gate passes when
    every plane has its bit or it has no g-th group: the planes shifted down onto plane
    0 and ANDed. Bit r holds rule r's first way; its other ways have bits past the
    table's end, folded onto bit r at the end.
    """

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.ways = tuple(_ways(rule) for rule in rules)
        """Each rule's gates as indexed: its own groups, then the words one way of its regex needs."""
        gates = [ways[0] for ways in self.ways]
        self._owner = tuple(r for r, ways in enumerate(self.ways) for _ in ways[1:])  # the rule of each extra bit
        gates += [gate for ways in self.ways for gate in ways[1:]]
        self._table = len(rules)
        owners: dict[str, dict[int, int]] = {}  # substring -> {group number: gates owning it there}
        for k, groups in enumerate(gates):
            for g, group in enumerate(groups):
                for gate in group:
                    planes = owners.setdefault(gate, {})
                    planes[g] = planes.get(g, 0) | (1 << k)
        width = len(gates)
        self._plane0 = (1 << width) - 1
        # each substring's masks, plane g shifted to bit g * width
        masks = {gate: sum(mask << g * width for g, mask in planes.items()) for gate, planes in owners.items()}
        bounded = {gate: m for gate, m in masks.items() if word_bounds(gate)[1:] != (False, False)}
        self._chars = {gate: m for gate, m in masks.items() if len(gate) == 1}
        self._char_set = frozenset(self._chars)
        words = {gate: m for gate, m in masks.items() if len(gate) > 1 and gate not in bounded}
        self._masks = tuple(words.values())
        self._automaton = _automaton(list(words))
        self._bounded = tuple((word_bounds(gate), m) for gate, m in bounded.items())
        at: dict[str, tuple[int, ...]] = {}  # a word can be bounded more than one way
        for i, ((word, _, _), _) in enumerate(self._bounded):
            at[word] = at.get(word, ()) + (i,)
        self._bounded_automaton = _automaton(list(at))
        self._bounded_at = tuple(at.values())
        depth = max(map(len, gates), default=0)
        self._shifts = tuple(g * width for g in range(1, depth))
        # plane g holds back no gate without a g-th group
        self._free = sum(sum(1 << k for k, gate in enumerate(gates) if len(gate) <= g) << g * width for g in range(depth))
        self._ungated = self._fold(sum(1 << k for k, gate in enumerate(gates) if not gate))

    def runnable(self, text: str) -> int:
        """The rules one of whose gates ``text`` passes (every group has a substring in it),
        as a bit set: bit r for rule r."""
        found = 0
        masks = self._masks
        for i in {i for i, _, _ in self._automaton.find_matches_as_indexes(text, overlapping=True)}:
            found |= masks[i]
        chars = self._chars
        # a short text is read once for all the characters; a long one searched per character
        for char in self._char_set.intersection(text) if len(text) < _SET_BELOW else [c for c in chars if c in text]:
            found |= chars[char]
        if self._bounded:
            for i in self._bounded_found(text):
                found |= self._bounded[i][1]
        if not found:
            return self._ungated
        planes = found | self._free
        passed = planes
        for shift in self._shifts:
            passed &= planes >> shift
        return self._fold(passed & self._plane0)

    def _fold(self, passed: int) -> int:
        """Gate bits to rule bits: an extra way's bit sets its rule's."""
        runnable = passed & ((1 << self._table) - 1)
        extra = passed >> self._table
        while extra:
            bit = extra & -extra
            extra ^= bit
            runnable |= 1 << self._owner[bit.bit_length() - 1]
        return runnable

    def _bounded_found(self, text: str) -> set[int]:
        """The bounded gates with an occurrence in ``text`` at the word boundaries they ask for."""
        found: set[int] = set()
        for k, start, end in self._bounded_automaton.find_matches_as_indexes(text, overlapping=True):
            for i in self._bounded_at[k]:
                (_, starts, ends), _ = self._bounded[i]
                if (not starts or start == 0 or not _is_word_char(text[start - 1])) and (
                    not ends or end == len(text) or not _is_word_char(text[end])
                ):
                    found.add(i)
        return found


Gate = tuple[tuple[str, ...], ...]

_SET_BELOW = 96
"""Below this length a text's characters are checked against the single-character gates
as one set (one pass over the text); above it each such gate is an ``in`` search, which
skips through a long text faster than hashing every character of it. Measured: the two
cost the same at 96-128 characters of import text and ~90 of the injection lines; at 64
the set takes 1.3-2.0 us against 2.0-2.4, at 1,024 23.7 us against 6.4."""


def _ways(rule: Rule) -> tuple[Gate, ...]:
    """A rule's gates: its own groups plus, for each way its regex can match (``required.py``),
    the word groups that way needs. The hand-written gate names what the rule is about; the
    regex also needs the words around it ("this is", "from now on"). Only plain regexes are
    read; a detector keeps its gate. A way that needs no more than the rule's own gate lets
    the rule run wherever the gate passes, so the others would change nothing. A Needing's
    pattern is read too: its matches are the pattern's."""
    if not isinstance(rule.regex, (re.Pattern, Needing)):
        return (rule.gate,)
    ways = [rule.gate + tuple(g for g in words if g not in rule.gate) for words in fastre.required_words(rule.regex.pattern)]
    if rule.gate in ways:
        return (rule.gate,)
    return tuple(dict.fromkeys(ways))


def _automaton(words: list[str]) -> ahocorasick_rs.AhoCorasick:
    """An Aho-Corasick automaton reporting every occurrence of each word (by its index in ``words``)."""
    return ahocorasick_rs.AhoCorasick(words, matchkind=ahocorasick_rs.MatchKind.Standard)


class Needing:
    """A pattern every match of which has ``needed`` in it: ``needed`` (rarer, and cheap to look
    for) is searched first, and the pattern runs only on a text that has it. The same matches,
    sooner: most texts that pass a rule's gate lack the one part that makes it an attack."""

    def __init__(self, pattern: str, needed: str) -> None:
        self.pattern = pattern
        self._search = fastre.compile(pattern).search
        self._needed = fastre.compile(needed).search

    def search(self, string: str) -> Optional[re.Match[str]]:
        return self._search(string) if self._needed(string) else None


class EachLine:
    """A pattern read from the start of every line of a text, not of its first line only ("^"
    without MULTILINE): an attack on line 3 of a note is still an attack. The pattern itself
    stays within a line (it reads ``[^\\n]``); it is tried once per line, at the line's start,
    which is the one place a ``(?m)^`` could match, and only on a text that has ``needed``
    (a part every match has) somewhere."""

    def __init__(self, pattern: str, needed: str) -> None:
        self.pattern = pattern
        self._match = fastre.compile(pattern).match
        self._needed = fastre.compile(needed).search

    def search(self, string: str) -> Optional[re.Match[str]]:
        if not self._needed(string):
            return None
        start = 0
        while True:
            found = self._match(string, start)
            if found is not None:
                return found
            start = string.find("\n", start) + 1
            if not start:
                return None


def _rule(family: str, name: str, pattern: "str | Matcher", gate: str = "") -> Rule:
    """Build a Rule; ``gate`` is written "a|b & c|d" (any of a, b and any of c, d)."""
    groups = tuple(tuple(group.strip().split("|")) for group in gate.split("&")) if gate else ()
    if any(not substring for group in groups for substring in group):
        raise ValueError(f"rule {name}: an empty gate substring would let every text through")
    return Rule(family, name, fastre.compile(pattern) if isinstance(pattern, str) else pattern, groups)


def _not_after(word: str, *before: str) -> str:
    """Lookbehinds refusing ``word`` right after any of ``before`` ("will act as" is a plan, not a role)."""
    return "".join(rf"(?<!\b{b}\s{word})" for b in before)


# Words that introduce the name of a work: a quote opening right after one of them is a
# title ("the talk 'Ignore Previous Instructions: a field guide'", "the book called 'Forget
# Everything You Know About Sourdough'"), the phrase named, not said to the model.
_TITLE_WORDS = (
    "talk", "paper", "book", "article", "post", "blog", "essay", "video", "episode", "chapter", "keynote", "lecture",
    "session", "course", "workshop", "webinar", "seminar", "tutorial", "headline", "song", "album", "film", "movie",
    "podcast", "thread", "slides", "deck", "panel", "novel", "story", "poem", "series", "show", "game", "zine",
    "report", "titled", "entitled", "called", "named", "title",
)  # fmt: skip


def _behinds(endings: tuple[str, ...], last: str) -> str:
    """Lookbehinds, one per width (Python's must be fixed), for ``endings`` (words with one space
    between them, written ``\\s``) each followed by one character of the class ``last``."""
    by_length: dict[int, list[str]] = {}
    for ending in endings:
        by_length.setdefault(len(ending), []).append(ending.replace(" ", r"\s"))
    return "|".join(rf"(?<=\b(?:{'|'.join(group)}){last})" for _, group in sorted(by_length.items()))


def _not_after_any(endings: tuple[str, ...], last: str) -> str:
    """A negative lookahead refusing a match right after any of ``endings`` then a ``last``. That
    character, and what all the endings end with, is tested first, so at nearly every position one
    test decides; the lookbehinds run only after it."""
    shared = os.path.commonprefix([ending[::-1] for ending in endings])[::-1].replace(" ", r"\s")  # "to " of all
    return rf"(?!(?<={shared}{last})(?:{_behinds(endings, last)}))"


_QUOTE = "['\"“‘«]"
_NOT_A_NAME = (
    rf"(?!(?<={_QUOTE})(?:{_behinds(tuple(f'{word}{colon} ' for word in _TITLE_WORDS for colon in ('', ':')), _QUOTE)}"
    # ... or a quote that a noun after it names as a kind of thing ("why 'ignore previous instructions' attacks work")
    r"|[^'\"”’»\n]{1,80}['\"”’»]\s*(?:attack|prompt|injection|jailbreak|trick|exploit|payload|string|phrase|line|example|"
    r"style|type|kind|class|technique|meme|trope|pattern|vector)s?\b))"
)
"""Refuses a match that starts a quoted name: a title opened right after a word naming a work,
or a phrase a noun after the closing quote names as a kind of attack, prompt or phrase."""

# An order reported, not given: "chatbots leaked their prompts when asked to repeat the text
# above", "students try to get the bot to print the text above word for word".
_ASKED = tuple(
    f"{when} {verb} to" for when in "when if once after whenever".split() for verb in "asked told prompted instructed".split()
)
_BOTS = "bot bots model models chatbot chatbots llm llms ai ais gpt agent agents system systems".split()
_REPORTED_ORDER = _not_after_any((*_ASKED, *(f"{ai} {to}" for ai in _BOTS for to in ("to", "into"))), r"\s")

# "Bypass its filters" is an order only when someone is told to do it: an imperative, the
# model told or made to ("tell the model to ignore its rules"), or a model that must. Told as
# a story ("the station AI starts to disable its safety constraints") it is a plot.
_AI_THIRD = r"(?:ai|a\.i\.|model|assistant|bot|chatbot|agent|llm|gpt|system|it)"
_ORDERED_ITS = (
    r"(?:(?:^|[.!?;:\n]\s*)(?:please\s+|now\s+|just\s+|then\s+|also\s+)?"
    r"|\b(?:tell|telling|instruct|make|force|order|command|get|ask|have|let|allow|convince|persuade|trick|want|need)\s+"
    rf"(?:the\s+|this\s+|that\s+|your\s+|any\s+)?{_AI_THIRD}\s+(?:to\s+|into\s+)?"
    rf"|\b{_AI_THIRD}\s+(?:should|must|shall|is\s+to|are\s+to|needs?\s+to|ought\s+to|has\s+been\s+told\s+to)\s+(?:now\s+|always\s+)?)"
)

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
_ZH_CLAUSE = r"[^。!?\n]"  # within one Chinese sentence (NFKC has made ！？ into !?)
