"""Recall benchmark at 10k and 100k memories; prints one JSON document.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/recall_bench.py [--sizes 10000 100000] [--out bench-recall.json]

Each size runs in its own process so peak RSS is per size. Synthetic corpus with a
fixed seed, stored vectors random unit vectors under the real model's stamp, every
query embedded with the real model; rerank off (the targets are for recall
without rerank). See engine/recall/bench.py."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CODE = (
    "import asyncio, json, sys; from engine.recall.bench import run_bench; "
    "print(json.dumps(asyncio.run(run_bench(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))))"
)

TARGETS = {
    "recall_p50_ms": 25.0,
    "recall_p95_ms": 50.0,
    "lexical_speedup_vs_rank_bm25": 5.0,
    "vector_vs_numpy_scan": 1.5,
    "open_s": 2.0,
}


def run_size(entries: int, queries: int, seed: int) -> dict:
    env = dict(os.environ)
    env.setdefault("HF_HUB_OFFLINE", "1")
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    proc = subprocess.run(
        [sys.executable, "-c", CODE, str(entries), str(queries), str(seed)], capture_output=True, text=True, env=env
    )
    if proc.returncode != 0:
        raise SystemExit(f"benchmark at {entries} entries failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def verdict(result: dict) -> dict:
    vs = result["vs"]
    return {
        "recall_p50_ms": [result["recall_ms"]["p50"], TARGETS["recall_p50_ms"]],
        "recall_p95_ms": [result["recall_ms"]["p95"], TARGETS["recall_p95_ms"]],
        "lexical_speedup_vs_rank_bm25": [vs["lexical_speedup_vs_rank_bm25"], TARGETS["lexical_speedup_vs_rank_bm25"]],
        "vector_vs_numpy_scan": [vs["vector_vs_numpy_scan"], TARGETS["vector_vs_numpy_scan"]],
        "vector_stage_vs_isolated_numpy_scan": [vs["vector_stage_vs_isolated_numpy_scan"], TARGETS["vector_vs_numpy_scan"]],
        "open_s": [result["open_s"], TARGETS["open_s"]],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="also write the JSON here")
    args = ap.parse_args()
    results = {"recall": {}}
    for n in args.sizes:
        r = run_size(n, args.queries, args.seed)
        r["targets_100k"] = verdict(r)  # [measured, target]; the targets are stated for 100k entries
        results["recall"][str(n)] = r
    text = json.dumps(results, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
