"""The reranker, honestly: a model that cannot load is said once, plainly, and
not retried until memory.rerankModel changes; an HTTP rerank endpoint is used
under the same timeouts and fail-soft rules (tested against a small server on
127.0.0.1)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from engine.recall.rerank import NOT_INSTALLED, RERANKED, HttpReranker, Reranker, rerank_stage

from .helpers import insert, make_entry

CANDS = [("a", "the user lives in berlin"), ("b", "the cat is called miso"), ("c", "python project"), ("d", "dark mode editor")]
# the endpoint prefers c, then a, then d, then b
PREFERRED = {"python project": 0.9, "the user lives in berlin": 0.7, "dark mode editor": 0.4, "the cat is called miso": 0.1}


class Endpoint:
    """A rerank server whose reply style the test chooses."""

    def __init__(self):
        self.mode = "tei"
        self.bodies: list[dict] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                endpoint.bodies.append(body)
                docs = body["documents"]
                scored = [
                    {"index": i, "score": max([v for t, v in PREFERRED.items() if t in d], default=0.0)}
                    for i, d in enumerate(docs)
                ]
                mode = endpoint.mode
                if mode == "slow":
                    time.sleep(1.5)
                if mode == "tei":  # best first, as text-embeddings-inference answers
                    reply = sorted(scored, key=lambda x: -x["score"])
                elif mode == "results":  # Infinity, llama.cpp, vLLM
                    reply = {"results": [{"index": x["index"], "relevance_score": x["score"]} for x in scored]}
                elif mode == "wrong_count":
                    reply = scored[:-1]
                elif mode == "garbage":
                    payload = b"<html>oops</html>"
                    self.send_response(200)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                else:
                    reply = scored
                payload = json.dumps(reply).encode()
                try:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except BrokenPipeError:  # the client gave up (the timeout test)
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/rerank"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint():
    ep = Endpoint()
    yield ep
    ep.close()


async def stage(reranker, **kw):
    args = dict(enabled=True, top_k=4, timeout=5.0, load_timeout=5.0, min_score=0.0)
    args.update(kw)
    return await rerank_stage("where does the user live", CANDS, reranker, **args)


@pytest.mark.parametrize("mode", ["tei", "results"])
async def test_http_reranker_reorders_by_the_endpoint_scores(endpoint, mode):
    endpoint.mode = mode
    rr = HttpReranker(endpoint.url)
    try:
        out = await stage(rr)
    finally:
        rr.close()
    assert out.status == RERANKED and out.order == ["c", "a", "d", "b"]
    assert out.scores["c"] == pytest.approx(0.9)  # the endpoint's scores, as returned
    body = endpoint.bodies[-1]
    assert body["query"] == "where does the user live" and body["documents"] == [t for _, t in CANDS]


@pytest.mark.parametrize(
    "mode, status, words",
    [
        ("garbage", "failed", "did not answer JSON"),
        ("wrong_count", "failed", "3 scores for 4 documents"),
        ("slow", "timeout", "memory.rerankTimeoutSeconds"),
    ],
)
async def test_http_reranker_failures_keep_the_rrf_order(endpoint, mode, status, words):
    endpoint.mode = mode
    rr = HttpReranker(endpoint.url)
    try:
        out = await stage(rr, timeout=0.3)
    finally:
        rr.close()
    assert out.status == status and words in out.reason
    assert out.order == ["a", "b", "c", "d"] and not out.scores


async def test_http_reranker_unreachable_keeps_the_rrf_order():
    rr = HttpReranker("http://127.0.0.1:9/rerank")  # the discard port: nothing listens
    try:
        out = await stage(rr)
    finally:
        rr.close()
    assert out.status == "failed" and "cannot be reached" in out.reason and out.order == ["a", "b", "c", "d"]


async def test_http_reranker_in_recall_through_the_setting(store, make_service, settings, endpoint):
    await insert(store, *[make_entry(k, t) for k, t in CANDS])
    svc = await make_service(settings.override({"memory.rerankEnabled": True, "memory.rerankModel": endpoint.url}))
    await svc.embed_pending()
    res = await svc.recall("where does the user live in berlin with python")
    assert res.results[0].rerank.status == "reranked" and res.results[0].key == "c"
    endpoint.mode = "garbage"
    again = await svc.recall("where does the user live in berlin with python")
    assert [n.code for n in again.notices] == ["rerank_unavailable"]
    assert all(h.rerank.status == "failed" for h in again.results)


class HubOnlyReranker(Reranker):
    """A hub name offline: the loader fails with a long, multi-line story."""

    loads = 0

    def load_model(self):
        type(self).loads += 1
        raise OSError(
            "We couldn't connect to 'https://huggingface.co' to load this model\nTraceback (most recent call last):\n  File ..."
        )


async def test_a_reranker_that_cannot_load_is_said_once_and_not_retried(store, make_service, settings):
    await insert(store, *[make_entry(k, t) for k, t in CANDS])
    HubOnlyReranker.loads = 0
    on = settings.override({"memory.rerankEnabled": True})
    svc = await make_service(on, reranker_factory=HubOnlyReranker)
    await svc.embed_pending()
    first = await svc.recall("berlin")
    notes = [n.message for n in first.notices if n.code == "rerank_unavailable"]
    assert len(notes) == 1 and NOT_INSTALLED in notes[0] and "Traceback" not in notes[0]
    assert "cross-encoder/ms-marco-MiniLM-L-6-v2" in notes[0]
    second = await svc.recall("python project")
    assert not [n for n in second.notices if n.code == "rerank_unavailable"]
    assert second.results and all(h.rerank.status == "failed" and NOT_INSTALLED in h.rerank.reason for h in second.results[:1])
    assert HubOnlyReranker.loads == 1  # not tried again
    await svc.recall("berlin", overrides={"memory.rerankModel": "another/model"})
    assert HubOnlyReranker.loads == 2  # a new setting is a new attempt
