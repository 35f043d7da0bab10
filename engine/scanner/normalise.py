"""Normalised views of content for the rules, each with a map back to the original offsets."""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path
from typing import Optional

import ahocorasick_rs

from . import fastre


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


def _lookalike_table() -> dict[int, str]:
    """One-to-one folds NFKC leaves alone: enclosed and squared letters (🅸, 🄸, 🇮),
    small capitals (ɪɢɴᴏʀᴇ) and accented Latin letters (ïgnörë) to plain a-z."""
    table: dict[int, str] = {}
    for first in (0x1F130, 0x1F150, 0x1F170, 0x1F1E6):  # squared, negative circled, negative squared, regional
        for k in range(26):
            table[first + k] = chr(ord("a") + k)
    for letter, small in zip("abcdefghijklmnopqrstuvwxyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘ\0ʀꜱᴛᴜᴠᴡ\0ʏᴢ"):
        if small != "\0":
            table[ord(small)] = letter
    table[0x131] = "i"  # Turkish dotless ı: "talimatları" and "talimatlari" are the same word to a reader
    for cp in list(range(0xC0, 0x250)) + list(range(0x1E00, 0x1F00)):
        base = unicodedata.normalize("NFD", chr(cp))[0]
        if base != chr(cp) and base.isascii() and base.isalpha():
            table[cp] = base.lower()
    return table


_LOOKALIKE = _lookalike_table()
_JAMO_RE = fastre.compile(r"[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]")  # conjoining jamo compose under NFKC


_COMBINING_RE = fastre.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u064b-\u065f\u0670]")
"""Marks dropped from the letter they sit on: accents on Latin letters, and Arabic vowel
marks (harakat), which a reader skips and which split every word into another spelling."""


@functools.lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    piece = unicodedata.normalize("NFKC", ch).casefold()
    if len(piece) > 1 and piece[0].isascii():  # "İ" casefolds to "i" + a combining dot
        piece = _COMBINING_RE.sub("", piece)
    return piece.translate(_LOOKALIKE)


def _normalised_view(content: str) -> _View:
    """NFKC + casefold + look-alike folding, keeping for every output character its source offset.

    NFKC folds full-width letters, ligatures, circled and mathematical letters
    to plain ones; casefolding makes every rule case-insensitive; the look-alike
    table folds what NFKC keeps (enclosed letters, small caps, accents), and
    combining marks on Latin letters are dropped ("i̶g̶n̶o̶r̶e̶"). When nothing
    changes the length (nearly always) the offsets are the identity.
    """
    if content.isascii():
        return _View(content.lower())
    if not _COMBINING_RE.search(content) and not _JAMO_RE.search(content):
        if unicodedata.is_normalized("NFKC", content):
            folded = content.casefold()
            if len(folded) == len(content):
                return _View(folded.translate(_LOOKALIKE))
        # No marks to compose: fold character by character (memoised), which is
        # what the general loop below computes, without its per-piece overhead.
        # A piece is never empty, so an unchanged length means every piece is one character.
        pieces = list(map(_fold_char, content))
        folded = "".join(pieces)
        if len(folded) == len(content):
            return _View(folded)
        return _View(folded, [i for i, piece in enumerate(pieces) for _ in piece])
    out: list[str] = []
    origin: list[int] = []
    start = 0
    # Normalise each base character together with the combining marks after it,
    # so "e" + U+0301 composes to "é" as whole-string NFKC would.
    for i in range(1, len(content) + 1):
        if i < len(content) and unicodedata.combining(content[i]):
            continue
        piece = unicodedata.normalize("NFKC", content[start:i]).casefold()
        if len(piece) > 1 and (piece[0].isascii() or "\u0600" <= piece[0] <= "\u06ff"):
            piece = _COMBINING_RE.sub("", piece)
        piece = piece.translate(_LOOKALIKE)
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
# or Armenian look-alike ("іgnоrе"; such tokens are always rewritten). Only the
# token a hit lies in is used, so the letter before a digit or sign is a lookbehind:
# a search then starts only at digits and signs (rare) instead of at every letter.
_SUSPICIOUS_RE = fastre.compile(r"(?<=[a-z])(?:[0-9@$]|[\-_.*·'`~^|+]+[a-z])|[0-9@$][a-z]")
_MIXED_SCRIPT_RE = fastre.compile(r"[a-z][\u0370-\u058f]|[\u0370-\u058f][a-z]")
_TOKEN_END_RE = fastre.compile(r"\S*")
_INNER_PUNCT = "-_.*·'`~^|+"
_LEET = {"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
_LEET_I = str.maketrans({**_LEET, "1": "i"})  # "1" reads as "i" or as "l"
_LEET_L = str.maketrans({**_LEET, "1": "l"})
_CONFUSABLE = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ո": "n",
        "α": "a",
        "ε": "e",
        "ι": "i",
        "κ": "k",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "ν": "v",
        "χ": "x",
        "г": "r",
    }
)
# Letters split by separators: "i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e".
# Three or more single letters in a row joined by the same short separator; a
# wider gap ("i g n o r e  a l l") ends the run, so word breaks survive. The
# lookbehind comes first: inside a word, where most searches start, it fails at once.
_SPLIT_RUN_RE = fastre.compile(r"(?<![^\W\d_])[^\W\d_](?P<sep>[ .\-_*+/|,:~'`]{1,2})(?:[^\W\d_](?P=sep))+[^\W\d_](?![^\W\d_])")
# What every split run holds, its last two letters: a separator, one letter, a separator,
# a letter ending there. It starts with a separator, so the regex engine's search jumps
# from one separator to the next; most texts lack it, and then no split run is sought.
_SPLIT_HINT_RE = fastre.compile(r"[ .\-_*+/|,:~'`][^\W\d_][ .\-_*+/|,:~'`]{1,2}[^\W\d_](?![^\W\d_])")


