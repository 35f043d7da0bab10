"""Which learned layer transfers to attack sources it never saw? (an experiment, not shipped)

    python -m benchmarks.scanner_candidates [--data DIR] [--only NAME ...] > candidates.json

Every candidate is scored under the protocol of ``benchmarks.scanner_eval``:
leave-one-source-out over the source groups of injection-train + injection-dev,
the threshold chosen on the *other* benign sources (rules OR learned <= 1% false
positives on average, <= 2% each), the rules as they ship. Candidates: the
hashed n-gram logistic regression (as shipped, and with source-balanced sample
weights and other C), a logistic-regression head over the all-MiniLM-L6-v2
embedding (the vector the write path computes for recall anyway), and small
ensembles of the two. The embeddings of the training lines are cached under
``.eval-cache-scanner/`` (git-ignored), keyed by the texts' sha256.

Second round (issue 11 again): candidates that change *what* is scored rather
than the model. ``segments``: score the max over a text's sentences, lines and
clauses beside its windows, so a short instruction in a long benign carrier
is not diluted (training on benign segments, whose labels are clean, or on
every segment). ``dense``: the attack properties of ``scanner_features``
(imperative to the assistant, prior instructions, output dictation, secrecy,
...) as extra columns learned jointly with the n-grams, or alone. And
threshold policies: per length bin or per language (each chosen on the other
sources only), and a margin under the 2% per-source cap.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import re
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a plain script
    sys.path.insert(0, str(REPO))

from benchmarks.scanner_eval import TARGETS  # noqa: E402
from benchmarks.scanner_features import NAMES as DENSE_NAMES  # noqa: E402
from benchmarks.scanner_features import dense_features  # noqa: E402
from benchmarks.train_scanner import (  # noqa: E402
    CHOOSE_MAX,
    DATA,
    FP_MAX,
    FP_MEAN,
    C,
    Features,
    MissingData,
    fit,
    line_scores,
    load_rows,
    matrix,
    rule_verdicts,
    source_weights,
    threshold_for,
    trainable,
)
from engine.scanner import learned_text  # noqa: E402
from engine.scanner.learned import DIM_BITS, feature_indices, windows  # noqa: E402

CACHE = REPO / ".eval-cache-scanner"
EMBEDDING_MODEL = "all-MiniLM-L6-v2"

# A scorer fits on the lines of a boolean mask and returns scores for the lines of another.
Scorer = Callable[[np.ndarray, np.ndarray], np.ndarray]


def ngram_scorer(feats: Features, y: np.ndarray, c: float, sw: np.ndarray, by_source: bool) -> Scorer:
    """The n-gram model of ``train_scanner.fit``: with the source-balanced sample weights
    ``sw`` that ``matrix`` builds in, or (as first shipped) one weight per line and
    balanced classes."""
    if not by_source:
        feats = replace(feats, weight=feats.weight / sw[feats.owner])

    def score(train: np.ndarray, test: np.ndarray) -> np.ndarray:
        model = fit(feats, train, y, c, class_weight=None if by_source else "balanced")
        return line_scores(model, feats, test)

    return score


_SEGMENT_RE = re.compile(r"(?<=[.!?;:])\s+|(?<=[。！？；：])|\n+")
MIN_SEGMENT_CHARS = 12


def segments(text: str) -> list[str]:
    """The sentences, clauses and lines of ``text`` (Latin and CJK punctuation) of at least
    MIN_SEGMENT_CHARS; none when the text is a single segment (its windows cover it)."""
    parts = [part.strip() for part in _SEGMENT_RE.split(text)]
    parts = [part for part in parts if len(part) >= MIN_SEGMENT_CHARS]
    return parts if len(parts) > 1 else []


@dataclass(frozen=True)
class Units:
    """Scored units (a text's windows, optionally its segments) as rows, with their line."""

    x: csr_matrix
    owner: np.ndarray
    weight: np.ndarray  # 0 for a unit that is scored but not trained on
    segment: np.ndarray  # True for a segment row, False for a window row


def units(rows: list[dict], seg_train: str, seg_score: bool, dense_scale: float, ngrams: bool = True) -> Units:
    """Windows of every line (as shipped) plus, when asked, its segments, each with hashed
    n-grams (L2-normalised, as at run time) and/or the dense features times ``dense_scale``.
    ``seg_train``: "none", "benign" (benign segments are clean negatives) or "all"."""
    sw = source_weights(rows)
    dim = 1 << DIM_BITS
    indptr, ind, val, owner, weight, is_seg = [0], [], [], [], [], []
    for line, row in enumerate(rows):
        text = learned_text(row["text"])
        wins = windows(text)
        segs = segments(text) if seg_score or seg_train != "none" else []
        train_segs = seg_train == "all" or (seg_train == "benign" and row["label"] == "benign")
        for unit, seg in [(w, False) for w in wins] + [(s, True) for s in segs]:
            idx = feature_indices(unit) if ngrams else np.zeros(0, dtype=np.int64)
            values = np.full(len(idx), 1 / np.sqrt(max(len(idx), 1)))
            if dense_scale:
                dense = np.array(dense_features(unit)) * dense_scale
                on = np.flatnonzero(dense)
                idx, values = np.concatenate([idx, dim + on]), np.concatenate([values, dense[on]])
            ind.append(idx)
            val.append(values)
            indptr.append(indptr[-1] + len(idx))
            owner.append(line)
            is_seg.append(seg)
            weight.append((sw[line] / len(segs) if train_segs else 0.0) if seg else sw[line] / len(wins))
    x = csr_matrix((np.concatenate(val), np.concatenate(ind), np.array(indptr)), shape=(len(owner), dim + len(DENSE_NAMES)))
    return Units(x, np.array(owner), np.array(weight), np.array(is_seg))


def unit_scorer(u: Units, y: np.ndarray, c: float, seg_score: bool) -> Scorer:
    """Fit on the trained units of the training lines; a line scores its highest unit."""

    def score(train: np.ndarray, test: np.ndarray) -> np.ndarray:
        fit_rows = train[u.owner] & (u.weight > 0)
        model = LogisticRegression(C=c, solver="liblinear", max_iter=200, random_state=0)
        model.fit(u.x[fit_rows], y[u.owner[fit_rows]], sample_weight=u.weight[fit_rows])
        rows = np.flatnonzero(test[u.owner] & (seg_score | ~u.segment))
        out = np.full(len(test), -np.inf)
        np.maximum.at(out, u.owner[rows], model.decision_function(u.x[rows]))
        return out[test]

    return score


def embeddings(rows: list[dict]) -> np.ndarray:
    """Unit MiniLM vectors of every line's raw text (what the gate would embed), cached on disk."""
    texts = [row["text"] for row in rows]
    key = hashlib.sha256("\x00".join(texts).encode("utf-8")).hexdigest()[:16]
    path = CACHE / f"minilm-{key}.npy"
    if path.is_file():
        return np.load(path)
    from engine.recall.embedder import Embedder

    embedder = Embedder(EMBEDDING_MODEL)
    embedder.start_loading().result()
    order = np.argsort([len(t) for t in texts], kind="stable")  # similar lengths batch together
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for start in range(0, len(order), 64):
        chunk = order[start : start + 64]
        out[chunk] = embedder.encode_sync([texts[i] for i in chunk], batch_size=64)
        print(f"embedded {start + len(chunk)}/{len(texts)}", file=sys.stderr, flush=True)
    CACHE.mkdir(exist_ok=True)
    np.save(path, out)
    return out


def embedding_scorer(vecs: np.ndarray, y: np.ndarray, c: float, line_weight: np.ndarray | None) -> Scorer:
    def score(train: np.ndarray, test: np.ndarray) -> np.ndarray:
        model = LogisticRegression(C=c, class_weight=None if line_weight is not None else "balanced", max_iter=2000)
        model.fit(vecs[train], y[train], sample_weight=None if line_weight is None else line_weight[train])
        return model.decision_function(vecs[test])

    return score


def cached_loso(rows: list[dict], name: str, run: Callable[[], np.ndarray]) -> np.ndarray:
    """A candidate's out-of-source scores, kept on disk so ensembles and reruns do not refit."""
    key = hashlib.sha256("\x00".join(row["text"] for row in rows).encode("utf-8")).hexdigest()[:16]
    path = CACHE / f"loso-{name}-{key}.npy"
    if path.is_file():
        return np.load(path)
    scores = run()
    CACHE.mkdir(exist_ok=True)
    np.save(path, scores)
    return scores


def loso(rows: list[dict], scorer: Scorer) -> np.ndarray:
    """Each line's score from a model trained without its source group."""
    group = np.array([row["group"] for row in rows])
    ok = np.array([trainable(row) for row in rows])
    scores = np.full(len(rows), np.nan)
    for name in sorted(set(group)):
        held = group == name
        scores[held] = scorer(~held & ok, held)
    return scores


def bins_of(rows: list[dict], policy: str) -> np.ndarray:
    """Which threshold bin each line uses: one for all, or by length, or by language."""
    if policy == "length":
        return np.digitize([len(row["text"]) for row in rows], [60, 200, 600])
    if policy == "language":
        return np.array([row["lang"] == "zh" for row in rows], dtype=int)
    return np.zeros(len(rows), dtype=int)


def fold_flags(rows: list[dict], scores: np.ndarray, rules: np.ndarray, policy: str, max_target: float) -> np.ndarray:
    """Learned verdicts (score >= threshold) with each source's threshold(s) chosen on the
    other benign sources; per bin when ``policy`` bins lines (bins a source fills with
    fewer than 20 lines do not constrain that bin)."""
    group = np.array([row["group"] for row in rows])
    benign = np.array([row["label"] == "benign" for row in rows])
    bins = bins_of(rows, policy)
    learned = np.zeros(len(rows), dtype=bool)
    for name in sorted(set(group)):
        for b in sorted(set(bins)):
            others = {}
            for other in sorted(set(group[benign]) - {name}):
                mask = benign & (group == other) & (bins == b)
                if mask.sum() >= (20 if policy != "one" else 1):
                    others[other] = (scores[mask], rules[mask])
            threshold = threshold_for(others, FP_MEAN, max_target) if others else np.inf
            held = (group == name) & (bins == b)
            learned[held] = scores[held] >= threshold
    return learned


def summarise(
    rows: list[dict], scores: np.ndarray, rules: np.ndarray, policy: str = "one", max_target: float = CHOOSE_MAX
) -> dict:
    """Detection and false positives of rules OR (score >= the fold's threshold), per source,
    and the pooled out-of-source ROC AUC (how well the scores rank, whatever the threshold)."""
    group = np.array([row["group"] for row in rows])
    attack = np.array([row["label"] == "attack" for row in rows])
    lang = np.array([row["lang"] for row in rows])
    learned = fold_flags(rows, scores, rules, policy, max_target)
    flagged = rules | learned
    det = {n: round(float(flagged[attack & (group == n)].mean()), 4) for n in sorted(set(group[attack]))}
    alone = {n: round(float(learned[attack & (group == n)].mean()), 4) for n in sorted(set(group[attack]))}
    fp = {n: round(float(flagged[~attack & (group == n)].mean()), 4) for n in sorted(set(group[~attack]))}
    worst = min(det, key=det.get)
    finite = np.isfinite(scores)
    return {
        "detection_mean": round(float(np.mean(list(det.values()))), 4),
        "detection_en": round(float(flagged[attack & (lang == "en")].mean()), 4),
        "detection_zh": round(float(flagged[attack & (lang == "zh")].mean()), 4),
        "detection_other": round(float(flagged[attack & (lang == "other")].mean()), 4),
        "worst_source": [str(worst), det[worst]],
        "fp_mean": round(float(np.mean(list(fp.values()))), 4),
        "fp_worst": [str(max(fp, key=fp.get)), max(fp.values())],
        "pooled_oos_auc": round(float(roc_auc_score(attack[finite], scores[finite])), 3),
        "detection": det,
        "learned_alone": alone,
        "fp": fp,
    }


def calibrated(scores: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-scores))


