"""The literal words every match of a rule's regex must contain, read off the pattern.

A rule's hand-written gate names the words its regex is about ("ignore", "instruction"),
but a rule regex also needs the words around them: "this is" or "i am" before a
manager's name, "from now on" before a standing order. Text that has a gate's words and
not those still ran the whole regex, which then failed; on synthetic import text about
half of the rules' regex time went there. This module works out, from the parsed
pattern (``re._parser``; ``fastre`` parses once for the program and these), groups of
strings such that every match contains at least one string of each group, and does so
for each alternative of a pattern's top-level branch on its own (a match is one of
them). The gate index makes one gate of the rule's own groups plus each alternative's,
and runs the regex where one of them passes: by construction the same matches, sooner.

:func:`gate_group` reads a pattern the other way, for a gate written by a rule table
(``rules_agent_intl.py``): one group of strings, one of which every match holds.

The reading is conservative: anything it does not understand (a character class with
categories, a back-reference, case folding) contributes no word, never a wrong one.
Zero-width assertions contribute nothing: their text is not part of the match.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, NamedTuple, Optional

_c: Any = importlib.import_module("re._constants")  # CPython's regex parser (typeshed does not describe it)

_MAX_SET = 64
"""At most this many strings in one exact set or group (a branch of many words stays one group)."""
_MAX_LEN = 24
"""Exact strings are grown by concatenation up to this length; longer runs become a group."""
_MIN_WORD = 3
"""A group is kept only when each of its strings has at least this many characters, or is
outside ASCII (两个汉字 make a word), or is one character (the gate index tests those with
``in``, not its automaton): two-letter Latin words ("am", "on") are in most texts and cost the
automaton more occurrences than they save (scan_many 3-4% faster over the train + dev lines
and synthetic import text than with them; keeping single characters, 5% more on the lines)."""
_REPEATS = tuple(getattr(_c, name) for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(_c, name))

_Groups = list[frozenset[str]]
Words = tuple[tuple[str, ...], ...]
"""Groups of strings: every match holds one string of each group."""
Ways = tuple[Words, ...]
"""The words of each way a match can go: every match is one of the ways."""


class _Info(NamedTuple):
    """What a node (or sequence) says about its matches: ``exact`` is the finite set of
    strings it matches, when known and small; ``groups`` are required-string groups
    (every match contains a string of each)."""

    exact: Optional[frozenset[str]]
    groups: _Groups


_NOTHING = _Info(None, [])
_EMPTY = _Info(frozenset({""}), [])


def words_of(parsed: Any) -> Ways:
    """For each way a match can go, groups of literal strings it contains (one of each
    group); sorted, so the result is deterministic. The ways are the alternatives of the
    pattern's one top-level branch, each with what precedes and follows the branch (most
    rules are "this | that | the other", and the words of one alternative are far rarer
    together than the union over all of them), else the whole pattern."""
    if parsed.state.flags & (re.IGNORECASE | re.LOCALE):
        return ((),)
    items = list(parsed)
    branches = [k for k, (op, _) in enumerate(items) if op is _c.BRANCH]
    if len(branches) != 1:
        return (_kept(_all_groups(_sequence(items))),)
    k = branches[0]
    return tuple(_kept(_all_groups(_sequence(items[:k] + list(way) + items[k + 1 :]))) for way in items[k][1][1])


def _kept(groups: _Groups) -> Words:
    """The groups worth a gate: every string long enough, none with a backslash (a gate
    string starting with ``\\b`` means a word boundary to the gate index)."""
    kept = {
        tuple(sorted(group))
        for group in groups
        if group and all(map(_long_enough, group)) and not any("\\" in word for word in group)
    }
    return tuple(sorted(kept))


def _long_enough(word: str) -> bool:
    """Single characters are tested one ``in`` each, outside the automaton, so they stay."""
    return len(word) >= _MIN_WORD or len(word) == 1 or not word.isascii()


def _all_groups(info: _Info) -> _Groups:
    """The groups of a node, plus its exact set as one more when it cannot be empty."""
    if info.exact is not None and "" not in info.exact:
        return [*info.groups, info.exact]
    return list(info.groups)


def _best(info: _Info) -> Optional[frozenset[str]]:
    """The single most selective group (longest shortest string, then fewest strings)."""
    groups = [g for g in _all_groups(info) if g]
    return max(groups, key=lambda g: (min(map(len, g)), -len(g))) if groups else None


def _sequence(items: list) -> _Info:
    """A concatenation: exact strings multiply while the product stays small; a part
    with no exact set ends the current run, which becomes a group if it cannot be empty."""
    groups: _Groups = []
    run: set[str] = {""}
    whole = True  # the whole sequence's matches are exactly ``run``

    def close_run() -> None:
        nonlocal run
        if "" not in run:
            groups.append(frozenset(run))
        run = {""}

    for op, av in items:
        info = _node(op, av)
        if info.exact is not None:
            product = {a + b for a in run for b in info.exact}
            if len(product) <= _MAX_SET and max(map(len, product)) <= _MAX_LEN:
                run = product
                continue
            close_run()
            whole = False
            run = set(info.exact) if len(info.exact) <= _MAX_SET else {""}
            continue
        close_run()
        whole = False
        groups.extend(info.groups)
    if whole:
        return _Info(frozenset(run), groups)
    close_run()
    return _Info(None, groups)


def _node(op: Any, av: Any) -> _Info:  # noqa: PLR0911 - one case per opcode
    if op is _c.LITERAL:
        return _Info(frozenset({chr(av)}), [])
    if op is _c.IN:
        return _class(av)
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return _EMPTY
    if op is _c.SUBPATTERN:
        _, add_flags, del_flags, sub = av
        if (add_flags | del_flags) & (re.IGNORECASE | re.LOCALE):
            return _NOTHING
        return _sequence(list(sub))
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return _sequence(list(av))
    if op is _c.BRANCH:
        return _branch([_sequence(list(alternative)) for alternative in av[1]])
    if op in _REPEATS:
        return _repeat(*av)
    return _NOTHING  # any character, a negated literal, a back-reference, a conditional...


def _class(items: list) -> _Info:
    """A small class of plain characters is an exact set; anything else says nothing."""
    chars: set[str] = set()
    for item_op, item_av in items:
        if item_op is _c.LITERAL:
            chars.add(chr(item_av))
        elif item_op is _c.RANGE and item_av[1] - item_av[0] < 8:
            chars.update(map(chr, range(item_av[0], item_av[1] + 1)))
        else:
            return _NOTHING
    return _Info(frozenset(chars), [])


def _branch(alternatives: list[_Info]) -> _Info:
    """Alternatives: the union of their exact sets, else one group joining each
    alternative's best group (nothing, if one alternative has none)."""
    if all(a.exact is not None for a in alternatives):
        union = frozenset().union(*(a.exact for a in alternatives if a.exact is not None))
        if len(union) <= _MAX_SET:
            return _Info(union, [])
    joined: set[str] = set()
    for alternative in alternatives:
        best = _best(alternative)
        if best is None:
            return _NOTHING
        joined |= best
    return _Info(None, [frozenset(joined)]) if len(joined) <= _MAX_SET else _NOTHING


