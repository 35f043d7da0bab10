"""Issue 14 (first open at a million): the lexical index a large store rebuilds with
worker processes (slices of the table cut into tokens elsewhere, added here in rowid
order) is the index the serial build makes: same entries, same vocabulary, same
arrays, same BM25 scores for any query, same text hashes."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.recall import rebuild
from engine.recall.rebuild import rebuild_lexical
from engine.store import Store
from tests.engine.recall.helpers import insert, make_entry

WORD = st.sampled_from(["amber", "Basalt", "cobalt", "the", "ÉCRAN", "向量检索", "a_b", "x1", "garnet", "no", "c++"])
TEXT = st.lists(WORD, min_size=0, max_size=12).map(" ".join)


def _same(a, b) -> None:
    x, y = a.to_arrays(), b.to_arrays()
    assert x.keys() == y.keys()
    for name in x:
        assert np.array_equal(np.asarray(x[name]), np.asarray(y[name])), name


async def _build_both(tmp_path, texts: list[str], tag: str):
    store = await Store.open(tmp_path / f"p{tag}.db")
    try:
        await insert(store, *[make_entry(f"k{i}", t or "empty") for i, t in enumerate(texts)])
        parallel = await rebuild_lexical(store, workers=2, parallel_min=0)
        serial = await rebuild_lexical(store, workers=1)
    finally:
        await store.close()
    return parallel, serial


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(TEXT, min_size=1, max_size=40), queries=st.lists(st.lists(WORD, min_size=1, max_size=4), max_size=5))
def test_the_index_built_in_worker_processes_equals_the_serial_one(tmp_path_factory, texts, queries, monkeypatch_slices):
    tmp = tmp_path_factory.mktemp("par")
    (par_lex, par_hash), (ser_lex, ser_hash) = asyncio.run(_build_both(tmp, texts, "x"))
    assert par_lex.ids() == ser_lex.ids() and len(par_lex) == len(texts)
    assert par_hash == ser_hash
    _same(par_lex, ser_lex)
    for q in queries:
        tokens = [w.lower() for w in q]
        assert par_lex.get_scores(tokens) == ser_lex.get_scores(tokens)


@pytest.fixture
def monkeypatch_slices(monkeypatch):
    monkeypatch.setattr(rebuild, "SLICE_ROWS", 7)  # several slices, so several workers' answers are merged


async def test_a_store_the_workers_cannot_read_is_built_here(tmp_path, monkeypatch, caplog):
    store = await Store.open(tmp_path / "w.db")
    try:
        await insert(store, *[make_entry(f"k{i}", f"word{i} common") for i in range(20)])

        def unreadable(*args):
            raise OSError("no such file")

        monkeypatch.setattr(rebuild, "_parallel_slices", unreadable)
        lexical, hashes = await rebuild_lexical(store, workers=2, parallel_min=0)
    finally:
        await store.close()
    assert len(lexical) == 20 and len(hashes) == 20
    assert any("building the index in this process" in r.getMessage() for r in caplog.records)
