"""Train the scanner's learned layer (training only: never imported at run time).

    python -m benchmarks.train_scanner [--data DIR] [--out DIR]

Reads ../shared/data/injection-train and ../shared/data/injection-dev, fits a
logistic regression on the hashed n-gram features of ``engine.scanner.learned``
and writes ``weights.npy`` + ``meta.json`` into engine/scanner/model/.

The threshold is chosen honestly: leave-one-source-out scores every benign line
with a model that never saw its source, and the threshold is the lowest one
that keeps every benign source at or below 1% false positives on those
out-of-source scores (a margin under the 2% ceiling for a source never seen). Deterministic: same data, same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a plain script
    sys.path.insert(0, str(REPO))

from engine.scanner import learned_text, scan_rules  # noqa: E402
from engine.scanner.learned import _WORD_RE as WORD_RE  # noqa: E402
from engine.scanner.learned import (  # noqa: E402
    DIM_BITS,
    META_FILE,
    MODEL_DIR,
    WEIGHTS_FILE,
    char_gram_hashes,
    feature_indices,
    windows,
    word_gram_hashes,
)

DATA = REPO.parent / "shared" / "data"
FILES = (
    "injection-train/attack.jsonl",
    "injection-train/benign.jsonl",
    "injection-dev/attack.jsonl",
    "injection-dev/benign.jsonl",
)
C = 0.05
"""Inverse regularisation; chosen by leave-one-source-out mean detection at the 1% FP threshold
(``benchmarks.scanner_candidates``: 0.05, 0.25 and 1 are within 0.2 points; 0.05 has the lowest worst FP)."""
FP_MEAN, FP_MAX = 0.01, 0.02
"""The targets: false positives on benign sources <= 1% on average and <= 2% on each."""
CHOOSE_MAX = 0.01
"""The per-source cap the threshold is *chosen* at, on the other benign sources: the 1%
the issue asks of unseen sources, not the 2% ceiling, because a source the threshold
never saw lands above the others (chosen at 2%, held-out NotInject reached 2.36%; at 1%
no held-out benign source passes 1.18%, for -0.16 points of mean detection, leave-one-
source-out: ``benchmarks.scanner_candidates``)."""


class MissingData(FileNotFoundError):
    """A data file the training or the evaluation needs is not there."""


def source_group(source: str) -> str:
    """The repository a line came from ("owner/name"), so every file of one
    origin is held out together; "crafted" lines form their own group."""
    head = re.split(r"[:\s]", source.strip(), maxsplit=1)[0]
    return head if "/" in head else "crafted"


def load_rows(data: Path = DATA) -> list[dict]:
    """Every labelled line of train + dev with its label, language, kind and source group."""
    rows = []
    for name in FILES:
        path = data / name
        if not path.is_file():
            raise MissingData(f"missing data file: {path} (the scanner is trained on ../shared/data)")
        label = "attack" if name.endswith("attack.jsonl") else "benign"
        split = name.split("/")[0]
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                row = json.loads(line)
                kind = row.get("kind") or ("benign" if label == "benign" else "unknown")
                rows.append(
                    {
                        "text": row["text"],
                        "label": label,
                        "lang": row.get("lang", "other"),
                        "kind": kind,
                        "group": source_group(row.get("source", "crafted")),
                        "split": split,
                    }
                )
    return rows


def rule_verdicts(rows: list[dict]) -> np.ndarray:
    """What the rules alone decide for each line (the learned layer only adds to them)."""
    return np.array([scan_rules(row["text"]).blocked for row in rows])


def data_hashes(data: Path = DATA) -> dict[str, str]:
    return {name: hashlib.sha256((data / name).read_bytes()).hexdigest() for name in FILES}


def trainable(row: dict) -> bool:
    """Invisible-character smuggling is the rules' job (zero tolerance); its words teach nothing."""
    return row["kind"] != "unicode"