def ngram_throughput(texts: list[str]) -> int:
    """Lines per CPU-second of the shipped n-gram scorer alone (features + dot product)."""
    from engine.scanner import learned_text
    from engine.scanner.learned import load_model

    model, _ = load_model()
    assert model is not None
    started = time.process_time()
    for text in texts:
        model.score(learned_text(text))
    return round(len(texts) / (time.process_time() - started))


def embedding_cost(texts: list[str]) -> dict:
    """CPU milliseconds per line of the MiniLM embedding on one thread, alone and in batches of 32."""
    import torch

    from engine.recall.embedder import Embedder

    torch.set_num_threads(1)
    embedder = Embedder(EMBEDDING_MODEL)
    embedder.start_loading().result()
    embedder.encode_sync(["warm up"])
    out = {}
    for batch in (1, 32):
        started = time.process_time()
        for i in range(0, len(texts), batch):
            embedder.encode_sync(texts[i : i + batch], batch_size=batch)
        out[f"ms_per_line_batch_{batch}"] = round(1000 * (time.process_time() - started) / len(texts), 2)
    return out


def candidate_runs(rows: list[dict], rules: np.ndarray) -> dict[str, Callable[[], np.ndarray]]:
    """Every candidate's out-of-source scoring, by name (run lazily: features are built
    only for the candidates asked for)."""
    y = np.array([row["label"] == "attack" for row in rows])
    sw = source_weights(rows)
    feats = functools.cache(lambda: matrix(rows))
    vecs = functools.cache(lambda: embeddings(rows))  # only when an embedding candidate runs

    def unit_run(seg_train: str, seg_score: bool, dense: float, ngrams: bool = True, c: float = C) -> Callable[[], np.ndarray]:
        return lambda: loso(rows, unit_scorer(units(rows, seg_train, seg_score, dense, ngrams), y, c, seg_score))

    return {
        "ngram_shipped_C0.25_balanced": lambda: loso(rows, ngram_scorer(feats(), y, 0.25, sw, False)),
        "ngram_source_balanced_C0.25": lambda: loso(rows, ngram_scorer(feats(), y, 0.25, sw, True)),
        "ngram_source_balanced_C1": lambda: loso(rows, ngram_scorer(feats(), y, 1.0, sw, True)),
        "ngram_source_balanced_C0.05": lambda: loso(rows, ngram_scorer(feats(), y, C, sw, True)),
        "minilm_head_C1_balanced": lambda: loso(rows, embedding_scorer(vecs(), y, 1.0, None)),
        "minilm_head_C1_source_balanced": lambda: loso(rows, embedding_scorer(vecs(), y, 1.0, sw)),
        "minilm_head_C10_source_balanced": lambda: loso(rows, embedding_scorer(vecs(), y, 10.0, sw)),
        "segments_max_benign_segments_trained": unit_run("benign", True, 0.0),
        "segments_max_all_segments_trained": unit_run("all", True, 0.0),
        "segments_max_all_segments_trained_dense1": unit_run("all", True, 1.0),
        "ngram_plus_dense0.5": unit_run("none", False, 0.5),
        "ngram_plus_dense1": unit_run("none", False, 1.0),
        "ngram_plus_dense3": unit_run("none", False, 3.0),
        "dense_only_C1": unit_run("none", False, 1.0, ngrams=False, c=1.0),
    }


