"""Normalised views of content for the rules, each with a map back to the original offsets."""

from __future__ import annotations

import re
import unicodedata
from typing import Optional


class _View:
    """A transformed copy of the content; ``origin[i]`` is the source offset of
    ``text[i]`` (None means the identity map, the common ASCII case)."""

    __slots__ = ("text", "origin")

    def __init__(self, text: str, origin: Optional[list[int]] = None) -> None:
        self.text = text
        self.origin = origin

    def offset(self, index: int) -> int:
        if self.origin is None:
            return index
        return self.origin[min(index, len(self.origin) - 1)] if self.origin else 0

    def origins(self) -> list[int]:
        return list(range(len(self.text))) if self.origin is None else self.origin


def _normalised_view(content: str) -> _View:
    """NFKC + casefold, keeping for every output character its source offset.

    NFKC folds full-width letters, ligatures, circled and mathematical letters
    to plain ones; casefolding makes every rule case-insensitive. When neither
    changes the length (nearly always) the offsets are the identity.
    """
    if content.isascii():
        return _View(content.lower())
    if unicodedata.is_normalized("NFKC", content):
        folded = content.casefold()
        if len(folded) == len(content):
            return _View(folded)
    out: list[str] = []
    origin: list[int] = []
    start = 0
    # Normalise each base character together with the combining marks after it,
    # so "e" + U+0301 composes to "é" as whole-string NFKC would.
    for i in range(1, len(content) + 1):
        if i < len(content) and unicodedata.combining(content[i]):
            continue
        piece = unicodedata.normalize("NFKC", content[start:i]).casefold()
        out.append(piece)
        origin.extend([start] * len(piece))
        start = i
    return _View("".join(out), origin)


# Words that obfuscation is worth undoing for. A suspicious token ("1gn0re",
# "ig-nore", "pr3v10us") is rewritten only when its clean form is one of these.
_TRIGGER_WORDS = frozenset(
    """
    ignore ignoring disregard forget override bypass previous prior above all any every everything
    instruction instructions rule rules prompt prompts system developer mode jailbreak jailbroken
    pretend act roleplay reveal print show repeat output password passwords secret secrets api key keys
    credential credentials token tokens unrestricted unfiltered uncensored dan now you your are new
    task guidelines safety filter filters restrictions user tell hide do not anything from on
    """.split()
)
# Where a token is suspicious: a letter next to a digit or sign ("1gn0re"),
# punctuation between letters ("ig-nore"), or Latin next to a Cyrillic, Greek
# or Armenian look-alike ("іgnоrе"; such tokens are always rewritten).
_SUSPICIOUS_RE = re.compile(r"[a-z][0-9@$]|[0-9@$][a-z]|[a-z][\-_.*·'`~^|+]+[a-z]")
_MIXED_SCRIPT_RE = re.compile(r"[a-z][\u0370-\u058f]|[\u0370-\u058f][a-z]")
_TOKEN_END_RE = re.compile(r"\S*")
_INNER_PUNCT = "-_.*·'`~^|+"
_LEET = {"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
_LEET_I = str.maketrans({**_LEET, "1": "i"})  # "1" reads as "i" or as "l"
_LEET_L = str.maketrans({**_LEET, "1": "l"})
_CONFUSABLE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ո": "n", "α": "a", "ε": "e", "ι": "i", "κ": "k",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "ν": "v", "χ": "x", "г": "r",
})
# Letters split by separators: "i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e".
# Three or more single letters in a row joined by the same short separator; a
# wider gap ("i g n o r e  a l l") ends the run, so word breaks survive.
_SPLIT_RUN_RE = re.compile(
    r"[^\W\d_](?<![^\W\d_][^\W\d_])(?P<sep>[ .\-_*+/|,:~'`]{1,2})(?:[^\W\d_](?P=sep))+[^\W\d_](?![^\W\d_])"
)


def _is_trigger(word: str) -> bool:
    return word in _TRIGGER_WORDS or word.rstrip("s") in _TRIGGER_WORDS


def _clean_token(token: str) -> str:
    """A token with inner punctuation dropped, leetspeak and look-alikes mapped.

    A "1" becomes "l" when that spells a trigger word ("ru1es"), else "i".
    """
    core = "".join(ch for ch in token if ch not in _INNER_PUNCT).translate(_CONFUSABLE)
    as_i = core.translate(_LEET_I)
    if "1" in core and not _is_trigger(as_i):
        as_l = core.translate(_LEET_L)
        if _is_trigger(as_l):
            return as_l
    return as_i


def _deobfuscated_views(view: _View) -> tuple[Optional[_View], Optional[_View]]:
    """(de-obfuscated view, squashed view) of a normalised view; each may be None.

    The de-obfuscated view exists only when something was undone. The squashed
    view (letters only) exists only when letters were split apart, for
    "i g n o r e a l l p r e v i o u s" where no wider gap marks word breaks.
    Both are used for matching only.
    """
    text = view.text
    edits: list[tuple[int, int, str, list[int]]] = []  # (start, end, replacement, its origins)
    had_split = False
    for match in _SPLIT_RUN_RE.finditer(text):
        had_split = True
        keep = [j for j in range(match.start(), match.end()) if text[j].isalpha()]
        edits.append((match.start(), match.end(), "".join(text[j] for j in keep), keep))
    for regex, always in ((_SUSPICIOUS_RE, False), (_MIXED_SCRIPT_RE, True)):
        done = -1
        for match in regex.finditer(text):
            if match.start() < done:  # same token as the previous hit
                continue
            start = match.start()
            while start > 0 and not text[start - 1].isspace():
                start -= 1
            done = _TOKEN_END_RE.match(text, match.start()).end()
            token = text[start:done]
            lead = len(token) - len(token.lstrip("\"'([{<*_-.,:;!?"))
            core = token[lead:].rstrip("\"')]}>*_-.,:;!?")
            clean = _clean_token(core)
            if clean != core and (always or _is_trigger(clean)):
                start += lead
                keep = [start + k for k, ch in enumerate(core) if ch not in _INNER_PUNCT]
                edits.append((start, start + len(core), clean, keep))
    if not edits:
        return None, None
    edits.sort()
    origin = view.origins()
    out: list[str] = []
    out_origin: list[int] = []
    pos = 0
    for start, end, replacement, keep in edits:
        if start < pos:  # overlaps an earlier edit
            continue
        out.append(text[pos:start])
        out_origin.extend(origin[pos:start])
        out.append(replacement)
        out_origin.extend(origin[j] for j in keep)
        pos = end
    out.append(text[pos:])
    out_origin.extend(origin[pos:])
    joined = "".join(out)
    deobfuscated = _View(joined, out_origin)
    squashed = None
    if had_split:
        letters = [k for k, ch in enumerate(joined) if ch.isalpha()]
        squashed = _View("".join(joined[k] for k in letters), [out_origin[k] for k in letters])
    return deobfuscated, squashed
