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
from dataclasses import dataclass
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

_MUL = np.uint64(0x100000001B3)
_MIX1 = np.uint64(0xFF51AFD7ED558CCD)
_MIX2 = np.uint64(0xC4CEB9FE1A85EC53)
_MASK = np.uint64((1 << DIM_BITS) - 1)
_WORD_RE = re.compile(r"[^\W\d_]+|\d+")
_WORD_SALT = np.uint64(0x5BD1E9955BD1E995)


def _avalanche(x: np.ndarray) -> np.ndarray:
    """MurmurHash3's finaliser: spreads every input bit over the low bits we keep."""
    x = x ^ (x >> np.uint64(33))
    x = x * _MIX1
    x = x ^ (x >> np.uint64(33))
    x = x * _MIX2
    return x ^ (x >> np.uint64(33))


def char_gram_hashes(text: str) -> list[tuple[int, np.ndarray]]:
    """(n, hash of the n-gram starting at each offset) for n in CHAR_NGRAMS, over " text "."""
    padded = f" {text} "
    cps = np.frombuffer(padded.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    out = []
    h = np.zeros(len(cps), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for n in range(1, CHAR_NGRAMS[1] + 1):
            if len(cps) < n:
                break
            h = h[: len(cps) - n + 1] * _MUL ^ cps[n - 1 :]
            if n >= CHAR_NGRAMS[0]:
                out.append((n, _avalanche(h + np.uint64(n)) & _MASK))
    return out


def word_gram_hashes(words: list[str]) -> list[np.ndarray]:
    """Hashes of the word unigrams and bigrams, in their own namespace."""
    if not words:
        return []
    with np.errstate(over="ignore"):
        w = np.fromiter((zlib.crc32(word.encode("utf-8")) for word in words), dtype=np.uint64, count=len(words))
        out = [_avalanche(w ^ _WORD_SALT) & _MASK]
        if len(w) > 1:
            out.append(_avalanche((w[:-1] * _MUL ^ w[1:]) ^ (_WORD_SALT * np.uint64(3))) & _MASK)
    return out


def feature_indices(text: str) -> np.ndarray:
    """Sorted unique hashed feature indices of ``text`` (already normalised).

    Character 1- to 5-grams over the text padded with spaces, plus word
    unigrams and bigrams; every feature is present or absent (binary), so a
    repeated phrase cannot outweigh the rest of the text.
    """
    parts = [h for _, h in char_gram_hashes(text)] + word_gram_hashes(_WORD_RE.findall(text))
    return np.unique(np.concatenate(parts).astype(np.int64))


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

    def score_window(self, text: str) -> tuple[float, np.ndarray]:
        idx = feature_indices(text)
        if len(idx) == 0:
            return float(self.bias), idx
        return float(self.bias + self.weights[idx].sum(dtype=np.float64) / np.sqrt(len(idx))), idx

    def score(self, text: str) -> tuple[float, np.ndarray]:
        """(logit score, feature indices of the highest-scoring window)."""
        return max((self.score_window(w) for w in windows(text)), key=lambda pair: pair[0])

    def score_many(self, texts: list[str]) -> np.ndarray:
        """Logit scores of many (already normalised) texts in one pass, for bulk imports:
        the same number :meth:`score` gives each, with one weight gather for the batch."""
        owners, lengths, parts = [], [], []
        for line, text in enumerate(texts):
            for window in windows(text):
                idx = feature_indices(window)
                owners.append(line)
                lengths.append(len(idx))
                parts.append(idx)
        out = np.full(len(texts), -np.inf)
        if not owners:
            return out
        lengths_arr = np.array(lengths)
        gathered = self.weights[np.concatenate(parts)].astype(np.float64)
        starts = np.concatenate(([0], np.cumsum(lengths_arr)[:-1]))
        sums = np.add.reduceat(np.append(gathered, 0.0), starts) if len(gathered) else np.zeros(len(owners))
        sums[lengths_arr == 0] = 0.0  # reduceat returns the next element for an empty slice
        window_scores = self.bias + sums / np.sqrt(np.maximum(lengths_arr, 1))
        np.maximum.at(out, np.array(owners), window_scores)
        return out

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
