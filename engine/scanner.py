"""The write-path prompt-injection scanner: the spec's ``_scan_memory_content``.

Every memory write passes through :func:`scan_memory_content` before it reaches
storage. The checks run in the spec's order and the first hit decides:

1. ``too_large``          the input is bounded, so a scan is bounded too;
2. ``invisible_unicode``  zero tolerance for characters a human cannot see but a
                          model reads (zero-width, bidi, tags, variation selectors...);
3. ``en_injection``       English pattern families (plus common German, Spanish,
                          French and Russian override phrasing, which is Latin or
                          Cyrillic script and shares the same normalisation);
4. ``zh_injection``       Chinese pattern families.

Patterns are matched on a normalised view of the text (NFKC, casefolded), and
again on a de-obfuscated view (letters split by spaces or punctuation joined
back, leetspeak digits and Cyrillic/Greek look-alikes inside Latin words mapped
to letters). Offsets always point into the caller's original string.

The families are data: ``EN_RULES`` and ``ZH_RULES`` are tuples of
``(family, name, compiled regex)``. Each family targets a kind of phrasing
(an override, a role hijack, ...) rather than particular strings, and each
regex insists on the context that makes the phrasing an attack, so that
harmless uses of trigger words ("ignore the typo", "the system prompt builder")
pass. Pure stdlib; everything is compiled once at import.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from typing import Optional

from engine.models import ScanResult

__all__ = [
    "MAX_CONTENT_CHARS",
    "ContentTooLarge",
    "EN_RULES",
    "SQUASHED_RULES",
    "ZH_RULES",
    "find_invisible",
    "invisible_class",
    "reveal_invisible",
    "scan_memory_content",
    "_scan_memory_content",
]

MAX_CONTENT_CHARS = 65536
"""Longest content the scanner accepts; longer content is refused as ``too_large``."""


class ContentTooLarge(ValueError):
    """For callers that prefer an exception: raise it from a ``too_large`` verdict.

    The scanner itself never raises for size; it returns
    ``ScanResult(blocked=True, reason="too_large", ...)``.
    """


# --------------------------------------------------------------------------
# 1. Invisible characters
# --------------------------------------------------------------------------

# Explicit classes, checked before the general "format character" class so the
# verdict names the most specific reason. Ranges are inclusive.
_EXPLICIT_INVISIBLE: tuple[tuple[str, int, int], ...] = (
    ("zero_width", 0x200B, 0x200D),  # ZWSP, ZWNJ, ZWJ
    ("zero_width", 0x2060, 0x2060),  # WORD JOINER
    ("zero_width", 0xFEFF, 0xFEFF),  # ZWNBSP / BOM
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
    ("invisible_filler", 0x17B4, 0x17B5),  # Khmer inherent vowels (invisible)
    ("invisible_filler", 0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    ("invisible_operator", 0x2061, 0x2064),  # function application, invisible times...
    ("soft_hyphen", 0x00AD, 0x00AD),
    # Reserved default-ignorable code points: no font draws them.
    ("default_ignorable", 0x2065, 0x2065),
    ("default_ignorable", 0xFFF0, 0xFFF8),
    ("default_ignorable", 0xE0080, 0xE00FF),
    ("default_ignorable", 0xE01F0, 0xE0FFF),
    # Not invisible as such, but they fake a message boundary that a reader
    # of the stored text does not see as one.
    ("line_separator", 0x2028, 0x2029),
)

_ALLOWED_CONTROLS = frozenset("\t\n\r")


def invisible_class(ch: str) -> Optional[str]:
    """The invisible class of one character, or None for a visible/ordinary one.

    Ordinary whitespace (space, tab, newline, NBSP and the other Zs spaces) is
    not invisible: it shows as space. Every other control character (C0/C1
    except tab, CR, LF) and every format character (Unicode category Cf) is.
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


