"""Issue 14: the int8-shortlisted vector search finds what the exact float32 scan
finds, memory.vectorSearch = "exact" forces the full scan, and vectors added after
the codes were made (a reopened snapshot's mapped base) are found."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import ConfigError, Settings
from engine.recall import quantized
from engine.recall.quantized import Codes, best_rows, coarse_scores, quantize, query_codes
from engine.recall.snapshot import SnapshotWriter, read_snapshot
from engine.recall.vectors import QUANTIZED_MIN_ROWS, VectorIndex

from .helpers import insert, make_entry


def unit(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, np.float32)
    return m / np.linalg.norm(m, axis=-1, keepdims=True)


def clustered_store(seed: int, n: int, dim: int) -> np.ndarray:
    """Unit vectors in tight clusters (memories that say nearly the same thing), the
    hard case for a quantized shortlist: many rows within rounding of each other."""
    rng = np.random.default_rng(seed)
    centres = unit(rng.standard_normal((max(1, n // 50), dim)))
    spread = rng.uniform(0.02, 0.3, len(centres))
    which = rng.integers(0, len(centres), n)
    return unit(centres[which] + spread[which, None] * rng.standard_normal((n, dim)) / np.sqrt(dim))


def exact_top(m: np.ndarray, q: np.ndarray, k: int) -> list[int]:
    return np.lexsort((np.arange(len(m)), -(m @ q)))[:k].tolist()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), dim=st.sampled_from([32, 96, 384]), n=st.integers(QUANTIZED_MIN_ROWS, 6000))
def test_recall_at_10_against_the_exact_scan(seed, dim, n):
    m = clustered_store(seed, n, dim)
    rng = np.random.default_rng(seed + 1)
    index = VectorIndex(dim, "m")
    index.add_many([f"e{i}" for i in range(n)], m)
    found = total = 0
    for _ in range(20):
        q = unit(m[rng.integers(n)] + 0.3 * rng.standard_normal(dim) / np.sqrt(dim))
        hits = index.search(q, 10)
        want = exact_top(m, q, 10)
        found += len(set(hits.ids) & {f"e{i}" for i in want})
        total += 10
        # whatever was shortlisted carries its exact float32 cosine
        rows = [int(i[1:]) for i in hits.ids]
        np.testing.assert_allclose(hits.scores, m[rows] @ q, atol=1e-6)
    assert found / total >= 0.99


def near_ties(n: int = 2000, dim: int = 48):
    """n rows (and a query) whose cosines differ by ~1e-4: clear in float32, below
    int8 rounding (most rows share one set of codes): only the exact scan can tell
    which is best."""
    rng = np.random.default_rng(7)
    base = unit(rng.standard_normal(dim))
    m = unit(base + 1e-4 * rng.standard_normal((n, dim)))
    return m, unit(base + 0.5 * unit(rng.standard_normal(dim)))


def test_exact_search_finds_what_rounding_hides():
    m, q = near_ties()
    index = VectorIndex(m.shape[1], "m")
    index.add_many([f"e{i}" for i in range(len(m))], m)
    want = [f"e{i}" for i in exact_top(m, q, 5)]
    assert index.search(q, 5, exact=True).ids == want
    assert index.search(q, 5).ids != want  # the int8 shortlist is blind to 1e-5 differences


async def test_the_exact_setting_reaches_the_vector_stage(store, make_service, settings):
    m, q = near_ties(600, 64)
    entries = await insert(store, *[make_entry(f"k{i}", f"note number {i}") for i in range(len(m))])
    svc = await make_service()
    for e, row in zip(entries, m):
        svc.vectors.add(e.id, row)
    svc.backfill.reset([])
    svc.embedder._query_cache["closest"] = q
    want = [entries[i].id for i in exact_top(m, q, 5)]

    def vector_head(res):
        return [i for _, i in sorted((h.vector.rank, h.id) for h in res.results if h.vector.rank)][:5]

    exact = await svc.recall("closest", limit=50, overrides={"memory.vectorSearch": "exact"})
    assert exact.settings["memory.vectorSearch"] == "exact"
    assert vector_head(exact) == want
    quick = await svc.recall("closest", limit=50)
    assert quick.settings["memory.vectorSearch"] == "quantized"
    assert vector_head(quick) != want


def test_the_setting_is_validated():
    with pytest.raises(ConfigError, match=r"memory\.vectorSearch.*one of quantized, exact"):
        Settings.defaults().override({"memory.vectorSearch": "approximate"})


def test_vectors_added_after_the_codes_were_made_are_found(tmp_path):
    rng = np.random.default_rng(1)
    m = unit(rng.standard_normal((3000, 64)))
    codes = quantize(m)
    with SnapshotWriter(tmp_path / "v.snap") as w:
        w.add("f32", m)
        w.add("i8", codes.codes)
        w.add("i8_scale", codes.scale)
        w.finish({})
    snap = read_snapshot(tmp_path / "v.snap")
    index = VectorIndex(64, "m")
    index.set_base([f"e{i}" for i in range(3000)], snap["f32"], Codes(snap["i8"], snap["i8_scale"]), None)
    fresh = unit(rng.standard_normal((40, 64)))
    for j, row in enumerate(fresh):
        index.add(f"new{j}", row)
    index.add("e5", fresh[0])  # an edit: the old row is gone, the new one is found
    for j, row in enumerate(fresh):
        hits = index.search(row, 3)
        assert hits.ids[0] in ({f"new{j}", "e5"} if j == 0 else {f"new{j}"})
        assert hits.scores[0] == pytest.approx(1.0, abs=1e-6)
    assert "e5" not in index.search(m[5], 10).ids[:1]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), stripes=st.integers(2, 5), k=st.integers(1, 80))
def test_a_scan_split_into_stripes_shortlists_what_one_pass_does(seed, stripes, k):
    """The coarse scan runs in stripes on threads (quantized.best_rows), each keeping
    its own k best; together they keep the k best of one pass over the rows, dead and
    superseded rows left out, delta rows included."""
    rng = np.random.default_rng(seed)
    base, delta = clustered_store(seed, 3000, 32), clustered_store(seed + 1, 700, 32)
    excluded = rng.random(len(base) + len(delta)) < 0.2
    q8 = query_codes(unit(rng.standard_normal(32)))
    parts = [quantize(base), quantize(delta)]
    one = np.concatenate([coarse_scores(p, q8) for p in parts])
    one[excluded] = -np.inf
    want = np.sort(one)[::-1][:k]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(quantized, "STRIPE_MIN_ROWS", 500)
        mp.setattr(quantized, "SCAN_STRIPES", stripes)
        rows = best_rows(parts, q8, k, excluded)
    assert len(rows) == len(want)
    assert not excluded[rows].any()
    assert np.array_equal(np.sort(one[rows])[::-1], want)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    n=st.integers(1, 300),
    dim=st.sampled_from([1, 8, 384]),
    block=st.integers(1, 128),
    at=st.integers(0, 5),
)
def test_codes_are_the_rounded_rows_over_their_largest_component(seed, n, dim, block, at):
    """quantize works through one scratch block, in place; its codes are still exactly
    round(row * 127 / max|row|) with that scale (zero rows: scale 0), so codes stored
    in a snapshot by an older build still agree with the rows (quantized.agrees)."""
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((n, dim)).astype(np.float32) * rng.uniform(1e-3, 10, (n, 1)).astype(np.float32)
    m[rng.random(n) < 0.1] = 0.0
    scale = (np.abs(m).max(axis=1) / np.float32(127.0)).astype(np.float32)
    inv = np.divide(1.0, scale, out=np.zeros_like(scale), where=scale > 0)
    want = np.rint(m * inv[:, None]).astype(np.int8)
    got = quantize(m, block=block)
    assert np.array_equal(got.codes, want) and np.array_equal(got.scale, scale)
    dest = Codes(np.full((n + at, dim), 7, np.int8), np.full(n + at, 7.0, np.float32))
    quantize(m, block=block, into=dest, at=at)
    assert np.array_equal(dest.codes[at:], want) and (dest.codes[:at] == 7).all()
    assert np.array_equal(dest.scale[at:], scale)
