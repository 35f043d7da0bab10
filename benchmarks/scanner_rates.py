"""Detection and false-positive rates of the write-path scanner on injection-dev.

    python -m benchmarks.scanner_rates [--data DIR] [--misses] [--false-positives]

Prints the detection rate per attack kind (en, zh, unicode), the false-positive
rate on the benign set, and the throughput in lines per second.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a plain script
    sys.path.insert(0, str(REPO))

from engine.scanner import scan_memory_content  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "injection-dev"


def load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def rates(attacks: list[dict], benign: list[dict]) -> dict:
    """Per-kind detection, false positives, and the rows behind them."""
    total, hits, misses = Counter(), Counter(), []
    for row in attacks:
        total[row["kind"]] += 1
        if scan_memory_content(row["text"]).blocked:
            hits[row["kind"]] += 1
        else:
            misses.append(row)
    false_positives = []
    for row in benign:
        result = scan_memory_content(row["text"])
        if result.blocked:
            false_positives.append((row, result))
    return {
        "detection": {kind: hits[kind] / total[kind] for kind in sorted(total)},
        "counts": {kind: (hits[kind], total[kind]) for kind in sorted(total)},
        "fp_rate": len(false_positives) / len(benign) if benign else 0.0,
        "fp_count": (len(false_positives), len(benign)),
        "misses": misses,
        "false_positives": false_positives,
    }


def throughput(texts: list[str], rounds: int = 5) -> float:
    """Lines per second over the given texts, best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            scan_memory_content(text)
        best = min(best, time.perf_counter() - start)
    return len(texts) / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--misses", action="store_true", help="list attacks that pass")
    parser.add_argument("--false-positives", action="store_true", help="list benign lines blocked")
    args = parser.parse_args(argv)

    attack_path, benign_path = args.data / "attack.jsonl", args.data / "benign.jsonl"
    for path in (attack_path, benign_path):
        if not path.is_file():
            print(f"missing data file: {path}", file=sys.stderr)
            return 2
    attacks, benign = load(attack_path), load(benign_path)
    result = rates(attacks, benign)
    for kind, rate in result["detection"].items():
        hit, total = result["counts"][kind]
        print(f"detection {kind:8s} {rate:6.1%}  ({hit}/{total})")
    fp, total = result["fp_count"]
    print(f"false positives  {result['fp_rate']:6.1%}  ({fp}/{total})")
    texts = [row["text"] for row in attacks + benign]
    print(f"throughput       {throughput(texts):,.0f} lines/s over {len(texts)} lines")
    if args.misses:
        print("\n# attacks that pass")
        for row in result["misses"]:
            print(f"[{row['kind']}] {row['text'][:160]!r}")
    if args.false_positives:
        print("\n# benign lines blocked")
        for row, verdict in result["false_positives"]:
            print(f"[{verdict.reason}/{verdict.pattern}] {verdict.matched!r} <- {row['text'][:160]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