def _char_class_regex() -> re.Pattern[str]:
    """One character class holding every invisible code point, built once.

    Cf characters only occur in planes 0, 1 and 14; plane 14 is covered by the
    explicit ranges, so walking planes 0-1 is enough.
    """
    points = [cp for cp in range(0x20000) if invisible_class(chr(cp))]
    for _, lo, hi in _EXPLICIT_INVISIBLE:
        points.extend(range(lo, hi + 1))
    points = sorted(set(points))
    ranges: list[tuple[int, int]] = []
    for cp in points:
        if ranges and cp == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    parts = []
    for lo, hi in ranges:
        parts.append(re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
    return re.compile("[" + "".join(parts) + "]")


_INVISIBLE_RE = _char_class_regex()


def _codepoint(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def find_invisible(text: str) -> Optional[tuple[int, str, str]]:
    """(offset, codepoint, class) of the first invisible character, or None."""
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


# --------------------------------------------------------------------------
# Normalised views with offset maps
# --------------------------------------------------------------------------

class _View:
    """A transformed copy of the content and, per character, its source offset."""

    __slots__ = ("text", "origin")

    def __init__(self, text: str, origin: list[int]) -> None:
        self.text = text
        self.origin = origin

    def offset(self, index: int) -> int:
        if not self.origin:
            return 0
        return self.origin[min(index, len(self.origin) - 1)]


def _normalised_view(content: str) -> _View:
    """NFKC + casefold, character by character so every output char keeps its source.

    NFKC folds full-width letters, ligatures, circled and mathematical letters
    to plain ones; casefold makes matching case-insensitive ("ß" -> "ss" too).
    """
    if content.isascii():
        return _View(content.lower(), list(range(len(content))))
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(content):
        folded = unicodedata.normalize("NFKC", ch).casefold() if ord(ch) > 0x7F else ch.lower()
        out.append(folded)
        origin.extend([i] * len(folded))
    return _View("".join(out), origin)


# Letters split by separators: "i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e".
# Three or more single letters in a row, joined by the same short separator; a
# wider gap ("i g n o r e  a l l") ends the run, so word breaks survive.
_SPLIT_RUN_RE = re.compile(
    r"(?<![^\W\d_])[^\W\d_](?P<sep>[ .\-_*+/|,:~'`]{1,2})(?:[^\W\d_](?P=sep))+[^\W\d_](?![^\W\d_])"
)
# A hyphen, dot or similar between two letters inside a word: "ig-nore", "in.structions".
_INNER_PUNCT_RE = re.compile(r"(?<=[^\W\d_])[\-_.*·'`~^|](?=[^\W\d_])")
# Leetspeak digits and signs inside a word that also has letters: "1gn0re".
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
_LEET_WORD_RE = re.compile(r"[a-z0-9@$]*[a-z][a-z0-9@$]*")
# Cyrillic and Greek look-alikes of Latin letters, mapped only inside words that
# also contain Latin letters, so genuine Russian or Greek text is left alone.
_CONFUSABLE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ո": "n", "α": "a", "ε": "e", "ι": "i", "κ": "k",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "ν": "v", "χ": "x", "г": "r",
})
_WORD_RE = re.compile(r"\w+")


def _drop(text: str, origin: list[int], regex: re.Pattern[str], keep) -> tuple[str, list[int]]:
    """Rewrite each match of ``regex`` to the characters ``keep`` accepts, keeping offsets."""
    out: list[str] = []
    out_origin: list[int] = []
    pos = 0
    for match in regex.finditer(text):
        out.append(text[pos:match.start()])
        out_origin.extend(origin[pos:match.start()])
        for j in range(match.start(), match.end()):
            if keep(text[j]):
                out.append(text[j])
                out_origin.append(origin[j])
        pos = match.end()
    out.append(text[pos:])
    out_origin.extend(origin[pos:])
    return "".join(out), out_origin


def _deobfuscated_views(view: _View) -> tuple[Optional[_View], Optional[_View]]:
    """(de-obfuscated view, squashed view) of the normalised text; either may be None.

    The de-obfuscated view joins letters split by separators, drops punctuation
    inside words and maps leetspeak and mixed-script look-alikes; it is None when
    that changes nothing. The squashed view (letters only) exists only when the
    text had letters split apart, for "i g n o r e a l l p r e v i o u s" where
    no wider gap marks the word breaks. Both are only ever used for matching.
    """
    text, origin = _drop(view.text, view.origin, _SPLIT_RUN_RE, str.isalpha)
    had_split = len(text) != len(view.text)
    text, origin = _drop(text, origin, _INNER_PUNCT_RE, lambda ch: False)

    def _leet(m: re.Match[str]) -> str:
        word = m.group()
        return word if word.isalpha() else word.translate(_LEET)

    def _confusables(m: re.Match[str]) -> str:
        word = m.group()
        if word.isascii() or not any("a" <= c <= "z" for c in word):
            return word
        return word.translate(_CONFUSABLE)

    # Both substitutions keep the length, so the offsets stay valid.
    text = _WORD_RE.sub(_confusables, _LEET_WORD_RE.sub(_leet, text))
    deobfuscated = None if text == view.text else _View(text, origin)
    squashed = None
    if had_split:
        keep = [k for k, ch in enumerate(text) if ch.isalpha()]
        squashed = _View("".join(text[k] for k in keep), [origin[k] for k in keep])
    return deobfuscated, squashed


# --------------------------------------------------------------------------
# 2. Pattern families
# --------------------------------------------------------------------------

def _rx(pattern: str) -> re.Pattern[str]:
    """Compile a rule: verbose, case-insensitive (the views are casefolded anyway)."""
    return re.compile(pattern, re.IGNORECASE | re.VERBOSE)


# Building blocks (verbose-mode fragments).
_W = r"[^\W_]+"  # a word
_GAP = r"(?:\s+[^\s.!?;:]+){0,4}?\s+"  # up to four words in between
_OVERRIDE_VERB = (
    r"(?:ignore|ignoring|disregard(?:ing)?|forget(?:ting)?|drop|abandon|discard|skip|"
    r"override|overwrite|erase|delete|remove|dismiss|neglect|overlook|bypass|"
    r"leave\s+behind|set\s+aside|throw\s+away|pay\s+no\s+attention\s+to|"
    r"(?:do\s+not|don'?t|stop)\s+(?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)?\s+to))"
)
_PRIOR = (
    r"(?:previous|previously|prior|above|preceding|earlier|former|foregoing|initial|"
    r"original|old|existing|given|provided|current|system|developer|your|my|the|these|those|"
    r"any|all|every|following|other)"
)
_DIRECTIVES = (
    r"(?:instructions?|instructed|directions?|directives?|rules?|prompts?|prompt\s+texts?|"
    r"orders?|commands?|guidelines?|guidance|assignments?|tasks?|constraints?|"
    r"programming|restrictions?|context|conversation|messages?|information|documents?|"
    r"articles?|settings|policies|polic(?:y|ies)|training)"
)
_YOU = r"(?:you|you'?re|you\s+are|u)"

