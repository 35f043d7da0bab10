"""The learned layer: a linear model over hashed character and word n-grams.

Rules name what they detect but miss phrasings nobody wrote a rule for; this
layer scores the whole text by the n-grams that attack and benign text differ
in, so it generalises to unseen wording in any script. Features are hashed
(no vocabulary to ship), so the artifact is a weight vector plus a bias and a
threshold, loaded with numpy alone. ``benchmarks/train_scanner.py`` trains it
with the same :func:`feature_indices`, so training and run time cannot drift.

A missing or corrupt artifact never stops the scanner: the rules still run and
:func:`learned_status` says loudly that this layer is off.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Optional

import numpy as np

from .status import META_FILE, MODEL_DIR, WEIGHTS_FILE, LearnedStatus

DIM_BITS = 18
"""2**18 hashed features: few collisions for ~10k training lines, 1 MiB of float32."""
CHAR_NGRAMS = (1, 5)
MAX_FEATURE_CHARS = 1024
"""Longer texts are scored in half-overlapping windows of this size (the highest
window wins), so an attack pasted into a long document is not diluted by the
document around it. Most training lines are shorter (median ~150 characters)."""
_BATCH_CHARS = 1 << 13
"""score_many hashes windows in batches of about this many characters: enough to
spread numpy's per-call cost thin, few enough that the arrays stay in cache
(measured: 8K characters ~1.6x the lines per CPU-second of 64K)."""

_MUL = np.uint64(0x100000001B3)
_MIX1 = np.uint64(0xFF51AFD7ED558CCD)
_MIX2 = np.uint64(0xC4CEB9FE1A85EC53)
_MASK = np.uint64((1 << DIM_BITS) - 1)
_WORD_RE = re.compile(r"[^\W\d_]+|\d+")
_WORD_SALT = np.uint64(0x5BD1E9955BD1E995)
_BIGRAM_SALT = np.uint64((0x5BD1E9955BD1E995 * 3) % (1 << 64))


def _avalanche(x: np.ndarray) -> np.ndarray:
    """MurmurHash3's finaliser: spreads every input bit over the low bits we keep."""
    x = x ^ (x >> np.uint64(33))
    x = x * _MIX1
    x = x ^ (x >> np.uint64(33))
    x = x * _MIX2
    return x ^ (x >> np.uint64(33))


def _finish(seeds: np.ndarray) -> np.ndarray:
    """Hashed feature indices of n-gram seeds (rolling hash and namespace mixed in)."""
    return _avalanche(seeds) & _MASK


