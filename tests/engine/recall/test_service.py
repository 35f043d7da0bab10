"""RecallService end to end over a real store, with the fake embedder (and once
with the real model): the explainable result contract, fallbacks, sync, snapshot."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from datetime import timedelta

import numpy as np
import pytest

from engine.config import ConfigError
from engine.models import Episode, MemoryTier, MemoryType
from engine.recall.embedder import Embedder
from engine.recall.results import RecallInputError
from engine.recall.service import snapshot_path

from .helpers import NOW, FakeEmbedder, delete, insert, make_entry, update
from .test_stages import TinyReranker

FACTS = [
    ("user.city", "the user lives in berlin with a cat", ["home"]),
    ("user.job", "works as a data engineer at a bank", []),
    ("project.lang", "the project is written in python 3.11", ["tech"]),
    ("project.db", "sqlite stores every memory of the project", ["tech"]),
    ("user.pet", "the cat is called miso", []),
    ("editor", "prefers dark mode in every editor", []),
]


async def seed(store, **kw):
    return await insert(store, *[make_entry(k, c, tags=t, **kw) for k, c, t in FACTS])


async def test_result_contract(store, make_service):
    entries = await seed(store)
    svc = await make_service()
    await svc.embed_pending()  # recall does not embed pending rows itself
    res = await svc.recall("where does the user live berlin", now=NOW)
    d = res.to_dict()
    assert set(d) == {"results", "dropped", "timings_ms", "settings", "notices"}
    json.dumps(d)  # JSON-ready
    top = d["results"][0]
    assert top["id"] == entries[0].id and top["rank"] == 1
    for key in ("id", "rank", "final", "bm25", "vector", "rerank", "rrf", "gate", "decay", "key", "content", "tier", "type"):
        assert key in top
    assert set(top["bm25"]) == {"score", "rank"} and top["bm25"]["rank"] == 1
    assert set(top["vector"]) == {"score", "rank", "pending"} and top["vector"]["pending"] is False
    assert top["rerank"]["status"] == "disabled" and top["rerank"]["score"] is None
    assert set(top["gate"]) == {"passed", "reason"} and top["gate"]["passed"]
    assert top["decay"]["factor"] == 1.0 and top["decay"]["effective_importance"] == pytest.approx(0.5)
    blend = d["settings"]["memory.importanceBlend"]
    assert top["decay"]["multiplier"] == pytest.approx(1 - blend + blend * 0.5)
    assert top["final"] == pytest.approx(top["rrf"] * top["decay"]["multiplier"])
    assert [r["rank"] for r in d["results"]] == list(range(1, len(d["results"]) + 1))
    assert d["settings"]["memory.rrfK"] == 60 and d["settings"]["dry"] is True
    assert {"tokenize", "bm25", "embed", "vector", "fusion", "gate", "rerank", "decay", "total"} <= set(d["timings_ms"])
    assert res.hit_ids == [r["id"] for r in d["results"]]
    assert res.mode == "hybrid"


async def test_path_absent_is_null(store, make_service):
    await seed(store)
    svc = await make_service()
    await svc.embed_pending()  # recall does not embed pending rows itself
    res = await svc.recall("miso", overrides={"memory.poolSize": 2})
    # vector pool of 2 still lists something BM25 did not find
    vec_only = [h for h in res.to_dict()["results"] if h["bm25"]["rank"] is None]
    assert vec_only and all(h["bm25"]["score"] is None and h["vector"]["rank"] for h in vec_only)


async def test_gate_drops_bm25_only_low_idf_hits(store, make_service):
    await seed(store)
    svc = await make_service()
    await svc.embed_pending()  # a row with no vector yet passes the gate (the vector search could not find it)
    # "project" is in 2 of 6 memories: idf log(4.5/2.5) = 0.59 < memory.gateMinIdf 1.0
    res = await svc.recall("the project zebra", overrides={"memory.poolSize": 1})
    gated = [d for d in res.dropped if d.stage == "gate"]
    assert gated, res.to_dict()
    assert all("project (idf 0.59 < 1.00)" in d.reason for d in gated)
    assert all(d.key for d in gated)  # shown with its key
    kept = {h.id for h in res.results}
    assert not kept & {d.id for d in gated}


async def test_bad_input(store, make_service):
    await seed(store)
    svc = await make_service()
    await svc.embed_pending()  # recall does not embed pending rows itself
    with pytest.raises(RecallInputError, match="empty"):
        await svc.recall("   ")
    with pytest.raises(RecallInputError, match="limit"):
        await svc.recall("cat", limit=0)
    res = await svc.recall("the of and is")
    assert res.results == [] and res.notice_codes() == ["stop_words_only"]
    assert "stop words" in res.notices[0].message
    res = await svc.recall("?! ...")
    assert res.results == [] and res.notice_codes() == ["no_terms"]
    big = "cat " * 30_000
    res = await svc.recall(big)
    assert "query_truncated" in res.notice_codes() and res.results
    with pytest.raises(ConfigError, match="memory.rrfK"):
        await svc.recall("cat", overrides={"memory.rrfK": "-3"})


async def test_superseded_working_archival(store, make_service):
    new = make_entry("user.city", "the user lives in lisbon now")
    old = make_entry("user.city", "the user lives in berlin", superseded_by=new.id, tier=MemoryTier.ARCHIVAL)
    arch = make_entry("trip", "went to berlin once", tier=MemoryTier.ARCHIVAL)
    live = make_entry("berlin.office", "the berlin office is big")
    work = make_entry("scratch", "berlin berlin berlin", tier=MemoryTier.WORKING)
    await insert(store, new, old, arch, live, work)
    svc = await make_service()
    await svc.embed_pending()  # recall does not embed pending rows itself
    res = await svc.recall("berlin", now=NOW)
    ids = res.hit_ids
    assert old.id not in ids and work.id not in ids and arch.id in ids and live.id in ids
    by = {h.id: h for h in res.results}
    assert by[arch.id].decay.archival_weight == 0.5 and by[live.id].decay.archival_weight == 1.0
    assert by[arch.id].final == pytest.approx(by[arch.id].rrf * by[arch.id].decay.multiplier * 0.5)
    res = await svc.recall("berlin", include_superseded=True, now=NOW)
    assert old.id in res.hit_ids and work.id not in res.hit_ids
    assert res.results[[h.id for h in res.results].index(old.id)].superseded_by == new.id


async def test_decay_reorders_and_is_reported(store, make_service):
    fresh = make_entry("a", "alpha report fresh", importance=0.5)
    stale = make_entry("b", "alpha report stale", importance=0.5, last_accessed=NOW - timedelta(days=60))
    user = make_entry("c", "alpha report user", importance=0.5, type=MemoryType.USER, last_accessed=NOW - timedelta(days=600))
    await insert(store, stale, fresh, user)
    svc = await make_service()
    await svc.embed_pending()  # recall does not embed pending rows itself
    res = await svc.recall("alpha report", now=NOW)
    by = {h.id: h for h in res.results}
    assert by[stale.id].decay.factor == pytest.approx(0.25)
    assert by[user.id].decay.factor == 1.0
    assert res.hit_ids.index(stale.id) == 2


async def test_sync_insert_update_delete(store, make_service):
    a, b = await insert(store, make_entry("k1", "apples are red"), make_entry("k2", "bananas are yellow"))
    svc = await make_service()
    assert svc.recall  # opened
    (c,) = await insert(store, make_entry("k3", "cherries are dark"))
    await svc.sync()
    assert c.id in svc.backfill and c.id not in svc.vectors
    await svc.embed_pending()
    res = await svc.recall("cherries")
    assert res.hit_ids[0] == c.id and c.id in svc.vectors
    a.content = "avocados are green"
    await update(store, a)
    await svc.sync()
    await svc.embed_pending()
    assert (await svc.recall("avocados")).hit_ids[0] == a.id
    assert a.id not in {h.id for h in (await svc.recall("apples")).results if h.bm25.rank}
    await delete(store, b.id)
    assert b.id not in (await svc.recall("bananas yellow")).hit_ids
    assert b.id not in svc.lexical and b.id not in svc.vectors
    # a metadata-only change (access) does not re-embed
    n = svc.embedder.encoded
    async with store.transaction() as conn:
        await conn.execute("UPDATE entries SET access_count=access_count+1 WHERE id=?", (c.id,))
        await conn.execute("INSERT INTO change_log(entry_id, op, at) VALUES (?, 'access', 'now')", (c.id,))
    await svc.sync()
    assert svc.embedder.encoded == n and svc.pending_count == 0


async def test_tier_change_to_working_leaves_index(store, make_service):
    (a,) = await insert(store, make_entry("k", "kiwis are fuzzy"))
    svc = await make_service()
    a.tier = MemoryTier.WORKING
    await update(store, a)
    assert (await svc.recall("kiwis")).results == []


async def test_query_embedding_timeout_falls_back_to_lexical(store, make_service, settings):
    await seed(store)
    svc = await make_service(embedder_factory=lambda name: FakeEmbedder(name, delay=0.5))
    await svc.embed_pending()
    res = await svc.recall("miso", overrides={"memory.embeddingTimeoutSeconds": 0.05})
    assert res.mode == "lexical_only" and "lexical_only" in res.notice_codes()
    assert "timed out" in res.notices[-1].message
    assert res.results and res.results[0].vector.rank is None and res.results[0].bm25.rank == 1


async def test_broken_model_path_names_the_key_and_lexical_still_works(store, make_service, settings, tmp_path):
    await seed(store)
    bad = settings.override({"memory.embeddingModel": str(tmp_path / "no-such-model")})
    svc = await make_service(settings_=bad, embedder_factory=Embedder)
    res = await svc.recall("miso cat")
    assert res.mode == "lexical_only" and res.results
    msg = res.notices[-1].message
    assert "memory.embeddingModel" in msg and "no-such-model" in msg
    status = svc.model_status()
    assert status.state == "failed" and "memory.embeddingModel" in status.message


async def test_broken_model_folder_fails_on_load_with_key(store, make_service, settings, tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "modules.json").write_text("not json")
    await seed(store)
    svc = await make_service(settings_=settings.override({"memory.embeddingModel": str(folder)}), embedder_factory=Embedder)
    res = await svc.recall("miso")
    assert res.mode == "lexical_only" and "memory.embeddingModel" in res.notices[-1].message
    assert svc.model_status().state == "failed"


async def test_model_status_and_warm(store, make_service):
    await seed(store)
    svc = await make_service(embedder_factory=lambda n: FakeEmbedder(n, load_delay=0.1))
    assert svc.model_status().state == "not_loaded" and svc.model_status().pending == len(FACTS)
    task = asyncio.create_task(svc.warm())
    await asyncio.sleep(0.02)
    assert svc.model_status().state == "loading"
    status = await task
    assert status.state == "ready"
    for _ in range(100):
        if svc.pending_count == 0:
            break
        await asyncio.sleep(0.01)
    assert svc.pending_count == 0 and len(svc.vectors) == len(FACTS)


async def test_rerank_in_pipeline_and_failure_keeps_order(store, make_service, settings, tiny_cross_encoder):
    await seed(store)
    on = {"memory.rerankEnabled": True, "memory.rerankModel": tiny_cross_encoder, "memory.rerankTopK": 3}
    svc = await make_service(reranker_factory=lambda name: TinyReranker(name))
    await svc.embed_pending()  # recall does not embed pending rows itself
    res = await svc.recall("cat user", overrides=on)
    statuses = [h.rerank.status for h in res.results]
    assert statuses[:3] == ["reranked"] * 3 and set(statuses[3:]) <= {"outside_top_k"}
    assert sorted(h.rerank.rank for h in res.results[:3]) == [1, 2, 3]
    base = await svc.recall("cat user")
    failing = await make_service(reranker_factory=lambda name: TinyReranker(name, fail="predict"))
    await failing.embed_pending()  # recall does not embed pending rows itself
    res = await failing.recall("cat user", overrides=on)
    assert res.hit_ids == base.hit_ids
    assert "rerank_unavailable" in res.notice_codes()
    assert {h.rerank.status for h in res.results[:3]} == {"failed"}
    # the configured hub model cannot load offline: RRF order, and the result says so
    real = await make_service()
    await real.embed_pending()  # recall does not embed pending rows itself
    res = await real.recall("cat user", overrides={"memory.rerankEnabled": True})
    assert res.hit_ids == base.hit_ids and "rerank_unavailable" in res.notice_codes()


async def test_snapshot_reopen_and_replay(store, make_service):
    await seed(store)
    svc = await make_service(snapshot_min_entries=1)
    assert svc.open_report.source == "rebuild"
    await svc.embed_pending()
    await svc.close()
    assert snapshot_path(store.path).exists()
    (late,) = await insert(store, make_entry("late", "a late durian fact"))
    again = await make_service(snapshot_min_entries=1)
    assert again.open_report.source == "snapshot" and again.open_report.replayed == 1
    assert again.open_report.vectors == len(FACTS)
    res = await again.recall("durian")
    assert res.hit_ids[0] == late.id
    # scores equal a fresh rebuild; both sides with every vector stored first ("late" may
    # already be embedded by a background drain: on a loaded machine, after the rebuild
    # read the vectors, and it was then a vector hit on one side only)
    await again.embed_pending()
    fresh = await make_service(snapshot=False)
    for q in ("cat", "project python", "durian"):
        a, b = await again.recall(q), await fresh.recall(q)
        assert [(h.id, h.bm25.score) for h in a.results] == [(h.id, h.bm25.score) for h in b.results]


async def test_corrupt_or_foreign_snapshot_is_rebuilt(store, make_service):
    await seed(store)
    snapshot_path(store.path).write_bytes(b"garbage")
    svc = await make_service(snapshot_min_entries=1)
    assert svc.open_report.source == "rebuild" and len(svc.lexical) == len(FACTS)
    await svc.close()
    # rewrite history: the snapshot's change_log fingerprint no longer matches
    async with store.transaction() as conn:
        await conn.execute("UPDATE change_log SET at='1999-01-01' ")
    again = await make_service(snapshot_min_entries=1)
    assert again.open_report.source == "rebuild"


async def test_search_episodes(store, make_service):
    eps = [
        Episode(
            "s1", "planned a trip to japan and booked flights", 0, 10, ["japan", "travel"], created_at=NOW - timedelta(days=10)
        ),
        Episode("s2", "debugged the sqlite migration failure", 0, 8, ["sqlite"], created_at=NOW - timedelta(days=2)),
        Episode("s3", "talked about the japan itinerary again", 0, 5, ["japan"], created_at=NOW),
    ]
    async with store.transaction() as conn:
        for e in eps:
            await conn.execute(
                "INSERT INTO episodes VALUES (?,?,?,?,?,?,?,?,?)",
                (e.id, e.session_key, e.summary, 0, 1, json.dumps(e.entity_ids), 0.5, e.created_at.isoformat(), ""),
            )
    svc = await make_service()
    res = await svc.search_episodes("japan trip")
    assert res.hits[0].episode.id == eps[0].id and res.mode == "vector"
    assert await store.fetchone("SELECT count(*) FROM episode_vectors") == (3,)
    res = await svc.search_episodes("japan", entity="japan", since=NOW - timedelta(days=5))
    assert [h.episode.id for h in res.hits] == [eps[2].id]
    res = await svc.search_episodes("japan", entity="nobody")
    assert res.hits == [] and res.mode == "empty"
    with pytest.raises(RecallInputError):
        await svc.search_episodes("")
    lex = await make_service(embedder_factory=lambda n: FakeEmbedder(n, fail="broken"))
    res = await lex.search_episodes("sqlite migration")
    assert res.mode == "lexical_only" and res.hits[0].episode.id == eps[1].id


def test_importing_engine_does_not_import_torch():
    code = (
        "import sys, engine, engine.recall, engine.recall.service; "
        "print([m for m in ('torch','sentence_transformers','transformers') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.slow
async def test_real_model_semantic_recall(store, make_service, settings, real_embedding_model):
    await seed(store)
    svc = await make_service(
        settings_=settings.override({"memory.embeddingModel": "all-MiniLM-L6-v2"}), embedder_factory=Embedder
    )
    assert svc.embedder.model_id == "all-MiniLM-L6-v2:384"
    await svc.embed_pending()
    res = await svc.recall("which city is home")
    assert res.mode == "hybrid" and res.results[0].key == "user.city"
    res = await svc.recall("what's the name of my kitty")  # no shared words with the fact
    assert "user.pet" in [h.key for h in res.results[:3]]
    rows = await store.fetchall("SELECT DISTINCT model_id, dim FROM vectors")
    assert rows == [("all-MiniLM-L6-v2:384", 384)]


async def test_cancelled_recalls_leave_the_index_consistent(store, make_service):
    await seed(store)
    svc = await make_service()
    want = (await svc.recall("cat miso")).hit_ids
    for delay in (0, 0.0005, 0.001, 0.002, 0.005):
        task = asyncio.create_task(svc.recall("project python sqlite"))
        await asyncio.sleep(delay)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        (late,) = await insert(store, make_entry(f"k{delay}", "a pear tree"))
        assert (await svc.recall("cat miso")).hit_ids[: len(want)] == want
    assert len(svc.lexical) == len(FACTS) + 5


async def test_vectors_written_by_another_process_are_adopted(store, make_service):
    await seed(store)
    first = await make_service()
    other = await make_service()
    (new,) = await insert(store, make_entry("fig", "figs are purple"))
    await other.sync()
    assert await other.embed_pending() >= 1
    embedded = other.embedder.encoded
    await first.sync()
    assert new.id in first.vectors  # taken from the vectors table, not re-embedded
    assert first.embedder.encoded == 0 and other.embedder.encoded == embedded


async def test_empty_store(store, make_service):
    svc = await make_service()
    assert svc.open_report.entries == 0
    res = await svc.recall("anything at all")
    assert res.results == [] and res.dropped == []
    (a,) = await insert(store, make_entry("first", "the very first memory"))
    await svc.sync()
    await svc.embed_pending()
    assert (await svc.recall("first memory")).hit_ids == [a.id]


@pytest.mark.slow
def test_fast_path_equals_encode(real_embedding_model):
    """One query and a padded batch of mixed lengths (the backfill's path) give encode's vectors."""
    import threading

    from engine.recall.embedder import _fast_encoder

    fast = _fast_encoder(real_embedding_model, threading.Lock())
    assert fast is not None
    texts = ["where does the user live", "用 Python 写的 API", "x" * 3000]
    want = real_embedding_model.encode(texts, normalize_embeddings=True)
    for i, text in enumerate(texts):
        assert np.abs(fast([text])[0] - want[i]).max() < 1e-5
    assert np.abs(fast(texts) - want).max() < 1e-5


async def test_reconfigure_embedding_model_queues_old_vectors(store, make_service, settings):
    await seed(store)
    svc = await make_service()
    await svc.embed_pending()
    assert len(svc.vectors) == len(FACTS)
    await svc.reconfigure(settings.override({"memory.embeddingModel": "fake-b"}))
    assert svc.embedder.model_id == "fake-b:64" and len(svc.vectors) == 0
    queued = await store.fetchall("SELECT reason FROM reembed_queue")
    assert len(queued) == len(FACTS) and all("fake:64" in r[0] and "fake-b:64" in r[0] for r in queued)
    res = await svc.recall("miso cat")  # embeds inline under the new stamp
    assert res.mode == "hybrid" and res.results[0].key == "user.pet"
    await svc.embed_pending()
    assert {r[0] for r in await store.fetchall("SELECT model_id FROM vectors")} == {"fake-b:64"}
    assert await store.fetchall("SELECT * FROM reembed_queue") == []
