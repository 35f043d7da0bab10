"""Cutting many texts into recall's tokens at once, for building the lexical index.

    terms, doc, tid = bulk_tokenize_ids(texts)

Equal to calling `words.tokenize` per text (tests check, property-based too), in
term-first-occurrence order. Why two paths: a first open of a million entries
cuts ~25M tokens, and making a Python string and a dict lookup per token was most
of it (~0.5 us each). For ASCII text (NFKC is the identity there and casefold is
lower()), the token boundaries are found on the bytes with numpy and each token is
identified by its bytes packed into 64-bit words, so only the distinct terms of a
chunk ever become strings. Any other text takes the regex path.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

import numpy as np

from ..words import CJK, normalize, tokenize

_SEP = "\ue000"  # private-use separator for the regex path; never a token character
_BULK_RE = re.compile(rf"{_SEP}|[{CJK}]+|[^\W_{CJK}]+")
_HAS_CJK = re.compile(rf"[{CJK}]")

_WORD_BYTE = np.zeros(256, bool)  # [^\W_] on ASCII, after lower(): a-z and 0-9
_WORD_BYTE[np.frombuffer(b"abcdefghijklmnopqrstuvwxyz0123456789", np.uint8)] = True
_MAX_PACKED = 64  # longer tokens (rare: hashes, blobs) are told apart as strings
_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: each hashing step is a bijection of the key
_MASK = np.array([(1 << 8 * n) - 1 for n in range(9)], np.uint64)  # the low n bytes of a word


def bulk_tokenize_ids(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(terms, doc index, term id) of every token occurrence of texts, in order."""
    if not texts:
        return [], np.zeros(0, np.int64), np.zeros(0, np.int64)
    joined = "\n".join(texts)  # a non-word character: no token spans two texts
    if joined.isascii():
        cut = _ascii_ids(joined.lower(), [len(t) for t in texts])
        if cut is not None:
            return cut
    return _regex_ids(texts)


def _ascii_ids(text: str, lengths: list[int]) -> Optional[tuple[list[str], np.ndarray, np.ndarray]]:
    """The byte path: token spans from a word-byte mask, ids from the packed bytes
    (None if two different tokens hashed alike, never seen: the regex path then)."""
    raw = np.frombuffer(text.encode("ascii"), np.uint8)
    word = np.zeros(len(raw) + 2, np.int8)
    word[1:-1] = _WORD_BYTE[raw]
    edges = np.flatnonzero(np.diff(word))  # alternately where a token starts and ends
    starts = edges[0::2]
    lens = edges[1::2] - starts
    text_end = np.cumsum(np.asarray(lengths, np.int64) + 1)  # each text's end (its separator)
    per_text = np.diff(np.searchsorted(starts, text_end), prepend=0)
    doc = np.repeat(np.arange(len(lengths)), per_text)
    group = np.empty(len(starts), np.int64)
    short = np.flatnonzero(lens <= _MAX_PACKED)
    grouped = _packed_groups(raw, starts[short], lens[short])
    if grouped is None:
        return None
    group[short], first = grouped
    firsts: list[int] = short[first].tolist()  # the token where each group first occurs
    long_at = np.flatnonzero(lens > _MAX_PACKED)
    if len(long_at):  # the few long tokens are told apart as strings, numbered after
        seen: dict[str, int] = {}
        for at, s, n in zip(long_at.tolist(), starts[long_at].tolist(), lens[long_at].tolist()):
            tok = text[s : s + n]
            if tok not in seen:
                seen[tok] = len(firsts)
                firsts.append(at)
            group[at] = seen[tok]
    # number the groups by first occurrence, as the regex path does
    order = np.argsort(np.asarray(firsts, np.int64))
    rank = np.empty(len(order), np.int64)
    rank[order] = np.arange(len(order))
    first_at = np.asarray(firsts, np.int64)[order]
    terms = [text[s : s + n] for s, n in zip(starts[first_at].tolist(), lens[first_at].tolist())]
    return terms, doc, rank[group]


def _packed_groups(raw: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """(group per token, index of each group's first token) for tokens of at most
    _MAX_PACKED bytes: the bytes packed eight to a little-endian 64-bit word, the
    words hashed into one key, the keys sorted into groups, and then every token
    compared word by word with its group's first member, so the grouping is exact."""
    pad = np.zeros(len(raw) + 8, np.uint8)
    pad[: len(raw)] = raw
    at_byte = np.ndarray((len(raw) + 1,), "<u8", pad.data, 0, (1,))  # the 8 bytes from each offset

    n_words = -(-int(lens.max(initial=1)) // 8)
    words = np.zeros((n_words, len(starts)), np.uint64)  # the k-th 8 bytes of each token, or 0
    key = np.zeros(len(starts), np.uint64)
    for k in range(n_words):
        at = np.flatnonzero(lens > 8 * k) if k else slice(None)
        words[k, at] = at_byte[starts[at] + 8 * k] & _MASK[np.minimum(lens[at] - 8 * k, 8)]
        h = (key[at] ^ words[k, at]) * _MIX
        key[at] = h ^ (h >> np.uint64(29))
    order, key = _sorted_by_key(key)
    new = np.empty(len(key), bool)
    new[:1] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    first = order[new]  # a group's members are in position order: its first token leads
    group = np.empty(len(key), np.int64)
    group[order] = np.cumsum(new) - 1
    rep = first[group]
    if not (np.array_equal(lens, lens[rep]) and all(np.array_equal(w, w[rep]) for w in words)):
        return None  # a hash collision: the caller takes the exact regex path
    return group, first


def _sorted_by_key(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positions sorted by key, then by position; the sorted keys' high bits). The
    position is packed into the key's low bits and the words sorted in place: numpy
    sorts integers with SIMD, its argsort does not (0.08 s against 0.01 s for the
    1.2M tokens of 50k memories). Dropping those low bits of the hash can only make
    more tokens share a group, which the caller's word-by-word check catches."""
    bits = np.uint64(max(1, (len(key) - 1).bit_length()))
    packed = key >> bits << bits
    packed |= np.arange(len(key), dtype=np.uint64)
    packed.sort()
    order = (packed & ((np.uint64(1) << bits) - np.uint64(1))).astype(np.int64)
    packed >>= bits
    return order, packed


def _regex_ids(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The general path: one regex pass over the normalised, joined texts."""
    n = len(texts)
    joined = _SEP.join(texts)
    if joined.count(_SEP) != n - 1:  # a text contains the separator itself: one by one
        vocab: dict[str, int] = {}
        docs, tids = [], []
        for i, t in enumerate(texts):
            for tok in tokenize(t):
                docs.append(i)
                tids.append(vocab.setdefault(tok, len(vocab)))
        return list(vocab), np.asarray(docs, np.int64), np.asarray(tids, np.int64)
    norm = normalize(joined)
    runs = _BULK_RE.findall(norm)
    if _HAS_CJK.search(norm):
        expanded: list[str] = []
        for run in runs:
            if len(run) > 1 and _HAS_CJK.match(run):
                expanded.extend(run[i : i + 2] for i in range(len(run) - 1))
            else:
                expanded.append(run)
        runs = expanded
    vocab = {t: i for i, t in enumerate(dict.fromkeys([_SEP, *runs]))}
    ids = np.fromiter(map(vocab.__getitem__, runs), dtype=np.int64, count=len(runs))
    is_sep = ids == 0
    doc = np.cumsum(is_sep)
    keep = ~is_sep
    return list(vocab)[1:], doc[keep], ids[keep] - 1
