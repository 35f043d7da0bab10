"""Recall's view of text: the tokens BM25 indexes and searches, the query's
content words, and what a memory shows the index and the embedder. The tokenizer
and the stop words live in engine/words.py (shared with consolidation), so a
query token can only match what the index produced from the same rules.

`tokenize` keeps stop words (the query checks name them); what BM25 indexes
and searches is `index_tokens`, the same stream without them (why: engine/words.py)."""

from __future__ import annotations

from ..words import ENGLISH_STOP_WORDS, STOP_WORDS, normalize, tokenize

__all__ = [
    "ENGLISH_STOP_WORDS",
    "STOP_WORDS",
    "content_tokens",
    "entry_text",
    "index_tokens",
    "is_stop_word",
    "normalize",
    "tokenize",
]


def is_stop_word(token: str) -> bool:
    return token in STOP_WORDS


def content_tokens(tokens: list[str]) -> list[str]:
    """The tokens that are not stop words."""
    return [t for t in tokens if t not in STOP_WORDS]


def index_tokens(text: str) -> list[str]:
    """What BM25 indexes and searches for text: its tokens without stop words."""
    return content_tokens(tokenize(text))


def entry_text(key: str, content: str, tags: list[str]) -> str:
    """What the lexical index and the embedder see for a memory: key, content, tags."""
    parts = [key, content]
    if tags:
        parts.append(" ".join(tags))
    return "\n".join(p for p in parts if p)