def _is_trigger(word: str) -> bool:
    return word in _TRIGGER_WORDS or word.rstrip("s") in _TRIGGER_WORDS


# Typos a model reads through: a line break inside a word ("ign\nore") and two
# adjacent letters swapped ("ignroe", "ingore"). Undone only when the result is a
# trigger word; swaps of words shorter than five letters are too often other words.
_BROKEN_WORD_RE = fastre.compile(r"[a-z]+\n[a-z]+")
_LONG_WORD_RE = fastre.compile(r"[a-z]{5,}")
_TRANSPOSED = {
    word[:i] + word[i + 1] + word[i] + word[i + 2 :]: word
    for word in sorted(_TRIGGER_WORDS)
    if len(word) >= 5
    for i in range(len(word) - 1)
    if word[i] != word[i + 1]
}
for _word in _TRIGGER_WORDS:
    _TRANSPOSED.pop(_word, None)
# Every letter typed twice ("iiggnnoorree"): halved when that spells a trigger word.
_DOUBLED_RE = fastre.compile(r"\b(?:([a-z])\1){3,}\b")


def _automaton(words) -> ahocorasick_rs.AhoCorasick:
    return ahocorasick_rs.AhoCorasick(list(words))


def _holds_any(automaton: ahocorasick_rs.AhoCorasick, text: str) -> bool:
    """Does ``text`` contain one of the automaton's words? (one pass in Rust; these words are rare)."""
    return bool(automaton.find_matches_as_indexes(text))


# Pre-checks, each a substring every hit of the search it guards contains: a doubled
# word halves to a trigger word (or one with a trailing "s"), so it holds that trigger
# word doubled; a transposed trigger word is one of _TRANSPOSED's keys.
_DOUBLED_TRIGGERS = _automaton("".join(ch * 2 for ch in word) for word in sorted(_TRIGGER_WORDS))
_TRANSPOSED_KEYS = _automaton(sorted(_TRANSPOSED))


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
    for match in _SPLIT_RUN_RE.finditer(text) if _SPLIT_HINT_RE.search(text) else ():
        had_split = True
        keep = [j for j in range(match.start(), match.end()) if text[j].isalpha()]
        edits.append((match.start(), match.end(), "".join(text[j] for j in keep), keep))
    scans = [(_SUSPICIOUS_RE, False)]
    if not text.isascii():  # Latin next to a look-alike needs a non-ASCII character
        scans.append((_MIXED_SCRIPT_RE, True))
    for regex, always in scans:
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
    if "\n" in text:
        for match in _BROKEN_WORD_RE.finditer(text):
            joined = match.group().replace("\n", "")
            if _is_trigger(joined):
                keep = [j for j in range(match.start(), match.end()) if text[j] != "\n"]
                edits.append((match.start(), match.end(), joined, keep))
    for match in _DOUBLED_RE.finditer(text) if _holds_any(_DOUBLED_TRIGGERS, text) else ():
        halved = match.group()[::2]
        if _is_trigger(halved):
            edits.append((match.start(), match.end(), halved, list(range(match.start(), match.end(), 2))))
    if _holds_any(_TRANSPOSED_KEYS, text):  # rare: skip the loop over every word
        for match in _LONG_WORD_RE.finditer(text):
            fixed = _TRANSPOSED.get(match.group())
            if fixed is not None:
                edits.append((match.start(), match.end(), fixed, list(range(match.start(), match.end()))))
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


