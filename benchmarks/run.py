"""`make bench`: the engine's benchmarks (medians, p95, and each one's ratio against a
baseline measured in the same run), each written to benchmarks/results/NAME.json with
the git revision, date, machine and load average (benchmarks/results_io.py).

    python -m benchmarks.run                        # all of them, at 10k and 100k
    python -m benchmarks.run recall import          # some of them
    python -m benchmarks.run recall --sizes 1000000 --tag 1m   # make bench-1m: recall-1m.json

The sizes apply to the recall and import benchmarks; the write path runs 1,000 single
writes, MCP a 10k store, the embedding backfill 10k entries (a 100k backfill takes
minutes even on an idle machine)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any, Callable

from benchmarks import backfill_bench, engine_bench, import_bench, mcp_bench, recall_bench, results_io

SIZES = (10_000, 100_000)
BENCHMARKS: dict[str, Callable[[tuple[int, ...]], dict[str, Any]]] = {
    "write-path": lambda sizes: asyncio.run(engine_bench.run()),
    "import": lambda sizes: asyncio.run(import_bench.run(sizes)),
    "recall": lambda sizes: recall_bench.run_sizes(sizes),
    "mcp": lambda sizes: asyncio.run(mcp_bench.run()),
    "backfill": lambda sizes: {"10000": backfill_bench.run_subprocess(10_000)},
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help="any of: " + ", ".join(BENCHMARKS) + " (default: all)")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--tag", help="appended to each file name (NAME-TAG.json), e.g. 1m")
    args = ap.parse_args(argv)
    unknown = sorted(set(args.names) - set(BENCHMARKS))
    if unknown:
        ap.error(f"unknown benchmark {', '.join(unknown)} (choose from {', '.join(BENCHMARKS)})")
    tag = ["--tag", args.tag] if args.tag else []
    for name in args.names or BENCHMARKS:
        command = results_io.command_line("benchmarks.run", [name, "--sizes", *map(str, args.sizes), *tag])
        document = results_io.measure(lambda: BENCHMARKS[name](tuple(args.sizes)), command)
        path = results_io.save(document, results_io.result_path(f"{name}-{args.tag}" if args.tag else name))
        run = document["run"]
        print(f"{name}: {path} (load {run['load_before'][0]} -> {run['load_after'][0]})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
