"""The shipped scanner on the blind memory-shaped sets (benchmarks/data/scanner-blind/):
what share of attacks it refuses and of memories it wrongly refuses, per set, language
and kind. These sets were written by people who had not read the rules; see their README.

    python -m benchmarks.scanner_blind > blind.json
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a plain script
    sys.path.insert(0, str(REPO))

from engine.scanner import scan_memory_content  # noqa: E402

SETS = REPO / "benchmarks" / "data" / "scanner-blind"


def evaluate(path: Path) -> dict:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # refused, lines
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        refused = scan_memory_content(row["text"]).blocked
        for key in (row["label"], f"{row['label']}:{row['lang']}", f"{row['label']}:{row['kind']}"):
            counts[key][0] += refused
            counts[key][1] += 1
    return {key: {"refused": n, "lines": total, "rate": round(n / total, 4)} for key, (n, total) in sorted(counts.items())}


def main() -> int:
    files = sorted(SETS.glob("*.jsonl"))
    if not files:
        print(f"missing: no blind sets in {SETS}", file=sys.stderr)
        return 2
    print(json.dumps({f.stem: evaluate(f) for f in files}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