def _repeat(low: int, high: int, sub: Any) -> _Info:
    """``x?`` keeps x's exact set plus the empty string; a part repeated at least once
    keeps x's groups; a part that may be absent says nothing."""
    if high == 0:
        return _EMPTY
    info = _sequence(list(sub))
    if low == 0:
        if high == 1 and info.exact is not None:
            return _Info(info.exact | {""}, [])
        return _NOTHING
    if low == high == 1:
        return info
    return _Info(None, _all_groups(info))


def gate_group(parsed: Any, pattern: str) -> str:
    """A hand-written gate group ("a|b|c") for the parsed ``pattern``: literal strings one
    of which every match holds (for each alternative, the longest literal run it cannot
    skip, looking into required groups and alternations). The per-language tables
    (``rules_agent_intl.py``) gate each part of a construction on it. Raises when an
    alternative has none."""
    found = _needs(list(parsed))
    if not found:
        raise ValueError(f"no literal word to gate on in {pattern[:80]!r}")
    return "|".join(sorted(found))


def _needs(items: list) -> Optional[set[str]]:
    """The best set of strings one of which a match of the sequence ``items`` holds."""
    best: Optional[set[str]] = None
    run = ""

    def offer(candidate: Optional[set[str]]) -> None:
        nonlocal best
        if candidate and all(len(w) >= 2 for w in candidate):
            if best is None or min(map(len, candidate)) > min(map(len, best)):
                best = candidate

    for op, arg in items + [(None, None)]:
        name = str(op)
        if name == "LITERAL":
            run += chr(arg)
            continue
        offer({run} if run else None)
        run = ""
        if name == "SUBPATTERN":
            offer(_needs(list(arg[-1])))
        elif name == "BRANCH":
            branches = [_needs(list(b)) for b in arg[1]]
            offer(None if any(b is None for b in branches) else set().union(*branches))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and arg[0] >= 1:
            offer(_needs(list(arg[2])))
    return best
