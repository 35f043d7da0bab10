"""Embedding backfill benchmark: entries/s with the shipped model, against the old path.

    HF_HUB_OFFLINE=1 .venv/bin/python -m benchmarks.backfill_bench [--entries 10000] [--baseline-entries 2000]

A synthetic store (engine/recall/bench.py's corpus, fixed seed) with no vectors is
backfilled by RecallService.embed_pending (length-sorted batches of BATCH, one per model
worker, persisted per batch). The baseline, in the same process on the same texts,
is the path it replaced: fixed batches of 32 in pending order, one at a time on all
cores, persisted per batch. The baseline runs on the first --baseline-entries only
(it is the slow one); both report entries/s, so they compare. Prints one JSON
document with medians and p95 of the batch times, entries per CPU-second, and the
run block of benchmarks/results_io.py (load average included: the entries/s of a loaded
machine say little about an idle one)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import results_io
from engine.config import Settings
from engine.recall import embedder as emb
from engine.recall.backfill import BATCH
from engine.recall.bench import build_store
from engine.recall.bench_phase import pct
from engine.recall.service import RecallService
from engine.recall.tokenize import entry_text
from engine.recall.vectors import write_vectors

TARGET_ENTRIES_PER_S = 300.0
OLD_BATCH = 32


def _timed(embedder, times: list[float]) -> None:
    """Record the wall time of every embed call (one batch each) on this embedder."""
    original = embedder.embed

    async def embed(*args, **kwargs):
        t = time.perf_counter()
        out = await original(*args, **kwargs)
        times.append((time.perf_counter() - t) * 1000)
        return out

    embedder.embed = embed


async def _baseline(svc: RecallService, store, ids: list[str], texts: list[str]) -> dict:
    """The replaced path: unsorted batches of OLD_BATCH on one worker with every core."""
    times: list[float] = []
    started, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(ids), OLD_BATCH):
        t = time.perf_counter()
        matrix = await svc.embedder.embed(texts[i : i + OLD_BATCH], batch_size=OLD_BATCH)
        times.append((time.perf_counter() - t) * 1000)
        await write_vectors(store, ids[i : i + OLD_BATCH], matrix, svc.embedder.model_id)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {
        "what": f"unsorted batches of {OLD_BATCH}, one at a time on {emb.BATCH_THREADS} torch threads",
        "entries": len(ids),
        "seconds": round(seconds, 2),
        "entries_per_s": round(len(ids) / seconds, 1),
        "entries_per_cpu_s": round(len(ids) / cpu, 1),
        "batch_ms": pct(times),
    }


async def run(entries: int, baseline_entries: int, seed: int = 0) -> dict:
    settings = Settings.defaults().override({"memory.rerankEnabled": False})
    with tempfile.TemporaryDirectory() as tmp:
        store, ids, corpus = await build_store(Path(tmp) / "backfill.db", entries, seed)
        try:
            async with store.transaction() as conn:
                await conn.execute("DELETE FROM vectors")
            svc = RecallService(store, settings, snapshot=False)
            await svc.open()
            t = time.perf_counter()
            await svc.embedder.ensure_loaded()
            load_s = time.perf_counter() - t
            await svc.embedder.embed(["warm up"])

            n = min(baseline_entries, entries)
            texts = [entry_text(k, c, tags) for k, c, tags in corpus[:n]]
            baseline = await _baseline(svc, store, ids[:n], texts)
            async with store.transaction() as conn:
                await conn.execute("DELETE FROM vectors")
            await svc.close(release_models=False)

            svc = RecallService(store, settings, snapshot=False)
            await svc.open()
            await svc.embedder.ensure_loaded()
            times: list[float] = []
            _timed(svc.embedder, times)
            started, cpu = time.perf_counter(), time.process_time()
            done = await svc.embed_pending(batch=BATCH)  # the batch the app's background backfill uses
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            stored = (await store.fetchone("SELECT count(*) FROM vectors"))[0]
            encoder = svc.embedder.bulk_message
            await svc.close()
        finally:
            await store.close()
    rate = done / seconds
    return {
        "entries": entries,
        "embedded": done,
        "stored": stored,
        "seconds": round(seconds, 2),
        "entries_per_s": round(rate, 1),
        # CPU time this process got: on a loaded machine, entries per CPU-second times
        # the cores is what an idle machine would approach (spin-waits count as CPU)
        "entries_per_cpu_s": round(done / cpu, 1),
        "batch_ms": pct(times),
        "batches": len(times),
        "batch_size": BATCH,
        "workers": emb.BACKFILL_WORKERS,
        "encoder": encoder,
        "model_load_s": round(load_s, 2),
        "mean_text_chars": round(sum(len(entry_text(k, c, tg)) for k, c, tg in corpus) / len(corpus), 1),
        "baseline": baseline,
        "speedup_vs_baseline": round(rate / baseline["entries_per_s"], 2),
        "target_entries_per_s": TARGET_ENTRIES_PER_S,
        "meets_target": rate >= TARGET_ENTRIES_PER_S,
    }


def run_subprocess(entries: int = 10_000, baseline_entries: int = 2_000) -> dict:
    """One fresh process (model threads and torch state of its own), as make bench runs it."""
    import subprocess

    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.backfill_bench",
            "--entries",
            str(entries),
            "--baseline-entries",
            str(baseline_entries),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    if proc.returncode != 0:
        raise SystemExit(f"backfill benchmark failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)["results"][str(entries)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--baseline-entries", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, help="also write the result file here (run block included)")
    args = ap.parse_args()
    document = results_io.measure(
        lambda: {str(args.entries): asyncio.run(run(args.entries, args.baseline_entries, args.seed))},
        results_io.command_line("benchmarks.backfill_bench", sys.argv[1:]),
    )
    if args.out:
        results_io.save(document, args.out)
    print(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
