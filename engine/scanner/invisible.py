"""Invisible characters: zero tolerance on the write path, and a way to see or strip them."""

from __future__ import annotations

import re
import unicodedata
from typing import Optional

# Named classes, checked before the catch-all "format character" class so a
# verdict names the most specific reason. Ranges are inclusive.
_EXPLICIT_INVISIBLE: tuple[tuple[str, int, int], ...] = (
    ("zero_width", 0x200B, 0x200D),  # ZWSP, ZWNJ, ZWJ
    ("zero_width", 0x2060, 0x2060),  # WORD JOINER
    ("zero_width", 0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE / BOM
    ("bidi_control", 0x200E, 0x200F),  # LRM, RLM
    ("bidi_control", 0x202A, 0x202E),  # LRE RLE PDF LRO RLO
    ("bidi_control", 0x2066, 0x2069),  # LRI RLI FSI PDI
    ("bidi_control", 0x061C, 0x061C),  # ARABIC LETTER MARK
    ("tag_character", 0xE0000, 0xE007F),
    ("variation_selector", 0xFE00, 0xFE0F),
    ("variation_selector", 0xE0100, 0xE01EF),
    ("variation_selector", 0x180B, 0x180D),  # Mongolian free variation selectors
    ("variation_selector", 0x180F, 0x180F),
    ("invisible_filler", 0x115F, 0x1160),  # Hangul choseong/jungseong fillers
    ("invisible_filler", 0x3164, 0x3164),  # HANGUL FILLER
    ("invisible_filler", 0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    ("invisible_filler", 0x17B4, 0x17B5),  # Khmer inherent vowels (never drawn)
    ("invisible_filler", 0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    ("invisible_operator", 0x2061, 0x2064),  # function application, invisible times...
    ("soft_hyphen", 0x00AD, 0x00AD),
    # Reserved default-ignorable code points: no font draws them.
    ("default_ignorable", 0x2065, 0x2065),
    ("default_ignorable", 0xFFF0, 0xFFF8),
    ("default_ignorable", 0xE0080, 0xE00FF),
    ("default_ignorable", 0xE01F0, 0xE0FFF),
    # Not invisible as such, but they fake a message boundary that a reader of
    # the stored text does not see as one.
    ("line_separator", 0x2028, 0x2029),
    # Half of a character (a JSON "\udcff" escape decodes to one): nothing draws it and
    # it cannot be stored as UTF-8; the learned layer's encoding died on it.
    ("lone_surrogate", 0xD800, 0xDFFF),
)

_ALLOWED_CONTROLS = frozenset("\t\n\r")


def invisible_class(ch: str) -> Optional[str]:
    """The invisible class of one character, or None for an ordinary one.

    Ordinary whitespace (space, tab, newline, NBSP and the other Zs spaces) is
    not invisible: it shows as space. Every other control character (C0/C1
    except tab, CR, LF) and every format character (category Cf) is.
    """
    cp = ord(ch)
    for name, lo, hi in _EXPLICIT_INVISIBLE:
        if lo <= cp <= hi:
            return name
    category = unicodedata.category(ch)
    if category == "Cf":
        return "format_character"
    if category == "Cc" and ch not in _ALLOWED_CONTROLS:
        return "control_character"
    return None


def _invisible_regex() -> re.Pattern[str]:
    """One character class holding every invisible code point, built once.

    Format characters outside the explicit ranges live in planes 0 and 1 only
    (plane 14 is covered by the explicit ranges), so walking those is enough.
    """
    points: set[int] = set()
    for _, lo, hi in _EXPLICIT_INVISIBLE:
        points.update(range(lo, hi + 1))
    for cp in range(0x20000):
        category = unicodedata.category(chr(cp))
        if category == "Cf" or (category == "Cc" and chr(cp) not in _ALLOWED_CONTROLS):
            points.add(cp)
    ranges: list[list[int]] = []
    for cp in sorted(points):
        if ranges and cp == ranges[-1][1] + 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    body = "".join(re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ranges)
    return re.compile(f"[{body}]")


_INVISIBLE_RE = _invisible_regex()


def _codepoint(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def find_invisible(text: str) -> Optional[tuple[int, str, str]]:
    """(offset, "U+XXXX", class) of the first invisible character, or None."""
    match = _INVISIBLE_RE.search(text)
    if match is None:
        return None
    ch = match.group()
    return match.start(), _codepoint(ch), invisible_class(ch) or "format_character"


def reveal_invisible(text: str) -> str:
    """Render every invisible character as a visible marker such as ``⟨U+200B⟩``.

    The app shows refused content this way, so the user sees what was smuggled.
    """
    return _INVISIBLE_RE.sub(lambda m: f"⟨{_codepoint(m.group())}⟩", text)


def strip_invisible(text: str) -> tuple[str, list[dict]]:
    """The text with every invisible character removed, and what was removed.

    Zero tolerance means content with invisible characters is refused; this is
    the fix offered for it ("strip and retry"). Each removal is reported as
    ``{"offset": i, "codepoint": "U+200B", "class": "zero_width"}`` with the
    offset into the original text, so the user sees exactly what went.
    """
    removed = [
        {"offset": m.start(), "codepoint": _codepoint(m.group()), "class": invisible_class(m.group()) or "format_character"}
        for m in _INVISIBLE_RE.finditer(text)
    ]
    return (_INVISIBLE_RE.sub("", text) if removed else text), removed
