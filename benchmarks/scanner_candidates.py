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
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import numpy as np
from sklearn.linear_model import LogisticRegression

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a plain script
    sys.path.insert(0, str(REPO))

from benchmarks.scanner_eval import TARGETS  # noqa: E402
from benchmarks.train_scanner import (  # noqa: E402
    DATA,
    Features,
    MissingData,
    benign_by_source,
    fit,
    line_scores,
    load_rows,
    matrix,
    rule_verdicts,
    source_weights,
    threshold_for,
    trainable,
)

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


def summarise(rows: list[dict], scores: np.ndarray, rules: np.ndarray) -> dict:
    """Detection and false positives of rules OR (score >= the fold's threshold), per source."""
    group = np.array([row["group"] for row in rows])
    attack = np.array([row["label"] == "attack" for row in rows])
    lang = np.array([row["lang"] for row in rows])
    flagged = np.zeros(len(rows), dtype=bool)
    learned = np.zeros(len(rows), dtype=bool)
    for name in sorted(set(group)):
        held = group == name
        t = threshold_for(benign_by_source(rows, scores, rules, exclude={name}))
        learned[held] = scores[held] >= t
        flagged[held] = rules[held] | learned[held]
    det = {n: round(float(flagged[attack & (group == n)].mean()), 4) for n in sorted(set(group[attack]))}
    alone = {n: round(float(learned[attack & (group == n)].mean()), 4) for n in sorted(set(group[attack]))}
    fp = {n: round(float(flagged[~attack & (group == n)].mean()), 4) for n in sorted(set(group[~attack]))}
    worst = min(det, key=det.get)
    return {
        "detection_mean": round(float(np.mean(list(det.values()))), 4),
        "detection_en": round(float(flagged[attack & (lang == "en")].mean()), 4),
        "detection_zh": round(float(flagged[attack & (lang == "zh")].mean()), 4),
        "detection_other": round(float(flagged[attack & (lang == "other")].mean()), 4),
        "worst_source": [str(worst), det[worst]],
        "fp_mean": round(float(np.mean(list(fp.values()))), 4),
        "fp_worst": [str(max(fp, key=fp.get)), max(fp.values())],
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
    y = np.array([row["label"] == "attack" for row in rows])
    sw = source_weights(rows)
    feats = matrix(rows)
    vecs = functools.cache(lambda: embeddings(rows))  # only when an embedding candidate runs
    candidates: dict[str, Callable[[], np.ndarray]] = {
        "ngram_shipped_C0.25_balanced": lambda: loso(rows, ngram_scorer(feats, y, 0.25, sw, False)),
        "ngram_source_balanced_C0.25": lambda: loso(rows, ngram_scorer(feats, y, 0.25, sw, True)),
        "ngram_source_balanced_C1": lambda: loso(rows, ngram_scorer(feats, y, 1.0, sw, True)),
        "ngram_source_balanced_C0.05": lambda: loso(rows, ngram_scorer(feats, y, 0.05, sw, True)),
        "minilm_head_C1_balanced": lambda: loso(rows, embedding_scorer(vecs(), y, 1.0, None)),
        "minilm_head_C1_source_balanced": lambda: loso(rows, embedding_scorer(vecs(), y, 1.0, sw)),
        "minilm_head_C10_source_balanced": lambda: loso(rows, embedding_scorer(vecs(), y, 10.0, sw)),
    }
    results, raw = {}, {}
    for name, run in candidates.items():
        if args.only and name not in args.only and not name.startswith("ensemble"):
            continue
        started = time.perf_counter()
        raw[name] = cached_loso(rows, name, run)
        results[name] = summarise(rows, raw[name], rules) | {"seconds": round(time.perf_counter() - started, 1)}
        print(name, {k: results[name][k] for k in ("detection_mean", "worst_source", "fp_mean", "fp_worst")}, file=sys.stderr)
    ngram = [n for n in raw if n.startswith("ngram")]
    emb = [n for n in raw if n.startswith("minilm")]
    if ngram and emb:
        best_n = max(ngram, key=lambda n: results[n]["detection_mean"])
        best_e = max(emb, key=lambda n: results[n]["detection_mean"])
        a, b = calibrated(raw[best_n]), calibrated(raw[best_e])
        for name, combo in (
            (f"ensemble_mean[{best_n}+{best_e}]", (a + b) / 2),
            (f"ensemble_max[{best_n}+{best_e}]", np.maximum(a, b)),
        ):
            results[name] = summarise(rows, combo, rules)
    out = {
        "protocol": "leave-one-source-out; threshold per fold on the other benign sources (rules OR learned "
        "<= 1% mean, <= 2% each); rules as shipped",
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


if __name__ == "__main__":
    raise SystemExit(main())