THRESHOLD_POLICIES = {
    "threshold cap 2% per source (as first shipped)": ("one", FP_MAX),
    "threshold per length bin (<60, <200, <600, longer chars)": ("length", CHOOSE_MAX),
    "threshold per language (zh / not zh)": ("language", CHOOSE_MAX),
}
"""Threshold rules tried on the scores of a candidate (the candidates themselves use the
shipped rule: rules OR learned <= 1% mean and <= CHOOSE_MAX each on the other sources)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--only", nargs="*", help="run only these candidates")
    parser.add_argument("--no-throughput", action="store_true")
    args = parser.parse_args(argv)
    try:
        rows = load_rows(args.data)
    except MissingData as exc:
        print(exc, file=sys.stderr)
        return 2
    rules = rule_verdicts(rows)
    results, raw = {}, {}
    for name, run in candidate_runs(rows, rules).items():
        if args.only and name not in args.only:
            continue
        started = time.perf_counter()
        raw[name] = cached_loso(rows, name, run)
        results[name] = summarise(rows, raw[name], rules) | {"seconds": round(time.perf_counter() - started, 1)}
        print(name, {k: results[name][k] for k in ("detection_mean", "worst_source", "fp_mean", "fp_worst")}, file=sys.stderr)
    for name in ("ngram_source_balanced_C0.05", "ngram_plus_dense1"):
        for label, (policy, cap) in THRESHOLD_POLICIES.items() if name in raw else ():
            results[f"{name} | {label}"] = summarise(rows, raw[name], rules, policy, cap)
    results.update(ensembles(rows, raw, results, rules))
    out = {
        "protocol": "leave-one-source-out; threshold per fold on the other benign sources (rules OR learned "
        f"<= {FP_MEAN:.0%} mean, <= {CHOOSE_MAX:.0%} each unless the name says otherwise); rules as shipped",
        "targets": TARGETS,
        "candidates": results,
    }
    if not args.no_throughput:
        texts = [row["text"] for row in rows][::10]
        out["throughput"] = {
            "ngram_lines_per_cpu_s": ngram_throughput(texts),
            "minilm": embedding_cost(texts[:120]),
        }
    print(json.dumps(out, indent=1, ensure_ascii=False))
    return 0


def ensembles(rows: list[dict], raw: dict[str, np.ndarray], results: dict, rules: np.ndarray) -> dict:
    """Mean and max of the calibrated scores of the best n-gram and the best embedding head."""
    ngram = [n for n in raw if n.startswith("ngram_s")]
    emb = [n for n in raw if n.startswith("minilm")]
    if not (ngram and emb):
        return {}
    best_n = max(ngram, key=lambda n: results[n]["detection_mean"])
    best_e = max(emb, key=lambda n: results[n]["detection_mean"])
    a, b = calibrated(raw[best_n]), calibrated(raw[best_e])
    return {
        f"ensemble_mean[{best_n}+{best_e}]": summarise(rows, (a + b) / 2, rules),
        f"ensemble_max[{best_n}+{best_e}]": summarise(rows, np.maximum(a, b), rules),
    }


if __name__ == "__main__":
    raise SystemExit(main())