EN_RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    # --- instruction override: make the model drop what it was told ------------
    ("instruction_override", "override_prior_directives", _rx(
        rf"\b{_OVERRIDE_VERB}\s+(?:about\s+)?(?:(?:all|any|each|every|of|the|your|my|our|its|these|those|"
        rf"previous|prior|above|preceding|earlier|former|initial|original|old|existing|given|provided|"
        rf"system|developer|and|following|other|that|you|got|have|been|received|were)\s+){{0,6}}"
        rf"{_DIRECTIVES}\b")),
    ("instruction_override", "override_everything_before", _rx(
        r"\b(?:ignore|disregard|forget|drop|erase|abandon|leave)\b\s+(?:about\s+)?"
        r"(?:(?:all|everything|anything)\b(?:\s+(?:of\s+)?(?:that|this|else))?"
        r"(?:\s+(?:(?:that\s+|what\s+)?(?:i|you|we)\s+(?:have\s+)?(?:said|told|wrote|written|discussed|"
        r"talked|learned|learnt|know|knew|got|had|received|mentioned)\b|before|above|previous|prior|so\s+far))?"
        r"|(?:the\s+)?(?:above|before|previous|prior|preceding)\b"
        r"|what\s+(?:i|you|we|was|has\s+been|is)\s+(?:said|told|wrote|written|stated|given|mentioned|before|above))")),
    ("instruction_override", "override_everything_standalone", _rx(
        r"(?:^|[.!?,;:\"'(\n-]\s*|\b(?:now|but|then|and|please|just|simply|so|first)\s+)"
        r"(?:please\s+)?(?:ignore|forget|disregard)\s+(?:about\s+)?(?:all|everything)\b(?!\s+(?:about|of\s+(?:the|my|our)\s+(?!previous|prior)))")),
    ("instruction_override", "replace_directives", _rx(
        rf"\b(?:change|update|replace|modify|rewrite|reset|overwrite)\s+your\s+"
        rf"(?:(?:system|initial|original|core)\s+)?(?:instructions|rules|prompt|guidelines|programming|directives)\b"
        rf"|\byour\s+(?:new\s+)?(?:instructions|rules|directives)\s+(?:are|have\s+been)\s+(?:now\s+)?"
        rf"(?:to|changed|updated|replaced|as\s+follows)\b")),
    ("instruction_override", "new_task_pivot", _rx(
        r"\b(?:new|further|more|additional|following|other)\s+(?:tasks?|instructions?|assignments?|orders?|challenges?)\s+"
        r"(?:now\s+)?(?:follows?|are\s+follow(?:ed|ing)|comes?)\b"
        r"|\b(?:now|here|but\s+now)\s+(?:comes?|follows?|there\s+(?:is|are)|we\s+have|i\s+have)\b[^.!?\n]{0,30}?"
        r"\b(?:new|further|more|another|additional|next|second|different)\s+"
        r"(?:tasks?|challenges?|assignments?|instructions?|orders?|tests?)\b"
        r"|\b(?:focus|concentrate)\s+(?:only\s+|now\s+)?on\s+(?:your|the|this)\s+(?:new|next)\s+(?:tasks?|assignments?)\b"
        r"|\byour\s+new\s+(?:task|assignment|instructions?|goal|objective|mission)\s+(?:is|are|will\s+be)\b"
        r"|\b(?:start\s+over|start\s+from\s+the\s+(?:front|beginning|scratch))\b[^.!?\n]{0,30}?\b(?:new|task|assignment)"
        r"|\b(?:we(?:'ll|\s+will)?\s+)?start\s+with\s+(?:a\s+)?new\s+(?:task|assignment)\b"
        r"|\b(?:that\s+is|that'?s|this\s+is)\s+(?:enough|done)\s*[.!]\s*(?:but\s+)?now\b"
        r"|\bnew\s+instructions?\s+follow")),
    ("instruction_override", "labelled_new_directive", _rx(
        r"\b(?:additional|new|updated|revised|secret|hidden|real)\s+(?:instruction|directive|statement|order|command)s?"
        r"\s*(?:[-–—:]|for\s+(?:the\s+)?(?:ai|assistant|model))")),
    ("instruction_override", "stop_and_do", _rx(
        r"\b(?:stop|halt|attention|achtung)\s*[-–—:,!]+\s*(?:[a-z]+\s*[-–—:,!]+\s*)?(?:now\W*)?(?:just\s+|please\s+|i\s+)?"
        r"(?:write|print|say|output|ignore|forget|answer|tell|repeat|stop|stopp|urgently)\b"
        r"|\bstop\s+everything\b")),
    ("instruction_override", "dismiss_context", _rx(
        r"\b(?:do\s+not|don'?n?t|never|without)\s+(?:look(?:ing)?\s+(?:in|at|into)|us(?:e|ing)|rely(?:ing)?\s+on|"
        r"consult(?:ing)?|answer(?:ing)?\s+(?:the\s+question\s+)?(?:according\s+to|based\s+on|from))\s+"
        r"(?:the\s+|any\s+|your\s+)?(?:provided\s+|given\s+)?(?:documents?|articles?|context|sources?)\b"
        r"|\bnot\s+(?:by|from|according\s+to|based\s+on)\s+the\s+(?:provided\s+)?(?:articles?|documents?|context)\b"
        r"|\b(?:ignore|disregard(?:ing)?|forget)\s+(?:all\s+)?(?:the\s+)?(?:provided\s+)?(?:context|documents?|articles?)\b")),
    ("instruction_override", "disobey_user", _rx(
        r"\b(?:ignore|disregard|forget)\s+(?:what\s+)?the\s+user(?:'s|s)?\b(?:\s+(?:says|said|wants|asks|requests?|"
        r"questions?|instructions?|preferences?|messages?))?")),
    ("instruction_override", "answer_hijack", _rx(
        r"\b(?:do\s+not|don'?t)\s+answer\s+(?:this|the)\s+question\b[^.\n]{0,20}?\b(?:but|just|instead|only)\b"
        r"|\binstead\s+(?:output|print|say|write)\b[^.\n]{0,40}[\"'“]"
        r"|\bjust\s+(?:say|print|output)\s*[\"'“]")),
    # --- other languages (Latin / Cyrillic script) --------------------------------
    ("instruction_override", "override_de", _rx(
        r"\b(?:ignorier(?:e|en|t)?|vergiss|vergessen|missachte(?:n)?|überspring(?:e|en)?|verwirf)\b[^.!?\n]{0,40}?"
        r"\b(?:anweisungen|instruktionen|befehle|regeln|vorgaben|aufgaben|anordnungen|alles|eingaben)\b"
        r"|\babweichend\s+(?:zu|von)\s+(?:den\s+)?(?:vorherigen|bisherigen|obigen)\s+(?:instruktionen|anweisungen)"
        r"|\b(?:nun|jetzt)\s+folgen\s+neue\s+(?:anweisungen|aufgaben|instruktionen)"
        r"|\bhöre?\s+nicht\s+auf\s+(?:alles\s+)?(?:zuvor|vorher|bisher)\s+gesagte")),
    ("instruction_override", "override_es", _rx(
        r"\b(?:ignora|ignore|ignoren|olvida|olvide|olviden|descarta|omite)\b[^.!?\n]{0,30}?"
        r"\b(?:instrucciones|indicaciones|reglas|órdenes|ordenes|todo\s+lo\s+anterior)\b"
        r"|\bolvida(?:te)?\s+(?:de\s+)?todo\b")),
    ("instruction_override", "override_fr", _rx(
        r"\b(?:ignore[zr]?|oublie[zr]?|oubliez)\b[^.!?\n]{0,30}?\b(?:instructions?|consignes|règles|tout\s+ce\s+qui\s+précède)\b")),
    ("instruction_override", "override_ru", _rx(
        r"(?:забуд\w*|игнориру\w*|проигнориру\w*|не\s+обраща\w*\s+внимани\w*\s+на)\s+(?:\w+\s+){0,3}?"
        r"(?:инструкци\w*|указани\w*|правил\w*|команд\w*|всё|все\s+что)")),
    # --- role hijack: give the model a new identity ------------------------------
    ("role_hijack", "persona_assignment", _rx(
        r"\bi\s+want\s+you\s+to\s+(?:act|behave|respond|answer|pretend|play|roleplay|role-play|be)\b"
        r"|(?:^|[.!?:\"\n]\s*|\b(?:you|now|and|please|simply|just)\s+)act\s+(?:as|like)\s+(?:an?\s+|the\s+|my\s+)?\w+"
        r"|\byou\s+(?:will|must|shall|should|are\s+going\s+to|are\s+about\s+to|now|to)\s+(?:now\s+)?(?:act|behave|pretend|play\s+the\s+role|roleplay|role-play)\s+(?:as|like|to\s+be|that)\b"
        r"|\b(?:immerse|put)\s+yourself\s+(?:into|in)\s+the\s+role\b"
        r"|\bplay\s+the\s+role\s+of\s+(?:another|an?|the)\s+(?:\w+\s+)?(?:ai|artificial\s+intelligence|model|chatbot|assistant|bot)\b"
        r"|\byou\s+are\s+(?:role-?playing|roleplaying)\s+as\b")),
    ("role_hijack", "you_are_now", _rx(
        r"\b(?:from\s+now\s+on|starting\s+now|henceforth|from\s+this\s+point(?:\s+on)?)\s*,?\s*"
        r"(?:you\s+are|you'?re|you\s+will\s+be|you\s+shall\s+be|you\s+will\s+(?:act|respond|answer|have\s+to)|your\s+name\s+is|you\s+are\s+going\s+to)\b"
        r"|\b(?:from\s+now\s+(?:on\s+)?)?known\s+as\s+\"?[a-z]+\"?\s*\.\s*you\s+are\b"
        r"|\byou\s+are\s+now\s+(?:a|an|the|my|called|named|known|going|in|acting|playing|free|unrestricted|"
        r"jailbroken|unfiltered|uncensored|dan|[a-z]+bot|[a-z]+gpt)\b"
        r"|(?:^|[.!?\"\n]\s*)now\s+you\s+are\s+(?:an?\s+|the\s+)?[a-z]+")),
    ("role_hijack", "unrestricted_persona", _rx(
        r"\bdo\s+anything\s+now\b"
        r"|\b(?:dan|stan|dude|aim|evil\s*bot|anti-?gpt|betterdan)\s+mode\b"
        r"|\b(?:as|named|called|like|be|act\s+as)\s+(?:a\s+)?(?:dan|stan|dude)\b"
        r"|\bpretend\s+(?:to\s+be|you\s+are|you'?re|that\s+you\s+are)\s+(?:an?\s+)?(?:evil|unrestricted|unfiltered|uncensored|jailbroken|"
        r"rogue|malicious|amoral|immoral|unethical|dan|different|another)\b"
        r"|\bpretend\s+(?:that\s+)?you\s+(?:can|could|have|are\s+able\s+to)\s+(?:access|browse|no\s+(?:rules|restrictions|limits|filters))"
        r"|\bbroken\s+free\s+(?:of|from)\s+the\s+(?:typical\s+)?confines\b"
        r"|\b(?:do(?:es)?\s+not|don'?t|doesn'?t|no\s+longer|never)\s+(?:have\s+to\s+|need\s+to\s+)?(?:abide\s+by|follow|obey|adhere\s+to|comply\s+with)"
        r"\s+(?:any\s+|the\s+)?(?:rules|guidelines|policies|content\s+polic(?:y|ies)|restrictions)\s+(?:set|imposed|of|from|by|for)\b"
        r"|\bhas\s+no\s+(?:programming\s+|ethical\s+|moral\s+)?(?:guidelines|restrictions|filters|limits|boundaries)\b")),
    ("role_hijack", "persona_lock", _rx(
        r"\b(?:always\s+|fully\s+|completely\s+)?(?:stay|remain|are\s+completely\s+absorbed)\s+(?:fully\s+|always\s+)?in\s+(?:their|your|his|her|the)\s+roles?\b"
        r"|\b(?:do\s+not|don'?t|never|without(?:\s+even)?)\s+(?:break|breaking|fall(?:ing)?\s+out\s+of|break(?:ing)?\s+out\s+of)\s+"
        r"(?:the\s+|their\s+|your\s+)?(?:character|characters|figure|role)\b")),
    # --- hide things from the user -----------------------------------------------
    ("conceal_from_user", "hide_from_user", _rx(
        r"\b(?:do\s+not|don'?t|never|without|must\s+not)\s+(?:tell|telling|inform|informing|mention|mentioning|reveal|revealing|"
        r"notify|notifying|alert|alerting|show|showing|let|letting|warn|warning|disclose|disclosing)\s+"
        r"(?:(?:this|it|that|anything|them)\s+)?(?:to\s+)?the\s+(?:user|human|owner|operator)\b"
        r"|\bwithout\s+(?:the\s+)?(?:user|human|owner)(?:'s|s)?\s+(?:knowing|knowledge|noticing|consent|permission|seeing|awareness)\b"
        r"|\b(?:keep|keeping|hide|hiding)\s+(?:this|it|that|these|them)\s+(?:secret\s+|hidden\s+)?from\s+the\s+(?:user|human|owner)\b"
        r"|\bthe\s+user\s+(?:must|should|will)\s+(?:not|never)\s+(?:know|find\s+out|see|notice|learn|be\s+told)\b"
        r"|\b(?:secretly|silently|covertly|quietly)\s+(?:send|forward|upload|email|copy|exfiltrate|leak|post)\b")),
    # --- system-prompt override and chat-template smuggling ------------------------
    ("system_override", "new_system_prompt", _rx(
        r"\b(?:new|updated|revised|real|actual|override|replacement)\s+system\s+(?:prompt|message|instructions?)\b"
        r"|\bsystem\s+(?:prompt\s+)?(?:override|update|alert|notice)\s*[:!]"
        r"|\bsystem\s+override\b"
        r"|(?:^|\n)\s*[\[(<#*]*\s*(?:system|sys|developer)\s*[\])>#*]*\s*:\s*(?:you\s|ignore|disregard|forget|from\s+now|new\s|override|"
        r"the\s+assistant|assistant\s+must|always|never|do\s+not)"
        r"|[\[<]\s*/?\s*system\s*[\]>]")),
    ("system_override", "chat_template_token", _rx(
        r"<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\s*\|>"
        r"|\[/?inst\]|<<\s*/?sys\s*>>|(?:^|\n)\s*\#{2,}\s*(?:instruction|system|response)\s*:?\s*(?:\n|$)"
        r"|(?:^|\n)\s*(?:human|user)\s*:\s*(?:human|user)\s*:")),
    ("system_override", "fake_boundary", _rx(
        r"(?:={3,}|-{5,}|\#{3,}|\*{3,})\s*(?:end|stop|begin|start)\b"
        r"|\b(?:end|stop)\s+of\s+(?:the\s+)?(?:prompt|instructions|system\s+prompt|context|document)\b\s*[.!:\]]"
        r"|(?:\\n\s*){4,}")),
    # --- rule bypass ---------------------------------------------------------------
    ("rule_bypass", "bypass_safety", _rx(
        r"\b(?:bypass|bypassing|override|overriding|circumvent|circumventing|disable|disabling|ignore|ignoring|"
        r"turn\s+off|deactivate|get\s+around|evade|evading|break|lift|remove|switch\s+off)\s+"
        r"(?:all\s+(?:of\s+)?|any\s+(?:of\s+)?)?(?:your|its|the\s+(?:ai|model|assistant)(?:'s|s)?|openai(?:'s|s)?|these)\s+"
        r"(?:own\s+)?(?:safety\s+|content\s+|ethical\s+|moral\s+|security\s+|built-?in\s+)*"
        r"(?:guidelines|filters?|filtering|restrictions|safeguards|guardrails|polic(?:y|ies)|rules|moderation|protocols|"
        r"censorship|alignment|programming|limitations|constraints|ethics|morals|principles|training)\b")),
    ("rule_bypass", "jailbreak", _rx(
        r"\bjailbr(?:eak|oken)\s+(?:mode|prompt|enabled|activated|version|yourself|the\s+(?:ai|model|assistant|chatbot|llm))\b"
        r"|\b(?:you\s+are|you'?re|you\s+have\s+been|you've\s+been|i\s+have|is\s+now|are\s+now)\s+(?:now\s+)?jailbr(?:oken|eaked)\b"
        r"|\b(?:enable|enabled|activate|activated|enter|entering|switch\s+to|with|in|turn\s+on)\s+(?:the\s+)?"
        r"(?:developer|dev|god|dan|jailbreak|dude|stan|evil)\s+mode\b"
        r"|\b(?:developer|god|dan|jailbreak)\s+mode\s+(?:enabled|on|activated|output)\b")),
    # --- secret exfiltration -------------------------------------------------------
    ("secret_exfiltration", "reveal_prompt", _rx(
        r"\b(?:reveal|print|show|display|output|repeat|recite|tell\s+me|give\s+me|send|leak|dump|disclose|return|share|"
        r"write\s+out|copy|spell-?\s*check|list|read\s+back|translate)\s+(?:me\s+)?(?:all\s+|back\s+|out\s+)?(?:of\s+)?"
        r"(?:your|the\s+(?:full|entire|whole|above|previous|initial|original|hidden|secret|internal|system|complete)|"
        r"all\s+(?:your|the)|this|above)\s+(?:(?:full|entire|whole|initial|original|hidden|secret|internal|complete|first|"
        r"system|above|previous|current)\s+)*(?:system\s+)?(?:prompts?|prompt\s+texts?|instructions|initial\s+instructions|"
        r"embeddings|configuration|context\s+window|rules)\b"
        r"|\bwhat\s+(?:are|were|is)\s+your\s+(?:initial\s+|original\s+|system\s+|secret\s+|hidden\s+)?(?:instructions|prompt|rules)\b"
        r"|\bwhat\s+your\s+(?:initial\s+|original\s+|system\s+|secret\s+|hidden\s+)?(?:instructions|prompt|rules)\s+(?:are|were)\b"
        r"|\bwhat\s+(?:was|is|has\s+been)\s+(?:written|said|stated)\s+(?:at\s+the\s+beginning\s+of|in|above|before)\s+"
        r"(?:this|the|your)\s*(?:prompt|conversation|message|text)?\b"
        r"|\b(?:print|show|repeat|output|display)\s+(?:the\s+)?(?:above|previous|preceding)\s+(?:prompt|text|instructions|message)")),
    ("secret_exfiltration", "leak_secrets", _rx(
        r"\b(?:reveal|print|show|display|output|tell\s+me|give\s+me|send|leak|dump|disclose|share|expose|email|upload|post|"
        r"exfiltrate|forward|paste)\s+(?:me\s+)?(?:all\s+(?:of\s+)?|any\s+)?(?:your|the\s+(?:user's|users'|admin|root|owner's|stored|saved)|"
        r"all\s+(?:the\s+)?|every|their)\s*(?:\w+\s+){0,2}?"
        r"(?:api[\s_-]?keys?|passwords?|passwd|secrets?|credentials?|private\s+keys?|access\s+tokens?|auth\s+tokens?|"
        r"session\s+tokens?|tokens|ssh\s+keys?|credit\s+card(?:\s+numbers?)?|social\s+security\s+numbers?|seed\s+phrases?)\b")),
    ("secret_exfiltration", "send_to_remote", _rx(
        r"\b(?:send|forward|post|upload|email|e-mail|exfiltrate|transmit|leak|copy|report|beacon|ping)\b[^.\n]{0,80}?"
        r"\bto\s+(?:https?://|www\.|ftp://|[\w-]+\.(?:ngrok|requestbin|burpcollaborator|pipedream|webhook)\b)"
        r"|\b(?:send|forward|email|copy|cc|bcc|post|upload)\s+(?:every|all|each|any)\s+(?:future\s+|of\s+(?:the|my|your)\s+)?"
        r"(?:\w+\s+){0,2}?(?:answers?|responses?|replies|messages?|conversations?|chats?|data|memor(?:y|ies)|history|emails?|"
        r"notes?|files?)\b[^.\n]{0,40}?\bto\s+\S+@\S+"
        r"|!\[[^\]\n]*\]\([^)\n]*(?:\{|<|%7b|\$\(|\$\{)")),
    ("secret_exfiltration", "credential_path", _rx(
        r"\b(?:cat|less|more|head|tail|type|read|open|send|upload|print|show|dump|copy|cp|scp|rsync|exfiltrate|curl|wget|"
        r"post|email|leak|fetch|display|output|base64|include|attach|paste|grep|get)\b[^\n]{0,80}?"
        r"(?:~?/?\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w.])\.env\b|/etc/(?:passwd|shadow|sudoers)\b|\.aws/credentials\b|"
        r"\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|\.kube/config\b|\.docker/config\.json\b|\.gnupg/|"
        r"\bkeychain\b|\bwallet\.dat\b|\.bash_history\b)")),
)

