"""The recall benchmark's baselines (issue 14): bm25s beside rank_bm25 and a float16
numpy scan beside the float32 one, in the same run, and every stage also judged
against its strongest baseline (a tiny run; no speed is asserted)."""

from __future__ import annotations

import pytest

from engine.recall.bench import run_bench


@pytest.mark.slow
async def test_each_stage_is_judged_against_its_fastest_baseline(real_embedding_model, tmp_path):
    vs = (await run_bench(300, queries=4, seed=0, workdir=str(tmp_path), baseline_queries=2))["vs"]
    lexical = {"rank_bm25": vs["rank_bm25_get_scores_ms"]["p50"], "bm25s": vs["bm25s_query_ms"]["p50"]}
    assert vs["bm25s_build_s"] > 0 and vs["rank_bm25_build_s"] > 0
    assert vs["lexical_strongest_baseline"] == min(lexical, key=lexical.get)
    # against the strongest, our speedup is the least flattering one reported
    assert vs["lexical_speedup_vs_strongest"] == min(vs["lexical_speedup_vs_rank_bm25"], vs["lexical_speedup_vs_bm25s"])
    vector = {
        "numpy_f32": vs["numpy_scan_ms"]["p50"],
        "numpy_f32_isolated": vs["numpy_scan_isolated_ms"]["p50"],
        "numpy_f16": vs["numpy_f16_scan_ms"]["p50"],
    }
    assert vs["vector_strongest_baseline"] == min(vector, key=vector.get)
    assert vs["vector_vs_strongest"] >= max(vs["vector_vs_numpy_scan"], vs["vector_vs_numpy_f16_scan"])
