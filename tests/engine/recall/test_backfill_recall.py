"""Issue 14: recall never waits on the embedding backlog, pending rows are marked
lexical-only, and loading the model has its own budget (memory.embeddingLoadTimeoutSeconds)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from engine.config import ConfigError, Settings
from engine.recall import embedder as emb
from engine.recall.service import RecallService
from tests.engine.recall.helpers import FakeEmbedder, insert, make_entry

QUERY = "zebra quokka"


class RecordingEmbedder(FakeEmbedder):
    """Counts document texts embedded before the query's vector was asked for and made;
    background batches can be held at a gate until the test opens it."""

    def __init__(self, name: str, **kw):
        super().__init__(name, **kw)
        self.gate = threading.Event()
        self.gate.set()
        self.batches_started = 0
        self.docs_done = 0
        self.docs_before_query = None
        self.query_asked = False

    async def embed_query(self, text, timeout=None):
        self.query_asked = True
        return await super().embed_query(text, timeout)

    def encode_sync(self, texts, batch_size: int = 64):
        if list(texts) == [QUERY]:
            self.docs_before_query = self.docs_done
            return super().encode_sync(texts, batch_size)
        self.batches_started += 1
        self.gate.wait(30)
        out = super().encode_sync(texts, batch_size)
        self.docs_done += len(texts)
        return out


def corpus(n: int) -> list:
    # one rare pair of words per entry, so BM25 finds any of them past the token gate
    return [make_entry(f"note.{i}", f"entry {i} about topic{i % 50} and detail{i}") for i in range(n)] + [
        make_entry("animals", f"a {QUERY} lives here")
    ]


@pytest.fixture
async def make_service(store, settings):  # the store and settings of recall/conftest.py; an embedder per call
    made: list[RecallService] = []

    async def make(embedder, settings_=None):
        svc = RecallService(store, settings_ or settings, lambda name: embedder)
        made.append(svc)
        await svc.open()
        return svc

    yield make
    for svc in made:
        await svc.close()


async def until(predicate, what: str) -> None:
    for _ in range(1000):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"gave up waiting for {what}")


async def test_recall_embeds_no_pending_row_and_marks_them_lexical_only(store, make_service):
    await insert(store, *corpus(200))
    fake = RecordingEmbedder("fake")
    svc = await make_service(fake)
    await fake.ensure_loaded()
    svc._start_drain = lambda: None  # no backfill at all: what does the recall itself embed?
    res = await svc.recall(QUERY)
    assert fake.docs_before_query == 0 and fake.docs_done == 0  # only the query was embedded
    assert res.mode == "hybrid" and "vectors_pending" in res.notice_codes()
    top = res.to_dict()["results"][0]
    assert top["key"] == "animals" and top["bm25"]["rank"] == 1
    assert top["vector"] == {"score": None, "rank": None, "pending": True}
    assert svc.pending_count == 201


async def test_pending_flag_clears_once_the_backfill_reached_the_row(store, make_service):
    await insert(store, *corpus(20))
    svc = await make_service(FakeEmbedder("fake"))
    assert await svc.embed_pending() == 21 and svc.pending_count == 0
    top = (await svc.recall(QUERY)).to_dict()["results"][0]
    assert top["key"] == "animals" and top["vector"]["pending"] is False and top["vector"]["rank"] == 1


async def test_a_recall_during_a_long_backfill_waits_for_no_more_than_the_batches_in_flight(store, make_service):
    await insert(store, *corpus(2000))
    fake = RecordingEmbedder("fake")
    fake.gate.clear()  # hold the backfill's first batches
    svc = await make_service(fake)
    await svc.warm()  # loads the model and starts the backfill
    await until(lambda: fake.batches_started >= 1, "the backfill to start a batch")
    recall = asyncio.create_task(svc.recall(QUERY))
    await until(lambda: fake.query_asked, "the recall to ask for its query vector")
    fake.gate.set()
    res = await recall
    # batches are BATCH texts, at most one per model worker in flight when the query came
    from engine.recall.backfill import BATCH

    assert fake.docs_before_query is not None
    assert fake.docs_before_query <= BATCH * emb.BACKFILL_WORKERS < 2001
    assert res.mode == "hybrid" and res.results[0].key == "animals"
    await svc.close()  # stops after the batches in progress, each one persisted
    stored = (await store.fetchone("SELECT count(*) FROM vectors"))[0]
    assert stored == 2001 - svc.pending_count


async def test_cold_recall_waits_for_the_model_under_its_own_budget(store, make_service, settings):
    """Loading takes longer than the inference budget: the recall still uses vectors."""
    await insert(store, *corpus(5))
    await (await make_service(FakeEmbedder("fake"))).embed_pending()  # vectors stored by an earlier run
    cold = FakeEmbedder("fake", load_delay=0.3)
    svc = await make_service(cold, settings.override({"memory.embeddingTimeoutSeconds": 0.05}))
    assert cold.status == emb.NOT_LOADED and svc.pending_count == 0
    res = await svc.recall(QUERY)
    assert res.mode == "hybrid" and "lexical_only" not in res.notice_codes()
    assert res.results[0].vector.rank == 1 and res.timings_ms["prepare"] >= 300


async def test_a_model_still_loading_after_its_budget_names_the_load_key_and_time(store, make_service, settings):
    await insert(store, *corpus(5))
    svc = await make_service(FakeEmbedder("fake", load_delay=1.5), settings.override({"memory.embeddingLoadTimeoutSeconds": 0.2}))
    res = await svc.recall(QUERY)
    assert res.mode == "lexical_only" and res.results[0].key == "animals"
    msg = res.notices[-1].message
    assert "still loading after 0.2s" in msg and "memory.embeddingLoadTimeoutSeconds" in msg
    assert "0.0s" not in msg


async def test_slow_inference_names_the_inference_key_and_its_real_budget(store, make_service, settings):
    await insert(store, *corpus(5))
    svc = await make_service(FakeEmbedder("fake", delay=0.5), settings.override({"memory.embeddingTimeoutSeconds": 0.05}))
    await svc.embedder.ensure_loaded()
    res = await svc.recall(QUERY)
    assert res.mode == "lexical_only"
    msg = res.notices[-1].message
    assert "took longer than 0.05s" in msg and "memory.embeddingTimeoutSeconds" in msg and "0.0s" not in msg


@pytest.mark.parametrize("bad", ["-1", "0", "abc", "1e9"])
def test_load_timeout_key_is_validated(bad):
    with pytest.raises(ConfigError, match="memory.embeddingLoadTimeoutSeconds"):
        Settings.defaults().override({"memory.embeddingLoadTimeoutSeconds": bad})
    assert Settings.defaults().get("memory.embeddingLoadTimeoutSeconds") == 60.0


async def test_a_fresh_memory_in_a_tiny_store_is_found_before_it_has_a_vector(store, make_service):
    """One memory: its words have no IDF to speak of, so the BM25-only token gate would
    discard it; a pending row passes, because the vector search could not have found it."""
    (fact,) = await insert(store, make_entry("user.city", "the user lives in berlin"))
    fake = RecordingEmbedder("fake")
    svc = await make_service(fake)
    await fake.ensure_loaded()
    svc._start_drain = lambda: None
    res = await svc.recall("berlin")
    assert res.hit_ids == [fact.id] and res.results[0].vector_pending
    assert "no vector yet" in res.results[0].gate["reason"]
    await svc.embed_pending()
    res = await svc.recall("berlin")
    assert res.hit_ids == [fact.id] and not res.results[0].vector_pending and res.results[0].vector.rank == 1
