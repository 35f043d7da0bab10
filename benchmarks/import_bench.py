"""Gated bulk import (issue 14): `import` of a synthetic JSONL export through the
gate's bulk path (scanner, provenance guard, versioning and audit, batched), at
10k and 100k entries, against two baselines measured in the same process:

* one by one: the same gate with one entry per transaction (`batch=1`), timed on
  the first `sample` entries (a full 100k run that way takes minutes);
* executemany: the same rows inserted plainly, no gate: the disk-speed ceiling.

A diagnostic run with the scanner's verdict stubbed (clean, no work) shows what the
bulk path costs beside the scanner; it is not a configuration anyone can ship. The
scanner alone (refusals_many over the import's texts, CPU seconds) says what the
scanner costs per entry and how much of that is the learned layer.

Per-batch rates (from the import's own progress callback) give p50/p95. On a
loaded machine the wall-clock rates say more about the load than the code: each run
also reports this process's CPU seconds (all its threads; not the scanner's worker
processes, so a run that uses them reads too well there: compare wall clocks then).

    python -m benchmarks.import_bench [--sizes 10000 100000] [--sample 2000] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

import aiosqlite

from benchmarks import results_io
from benchmarks.engine_bench import synthetic_entries
from engine import MemoryEngine
from engine.facade.transfer import FIRST_BATCH
from engine.gate import entry_texts
from engine.importers.jsonl import read_jsonl_entries
from engine.memory import IMPORT_BATCH
from engine.scanner import refusals_many, scan_rules
from engine.store import ENTRY_COLUMNS, entry_to_row


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def gated_import(db: Path, src: Path, n: int) -> dict:
    eng = await MemoryEngine.open(db, actor="user")
    marks: list[tuple[int, float]] = []
    started, cpu = time.perf_counter(), time.process_time()
    report = await eng.import_jsonl(src, progress=lambda done, total: marks.append((done, time.perf_counter())))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    await eng.close()
    assert report.landed == n, report.refused[:3]
    spans = [t1 - t0 for (_, t0), (_, t1) in zip([(0, started)] + marks, marks)]
    return {
        "seconds": round(seconds, 2),
        "entries_per_s": round(n / seconds),
        "cpu_seconds": round(cpu, 2),
        "entries_per_cpu_s": round(n / cpu),
        "batches": len(marks),
        "batch_size": IMPORT_BATCH,
        "first_batch": min(FIRST_BATCH, IMPORT_BATCH),  # then doubling up to batch_size
        "batch_seconds": {"p50": round(statistics.median(spans), 3), "p95": round(_p(spans, 0.95), 3)},
    }


async def one_by_one(db: Path, src: Path, sample: int) -> dict:
    """The same entries, one gated transaction each (the import with batch=1)."""
    items = [({"line": n}, entry) for n, entry, _ in read_jsonl_entries(src)][:sample]
    eng = await MemoryEngine.open(db, actor="user")
    started, cpu = time.perf_counter(), time.process_time()
    report = await eng.import_entries(items, "import", verbatim=True, batch=1)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    await eng.close()
    assert report.landed == len(items), report.refused[:3]
    return {
        "entries": len(items),
        "seconds": round(seconds, 2),
        "entries_per_s": round(len(items) / seconds),
        "entries_per_cpu_s": round(len(items) / cpu),
    }


def scanner_alone(src: Path) -> dict:
    """The bulk path's scanner on the import's texts, in CPU seconds of this process:
    refusals_many (rules, then the learned layer batched) and the rules alone."""
    entries = [entry for _, entry, _ in read_jsonl_entries(src)]
    texts = [text for entry in entries for text in entry_texts(entry)]
    started = time.process_time()
    refusals_many(texts)
    full = time.process_time() - started
    started = time.process_time()
    for text in dict.fromkeys(texts):
        scan_rules(text)
    rules = time.process_time() - started
    return {
        "texts": len(texts),
        "distinct_texts": len(set(texts)),
        "cpu_seconds": round(full, 2),
        "entries_per_cpu_s": round(len(entries) / full),
        "rules_only_entries_per_cpu_s": round(len(entries) / rules),
        "learned_share_of_cpu": round(1 - rules / full, 3),
    }


async def executemany(db: Path, src: Path) -> dict:
    eng = await MemoryEngine.open(db)  # the schema
    await eng.close()
    rows = [entry_to_row(entry) for _, entry, _ in read_jsonl_entries(src)]
    conn = await aiosqlite.connect(db, isolation_level=None)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    started = time.perf_counter()
    await conn.execute("BEGIN")
    await conn.executemany(f"INSERT INTO entries({ENTRY_COLUMNS}) VALUES ({','.join('?' * 18)})", rows)
    await conn.execute("COMMIT")
    seconds = time.perf_counter() - started
    await conn.close()
    return {"seconds": round(seconds, 2), "entries_per_s": round(len(rows) / seconds)}


async def run_size(folder: Path, n: int, sample: int) -> dict:
    src = folder / f"in-{n}.jsonl"
    with open(src, "w") as fh:
        for entry in synthetic_entries(n, seed=3):
            fh.write(json.dumps(entry.to_dict()) + "\n")
    # The stub starts no scanner workers either: the gated run below starts them itself,
    # while it reads the file, as an import in a fresh process does.
    with (
        mock.patch("engine.gate.refusals_many", lambda texts, processes=1, ahead=None: {}),
        mock.patch("engine.facade.transfer.warm_scanner", lambda: None),
        mock.patch("engine.facade.transfer.scan_ahead", lambda: None),
    ):
        stubbed = await gated_import(folder / f"stubbed-{n}.db", src, n)
    out = {
        "entries": n,
        "scanner_alone": scanner_alone(src),
        "gated_bulk": await gated_import(folder / f"bulk-{n}.db", src, n),
        "diagnostic_scanner_stubbed": stubbed,
        "one_by_one": await one_by_one(folder / f"single-{n}.db", src, min(sample, n)),
        "executemany": await executemany(folder / f"raw-{n}.db", src),
    }
    bulk = out["gated_bulk"]["entries_per_s"]
    out["speedup_vs_one_by_one"] = round(bulk / out["one_by_one"]["entries_per_s"], 1)
    out["share_of_executemany"] = round(bulk / out["executemany"]["entries_per_s"], 3)
    out["scanner_share_of_time"] = round(1 - stubbed["seconds"] / out["gated_bulk"]["seconds"], 3)
    return out


async def run(sizes: tuple[int, ...] = (10_000, 100_000), sample: int = 2000) -> dict:
    with tempfile.TemporaryDirectory(prefix="echo-import-bench-") as tmp:
        return {str(n): await run_size(Path(tmp), n, sample) for n in sizes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    command = results_io.command_line("benchmarks.import_bench", sys.argv[1:])
    document = results_io.measure(lambda: asyncio.run(run(tuple(args.sizes), args.sample)), command)
    if args.out:
        results_io.save(document, args.out)
    print(json.dumps(document, indent=2))


if __name__ == "__main__":
    main()