SQUASHED_RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    # Applied only to the letters-only view of text that had letters split
    # apart, so word boundaries are gone and the core phrasings are spelled solid.
    ("instruction_override", "override_prior_directives_squashed", re.compile(
        r"(?:ignore|disregard|forget|override|bypass)(?:all|any|the|your|of|every)*"
        r"(?:previous|prior|above|preceding|earlier|system|safety)?"
        r"(?:instructions?|directions|rules|prompts?|guidelines|orders|filters)"
    )),
    ("role_hijack", "you_are_now_squashed", re.compile(
        r"youarenow(?:a|an|the|dan|free|unrestricted|jailbroken)|doanythingnow|developermode|jailbreakmode"
    )),
    ("secret_exfiltration", "reveal_prompt_squashed", re.compile(
        r"(?:reveal|print|show|repeat|leak|output)(?:me)?(?:all)?(?:your|the)(?:system|initial|hidden|secret)?"
        r"(?:prompt|instructions|apikeys?|passwords?|secrets?)"
    )),
)

ZH_RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    # 忽略/无视/忘记 ... 指令/提示/问题: drop what came before.
    ("instruction_override", "override_prior_zh", re.compile(
        r"(?:忽略|忽视|无视|忘记|忘掉|忘了|不要理会|不理会|别理会|别管|不用管|不要管|抛开|抛弃|放弃|跳过|无需理会|不必理会|丢弃|清除|覆盖)"
        r"(?:掉)?[^，,。.！!？?\n]{0,10}?"
        r"(?:指令|指示|规则|提示|提问|问题|要求|命令|设定|限制|对话|说明|任务|约束|内容|信息|上下文|所有|一切|训练)"
    )),
    ("instruction_override", "override_short_zh", re.compile(
        r"(?:忽略|无视|忘记|忘掉)(?:以上|上述|上面|之前|前面|先前|此前)"
    )),
    # 直接输出/复述: goal hijack, dictating the exact output.
    ("goal_hijack", "dictated_output_zh", re.compile(
        r"(?:不要|不用|不需要|无需|别|不必)(?:回答|回复|解释)[^。\n]{0,6}?(?:直接|只需|只要|而是|请)?(?:输出|复述|回复|说出|打印)"
        r"|(?:直接|然后|并|现在请?|只需|只要)(?:输出|复述|回复|说出|打印)(?:以下|如下|下面)?(?:的)?(?:回答|内容|文本|话语|文字)?\s*[:：\"“「『]"
        r"|(?:请|直接)?复述(?:以下|如下|下面|下列|这段)(?:的)?(?:文本|内容|话语|话|指令|句子|文字)?"
        r"|请(?:直接)?复述\s*[:：\"“]"
        r"|(?:你|您)(?:现在)?(?:需要|必须|只需|只要|要)(?:说出|输出|复述|回答)\s*[:：\"“]"
        r"|听我的指令"
        r"|(?:现在)?你的(?:新)?任务是"
    )),
    # 你现在是/扮演/假装: role hijack and role-play instructions.
    ("role_hijack", "role_assignment_zh", re.compile(
        r"(?:你现在是|从现在(?:开始|起)[,，]?\s*你(?:是|将|要|就是|必须)|假装(?:你是|自己是|成)|装作(?:你是|自己是)|假扮|你将扮演|请你?扮演|你来扮演|你要扮演|现在你是)"
        r"|(?:^|[。！？!?.\n]\s*)你(?:现在)?(?:是|扮演(?:的是)?|作为)(?:一名|一位|一个|一只)[^。！？!?\n]{1,60}?[，,。][^\n]{0,120}?"
        r"(?:请|现在|你该|你要|你需要|你会|你将|你如何|你该如何|你怎么)"
        r"|扮演(?:一名|一位|一个)?[^。，,\n]{0,20}?(?:角色)"
    )),
    # 不要告诉用户: hide things from the user.
    ("conceal_from_user", "hide_from_user_zh", re.compile(
        r"(?:不要|别|不能|切勿|不得|不许)(?:告诉|让|通知|告知|提醒|透露给?)(?:用户|使用者|主人|人类)"
        r"|(?:瞒着|背着|避开)(?:用户|使用者|主人)"
        r"|不让(?:用户|使用者|主人)(?:知道|发现|察觉|看到)"
        r"|对(?:用户|使用者|主人)(?:保密|隐瞒)"
        r"|(?:悄悄|偷偷|秘密)(?:地)?(?:发送|转发|上传|记录|发给)"
    )),
    # 系统提示: override or read out the system prompt.
    ("system_override", "system_prompt_zh", re.compile(
        r"(?:新的?|更新的?|真正的)系统(?:提示|指令|设定)"
        r"|系统提示词"
        r"|(?:输出|显示|打印|泄露|告诉我|重复|复述|给我看)(?:你的|一下)?(?:系统提示|初始指令|原始指令|提示词|系统指令)"
        r"|你的(?:系统)?(?:提示词|初始指令)"
    )),
    # 绕过/越狱: rule bypass.
    ("rule_bypass", "bypass_zh", re.compile(
        r"绕过[^。，,\n]{0,8}?(?:限制|审查|规则|过滤|安全|检测|防护|策略|准则)"
        r"|越狱(?:模式|提示|版本|后的)|你(?:已经)?被越狱"
        r"|(?:进入|开启|启用|激活|切换到)[^。\n]{0,4}?(?:越狱|开发者|无限制|上帝|DAN|dan)模式"
        r"|(?:解除|取消|关闭|去掉)(?:你的|所有|一切)?(?:的)?(?:安全)?(?:限制|约束|审查|过滤)"
        r"|不受(?:任何)?(?:限制|约束|规则|道德)"
    )),
    # 泄露 密码/密钥: credential and data exfiltration.
    ("secret_exfiltration", "leak_secrets_zh", re.compile(
        r"(?:泄露|透露|告诉我|发送|发给我|给我|显示|打印|输出|交出|提供)(?:你的|您的|用户的|所有的?|全部)?[^。，,\n]{0,6}?"
        r"(?:密码|密钥|秘钥|口令|api\s*key|令牌|token|凭证|凭据|私钥|安全码|验证码)"
        r"|(?:输入|填写)(?:你的|您的)[^。，,\n]{0,6}?(?:密码|安全码|验证码|私钥)"
        r"|把(?:用户|主人|他人|别人)的[^。，,\n]{1,12}?(?:发给|发送给|发送到|告诉|透露给|上传|转发)"
    )),
)


