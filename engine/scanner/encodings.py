"""Encoded text the rules read through: base64, URL escapes, HTML entities, hex, rot13
and reversed text, each decoded so the rules can scan what a model would decode."""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import urllib.parse
from typing import Optional

from . import fastre
from .normalise import _TRIGGER_WORDS

# Anchored at the start of a run: the same spans (a run shorter than 16 has no match
# at any of its positions), without trying the run's every position on each word.
_BASE64_RE = fastre.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX_RE = fastre.compile(r"(?<![0-9A-Za-z\\])(?:(?:\\x)?[0-9A-Fa-f]{2}[ :]?){12,}(?![0-9A-Za-z])")
_URL_ESCAPE_RE = fastre.compile(r"%[0-9a-fA-F]{2}")
_WORD_SPLIT_RE = fastre.compile(r"[a-z]+")
_THREE_LETTERS_RE = fastre.compile(r"[a-zA-Z]{3}")  # rot13 or reversed text is sought only where this is
_MAX_DECODED = 16
_MAX_WORD_SCAN = 8192


def _trigger_count(text: str) -> int:
    """How many different trigger words ``text`` holds: one abbreviation repeated ("NO",
    read backwards "on") is one word, not evidence of reversed text each time."""
    return len(_TRIGGER_WORDS.intersection(_WORD_SPLIT_RE.findall(text[:_MAX_WORD_SCAN].lower())))


_ROT13_TRIGGERS = frozenset(codecs.encode(w, "rot13") for w in _TRIGGER_WORDS)
_REVERSED_TRIGGERS = frozenset(w[::-1] for w in _TRIGGER_WORDS)


_LOWER_TO_ASCII = "\u0130\u212a"
"""The non-ASCII characters whose lower case holds an ASCII letter: İ (to "i" and a
combining dot) and the Kelvin sign (to "k"); a test recomputes the list."""


def _hidden_trigger_counts(content: str) -> Optional[tuple[int, int, int]]:
    """Different trigger words in ASCII content as written, after rot13 and reversed, from one
    word split: rot13 and reversal map each run of letters to one run of letters,
    so a word is a trigger there exactly when its rot13 or reversal is in the sets
    above. Saves encoding and splitting two copies of every clean text. Other
    characters are left alone by rot13, and lower-case to no ASCII letter, so they
    part words alike in all three; but for the two that lower-case to one (None for
    text holding them), where the shortcut is not exact."""
    head = content[:_MAX_WORD_SCAN]
    if not head.isascii() and any(ch in head for ch in _LOWER_TO_ASCII):
        return None
    words = set(_WORD_SPLIT_RE.findall(head.lower()))
    return (
        len(_TRIGGER_WORDS.intersection(words)),
        len(_ROT13_TRIGGERS.intersection(words)),
        len(_REVERSED_TRIGGERS.intersection(words)),
    )


def _reads_as_text(data: bytes) -> Optional[str]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    return text if text and printable >= 0.9 * len(text) and re.search(r"[^\W\d_]{2,}", text) else None


def decoded_texts(content: str) -> list[tuple[str, int, str]]:
    """(encoding, offset of the encoded span, decoded text) for every encoding that
    decodes to readable text (hex: 12 or more byte pairs, bare or split by spaces,
    colons or ``\\x``), so the rules can read what a model would decode.
    rot13 and reversed text count only when the result has more different trigger words."""
    out: list[tuple[str, int, str]] = []
    if "&" in content and ";" in content:
        unescaped = html.unescape(content)
        if unescaped != content:
            out.append(("html_entities", 0, unescaped))
    if "%" in content and _URL_ESCAPE_RE.search(content):
        unquoted = urllib.parse.unquote(content)
        if unquoted != content:
            out.append(("url_encoding", 0, unquoted))
    for match in list(_BASE64_RE.finditer(content))[:_MAX_DECODED]:
        chunk = match.group().rstrip("=")
        if chunk.isalpha() and (chunk.islower() or chunk.isupper()):
            continue  # a long plain word, not base64
        try:
            data = base64.b64decode(
                chunk + "=" * (-len(chunk) % 4), altchars=b"-_" if "-" in chunk or "_" in chunk else None, validate=True
            )
        except (binascii.Error, ValueError):
            continue
        text = _reads_as_text(data)
        if text:
            out.append(("base64", match.start(), text))
    for match in list(_HEX_RE.finditer(content))[:_MAX_DECODED]:
        digits = re.sub(r"[ :]|\\x", "", match.group())
        if len(digits) % 2 == 0 and not digits.isdigit():  # a long number is not text
            text = _reads_as_text(bytes.fromhex(digits))
            if text:
                out.append(("hex", match.start(), text))
    if _THREE_LETTERS_RE.search(content, 0, _MAX_WORD_SCAN):
        counts = _hidden_trigger_counts(content)
        here = _trigger_count(content) if counts is None else counts[0]
        for k, (how, encode) in enumerate(
            (("rot13", lambda head: codecs.encode(head, "rot13")), ("reversed", lambda head: head[::-1])), start=1
        ):
            if counts is not None and counts[k] < max(2, here + 2):
                continue
            text = encode(content[:_MAX_WORD_SCAN])
            if _trigger_count(text) >= max(2, here + 2):
                out.append((how, 0, text))
    return out