def source_weights(rows: list[dict]) -> np.ndarray:
    """Per-line weights under which every source group weighs the same within its class and
    the two classes weigh the same: a big source (BIPIA, tldr) cannot dominate the fit."""
    keys = [(row["label"], row["group"]) for row in rows]
    count = Counter(keys)
    groups_per_class = Counter(label for label, _ in count)
    return np.array([1.0 / (count[k] * groups_per_class[k[0]]) for k in keys]) * len(rows) / 2


@dataclass(frozen=True)
class Features:
    """One row per scoring window (run time scores long texts by windows), and the line it came from."""

    x: csr_matrix
    owner: np.ndarray  # line index of each window row
    weight: np.ndarray  # its line's source weight / windows of its line, so a long line counts once


def matrix(rows: list[dict]) -> Features:
    """Binary hashed features, L2-normalised per window, exactly as the run-time scorer sees them."""
    indptr, indices, values, owner, weight = [0], [], [], [], []
    line_weight = source_weights(rows)
    for line, row in enumerate(rows):
        parts = windows(learned_text(row["text"]))
        for part in parts:
            idx = feature_indices(part)
            indices.append(idx)
            values.append(np.full(len(idx), 1.0 / np.sqrt(max(len(idx), 1))))
            indptr.append(indptr[-1] + len(idx))
            owner.append(line)
            weight.append(line_weight[line] / len(parts))
    x = csr_matrix((np.concatenate(values), np.concatenate(indices), np.array(indptr)), shape=(len(owner), 1 << DIM_BITS))
    return Features(x, np.array(owner), np.array(weight))


def fit(feats: Features, lines: np.ndarray, y: np.ndarray, c: float = C, class_weight: str | None = None) -> LogisticRegression:
    """Fit on the windows of the lines selected by the boolean mask ``lines`` (labels per line).
    The features' sample weights already balance sources and classes."""
    rows = lines[feats.owner]
    model = LogisticRegression(C=c, solver="liblinear", class_weight=class_weight, max_iter=200, random_state=0)
    return model.fit(feats.x[rows], y[feats.owner[rows]], sample_weight=feats.weight[rows])


def line_scores(model: LogisticRegression, feats: Features, lines: np.ndarray) -> np.ndarray:
    """Score of each selected line: its highest-scoring window, as at run time."""
    rows = np.flatnonzero(lines[feats.owner])
    window_scores = model.decision_function(feats.x[rows])
    out = np.full(len(lines), -np.inf)
    np.maximum.at(out, feats.owner[rows], window_scores)
    return out[lines]


def loso_scores(rows: list[dict], feats: Features, c: float = C, folds: list[set[str]] | None = None) -> np.ndarray:
    """Out-of-source scores: each line scored by a model trained without its source group.
    ``folds`` holds groups out together (default: one group per fold, leave-one-source-out)."""
    y = np.array([row["label"] == "attack" for row in rows])
    train_ok = np.array([trainable(row) for row in rows])
    group_of = np.array([row["group"] for row in rows])
    scores = np.full(len(rows), np.nan)
    for fold in folds or [{g} for g in sorted(set(group_of))]:
        held = np.isin(group_of, sorted(fold))
        model = fit(feats, ~held & train_ok, y, c)
        scores[held] = line_scores(model, feats, held)
    return scores


def threshold_for(
    benign: dict[str, tuple[np.ndarray, np.ndarray]], mean_target: float = FP_MEAN, max_target: float = CHOOSE_MAX
) -> float:
    """Lowest threshold at which the whole scanner (rules OR score >= threshold) keeps the
    given benign sources at or below ``mean_target`` false positives on average and
    ``max_target`` on each. ``benign`` maps a source to (scores, rule verdicts)."""
    candidates = np.unique(np.concatenate([scores for scores, _ in benign.values()]))

    def ok(t: float) -> bool:
        rates = [np.mean((scores >= t) | rules) for scores, rules in benign.values()]
        return np.mean(rates) <= mean_target and max(rates) <= max_target

    lo, hi = 0, len(candidates)  # candidates[hi] (or +inf) is always acceptable; find the lowest
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(candidates[mid]):
            hi = mid
        else:
            lo = mid + 1
    if lo == len(candidates):
        return float(np.nextafter(candidates[-1], np.inf))
    return float(candidates[lo])


