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
from typing import Optional

from engine.models import ScanResult

from .invisible import find_invisible, invisible_class, reveal_invisible
from .normalise import _deobfuscated_views, _normalised_view, _View
from .rules import EN_RULES, SQUASHED_RULES, ZH_RULES, Rule

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