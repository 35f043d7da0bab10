"""`make bench` (with benchmarks/tui_bench.py): the engine's benchmarks in one JSON document (medians, p95, and each
one's ratio against a baseline measured in the same process)."""

from __future__ import annotations

import asyncio
import json
import os
import platform
import sys
import time

from benchmarks import backfill_bench, engine_bench, import_bench, mcp_bench, recall_bench


def main() -> int:
    started = time.time()
    report = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "write_path": asyncio.run(engine_bench.run()),
        "import": asyncio.run(import_bench.run((10_000, 100_000))),
        "recall": {str(n): recall_bench.run_size(n, 50, 0) for n in (10_000, 100_000)},
        "mcp_stdio": asyncio.run(mcp_bench.run()),
        "backfill": {"10000": backfill_bench.run_subprocess(10_000)},
    }
    report["seconds"] = round(time.time() - started, 1)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
