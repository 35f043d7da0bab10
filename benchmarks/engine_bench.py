"""Write-path benchmark: single gated write p50/p95 against a baseline run in the
same process: the same rows inserted by plain aiosqlite with no gate. The bulk
import has its own benchmark (benchmarks/import_bench.py)."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import aiosqlite

from engine import MemoryEngine
from engine.models import MemoryEntry
from engine.store import ENTRY_COLUMNS, entry_to_row

WORDS = (
    "atlas orbit ledger python postgres redis vite rust cargo deploy branch release token queue "
    "export schema timezone editor shell test fixture config port endpoint cache index"
).split()


def percentiles(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    return {
        "p50": round(statistics.median(ordered), 3),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
    }


def synthetic_entries(n: int, seed: int = 0) -> list[MemoryEntry]:
    rng = random.Random(seed)
    return [
        MemoryEntry(
            key=f"bench/{i}",
            content=" ".join(rng.choices(WORDS, k=rng.randint(8, 24))),
            tags=rng.sample(WORDS, 2),
            importance=round(rng.random(), 3),
        )
        for i in range(n)
    ]


async def bench_single_writes(folder: Path, n: int) -> dict:
    entries = synthetic_entries(n, seed=1)
    engine = await MemoryEngine.open(folder / "single.db")
    gated = []
    cpu = time.process_time()  # every thread's CPU (the database's too): steadier than wall time on a loaded machine
    for e in entries:
        t = time.perf_counter()
        await engine.add(e.key, e.content, tags=e.tags, importance=e.importance)
        gated.append((time.perf_counter() - t) * 1000)
    cpu_ms = (time.process_time() - cpu) * 1000 / n
    await engine.close()
    # Baseline: the same rows, one autocommitted INSERT each, no scanner/guard/audit.
    engine = await MemoryEngine.open(folder / "baseline.db")
    await engine.close()
    conn = await aiosqlite.connect(folder / "baseline.db", isolation_level=None)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    raw = []
    for e in synthetic_entries(n, seed=1):
        t = time.perf_counter()
        await conn.execute(f"INSERT INTO entries({ENTRY_COLUMNS}) VALUES ({','.join('?' * 18)})", entry_to_row(e))
        raw.append((time.perf_counter() - t) * 1000)
    await conn.close()
    g, b = percentiles(gated), percentiles(raw)
    return {
        "writes": n,
        "gated_ms": g,
        "gated_cpu_ms_per_write": round(cpu_ms, 3),
        "raw_insert_ms": b,
        "ratio_p50": round(g["p50"] / b["p50"], 2),
    }


async def run(writes: int = 1000) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        return {"single_write": await bench_single_writes(Path(tmp), writes)}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(run()), indent=2))
