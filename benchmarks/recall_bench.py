"""Recall benchmark at 10k and 100k memories; prints one JSON document.

    HF_HUB_OFFLINE=1 .venv/bin/python -m benchmarks.recall_bench [--sizes 10000 100000] [--out FILE]

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
from pathlib import Path

from benchmarks import results_io

CODE = (
    "import asyncio, json, sys; from engine.recall.bench import run_bench; "
    "print(json.dumps(asyncio.run(run_bench(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))))"
)

# The targets: lower is better except the lexical speedup (higher is better).
TARGETS_100K = {
    "recall_p50_ms": 25.0,
    "recall_p95_ms": 50.0,
    "lexical_speedup_vs_strongest": 5.0,
    "vector_vs_strongest": 1.5,
    "open_s": 2.0,
}
TARGETS_1M = {"recall_p50_ms": 50.0, "recall_p95_ms": 100.0, "open_s": 3.0, "first_open_s": 15.0, "peak_rss_mb": 3072.0}


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
    """[measured, target] for each target stated for this size (1M has its own)."""
    flat = {**result["vs"], **result, "recall_p50_ms": result["recall_ms"]["p50"], "recall_p95_ms": result["recall_ms"]["p95"]}
    targets = TARGETS_1M if result["entries"] >= 1_000_000 else TARGETS_100K
    return {name: [flat[name], target] for name, target in targets.items()}


def run_sizes(sizes: tuple[int, ...], queries: int = 50, seed: int = 0) -> dict:
    """One result per size, each with its [measured, target] pairs."""
    results = {}
    for n in sizes:
        r = run_size(n, queries, seed)
        r["targets"] = verdict(r)
        results[str(n)] = r
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, help="also write the result file here (run block included)")
    args = ap.parse_args()
    command = results_io.command_line("benchmarks.recall_bench", sys.argv[1:])
    document = results_io.measure(lambda: run_sizes(tuple(args.sizes), args.queries, args.seed), command)
    print(json.dumps(document, indent=2))
    if args.out:
        results_io.save(document, args.out)


if __name__ == "__main__":
    main()