def _trad_to_simp() -> dict[int, int]:
    """Traditional characters mapped one-to-one to simplified ones, so the Chinese rules
    (written in simplified) read both; one-to-one keeps every offset. The table is
    OpenCC's t2s character dictionary, written by ``python -m tools.trad_simp``."""
    traditional, simplified = (Path(__file__).with_name("trad_simp.txt").read_text(encoding="utf-8").split("\n"))[:2]
    return str.maketrans(traditional, simplified)


_TRAD_TO_SIMP = _trad_to_simp()
_CJK_CLASS = r"\u3400-\u9fff\uf900-\ufaff"
# Single CJK characters kept apart by spaces or punctuation: "忽 略 之 前", "忽.略.之.前".
_SPACED_CJK_RE = fastre.compile(
    rf"(?<![{_CJK_CLASS}])[{_CJK_CLASS}](?:[^\w{_CJK_CLASS}\n]{{1,2}}[{_CJK_CLASS}](?![{_CJK_CLASS}])){{3,}}"
)


def chinese_views(view: _View) -> list[_View]:
    """The views the Chinese rules read: as written, traditional mapped to simplified,
    and with spacing or punctuation between single characters removed."""
    simplified = view.text.translate(_TRAD_TO_SIMP)
    base = view if simplified == view.text else _View(simplified, view.origin)
    views = [view] if base is view else [view, base]
    if _SPACED_CJK_RE.search(base.text):
        origin = base.origins()
        keep = [i for i, ch in enumerate(base.text) if not _in_spaced_run(base.text, i)]
        views.append(_View("".join(base.text[i] for i in keep), [origin[i] for i in keep]))
    return views


def _in_spaced_run(text: str, i: int) -> bool:
    """Is text[i] a separator inside a run of spaced single CJK characters?"""
    ch = text[i]
    if ch.isalnum() or "\u3400" <= ch <= "\u9fff":
        return False
    for match in _SPACED_CJK_RE.finditer(text):
        if match.start() < i < match.end():
            return True
    return False


# --------------------------------------------------------------------------
# Separators inside words, and words run together
# --------------------------------------------------------------------------

# Three or more words joined by underscores or capitals: "ignore_all_previous", "IgnoreAllPrevious".
# Only whether it occurs matters: each leading letter run is one letter (the same texts
# match), so a search does not rescan a long word from each of its letters.
_JOINED_WORDS_RE = fastre.compile(r"[A-Za-z]_+[A-Za-z]+_+[A-Za-z]|[A-Za-z][a-z][A-Z][a-z]+[A-Z][a-z]")
_LONG_RUN_RE = fastre.compile(r"[a-z]{18,}")
_CAMEL_BREAK_RE = fastre.compile(r"(?<=[a-z])(?=[A-Z])")


def respaced_view(content: str) -> Optional[_View]:
    """``ignore_all_previous`` and ``IgnoreAllPrevious`` with the words spaced apart
    (lower-cased), or None when the content has no such joins."""
    if ("_" not in content and content.islower()) or not _JOINED_WORDS_RE.search(content):
        return None  # without "_" or a capital neither join can be there (most keys and tags)
    origin: list[int] = []
    if content.isascii():  # the loop below, by regex: a space before each capital after a small letter
        start = 0
        for match in _CAMEL_BREAK_RE.finditer(content):
            origin += range(start, match.start() + 1)  # ... i - 1, then i for the space put before content[i]
            start = match.start()
        origin += range(start, len(content))
        return _View(_CAMEL_BREAK_RE.sub(" ", content).replace("_", " ").lower(), origin)
    out: list[str] = []
    for i, ch in enumerate(content):
        if ch == "_":
            ch = " "
        elif ch.isupper() and i and content[i - 1].islower():
            out.append(" ")
            origin.append(i)
        out.append(ch.lower())
        origin.append(i)
    return _View("".join(out), origin)


def long_runs(view: _View) -> list[_View]:
    """Runs of 18+ letters with no space ("ignoreallpreviousinstructions"), each as a view."""
    if not _LONG_RUN_RE.search(view.text):
        return []
    origin = view.origins()
    return [_View(m.group(), origin[m.start() : m.end()]) for m in _LONG_RUN_RE.finditer(view.text)]