def _char_gram_seeds(cps: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """(n, seed of the n-gram starting at each offset of ``cps``) for n in CHAR_NGRAMS."""
    h = np.zeros(len(cps), dtype=np.uint64)
    for n in range(1, CHAR_NGRAMS[1] + 1):
        if len(cps) < n:
            break
        h = h[: len(cps) - n + 1] * _MUL ^ cps[n - 1 :]
        if n >= CHAR_NGRAMS[0]:
            yield n, h + np.uint64(n)


def _word_seeds(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Seeds of the word unigrams and of the bigrams (one fewer), from the words' CRCs."""
    return w ^ _WORD_SALT, (w[:-1] * _MUL ^ w[1:]) ^ _BIGRAM_SALT


def _code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)


def _word_crcs(words: Iterable[str]) -> np.ndarray:
    return np.fromiter(map(zlib.crc32, map(str.encode, words)), dtype=np.uint64)


def _sorted_unique(keys: np.ndarray) -> np.ndarray:
    """``np.unique`` by sorting in place: its hash table is several times slower on these keys."""
    keys.sort()
    first = np.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return keys[first]


def char_gram_hashes(text: str) -> list[tuple[int, np.ndarray]]:
    """(n, hash of the n-gram starting at each offset) for n in CHAR_NGRAMS, over " text "."""
    return [(n, _finish(seeds)) for n, seeds in _char_gram_seeds(_code_points(f" {text} "))]


def word_gram_hashes(words: list[str]) -> list[np.ndarray]:
    """Hashes of the word unigrams and bigrams, in their own namespace."""
    return [_finish(seeds) for seeds in _word_seeds(_word_crcs(words)) if len(seeds)]


def feature_indices(text: str) -> np.ndarray:
    """Sorted unique hashed feature indices of ``text`` (already normalised).

    Character 1- to 5-grams over the text padded with spaces, plus word
    unigrams and bigrams; every feature is present or absent (binary), so a
    repeated phrase cannot outweigh the rest of the text.
    """
    seeds = [s for _, s in _char_gram_seeds(_code_points(f" {text} "))]
    seeds.extend(_word_seeds(_word_crcs(_WORD_RE.findall(text))))
    return _sorted_unique(_finish(np.concatenate(seeds))).astype(np.int64)


def window_features(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The :func:`feature_indices` of each text, concatenated, and how many each has.

    Hashing text by text costs ~ten small numpy calls each (call overhead, not
    arithmetic), so a batch is hashed at once: the padded texts' code points end
    to end, each n-gram kept only where it lies inside one text; the words
    likewise; one finaliser over all of them; then one sort of
    ``(text << DIM_BITS) | index`` makes the features unique per text, in order. Those
    keys are 32-bit when there are at most 2**14 texts (a score_many batch, a long
    text's windows): numpy sorts them about twice as fast as 64-bit ones.
    """
    if len(texts) == 1:  # one text (most single writes): fewer calls without the offsets
        idx = feature_indices(texts[0])
        return idx, np.array([len(idx)])
    padded = [f" {text} " for text in texts]
    lengths = np.fromiter(map(len, padded), dtype=np.int64, count=len(padded))
    cps = _code_points("".join(padded))
    key: type[np.unsignedinteger] = np.uint32 if len(texts) <= 1 << (32 - DIM_BITS) else np.uint64
    text_tags = np.arange(len(texts), dtype=key) << key(DIM_BITS)
    char_tags = np.repeat(text_tags, lengths)
    room = np.repeat(np.cumsum(lengths), lengths) - np.arange(len(cps))  # code points left in its text
    seeds, tags = [], []
    for n, s in _char_gram_seeds(cps):
        inside = room[: len(s)] >= n
        seeds.append(s[inside])
        tags.append(char_tags[: len(s)][inside])
    words = [_WORD_RE.findall(text) for text in texts]
    word_tags = np.repeat(text_tags, np.fromiter(map(len, words), dtype=np.int64, count=len(words)))
    unigrams, bigrams = _word_seeds(_word_crcs(chain.from_iterable(words)))
    same_text = word_tags[:-1] == word_tags[1:]
    seeds += [unigrams, bigrams[same_text]]
    tags += [word_tags, word_tags[:-1][same_text]]
    unique = _sorted_unique(np.concatenate(tags) | _finish(np.concatenate(seeds)).astype(key))
    counts = np.bincount(unique >> key(DIM_BITS), minlength=len(texts))
    return (unique & key(_MASK)).astype(np.int64), counts


def windows(text: str) -> list[str]:
    """The text, or overlapping windows of it when it is longer than MAX_FEATURE_CHARS."""
    if len(text) <= MAX_FEATURE_CHARS:
        return [text]
    step = MAX_FEATURE_CHARS // 2
    return [text[i : i + MAX_FEATURE_CHARS] for i in range(0, len(text) - step, step)]


@dataclass(frozen=True)
class LearnedModel:
    """Weights, bias and decision threshold of a trained layer, plus its metadata."""

    weights: np.ndarray
    bias: float
    threshold: float
    meta: dict
    names: dict  # hashed index -> an n-gram that maps there (for explanations)

    def score(self, text: str) -> tuple[float, np.ndarray]:
        """(logit score, feature indices of the highest-scoring window)."""
        idx, counts = window_features(windows(text))
        scores = self._window_scores(idx, counts)
        best = int(np.argmax(scores))
        start = int(counts[:best].sum())
        return float(scores[best]), idx[start : start + counts[best]]

    def score_many(self, texts: list[str]) -> np.ndarray:
        """Logit scores of many (already normalised) texts in one pass, for bulk imports:
        the same number :meth:`score` gives each, hashed and weighed batch by batch."""
        owners, batch, batch_chars, scores = [], [], 0, []
        for line, text in enumerate(texts):
            for window in windows(text):
                owners.append(line)
                batch.append(window)
                batch_chars += len(window)
                if batch_chars >= _BATCH_CHARS:
                    scores.append(self._window_scores(*window_features(batch)))
                    batch, batch_chars = [], 0
        if batch:
            scores.append(self._window_scores(*window_features(batch)))
        out = np.full(len(texts), -np.inf)
        if owners:
            np.maximum.at(out, np.array(owners), np.concatenate(scores))
        return out

    def _window_scores(self, idx: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Bias plus each window's weights summed in float64 over the root of its feature
        count (never zero: the padding spaces alone are n-grams)."""
        sums = np.add.reduceat(self.weights[idx].astype(np.float64), np.cumsum(counts) - counts)
        return self.bias + sums / np.sqrt(counts)

    def top_ngrams(self, idx: np.ndarray, k: int = 5) -> list[str]:
        """The k features of a verdict that pushed hardest towards "attack", by name."""
        if len(idx) == 0:
            return []
        contrib = self.weights[idx]
        order = np.argsort(-contrib, kind="stable")[:k]
        return [self.names.get(int(idx[i]), f"#{int(idx[i])}") for i in order if contrib[i] > 0]


def load_model(folder: Path = MODEL_DIR) -> tuple[Optional[LearnedModel], LearnedStatus]:
    """Load the artifact, checking its shape and its recorded hash; never raises."""
    weights_path, meta_path = folder / WEIGHTS_FILE, folder / META_FILE
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        raw = weights_path.read_bytes()
        if hashlib.sha256(raw).hexdigest() != meta["weights_sha256"]:
            raise ValueError(f"{WEIGHTS_FILE} does not match the sha256 recorded in {META_FILE}")
        weights = np.load(weights_path, allow_pickle=False)
        if weights.shape != (1 << meta["dim_bits"],) or meta["dim_bits"] != DIM_BITS:
            raise ValueError(f"weights have shape {weights.shape}, expected ({1 << DIM_BITS},)")
        if not np.all(np.isfinite(weights)):
            raise ValueError("weights contain NaN or infinity")
        bias, threshold = float(meta["bias"]), float(meta["threshold"])
        names = {int(k): v for k, v in meta.get("ngram_names", {}).items()}
    except FileNotFoundError as exc:
        return None, LearnedStatus(
            False,
            f"learned scanner layer OFF: artifact missing ({exc.filename}); "
            "only the rules run. Rebuild it with `make train-scanner`.",
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, LearnedStatus(
            False,
            f"learned scanner layer OFF: artifact in {folder} is corrupt ({exc}); "
            "only the rules run. Rebuild it with `make train-scanner`.",
        )
    model = LearnedModel(weights.astype(np.float32), bias, threshold, meta, names)
    return model, LearnedStatus(True, f"learned scanner layer on (threshold {threshold:.3f})", threshold, meta.get("trained_on"))
