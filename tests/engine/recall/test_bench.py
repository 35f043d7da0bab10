"""The recall benchmark's output shape (a tiny run; speeds are not asserted here)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.recall.bench import run_bench, synthetic_corpus


def test_synthetic_corpus_is_seeded():
    assert synthetic_corpus(50, seed=1) == synthetic_corpus(50, seed=1)
    assert synthetic_corpus(50, seed=1) != synthetic_corpus(50, seed=2)


BALLAST_MB = 1_500  # more than a process that loads the model and opens 300 entries holds


@pytest.mark.slow
async def test_run_bench_shape_and_whose_memory_it_reports(real_embedding_model, tmp_path):
    """The peak RSS is a user's process's: what the benchmark itself holds (its corpus,
    here a ballast) is counted only in the figure with the baselines."""
    ballast = np.ones(BALLAST_MB * 2**20, np.uint8)  # written: resident
    out = await run_bench(300, queries=4, seed=0, workdir=str(tmp_path), baseline_queries=2)
    assert out["peak_rss_mb"] < BALLAST_MB <= out["peak_rss_mb_with_baselines"]
    assert {"first_open.open", "open.open", "open.recall"} <= set(out["rss_phases_mb"])
    del ballast
    assert out["entries"] == 300 and out["modes"] == ["hybrid"]
    assert set(out["recall_ms"]) == {"p50", "p95"}
    assert {"embed", "bm25", "vector", "fusion", "gate", "rerank", "decay", "total"} <= set(out["stages_ms"])
    assert {"rank_bm25_get_scores_ms", "lexical_ms", "numpy_scan_ms", "vector_ms"} <= set(out["vs"])
    assert out["open"]["vectors"] == 300 and out["open"]["pending"] == 0
    assert out["open_s"] > 0 and out["peak_rss_mb"] > 0
