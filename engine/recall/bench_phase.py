"""The recall benchmark's opens and recalls, each phase in a fresh process.

    python -m engine.recall.bench_phase first_open DB
    python -m engine.recall.bench_phase open DB < queries.json

A user's process opens a store someone else wrote. It holds neither the benchmark's
synthetic corpus (~0.7 GB resident at 1M) nor, when it opens from the snapshot, the
heap a first open freed. So the first open (the model loaded, the store opened,
closed: the snapshot is finished) and the open from the snapshot (then the recalls)
each run in their own process, and the peak RSS each reports is that process's
alone. Prints one JSON object (see run_bench in bench.py).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..config import Settings
from ..store import Store
from .embedder import Embedder
from .service import RecallService

MODEL_NAME = "all-MiniLM-L6-v2"
WARMUPS = 3  # recalls before the measured ones (the first pays for lazy set-up)


def pct(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"p50": None, "p95": None}
    arr = np.asarray(values)
    return {"p50": round(float(np.percentile(arr, 50)), 3), "p95": round(float(np.percentile(arr, 95)), 3)}


def rss_phase(out: dict[str, Any], label: str) -> None:
    """RSS checkpoints: the resident size now and the peak since the previous checkpoint
    (Linux: VmHWM, reset after reading through /proc/self/clear_refs), so the peak of
    each phase (loading the model, opening, recalling) is told apart."""
    try:
        status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
        now, peak = (round(int(status[k].split()[0]) / 1024, 1) for k in ("VmRSS", "VmHWM"))
        Path("/proc/self/clear_refs").write_text("5")
    except (OSError, KeyError, ValueError):
        return
    out.setdefault("rss_phases_mb", {})[label] = {"now": now, "peak": peak}


def settings() -> Settings:
    """Rerank off: the targets are for recall without it."""
    return Settings.defaults().override({"memory.rerankEnabled": False})


async def open_service(store: Store) -> tuple[RecallService, dict[str, Any]]:
    """The model loaded (not part of open), then the service opened: its report."""
    out: dict[str, Any] = {}
    embedder = Embedder(MODEL_NAME)
    t = time.perf_counter()
    await embedder.ensure_loaded()
    out["model_load_s"] = round(time.perf_counter() - t, 3)
    rss_phase(out, "model_load")
    svc = RecallService(store, settings(), embedder_factory=lambda name: Embedder(name))
    t = time.perf_counter()
    report = await svc.open()
    out["seconds"] = round(time.perf_counter() - t, 3)
    out["report"] = report.to_dict()
    rss_phase(out, "open")
    return svc, out


async def measure_recalls(svc: RecallService, queries: list[str]) -> dict[str, Any]:
    """Whole recalls on distinct queries after the warm-ups; totals and per-stage times."""
    warmup, measured = queries[:WARMUPS], queries[WARMUPS:]
    assert not set(warmup) & set(measured), "warm-up queries must not be measured (query-vector cache)"
    for q in warmup:
        await svc.recall(q)
    totals: list[float] = []
    stages: dict[str, list[float]] = {}
    modes = set()
    for q in measured:
        t = time.perf_counter()
        res = await svc.recall(q)
        totals.append((time.perf_counter() - t) * 1000)
        modes.add(res.mode)
        for name, ms in res.timings_ms.items():
            stages.setdefault(name, []).append(ms)
    return {"recall_ms": pct(totals), "stages_ms": {k: pct(v) for k, v in stages.items()}, "modes": sorted(modes)}


async def first_open(db: Path) -> dict[str, Any]:
    """Open the store without its snapshot (removed first: a cache, which the close
    writes again), then close it."""
    for old in db.parent.glob(db.name + ".recall.snap*"):
        old.unlink()
    store = await Store.open(db)
    try:
        svc, out = await open_service(store)
        await svc.close()  # finishes the snapshot begun in the background, if not yet
        out["snapshot_background_s"] = svc.indexes.snapshot_write_s
        rss_phase(out, "close")
    finally:
        await store.close()
    return out


async def open_and_recall(db: Path, queries: list[str]) -> dict[str, Any]:
    """Open from the snapshot, let its background check finish, then time the recalls."""
    store = await Store.open(db)
    try:
        svc, out = await open_service(store)
        await svc.settle()  # the snapshot's vectors are checked in the background: not during the recalls
        out["snapshot_verify_s"] = svc.indexes.snapshot_verify_s
        out.update(await measure_recalls(svc, queries))
        rss_phase(out, "recall")
        await svc.close()
    finally:
        await store.close()
    return out


async def run_phase(phase: str, db: Path, queries: list[str]) -> dict[str, Any]:
    """The phase in a child process (the caller's memory is not counted): its result."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        __name__,
        phase,
        str(db),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await proc.communicate(json.dumps(queries).encode())
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark phase {phase} failed:\n{stderr.decode(errors='replace')[-3000:]}")
    return json.loads(stdout.decode().strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    phase, db = argv[0], Path(argv[1])
    if phase == "first_open":
        out = asyncio.run(first_open(db))
    elif phase == "open":
        out = asyncio.run(open_and_recall(db, json.loads(sys.stdin.read())))
    else:
        raise SystemExit(f"unknown phase {phase!r} (first_open or open)")
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
