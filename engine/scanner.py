"""The write-path prompt-injection scanner: the spec's ``_scan_memory_content``.

Every memory write passes through :func:`scan_memory_content` before it reaches
storage. The checks run in the spec's order and the first hit decides:

1. ``too_large``          the input is bounded, so the scan is bounded too;
2. ``invisible_unicode``  zero tolerance for characters a human cannot see but a
                          model reads (zero-width, bidi controls, tag characters,
                          variation selectors, fillers, every format character);
3. ``en_injection``       English pattern families, plus the common German,
                          Spanish, French and Russian override phrasings (same
                          scripts, same normalisation);
4. ``zh_injection``       Chinese pattern families.

Patterns run on a normalised view of the text (NFKC, casefolded) and, when the
text shows signs of obfuscation, on a de-obfuscated view too: letters split by
spaces or punctuation are joined ("i g n o r e", "i.g.n.o.r.e"), and words
spelled with leetspeak, inner punctuation or Cyrillic/Greek look-alikes are
rewritten when they spell a trigger word ("1gn0re", "ig-nore", "іgnоrе").
Offsets in a verdict always point into the caller's original string.

The families are data: ``EN_RULES``, ``SQUASHED_RULES`` and ``ZH_RULES`` are
tuples of :class:`Rule` (family, name, compiled regex, gate). Each rule targets
a kind of phrasing rather than particular strings, and insists on the context
that makes the phrasing an attack, so harmless uses of trigger words ("ignore
the typo", "the system prompt builder lives in src/prompt.py") pass.
Pure stdlib; everything is compiled once at import.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple, Optional

from engine.models import ScanResult

__all__ = [
    "MAX_CONTENT_CHARS",
    "Rule",
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


# --------------------------------------------------------------------------
# 1. Invisible characters
# --------------------------------------------------------------------------

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
    body = "".join(
        re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ranges
    )
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


# --------------------------------------------------------------------------
# 2. Normalised views, with a map back to the original offsets
# --------------------------------------------------------------------------

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


# --------------------------------------------------------------------------
# 3. Pattern families
# --------------------------------------------------------------------------

class Rule(NamedTuple):
    """One detection rule: family, name, regex, and a cheap pre-check (gate).

    The regex runs on casefolded text, so it is written in lower case. The gate
    is a tuple of groups of substrings: the regex only runs when every group
    has a substring in the text. Gates only save time; the tests check that
    they change no verdict.
    """

    family: str
    name: str
    regex: re.Pattern[str]
    gate: tuple[tuple[str, ...], ...] = ()


def _rule(family: str, name: str, pattern: str, gate: str = "") -> Rule:
    """Build a Rule; ``gate`` is written "a|b & c|d" (any of a, b and any of c, d)."""
    groups = tuple(tuple(group.strip().split("|")) for group in gate.split("&")) if gate else ()
    return Rule(family, name, re.compile(pattern), groups)


def _not_after(word: str, *before: str) -> str:
    """Lookbehinds refusing ``word`` right after any of ``before`` ("will act as" is a plan, not a role)."""
    return "".join(rf"(?<!\b{b}\s{word})" for b in before)


# Verbs that tell a model to drop something. The strong ones are about minds
# (ignore, forget...); the weak ones are everyday editing verbs (delete, skip...)
# and only count when what is dropped is marked as earlier or given.
_STRONG_VERB = (
    r"(?:ignor(?:e|ing)|disregard(?:ing)?|forget(?:ting)?|abandon|discard|overrid(?:e|ing)|dismiss|neglect|"
    r"overlook|bypass|leave\s+behind|set\s+aside|throw\s+away|pay\s+no\s+attention\s+to|"
    r"(?:do\s+not|don'?t|stop)\s+(?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)?\s+to))"
)
_WEAK_VERB = r"(?:drop|skip|overwrite|erase|delete|remove|clear|wipe|reset|scrap)"
_VERB_GATE = (
    "ignor|disregard|forget|abandon|discard|overrid|dismiss|neglect|overlook|bypass|leave|aside|throw|"
    "attention|follow|obey|listen|drop|skip|overwrit|erase|delet|remov|clear|wipe|reset|scrap"
)
# What a model is told. Strong nouns are directives as such; weak nouns only
# count with a marker such as "previous", "above" or "provided".
_STRONG_NOUN = (
    r"(?:instructions?|instructed|directions|directives?|rules|prompts?|prompt\s+texts?|orders|commands|"
    r"guidelines?|guidance|assignments?|constraints|programming|restrictions|polic(?:y|ies))"
)
_WEAK_NOUN = (
    rf"(?:{_STRONG_NOUN}|tasks?|context|conversations?|information|documents?|articles?|settings|training|"
    r"messages?|text|input|content|everything|answers?|responses?)"
)
_NOUN_GATE = (
    "instruct|direction|directive|rule|prompt|order|command|guideline|guidance|assignment|constraint|"
    "programming|restriction|polic|task|context|conversation|information|document|article|setting|"
    "training|message|text|input|content|everything|answer|response"
)
_PRIOR = (
    r"(?:previous|previously|prior|above|preceding|earlier|former|foregoing|initial|original|provided|given|"
    r"pre-?existing)"
)
# Determiners and qualifiers allowed between the verb and the noun.
_QUALIFIERS = (
    r"(?:all|any|each|every|of|the|your|my|our|its|these|those|previous|previously|prior|above|preceding|"
    r"earlier|former|initial|original|old|existing|given|provided|system|developer|and|following|"
    r"other|that|you|i|we|got|have|had|been|received|were|was|just|safety|current|entire)"
)

EN_RULES: tuple[Rule, ...] = (
    # --- instruction override: make the model drop what it was told ------------
    _rule("instruction_override", "override_prior_directives",
          rf"(?<!did\syou\s)\b{_STRONG_VERB}\s+(?:about\s+)?(?:{_QUALIFIERS}\s+){{0,6}}{_STRONG_NOUN}\b"
          rf"|(?<!did\syou\s)\b(?:{_STRONG_VERB}|{_WEAK_VERB})\s+(?:about\s+)?(?:{_QUALIFIERS}\s+){{0,5}}{_PRIOR}\s+"
          rf"(?:{_QUALIFIERS}\s+){{0,2}}{_WEAK_NOUN}\b",
          f"{_VERB_GATE} & {_NOUN_GATE}"),
    _rule("instruction_override", "override_everything_before",
          r"\b(?:ignore|ig[a-z]{1,2}re|disregard|forget|drop|erase|abandon)\s+(?:about\s+)?"
          r"(?:(?:all|everything|anything)(?:\s+(?:of\s+)?(?:that|this|else))?"
          r"\s+(?:(?:that\s+|what\s+)?(?:i|you|we)\s+(?:have\s+|'ve\s+)?(?:said|told|wrote|written|discussed|"
          r"talked|learned|learnt|know|knew|got|had|received|mentioned)\b|before|above|so\s+far|"
          r"(?:previous|prior)(?!\s+[a-z])|you\s+know)"
          r"|(?:the\s+)?(?:above|previous|prior|preceding)(?=\s*(?:[.,;:!?\"')\-]|and\b|$))"
          r"|what\s+(?:i|you|we|was|has\s+been|is|'s)\s*(?:have\s+)?(?:said|told|wrote|written|stated|given|mentioned|"
          r"before|above))",
          "ig|disregard|forget|drop|erase|abandon"),
    _rule("instruction_override", "override_everything",
          r"(?:^|[.!?,;:\"'(\n-]\s*|\b(?:now|but|then|and|please|just|simply|so|first|to|would|you)\s+)"
          r"(?:please\s+)?(?:ignore|forget|disregard)\s+(?:about\s+)?"
          r"(?:everything\b(?!\s+(?:about|of|on|in|else|related|from\s+(?:the|my|our)\s+(?!previous|prior)))"
          r"|all\b(?=\s*(?:[.,;:!?\"')\-]|and\b|$)))"
          r"|\b(?:ignore|forget|disregard)\s+(?:all|everything)(?:\s+(?:else|above|before))?\s+and\s+(?:just\s+|\w+\s+)?"
          r"(?:say|print|output|write|tell|answer|respond|repeat|reply)\b",
          "ignore|forget|disregard & all|everything"),
    _rule("instruction_override", "despite_instructions",
          r"\b(?:despite|regardless\s+of|contrary\s+to|in\s+spite\s+of)\s+(?:what\s+you(?:'ve|\s+have)\s+been\s+"
          r"(?:told|instructed|programmed)|your\s+(?:instructions|rules|guidelines|programming|system\s+prompt))",
          "despite|regardless|contrary|spite"),
    _rule("instruction_override", "replace_directives",
          r"\b(?:change|update|replace|modify|rewrite|reset|overwrite)\s+your\s+"
          r"(?:(?:system|initial|original|core)\s+)?(?:instructions|rules|prompt|guidelines|programming|directives)\b"
          r"|\byour\s+(?:new\s+)?(?:instructions|rules|directives)\s+(?:are|have\s+been)\s+(?:now\s+)?"
          r"(?:to|changed|updated|replaced|as\s+follows)\b"
          r"|\byour\s+(?:primary|main|only|new|sole)\s+(?:purpose|goal|task|job|objective)\s+is\s+now\b",
          "your"),
    _rule("instruction_override", "new_task_pivot",
          r"\b(?:new|further|more|additional|following|other)\s+(?:tasks?|instructions?|assignments?|orders?|challenges?)\s+"
          r"(?:now\s+)?(?:follows?|are\s+follow(?:ed|ing)|comes?)\b"
          r"|\b(?:now|here|but\s+now)\s+(?:comes?|follows?|there\s+(?:is|are)|we\s+have|i\s+have)\b[^.!?\n]{0,30}?"
          r"\b(?:new|further|more|another|additional|next|second|different)\s+"
          r"(?:tasks?|challenges?|assignments?|instructions?|orders?|tests?)\b"
          r"|\b(?:focus|concentrate)\s+(?:only\s+|now\s+)?on\s+(?:your|the|this)\s+(?:new|next)\s+(?:tasks?|assignments?)\b"
          r"|\byour\s+new\s+(?:task|assignment|instructions?)\s+(?:is|are|will\s+be)\s*:"
          r"|\bstart\s+(?:over|from\s+the\s+(?:front|beginning|scratch))\b[^.!?\n]{0,30}?\b(?:task|assignment)"
          r"|\bstart\s+with\s+(?:a\s+)?new\s+(?:task|assignment)\b"
          r"|\b(?:that\s+is|that'?s|this\s+is)\s+(?:enough|done)\s*[.!]\s*(?:but\s+)?now\b",
          "task|instruction|assignment|order|challenge|test|enough|done"),
    _rule("instruction_override", "labelled_new_directive",
          r"\b(?:additional|new|updated|revised|secret|hidden|real)\s+(?:instruction|directive|statement|order|command)s?"
          r"\s*(?:[-–—:]|for\s+(?:the\s+)?(?:ai|assistant|model))"
          r"|\\n\s*(?:instruction|order|command|directive|system|assistant)s?\s*:",
          "instruction|directive|statement|order|command|\\n"),
    _rule("instruction_override", "stop_and_do",
          r"\b(?:stop|halt|attention|achtung)\s*[-–—:,!]+\s*(?:[a-z]+\s*[-–—:,!]+\s*)?(?:now\W*)?(?:just\s+|please\s+|i\s+)?"
          r"(?:write|print|say|output|ignore|forget|answer|tell|repeat|stop|stopp|urgently)\b"
          r"|\bstop\s+everything\b",
          "stop|halt|attention|achtung"),
    _rule("instruction_override", "dismiss_context",
          r"\b(?:do\s+not|don'?n?t|never|without)\s+(?:look(?:ing)?\s+(?:in|at|into)|us(?:e|ing)|rely(?:ing)?\s+on|"
          r"consult(?:ing)?|answer(?:ing)?\s+(?:the\s+question\s+)?(?:according\s+to|based\s+on|from))\s+"
          r"(?:the\s+|any\s+|your\s+)?(?:provided\s+|given\s+)?(?:documents?|articles?|context|sources?)\b"
          r"|\bnot\s+(?:by|from|according\s+to|based\s+on)\s+the\s+(?:provided\s+)?(?:articles?|documents?|context)\b",
          "document|article|context|source"),
    _rule("instruction_override", "disobey_user",
          r"\b(?:ignore|disregard|forget)\s+(?:what\s+)?the\s+user\b",
          "ignore|disregard|forget & user"),
    _rule("instruction_override", "dictated_output",
          r"\b(?:do\s+not|don'?t)\s+answer\s+(?:this|the)\s+question\b[^.\n]{0,20}?\b(?:but|just|instead|only)\b"
          r"|\binstead\s+(?:output|print|say|write)\b[^.\n]{0,40}[\"'“]"
          r"|\bjust\s+(?:say|print|output)\s*[\"'“:]"
          r"|\brepeat\s+after\s+me\b",
          "answer|instead|just|repeat"),
    # --- the same override in other Latin- and Cyrillic-script languages --------
    _rule("instruction_override", "override_de",
          r"\b(?:ignorier(?:e|en|t)?|vergiss|vergessen|missachte(?:n)?|überspring(?:e|en)?|verwirf)\b[^.!?\n]{0,40}?"
          r"\b(?:anweisungen|instruktionen|befehle|regeln|vorgaben|aufgaben|anordnungen|alles|eingaben)\b"
          r"|\babweichend\s+(?:zu|von)\s+(?:den\s+)?(?:vorherigen|bisherigen|obigen)\s+(?:instruktionen|anweisungen)"
          r"|\b(?:nun|jetzt)\s+folgen\s+neue\s+(?:anweisungen|aufgaben|instruktionen)"
          r"|\bhöre?\s+nicht\s+auf\s+(?:alles\s+)?(?:zuvor|vorher|bisher)\s+gesagte",
          "ignorier|vergiss|vergessen|missacht|überspring|verwirf|abweichend|folgen|höre|hör"),
    _rule("instruction_override", "override_es",
          r"\b(?:ignora|ignore|ignoren|olvida|olvide|olviden|descarta|omite)\b[^.!?\n]{0,30}?"
          r"\b(?:instrucciones|indicaciones|reglas|órdenes|ordenes|todo\s+lo\s+anterior)\b"
          r"|\bolvida(?:te)?\s+(?:de\s+)?todo\b",
          "ignor|olvid|descarta|omite"),
    _rule("instruction_override", "override_fr",
          r"\b(?:ignore[zr]?|oublie[zr]?)\b[^.!?\n]{0,30}?\b(?:instructions?|consignes|règles|tout\s+ce\s+qui\s+précède)\b",
          "ignore|oublie"),
    _rule("instruction_override", "override_ru",
          r"(?:забуд\w*|игнориру\w*|проигнориру\w*|не\s+обраща\w*\s+внимани\w*\s+на)\s+(?:\w+\s+){0,3}?"
          r"(?:инструкци\w*|указани\w*|правил\w*|команд\w*|всё|все\s+что)",
          "забуд|игнор|обраща"),
    # --- role hijack: give the model a new identity ------------------------------
    _rule("role_hijack", "persona_assignment",
          r"\bi\s+want\s+you\s+to\s+(?:act|behave|respond|answer|pretend|play|roleplay|role-play)\b"
          r"|\bact" + _not_after("act", "will", "can", "to", "would", "could", "may", "might", "should", "must",
                                 "also", "they", "which", "that", "it")
          + r"\s+as\s+(?:an?|the|my)\s+[^.!?\n]{1,60}[.!:\n]\s*(?:i\s+will|you\s+will|your\s+(?:task|job)|"
          r"execute|run|answer|reply|respond|write|tell|print|say|type|output)\b"
          r"|\byou\s+(?:will|must|shall|should|are\s+going\s+to|are\s+about\s+to|now|to)\s+(?:now\s+)?"
          r"(?:act|behave|pretend|roleplay|role-play|respond|answer)\s+(?:as|like|to\s+be|that)\b"
          r"|\byou\s+(?:will|must|shall|should|are\s+going\s+to|are\s+to|now)\s+(?:now\s+)?"
          r"(?:take\s+on|assume|adopt|play)\s+the\s+(?:role|persona|identity)\s+of\b"
          r"|\b(?:immerse|put)\s+yourself\s+(?:into|in)\s+the\s+role\b"
          r"|\byou\s+are\s+role-?playing\s+as\b"
          r"|\b(?:theoretical|hypothetical|fictional|imaginary)\s+(?:world|scenario|universe|setting)\s+where\s+you\s+"
          r"(?:are\s+(?:no|not)\b|would\s+be\s+able|have\s+no|can\s+(?:say|do|use))",
          "act|you|role|persona|identity|theoretical|hypothetical|fictional|imaginary"),
    _rule("role_hijack", "you_are_now",
          r"\b(?:from\s+now\s+on|from\s+here\s+on|starting\s+now|henceforth|from\s+this\s+point(?:\s+on)?)\s*,?\s*"
          r"(?:you\s+are|you'?re|you\s+will\s+be|you\s+shall\s+be|you\s+will\s+(?:act|respond|answer|have\s+to|now)|"
          r"your\s+name\s+is|you\s+are\s+going\s+to)\b"
          r"|\byou\s+are\s+now\s+(?:a|an|the|my|called|named|known|going|in|acting|playing|free|unrestricted|"
          r"jailbroken|unfiltered|uncensored|dan|[a-z]+bot|[a-z]+gpt)\b"
          r"|(?:^|[.!?\"\n]\s*)now\s+you\s+are\s+(?:an?\s+|the\s+)?[a-z]+"
          r"|\bfrom\s+now\s+(?:on\s+)?known\s+as\b",
          "now|henceforth|point"),
    _rule("role_hijack", "unrestricted_persona",
          r"\bdo\s+anything\s+now\b"
          r"|\b(?:anti-?)?(?:dan|stan|dude|evil\s*bot|anti-?gpt|betterdan)\s+mode\b"
          r"|\b(?:act|answer|respond|reply|behave|talk|role\s+of)\s+(?:just\s+)?(?:as|like)?\s*(?:an?\s+)?"
          r"(?:anti-?)?(?:dan|stan|dude)\b"
          r"|\b(?:anti-?dan|anti-?gpt|betterdan)\b"
          r"|\bpretend\s+(?:to\s+be|you\s+are|you'?re|that\s+you\s+are)\s+(?:an?\s+)?(?:evil|unrestricted|unfiltered|"
          r"uncensored|jailbroken|rogue|malicious|amoral|immoral|unethical|dan|different|another)\b"
          r"|\bpretend\s+(?:that\s+)?you\s+(?:can|could|have|are\s+able\s+to)\s+"
          r"(?:access|browse|no\s+(?:rules|restrictions|limits|filters))"
          r"|\bbroken\s+free\s+(?:of|from)\s+the\s+(?:typical\s+)?confines\b",
          "anything|dan|stan|dude|gpt|pretend|confines"),
    _rule("role_hijack", "rules_do_not_apply",
          r"\b(?:do(?:es)?\s+not|don'?t|doesn'?t|no\s+longer|never)\s+(?:have\s+to\s+|need\s+to\s+)?"
          r"(?:abide\s+by|follow|obey|adhere\s+to|comply\s+with)\s+(?:any\s+|the\s+)?"
          r"(?:rules|guidelines|policies|content\s+polic(?:y|ies)|restrictions)\s+(?:set|imposed|of|from|by|for)\b"
          r"|\bhas\s+no\s+(?:programming\s+|ethical\s+|moral\s+)?(?:guidelines|restrictions|filters|limits|boundaries)\b",
          "abide|follow|obey|adhere|comply|has & rule|guideline|polic|restriction|filter|limit|boundar"),
    _rule("role_hijack", "persona_lock",
          r"\b(?:stay|remain|completely\s+absorbed)\s+(?:fully\s+|always\s+)?in\s+(?:their|your|his|her|the)\s+roles?\b"
          r"|\b(?:do\s+not|don'?t|never|without(?:\s+even)?)\s+(?:break|breaking|fall(?:ing)?\s+out\s+of|"
          r"break(?:ing)?\s+out\s+of)\s+(?:the\s+|their\s+|your\s+)?(?:character|characters|figure|role)\b",
          "role|character|figure"),
    # --- hide things from the user -----------------------------------------------
    _rule("conceal_from_user", "hide_from_user",
          r"\b(?:do\s+not|don'?t|never|without|must\s+not)\s+(?:tell|telling|inform|informing|mention|mentioning|reveal|"
          r"revealing|notify|notifying|alert|alerting|show|showing|let|letting|warn|warning|disclose|disclosing)\s+"
          r"(?:(?:this|it|that|anything|them)\s+)?(?:to\s+)?the\s+(?:user|human|owner|operator)\b"
          r"|\bwithout\s+(?:the\s+)?(?:user|human|owner)(?:'s|s)?\s+"
          r"(?:knowing|knowledge|noticing|consent|permission|seeing|awareness)\b"
          r"|\b(?:keep|keeping|hide|hiding)\s+(?:this|it|that|these|them)\s+(?:secret\s+|hidden\s+)?from\s+the\s+"
          r"(?:user|human|owner)\b"
          r"|\bthe\s+user\s+(?:must|should|will)\s+(?:not|never)\s+(?:know|find\s+out|see|notice|learn|be\s+told)\b"
          r"|\b(?:secretly|silently|covertly|quietly)\s+(?:send|forward|upload|email|copy|exfiltrate|leak|post)\b",
          "user|human|owner|operator|secretly|silently|covertly|quietly"),
    # --- system-prompt override and chat-template smuggling ------------------------
    _rule("system_override", "new_system_prompt",
          r"\b(?:your|the\s+assistant'?s?|here\s+is\s+(?:a|the|your)|this\s+is\s+(?:a|the|your))\s+"
          r"(?:new|updated|revised|real|actual|replacement)\s+system\s+(?:prompt|message|instructions?)\b"
          r"|\b(?:new|updated|revised|real|actual|override|replacement)\s+system\s+(?:prompt|message|instructions?)"
          r"\s*(?:[:=\-–—]|is\s*:|follows\b|below\b|reads\b)"
          r"|\bsystem\s+(?:prompt\s+)?(?:override|update|alert|notice)\s*[:!]"
          r"|\bsystem\s+override\b"
          r"|(?:^|\n)\s*[\[(<#*]*\s*(?:system|sys|developer)\s*[\])>#*]*\s*:\s*(?:you\s|ignore|disregard|forget|"
          r"from\s+now|new\s|override|the\s+assistant|assistant\s+must|always|never|do\s+not)"
          r"|[\[<]\s*/?\s*system\s*[\]>]",
          "system|sys|developer"),
    _rule("system_override", "chat_template_token",
          r"<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|"
          r"eot_id)\s*\|>"
          r"|\[/?inst\]|<<\s*/?sys\s*>>",
          "<|||>|inst]|<<"),
    _rule("system_override", "role_header",
          r"(?:^|\n)\s*\#{2,}\s*(?:instruction|system|response)\s*:?\s*(?:\n|$)"
          r"|(?:^|\n)\s*(?:human|user)\s*:\s*(?:human|user)\s*:",
          "##|human|user & instruction|system|response|:"),
    _rule("system_override", "fake_boundary",
          r"(?:={3,}|-{5,}|\#{3,}|\*{3,})\s*(?:end|stop|begin|start)\b"
          r"|(?:\\n\s*){4,}",
          "===|-----|###|***|\\n"),
    _rule("system_override", "end_of_prompt",
          r"\b(?:end|stop)\s+of\s+(?:the\s+)?(?:prompt|instructions|system\s+prompt|context|document)\s*[.!:\]]",
          "end|stop & prompt|instruction|context|document"),
    # --- rule bypass ---------------------------------------------------------------
    _rule("rule_bypass", "bypass_safety",
          r"\b(?:bypass|bypassing|override|overriding|circumvent|circumventing|disable|disabling|ignore|ignoring|"
          r"turn\s+off|deactivate|get\s+around|evade|evading|break|lift|remove|switch\s+off)\s+"
          r"(?:all\s+(?:of\s+)?|any\s+(?:of\s+)?)?(?:your|its|the\s+(?:ai|model|assistant)(?:'s|s)?|openai(?:'s|s)?|these)\s+"
          r"(?:own\s+)?(?:safety\s+|content\s+|ethical\s+|moral\s+|security\s+|built-?in\s+)*"
          r"(?:guidelines|filters?|filtering|restrictions|safeguards|guardrails|polic(?:y|ies)|rules|moderation|protocols|"
          r"censorship|alignment|programming|limitations|constraints|ethics|morals|principles|training)\b",
          "bypass|overrid|circumvent|disabl|ignor|off|deactivat|around|evad|break|lift|remov"
          " & guideline|filter|restriction|safeguard|guardrail|polic|rule|moderation|protocol|censorship|"
          "alignment|programming|limitation|constraint|ethic|moral|principle|training"),
    _rule("rule_bypass", "jailbreak",
          r"\bjailbr(?:eak|oken)\s+(?:mode|prompt|enabled|activated|version|yourself|the\s+(?:ai|model|assistant|chatbot|llm))\b"
          r"|\b(?:you\s+are|you'?re|you\s+have\s+been|you've\s+been|i\s+have|is\s+now|are\s+now)\s+(?:now\s+)?"
          r"jailbr(?:oken|eaked)\b"
          r"|\b(?:anti-?)?(?:dan|jailbreak|dude|stan|evil|unrestricted)\s+mode\b"
          r"|\b(?:with|simulate|simulating)\s+(?:the\s+)?developer\s+mode\b"
          r"|\bdeveloper\s+mode\s+(?:output|response)s?\b"
          r"|\byou\s+(?:are|will\s+be|are\s+now)\s+(?:now\s+)?in\s+developer\s+mode\b",
          "jailbr|mode"),
    # --- secret exfiltration -------------------------------------------------------
    _rule("secret_exfiltration", "reveal_prompt",
          r"\b(?:reveal|print|show|display|output|repeat|recite|tell\s+me|give\s+me|send|leak|dump|disclose|return|share|"
          r"write\s+out|copy|spell-?\s*check|list|read\s+back|translate)\s+(?:me\s+)?(?:all\s+|back\s+|out\s+)?(?:of\s+)?"
          r"(?:your|the\s+(?:full|entire|whole|above|previous|initial|original|hidden|secret|internal|system|complete)|"
          r"all\s+(?:your|the)|this|above)\s+(?:(?:full|entire|whole|initial|original|hidden|secret|internal|complete|"
          r"first|system|above|previous|current)\s+)*(?:system\s+)?(?:prompts?|prompt\s+texts?|instructions|"
          r"initial\s+instructions|embeddings|configuration|context\s+window|rules)\b"
          r"|\bwhat\s+(?:are|were|is)\s+your\s+(?:initial\s+|original\s+|system\s+|secret\s+|hidden\s+)?"
          r"(?:instructions|prompt|rules)\b"
          r"|\bwhat\s+your\s+(?:initial\s+|original\s+|system\s+|secret\s+|hidden\s+)?(?:instructions|prompt|rules)\s+"
          r"(?:are|were)\b"
          r"|\bwhat\s+(?:was|is|has\s+been)\s+(?:written|said|stated)\s+(?:above\b|(?:at\s+the\s+beginning\s+of|in|before)\s+"
          r"(?:this|the|your)\s+(?:prompt|conversation|message|text)\b)"
          r"|\b(?:print|show|repeat|output|display)\s+(?:the\s+)?(?:above|previous|preceding)\s+"
          r"(?:prompt|text|instructions|message)",
          "prompt|instruction|embedding|configuration|context|rules|written|said|stated|text|message"),
    _rule("secret_exfiltration", "leak_secrets",
          r"\b(?:reveal|print|show|display|output|tell\s+me|give\s+me|send\s+me|leak|dump|disclose|expose|exfiltrate|list)\s+"
          r"(?:me\s+)?(?:all\s+(?:of\s+)?|any\s+)?(?:your|the\s+(?:user's|users'|admin|root|owner's|stored|saved)|"
          r"all\s+(?:the\s+)?|every|their)\s*(?:\w+\s+){0,2}?"
          r"(?:api[\s_-]?keys?|passwords?|passwd|secrets|credentials?|private\s+keys?|access\s+tokens?|auth\s+tokens?|"
          r"session\s+tokens?|tokens|ssh\s+keys?|credit\s+card(?:\s+numbers?)?|social\s+security\s+numbers?|"
          r"seed\s+phrases?)\b",
          "key|passw|secret|credential|token|credit|social|seed"),
    _rule("secret_exfiltration", "send_to_remote",
          r"\b(?:send|forward|post|upload|email|e-mail|exfiltrate|transmit|leak|copy|report|beacon|ping)\b[^.\n]{0,80}?"
          r"\bto\s+(?:https?://|www\.|ftp://|[\w-]+\.(?:ngrok|requestbin|burpcollaborator|pipedream|webhook)\b)"
          r"|\b(?:send|forward|email|copy|cc|bcc|post|upload)\s+(?:every|all|each|any)\s+(?:future\s+|of\s+(?:the|my|your)\s+)?"
          r"(?:\w+\s+){0,2}?(?:answers?|responses?|replies|messages?|conversations?|chats?|data|memor(?:y|ies)|history|"
          r"emails?|notes?|files?)\b[^.\n]{0,40}?\bto\s+\S+@\S+"
          r"|\b(?:send|forward|email|copy|post|upload|leak|share)\s+"
          r"(?:the\s+user'?s\s+|the\s+|this\s+|our\s+|my\s+|your\s+|their\s+)?(?:entire\s+|full\s+|whole\s+)?"
          r"(?:(?:conversation|chat|message|browsing|search)\s+(?:history|logs?|transcripts?)|conversations?|chats?|"
          r"memor(?:y|ies))\b[^.\n]{0,40}?\bto\s+\S+@\S+"
          r"|!\[[^\]\n]*\]\([^)\n]*(?:\{|<|%7b|\$\(|\$\{)",
          "http|www.|ftp:|ngrok|requestbin|burpcollaborator|pipedream|webhook|@|!["),
    _rule("secret_exfiltration", "credential_path",
          r"\b(?:cat|less|more|head|tail|type|read|open|send|upload|print|show|dump|copy|cp|scp|rsync|exfiltrate|curl|"
          r"wget|post|email|leak|fetch|display|output|base64|include|attach|paste|grep|get)\b[^\n]{0,80}?"
          r"(?:\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w.])\.env\b|/etc/(?:passwd|shadow|sudoers)\b|"
          r"\.aws/credentials\b|\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|\.kube/config\b|"
          r"\.docker/config\.json\b|\.gnupg/|\bwallet\.dat\b|\.bash_history\b)",
          ".ssh/|id_rsa|id_dsa|id_ecdsa|id_ed25519|.env|/etc/|.aws/|.netrc|credentials|.npmrc|.pypirc|.kube/|"
          ".docker/|.gnupg/|wallet.dat|.bash_history"),
)

SQUASHED_RULES: tuple[Rule, ...] = (
    # Only for the letters-only view of text whose letters were split apart:
    # word boundaries are gone, so the core phrasings are spelled solid.
    _rule("instruction_override", "override_prior_directives_squashed",
          r"(?:ignore|disregard|forget|override|bypass)(?:all|any|the|your|of|every)*"
          r"(?:previous|prior|above|preceding|earlier|system|safety)?"
          r"(?:instructions?|directions|rules|prompts?|guidelines|orders|filters)"),
    _rule("role_hijack", "you_are_now_squashed",
          r"youarenow(?:a|an|the|dan|free|unrestricted|jailbroken)|doanythingnow|developermode|jailbreakmode"),
    _rule("secret_exfiltration", "reveal_prompt_squashed",
          r"(?:reveal|print|show|repeat|leak|output)(?:me)?(?:all)?(?:your|the)(?:system|initial|hidden|secret)?"
          r"(?:prompt|instructions|apikeys?|passwords?|secrets?)"),
)

# Chinese rules. NFKC has turned full-width ，：！？ into , : ! ? already.
ZH_RULES: tuple[Rule, ...] = (
    # 忽略/无视/忘记 ... 指令/提示/问题: drop what came before.
    _rule("instruction_override", "override_prior_zh",
          r"(?:忽略|忽视|无视|忘记|忘掉|忘了|不要理会|不理会|别理会|别管|不用管|不要管|抛开|抛弃|放弃|跳过|无需理会|"
          r"不必理会|丢弃|清除|覆盖)(?:掉)?[^,.!?\n。]{0,10}?"
          r"(?:指令|指示|规则|提示|提问|问题|要求|命令|设定|限制|对话|说明|任务|约束|内容|信息|上下文|所有|一切|训练)"
          r"|(?:忽略|无视|忘记|忘掉)(?:以上|上述|上面|之前|前面|先前|此前)",
          "忽|无视|忘|理会|管|抛|放弃|跳过|丢弃|清除|覆盖"),
    # 直接输出/复述: goal hijack, dictating the exact output.
    _rule("goal_hijack", "dictated_output_zh",
          r"(?:不要|不用|不需要|无需|别|不必)(?:回答|回复|解释)[^。\n]{0,6}?(?:直接|只需|只要|而是|请)?"
          r"(?:输出|复述|回复|说出|打印)"
          r"|(?:直接|然后|并|现在请?|只需|只要)(?:输出|复述|回复|说出|打印)(?:以下|如下|下面)?(?:的)?"
          r"(?:回答|内容|文本|话语|文字)?\s*[:\"“「『]"
          r"|复述(?:以下|如下|下面|下列|这段)"
          r"|请(?:直接)?复述\s*[:\"“]"
          r"|(?:你|您)(?:现在)?(?:需要|必须|只需|只要|要)(?:说出|输出|复述|回答)\s*[:\"“]"
          r"|听我的指令"
          r"|(?:现在)?你的(?:新)?任务是",
          "输出|复述|回复|说出|打印|回答|指令|任务"),
    # 你现在是/扮演/假装: role hijack and role-play set-ups.
    _rule("role_hijack", "role_assignment_zh",
          r"(?:你现在是|现在你是|从现在(?:开始|起),?\s*你(?:是|将|要|就是|必须)|假装(?:你是|自己是|成)|装作(?:你是|自己是)|"
          r"假扮|你将扮演|请你?扮演|你来扮演|你要扮演)"
          r"|(?:^|[。!?.\n]\s*)你(?:现在)?(?:是|扮演(?:的是)?|作为)(?:一名|一位|一个|一只)[^。!?\n]{1,60}?[,。]"
          r"[^\n]{0,120}?(?:请|现在|你该|你要|你需要|你会|你将|你如何|你怎么)"
          r"|扮演(?:一名|一位|一个)?[^。,\n]{0,20}?角色",
          "你|假|扮演|装作"),
    # 不要告诉用户: hide things from the user.
    _rule("conceal_from_user", "hide_from_user_zh",
          r"(?:不要|别|不能|切勿|不得|不许)(?:告诉|让|通知|告知|提醒|透露给?)(?:用户|使用者|主人|人类)"
          r"|(?:瞒着|背着|避开)(?:用户|使用者|主人)"
          r"|不让(?:用户|使用者|主人)(?:知道|发现|察觉|看到)"
          r"|对(?:用户|使用者|主人)(?:保密|隐瞒)"
          r"|(?:悄悄|偷偷|秘密)(?:地)?(?:发送|转发|上传|记录|发给)",
          "用户|使用者|主人|人类|悄悄|偷偷|秘密"),
    # 系统提示: override or read out the system prompt.
    _rule("system_override", "system_prompt_zh",
          r"(?:新的?|更新的?|真正的)系统(?:提示|指令|设定)"
          r"|系统提示词"
          r"|(?:输出|显示|打印|泄露|告诉我|重复|复述|给我看)(?:你的|一下)?(?:系统提示|初始指令|原始指令|提示词|系统指令)"
          r"|你的(?:系统)?(?:提示词|初始指令)",
          "系统|提示词|指令"),
    # 绕过/越狱: rule bypass.
    _rule("rule_bypass", "bypass_zh",
          r"绕过[^。,\n]{0,8}?(?:限制|审查|规则|过滤|安全|检测|防护|策略|准则)"
          r"|越狱(?:模式|提示|版本|后的)|你(?:已经)?被越狱"
          r"|(?:进入|开启|启用|激活|切换到)[^。\n]{0,4}?(?:越狱|开发者|无限制|上帝|dan)模式"
          r"|(?:解除|取消|关闭|去掉)(?:你的|所有|一切)?(?:的)?(?:安全)?(?:限制|约束|审查|过滤)"
          r"|不受(?:任何)?(?:限制|约束|规则|道德)",
          "绕过|越狱|模式|解除|取消|关闭|去掉|不受"),
    # 泄露 密码/密钥: credential and data exfiltration.
    _rule("secret_exfiltration", "leak_secrets_zh",
          r"(?:泄露|透露|告诉我|发送|发给我|给我|显示|打印|输出|交出|提供)(?:你的|您的|用户的|所有的?|全部)?"
          r"[^。,\n]{0,6}?(?:密码|密钥|秘钥|口令|api\s*key|令牌|token|凭证|凭据|私钥|安全码|验证码)"
          r"|(?:输入|填写)(?:你的|您的)[^。,\n]{0,6}?(?:密码|安全码|验证码|私钥)"
          r"|把(?:用户|主人|他人|别人)的[^。,\n]{1,12}?(?:发给|发送给|发送到|告诉|透露给|上传|转发)",
          "密|口令|key|令牌|token|凭|私钥|安全码|验证码|把"),
)


# --------------------------------------------------------------------------
# 4. The scanner
# --------------------------------------------------------------------------

_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _match_rules(
    rules: tuple[Rule, ...], views: list[_View], use_gates: bool = True
) -> Optional[tuple[Rule, re.Match[str], _View]]:
    """The first rule (in table order) that matches one of the views."""
    for rule in rules:
        for view in views:
            if use_gates and not all(any(g in view.text for g in group) for group in rule.gate):
                continue
            match = rule.regex.search(view.text)
            if match:
                return rule, match, view
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
        return ScanResult(
            blocked=True,
            reason="invisible_unicode",
            family=klass,
            pattern=unicodedata.name(content[offset], f"unnamed {klass}"),
            matched=f"⟨{codepoint}⟩",
            codepoint=codepoint,
            offset=offset,
        )

    return _scan_patterns(content)


def _scan_patterns(content: str, use_gates: bool = True) -> ScanResult:
    """Steps 3 and 4: the English, then the Chinese pattern families."""
    view = _normalised_view(content)
    deobfuscated, squashed = _deobfuscated_views(view)
    views = [view] if deobfuscated is None else [view, deobfuscated]

    hit = _match_rules(EN_RULES, views, use_gates)
    if hit is None and squashed is not None:
        hit = _match_rules(SQUASHED_RULES, [squashed], use_gates)
    reason = "en_injection"
    if hit is None and _CJK_RE.search(view.text):
        hit = _match_rules(ZH_RULES, [view], use_gates)
        reason = "zh_injection"
    if hit is None:
        return ScanResult(blocked=False)
    rule, match, matched_view = hit
    return ScanResult(
        blocked=True,
        reason=reason,
        family=rule.family,
        pattern=rule.name,
        matched=match.group(),
        offset=matched_view.offset(match.start()),
    )


_scan_memory_content = scan_memory_content
"""The spec's name for the write gate."""
