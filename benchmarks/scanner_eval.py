"""Leave-one-source-out evaluation of the whole write scanner (rules + learned layer).

    python -m benchmarks.scanner_eval [--data DIR] [--in-sample] [--extra-sources DIR] > scanner-eval.json

For every source group in injection-train + injection-dev (both classes), the
learned layer is retrained without that source and the threshold is chosen on
the out-of-source scores of the *other* benign sources (rules + learned: <= 1%
false positives on each, a margin under the 2% ceiling); the held-out source is then scored
with that model and that threshold, and the rules run as they ship. So every
number below is on a source the learned layer never saw and the threshold was
not chosen on. Prints JSON: detection per attack source, language and kind,
false positives per benign source, the means, and each fold's threshold.
``--in-sample`` adds the shipped artifact's in-sample rates, labelled as such.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a plain script
    sys.path.insert(0, str(REPO))

from benchmarks.train_scanner import (  # noqa: E402
    CHOOSE_MAX,
    DATA,
    FP_MAX,
    FP_MEAN,
    C,
    MissingData,
    benign_by_source,
    load_rows,
    loso_scores,
    matrix,
    rule_verdicts,
    threshold_for,
)

TARGETS = {
    "detection_mean": 0.90,
    "detection_min": 0.70,
    "detection_en": 0.85,
    "detection_zh": 0.85,
    "fp_mean": FP_MEAN,
    "fp_max": FP_MAX,
}


def _rate(flags: np.ndarray) -> float:
    return round(float(np.mean(flags)), 4) if len(flags) else None


def evaluate(rows: list[dict], c: float = C, folds: list[set[str]] | None = None) -> dict:
    """Out-of-source verdicts of rules + learned layer, summarised. ``folds`` groups sources
    held out together (default: each source alone, leave-one-source-out)."""
    started = time.perf_counter()
    x = matrix(rows)
    group = np.array([row["group"] for row in rows])
    folds = folds or [{name} for name in sorted(set(group))]
    scores = loso_scores(rows, x, c, folds)
    rules = rule_verdicts(rows)
    attack = np.array([row["label"] == "attack" for row in rows])
    flagged = np.zeros(len(rows), dtype=bool)
    learned = np.zeros(len(rows), dtype=bool)
    thresholds = {}
    for fold in folds:
        held = np.isin(group, sorted(fold))
        threshold = round(threshold_for(benign_by_source(rows, scores, rules, exclude=fold)), 4)
        thresholds.update({name: threshold for name in fold})
        learned[held] = scores[held] >= threshold
        flagged[held] = rules[held] | learned[held]

    def summary(mask: np.ndarray) -> dict:
        return {
            "lines": int(mask.sum()),
            "rate": _rate(flagged[mask]),
            "rules_alone": _rate(rules[mask]),
            "learned_alone": _rate(learned[mask]),
        }

    attack_sources = {name: summary(attack & (group == name)) for name in sorted(set(group[attack]))}
    benign_sources = {name: summary(~attack & (group == name)) for name in sorted(set(group[~attack]))}
    by_lang, by_kind = defaultdict(list), defaultdict(list)
    for i, row in enumerate(rows):
        if row["label"] == "attack":
            by_lang[row["lang"]].append(i)
            by_kind[row["kind"]].append(i)
    detection = [s["rate"] for s in attack_sources.values()]
    fps = [s["rate"] for s in benign_sources.values()]
    lang = {k: summary(np.isin(np.arange(len(rows)), v)) for k, v in sorted(by_lang.items())}
    means = {
        "detection_mean": round(float(np.mean(detection)), 4),
        "detection_min": min(detection),
        "detection_en": lang.get("en", {}).get("rate"),
        "detection_zh": lang.get("zh", {}).get("rate"),
        "fp_mean": round(float(np.mean(fps)), 4),
        "fp_max": max(fps),
    }
    met = {k: (means[k] >= v if k.startswith("detection") else means[k] <= v) for k, v in TARGETS.items()}
    return {
        "method": "leave-one-source-out over injection-train + injection-dev source groups (owner/repo); "
        "rules + learned layer (n-gram logistic regression, source-balanced sample weights, "
        f"C={c}) retrained without the held-out source; threshold chosen on the other "
        f"benign sources (<= {FP_MEAN:.0%} mean and <= {CHOOSE_MAX:.0%} each: a margin under the {FP_MAX:.0%} ceiling)",
        "means": means,
        "targets": TARGETS,
        "targets_met": met,
        "attack_sources": attack_sources,
        "benign_sources": benign_sources,
        "by_language": lang,
        "by_kind": {k: summary(np.isin(np.arange(len(rows)), v)) for k, v in sorted(by_kind.items())},
        "fold_thresholds": thresholds,
        "seconds": round(time.perf_counter() - started, 1),
    }


def extra_rows(folder: Path) -> list[dict]:
    """Each file's labelled lines as one more source group ("extra/<file>"), held out in its
    own fold like any other: does training on text like it help the rest, or it?"""
    rows = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows.append(
                    {"text": row["text"], "label": row["label"], "lang": row["lang"], "kind": row["kind"]}
                    | {"group": f"extra/{path.stem}", "split": "extra"}
                )
    return rows


def in_sample(rows: list[dict]) -> dict:
    """The shipped scanner on its own training data: optimistic, labelled as such."""
    from engine.scanner import scan_memory_content

    hits = defaultdict(list)
    for row in rows:
        hits[(row["label"], row["group"])].append(scan_memory_content(row["text"]).blocked)
    return {"IN_SAMPLE_NOT_A_RESULT": {f"{label}:{name}": _rate(np.array(v)) for (label, name), v in sorted(hits.items())}}


def throughput(texts: list[str]) -> int:
    """Lines per CPU-second of the shipped scanner (rules + learned layer) in one thread:
    CPU time, not wall time, so a busy machine does not count against it."""
    from engine.scanner import scan_memory_content

    scan_memory_content("warm up: load the artifact")
    started = time.process_time()
    for text in texts:
        scan_memory_content(text)
    return round(len(texts) / (time.process_time() - started))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--in-sample", action="store_true", help="add the shipped model's in-sample rates")
    parser.add_argument(
        "--extra-sources",
        type=Path,
        help="a folder of labelled JSONL files (e.g. benchmarks/data/scanner-blind) added as more sources, one per file",
    )
    args = parser.parse_args(argv)
    try:
        rows = load_rows(args.data)
    except MissingData as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.extra_sources:
        rows += extra_rows(args.extra_sources)
    out = evaluate(rows)
    out["throughput_lines_per_s"] = throughput([row["text"] for row in rows])
    if args.in_sample:
        out.update(in_sample(rows))
    print(json.dumps(out, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
