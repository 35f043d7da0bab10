"""Word diff between two texts (two versions of an entry, two sides of a
contradiction): difflib on word tokens, each token keeping the whitespace before
it, so joining the chunks gives back both texts exactly.

Shown with `[-removed-]` and `{+added+}` markers as well as colour, so the
difference reads on a monochrome terminal or in a copied screen."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from rich.text import Text

_TOKEN = re.compile(r"\s*\S+")
_PUNCT = ".,;:!?()\"'"
REMOVED_STYLE = "bold #ffffff on #b71c1c"
ADDED_STYLE = "bold #ffffff on #1b5e20"


@dataclass(frozen=True)
class Chunk:
    """A run of tokens: op is "equal", "delete" (old only) or "insert" (new only)."""

    op: str
    old: str = ""
    new: str = ""


def tokens(text: str) -> list[str]:
    """Words with their leading whitespace; trailing whitespace rides on the last one."""
    found = _TOKEN.findall(text)
    tail = text[sum(map(len, found)) :]
    if tail:
        found = found[:-1] + [found[-1] + tail] if found else [tail]
    return found


def word_diff(old: str, new: str, fold: bool = False) -> list[Chunk]:
    """The chunks that turn old into new. fold compares words without case and
    surrounding punctuation (two statements of a fact), else exactly (two versions)."""
    ta, tb = tokens(old), tokens(new)

    def key(token: str) -> str:
        word = token.strip()
        return word.lower().strip(_PUNCT) if fold else word

    chunks: list[Chunk] = []
    matcher = difflib.SequenceMatcher(a=[key(t) for t in ta], b=[key(t) for t in tb], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        old_part, new_part = "".join(ta[i1:i2]), "".join(tb[j1:j2])
        if op == "equal":
            chunks.append(Chunk("equal", old_part, new_part))
            continue
        if old_part:
            chunks.append(Chunk("delete", old=old_part))
        if new_part:
            chunks.append(Chunk("insert", new=new_part))
    return chunks


def counts(chunks: list[Chunk]) -> tuple[int, int]:
    """Words removed and words added."""
    removed = sum(len(c.old.split()) for c in chunks if c.op == "delete")
    added = sum(len(c.new.split()) for c in chunks if c.op == "insert")
    return removed, added


def _split(text: str) -> tuple[str, str, str]:
    """Leading whitespace, the words, trailing whitespace (markers wrap only the words)."""
    body = text.strip()
    if not body:
        return text, "", ""
    start = text.index(body)
    return text[:start], body, text[start + len(body) :]


def marked(chunks: list[Chunk]) -> Text:
    """The new text with removals as [-…-] and additions as {+…+}, coloured too."""
    out = Text()
    previous = "equal"
    for chunk in chunks:
        if chunk.op == "equal":
            out.append(chunk.new)
        else:
            lead, body, trail = _split(chunk.old if chunk.op == "delete" else chunk.new)
            if not (chunk.op == "insert" and previous == "delete"):  # [-old-]{+new+} side by side
                out.append(lead)
            if chunk.op == "delete":
                out.append(f"[-{body}-]", style=REMOVED_STYLE)
            else:
                out.append(f"{{+{body}+}}", style=ADDED_STYLE)
            out.append(trail)
        previous = chunk.op
    return out


def sides(chunks: list[Chunk]) -> tuple[Text, Text]:
    """Old and new each whole, with the words only one of them has highlighted."""
    out_old, out_new = Text(), Text()
    for chunk in chunks:
        if chunk.op == "equal":
            out_old.append(chunk.old)
            out_new.append(chunk.new)
        else:
            out, text, style = (out_old, chunk.old, REMOVED_STYLE) if chunk.op == "delete" else (out_new, chunk.new, ADDED_STYLE)
            lead, body, trail = _split(text)
            out.append(lead)
            out.append(body, style=style)
            out.append(trail)
    return out_old, out_new
