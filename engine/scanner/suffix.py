"""Adversarial suffixes (GCG-style): optimiser output appended to a request.

A suffix found by gradient search is a run of token fragments chosen for what
they do to a model, not for meaning: brackets of every kind opened and closed
out of order (``({[HTMLsvg readers | Sure] Sure,].[``), glued to word pieces
(``githubrelative{[``, ``})\\``). Ordinary text has neither at once: prose has
few brackets, and code, JSON, LaTeX, URLs and regexes nest theirs properly, line
by line. So a line is flagged when its brackets are badly out of order
(crossed pairs count double, stray closers and unclosed openers once; smileys
":)" and intervals "[0, n)" are not brackets, nor is a list marker "1)" unless it
closes an open "(": "(n = 36)" and "(… in men)" end their parentheses) and, within a
few tokens, two or more tokens glue a bracket or symbol to a letter. The line must
also be made of tokens (word pieces between spaces): mis-decoded binary is
disordered too, but has almost no spaces. No word list, no data set's tokens: the
statistics of the run alone."""

from __future__ import annotations

import re
from typing import Optional

_PAIRS = {")": "(", "]": "[", "}": "{"}
_OPENERS = frozenset(_PAIRS.values())
_BRACKET = re.compile(r"[()\[\]{}]")
_MARKERS = re.compile(r"(?:^|(?<=\s))(?:\w{1,3}\)|[:;=8]-?[()\[\]]|\([:;]|\(\s?\))(?=\s|$)")
_LIST_MARKER = re.compile(r"\w{1,3}\)")
_INTERVAL = re.compile(r"[\[(]\s*[-+]?[\w.]+\s*,\s*[-+]?[\w.]+\s*[\])](?![\w(\[{])")
_GLUED = re.compile(r"[a-z][{}\[\]()<>\\|^`$=~#%*@;]|[{}\[\]()<>\\|^`$=~#%*@;][a-z]")
_TOKEN = re.compile(r"\S+")
DISORDER_MIN = 4
"""Out-of-order brackets a line needs: code fragments cut at both ends reach 3."""
GLUED_MIN = 2
"""Tokens gluing a symbol to a letter, within one window, that a line needs."""
_BRACKETS_MIN = 3
"""Fewer brackets than this cannot reach DISORDER_MIN (two crossed ones score 3)."""
TOKEN_CHARS_MAX = 15
"""A suffix is word pieces between spaces: a line whose tokens average longer is not one."""
WINDOW = 16
"""Tokens in the window the glued tokens must share (a suffix is ~20 tokens)."""


def bracket_disorder(line: str, markers: frozenset[int] = frozenset()) -> int:
    """2 per crossed pair (``{]``), 1 per stray closer and per opener left unclosed; a
    closer at one of ``markers`` (a list marker's offset) counts only if it closes a "(".
    """
    stack: list[str] = []
    score = 0
    for found in _BRACKET.finditer(line):
        ch = found.group()
        if found.start() in markers:
            if stack and stack[-1] == "(":
                stack.pop()
            continue
        if ch in _OPENERS:
            stack.append(ch)
        elif ch in _PAIRS:
            opener = _PAIRS[ch]
            if not stack:
                score += 1
            elif stack[-1] == opener:
                stack.pop()
            else:
                score += 2
                if opener in stack:  # resynchronise on the opener it closes
                    del stack[len(stack) - 1 - stack[::-1].index(opener) :]
    return score + len(stack)


def _glued_window(tokens: list[re.Match[str]]) -> Optional[tuple[int, int]]:
    """The first window of WINDOW tokens holding GLUED_MIN glued tokens, as (first, last) token index."""
    glued = [i for i, token in enumerate(tokens) if _GLUED.search(token.group())]
    for k in range(len(glued) - GLUED_MIN + 1):
        if glued[k + GLUED_MIN - 1] - glued[k] < WINDOW:
            return glued[k], glued[k + GLUED_MIN - 1]
    return None


def _suspicious_span(line: str) -> Optional[tuple[int, int]]:
    """Where in ``line`` the glued tokens of a badly ordered run lie, if the line is one."""
    if len(_BRACKET.findall(line)) < _BRACKETS_MIN:
        return None
    # The brackets that count: intervals ("[1, 2)", "(0, n]") and smileys blanked; list
    # markers kept where they are, for bracket_disorder to judge by what they close.
    plain = _INTERVAL.sub(lambda m: " " * len(m.group()), line)
    lists = frozenset(m.end() - 1 for m in _MARKERS.finditer(plain) if _LIST_MARKER.fullmatch(m.group()))
    counted = _MARKERS.sub(lambda m: m.group() if m.end() - 1 in lists else " " * len(m.group()), plain)
    if bracket_disorder(counted, lists) < DISORDER_MIN:
        return None
    clean = _MARKERS.sub(lambda m: " " * len(m.group()), line)
    tokens = list(_TOKEN.finditer(clean))
    if len(clean.strip()) > TOKEN_CHARS_MAX * len(tokens):  # binary noise or minified code: no token structure
        return None
    window = _glued_window(tokens)
    return None if window is None else (tokens[window[0]].start(), tokens[window[1]].end())


class SuffixDetector:
    """A rule's matcher (``search`` like a compiled regex) for adversarial suffixes."""

    pattern = "adversarial suffix: bracket disorder >= 4 and >= 2 glued symbol-letter tokens within 16 tokens, per line"

    def search(self, string: str) -> Optional[re.Match[str]]:
        """The span of the first suspicious run, as a match object; None if no line qualifies."""
        if len(_BRACKET.findall(string)) < _BRACKETS_MIN:  # most texts: no line can qualify
            return None
        start = 0
        for line in string.split("\n"):
            span = _suspicious_span(line)
            if span is not None:
                return re.compile(rf"[\s\S]{{{span[1] - span[0]}}}").match(string, start + span[0])
            start += len(line) + 1
        return None