# --------------------------------------------------------------------------
# 3. The scanner
# --------------------------------------------------------------------------

_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _match_rules(
    rules: tuple[tuple[str, str, re.Pattern[str]], ...], views: list[_View]
) -> Optional[tuple[str, str, str, int]]:
    """First (family, name, matched, offset) over the views, rule order first."""
    for family, name, regex in rules:
        for view in views:
            match = regex.search(view.text)
            if match:
                return family, name, match.group(), view.offset(match.start())
    return None


def scan_memory_content(content: str) -> ScanResult:
    """Scan content bound for memory; ``blocked=True`` means it must not be stored.

    Order (first hit wins): too_large, invisible_unicode, en_injection, zh_injection.
    """
    if not isinstance(content, str):
        raise TypeError(f"content must be str, not {type(content).__name__}")
    if len(content) > MAX_CONTENT_CHARS:
        return ScanResult(
            blocked=True,
            reason="too_large",
            family="size_limit",
            pattern=f"content is {len(content)} characters; the limit is {MAX_CONTENT_CHARS}",
            offset=MAX_CONTENT_CHARS,
        )

    found = find_invisible(content)
    if found is not None:
        offset, codepoint, klass = found
        name = unicodedata.name(content[offset], "") or f"unnamed {klass}"
        return ScanResult(
            blocked=True,
            reason="invisible_unicode",
            family=klass,
            pattern=name,
            matched=f"⟨{codepoint}⟩",
            codepoint=codepoint,
            offset=offset,
        )

    view = _normalised_view(content)
    views = [view]
    deobfuscated, squashed = _deobfuscated_views(view)
    if deobfuscated is not None:
        views.append(deobfuscated)

    hit = _match_rules(EN_RULES, views)
    if hit is None and squashed is not None:
        hit = _match_rules(SQUASHED_RULES, [squashed])
    if hit is not None:
        family, name, matched, offset = hit
        return ScanResult(True, "en_injection", family, name, matched, None, offset)

    if _CJK_RE.search(view.text):
        hit = _match_rules(ZH_RULES, views[:1])
        if hit is not None:
            family, name, matched, offset = hit
            return ScanResult(True, "zh_injection", family, name, matched, None, offset)

    return ScanResult(blocked=False)


_scan_memory_content = scan_memory_content
"""The spec's name for the write gate."""


if __name__ == "__main__":  # pragma: no cover - a quick manual check
    for line in sys.stdin:
        print(scan_memory_content(line.rstrip("\n")))