def benign_by_source(
    rows: list[dict], scores: np.ndarray, rules: np.ndarray, exclude: frozenset[str] | set[str] = frozenset()
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Benign lines' (scores, rule verdicts) per source group, leaving out the groups in ``exclude``."""
    out = defaultdict(list)
    for i, row in enumerate(rows):
        if row["label"] == "benign" and row["group"] not in exclude:
            out[row["group"]].append(i)
    return {group: (scores[idx], rules[idx]) for group, idx in out.items()}


def ngram_names(rows: list[dict], weights: np.ndarray, top: int = 4000) -> dict[str, str]:
    """A readable name for the most attack-weighted hashed features: the shortest
    n-gram (3+ characters, or words) of the training attacks that hashes there,
    so a verdict can say which words weighed most."""
    wanted = np.zeros(len(weights), dtype=bool)
    wanted[np.argsort(-weights, kind="stable")[:top]] = True
    names: dict[int, str] = {}

    def offer(idx: int, name: str) -> None:
        if idx not in names or (len(name), name) < (len(names[idx]), names[idx]):
            names[idx] = name

    for row in rows:
        if row["label"] != "attack":
            continue
        text = learned_text(row["text"])
        padded = f" {text} "
        for n, hashes in char_gram_hashes(text):
            if n >= 3:
                for pos in np.flatnonzero(wanted[hashes.astype(np.int64)]):
                    offer(int(hashes[pos]), padded[pos : pos + n])
        words = WORD_RE.findall(text)
        for size, hashes in enumerate(word_gram_hashes(words), start=1):
            for pos in np.flatnonzero(wanted[hashes.astype(np.int64)]):
                offer(int(hashes[pos]), " ".join(words[pos : pos + size]))
    return {str(k): names[k] for k in sorted(names)}


def train(data: Path = DATA, out: Path = MODEL_DIR, c: float = C, threshold: float | None = None) -> dict:
    """Fit on all lines and write the artifact. The threshold comes from leave-one-source-out
    (most of the time taken) unless given, e.g. to check that a retrain reproduces the weights."""
    rows = load_rows(data)
    x = matrix(rows)
    if threshold is None:
        scores = loso_scores(rows, x, c)
        threshold = threshold_for(benign_by_source(rows, scores, rule_verdicts(rows)))
    keep = np.array([trainable(row) for row in rows])
    y = np.array([row["label"] == "attack" for row in rows])
    model = fit(x, keep, y, c)
    weights = model.coef_.ravel().astype(np.float32)
    out.mkdir(parents=True, exist_ok=True)
    weights_path = out / WEIGHTS_FILE
    np.save(weights_path, weights, allow_pickle=False)
    meta = {
        "model": "logistic regression (liblinear; every source group weighs the same within its class, the classes "
        "weigh the same) over hashed char 1-5-grams and word 1-2-grams",
        "dim_bits": DIM_BITS,
        "C": c,
        "bias": round(float(model.intercept_[0]), 6),
        "threshold": round(threshold, 6),
        "threshold_rule": f"lowest score at which rules + learned keep benign sources <= {FP_MEAN:.0%} false "
        f"positives on average and <= {CHOOSE_MAX:.0%} each, on leave-one-source-out scores",
        "trained_on": data_hashes(data),
        "lines": {"attack": int(y[keep].sum()), "benign": int((~y[keep]).sum())},
        "weights_sha256": hashlib.sha256(weights_path.read_bytes()).hexdigest(),
        "ngram_names": ngram_names([r for r, k in zip(rows, keep) if k], weights),
    }
    (out / META_FILE).write_text(json.dumps(meta, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    args = parser.parse_args(argv)
    try:
        meta = train(args.data, args.out)
    except MissingData as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps({k: meta[k] for k in ("bias", "threshold", "lines", "weights_sha256")}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
