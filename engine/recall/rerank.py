"""Cross-encoder reranking: a pure enhancement, never a recall gate.

The spec's rules, as implemented by `rerank_stage`:
* memory.rerankEnabled runs whenever fusion produced any candidate;
* only the first memory.rerankTopK candidates are scored, the rest keep their
  RRF order after them;
* loading waits at most memory.rerankLoadTimeoutSeconds (counted from when the
  load began), one inference at most memory.rerankTimeoutSeconds; any timeout or
  failure returns the RRF order unchanged and says why;
* memory.rerankMinScore > 0 drops reranked candidates scoring below it, unless
  that would drop all of them, in which case the filter is skipped (and said so).

Scores are the sigmoid of the cross-encoder's logit, so they lie in (0, 1) and
memory.rerankMinScore reads as a probability-like threshold. The model is loaded
lazily, in a worker thread, and shared by every recall of the process.

memory.rerankModel may also be an HTTP endpoint ("http://host:port/rerank"):
`HttpReranker` speaks the common rerank API (text-embeddings-inference,
Infinity, llama.cpp's server, vLLM) under the same timeouts and fail-soft rules.

No package ships cross-encoder weights, so offline the default hub name cannot
load: the reranker then fails once, with one plain sentence (NOT_INSTALLED),
and is not tried again until memory.rerankModel names something else."""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import ModelError

KEY = "memory.rerankModel"
NOT_LOADED, LOADING, READY, FAILED = "not_loaded", "loading", "ready", "failed"

# per-result statuses
RERANKED = "reranked"
DISABLED = "disabled"
TIMEOUT = "timeout"
STATUS_NOT_LOADED = "not_loaded"
OUTSIDE_TOP_K = "outside_top_k"
FILTERED = "filtered_min_score"
FILTER_SKIPPED = "min_score_filter_skipped"
STATUS_FAILED = "failed"


NOT_INSTALLED = "reranker not installed — set memory.rerankModel to a local CrossEncoder folder or an HTTP rerank endpoint"


class RerankerError(ModelError, RuntimeError):
    """The reranker (a local cross-encoder or an HTTP endpoint) could not score the candidates."""


def is_endpoint(name: str) -> bool:
    return name.startswith(("http://", "https://"))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float64)
    out = np.empty_like(x)
    pos = x >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-x[pos]))
    e = np.exp(x[~pos])
    out[~pos] = e / (1.0 + e)
    return out


class Reranker:
    """A sentence-transformers CrossEncoder behind a lazy, time-bounded async API."""

    def __init__(self, name: str):
        self.name = name
        self.status = NOT_LOADED
        self.message = ""
        self._model: Any = None
        self._future: Optional[concurrent.futures.Future] = None
        self._inference: Optional[concurrent.futures.Future] = None
        self._load_started: Optional[float] = None
        self._lock = threading.Lock()
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="echo-rerank")
        self.failure_reported = False  # the pipeline says a load failure once, not on every recall

    # ---- loading -------------------------------------------------------------------
    def load_model(self) -> Any:
        """Build the model (runs in the worker thread). Tests override this."""
        from sentence_transformers import CrossEncoder

        path = os.path.expanduser(self.name)
        return CrossEncoder(path if os.path.isdir(path) else self.name, device="cpu")

    def _load(self) -> None:
        started = time.perf_counter()
        try:
            self._model = self.load_model()
        except Exception as exc:
            self.status = FAILED
            if os.path.isdir(os.path.expanduser(self.name)):  # a local folder: say what is wrong with it
                first = (str(exc).strip().splitlines() or [""])[0][:300]
                self.message = f"{KEY}={self.name!r} could not be loaded: {type(exc).__name__}: {first}"
            else:  # a hub name: offline it can never load, and the loader's story does not help
                self.message = f"{NOT_INSTALLED} ({KEY}={self.name!r} is not a local folder)"
            raise RerankerError(self.message) from None
        self.status = READY
        self.message = f"{self.name} loaded in {time.perf_counter() - started:.1f}s"

    def start_loading(self) -> concurrent.futures.Future:
        with self._lock:
            if self._future is None:
                self.status, self.message = LOADING, f"loading {self.name}"
                self._load_started = time.monotonic()
                self._future = self._pool.submit(self._load)
            return self._future

    async def ensure_loaded(self, load_timeout: float) -> None:
        """Wait for the model until load_timeout after the load began.

        Raises RerankerError (failed), TimeoutError (this call ran out of budget)
        or LookupError (the budget was spent by an earlier call: still loading)."""
        if self.status == READY:
            return
        if self.status == FAILED:
            raise RerankerError(self.message)
        fut = self.start_loading()
        remaining = load_timeout - (time.monotonic() - (self._load_started or time.monotonic()))
        if remaining <= 0 and not fut.done():
            raise LookupError(f"{self.name} is still loading (past its {load_timeout:g}s load budget)")
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(fut)), max(remaining, 0.001))
        except asyncio.TimeoutError:
            raise TimeoutError(f"loading {self.name} took longer than {load_timeout:g}s") from None

    # ---- scoring -------------------------------------------------------------------
    def predict_sync(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        """Raw logits for (query, passage) pairs (runs in the worker thread)."""
        import torch

        return np.asarray(
            self._model.predict(pairs, activation_fn=torch.nn.Identity(), show_progress_bar=False, convert_to_numpy=True),
            np.float64,
        ).reshape(-1)

    async def score(self, query: str, passages: Sequence[str], timeout: float) -> np.ndarray:
        """Sigmoid scores, one per passage; TimeoutError after timeout seconds."""
        if self._inference is not None and not self._inference.done():
            # One worker: a new inference would queue behind one that already timed out.
            raise TimeoutError("the previous rerank inference is still running past its timeout")
        pairs = [(query, p) for p in passages]
        self._inference = self._pool.submit(self.predict_sync, pairs)
        fut = asyncio.wrap_future(self._inference)
        try:
            logits = await asyncio.wait_for(asyncio.shield(fut), timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"rerank inference took longer than {timeout:g}s") from None
        if len(logits) != len(passages):
            raise RerankerError(f"reranker returned {len(logits)} scores for {len(passages)} passages")
        return self.to_scores(logits)

    def to_scores(self, raw: np.ndarray) -> np.ndarray:
        """The model's raw outputs as scores (the sigmoid of a logit)."""
        return _sigmoid(raw)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class HttpReranker(Reranker):
    """memory.rerankModel = "http://host:port/rerank": POST {"query", "documents",
    "texts"} (Infinity, llama.cpp and vLLM read documents; text-embeddings-inference
    reads texts) and read back either [{"index", "score"}, ...] (TEI) or
    {"results": [{"index", "relevance_score"}, ...]} (the others). The scores are
    used as the endpoint returns them (most return probabilities in [0, 1]). Any
    malformed reply is a failure, and the RRF order is kept."""

    request_timeout = 5.0  # set from memory.rerankTimeoutSeconds by each score() call

    def load_model(self) -> Any:
        import httpx

        return httpx.Client(headers={"content-type": "application/json"})

    async def score(self, query: str, passages: Sequence[str], timeout: float) -> np.ndarray:
        self.request_timeout = timeout
        return await super().score(query, passages, timeout)

    def predict_sync(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        import httpx

        query, texts = pairs[0][0], [p for _, p in pairs]
        try:
            reply = self._model.post(
                self.name, json={"query": query, "documents": texts, "texts": texts}, timeout=self.request_timeout
            )
        except httpx.TimeoutException:
            raise TimeoutError(f"rerank endpoint {self.name} did not answer within {self.request_timeout:g}s") from None
        except httpx.HTTPError as exc:
            raise RerankerError(f"rerank endpoint {self.name} cannot be reached: {type(exc).__name__}") from None
        if reply.status_code != 200:
            raise RerankerError(f"rerank endpoint {self.name} answered HTTP {reply.status_code}: {reply.text[:200]!r}")
        try:
            body = reply.json()
        except ValueError:
            raise RerankerError(f"rerank endpoint {self.name} did not answer JSON: {reply.text[:200]!r}") from None
        return parse_rerank_reply(body, len(texts), self.name)

    def to_scores(self, raw: np.ndarray) -> np.ndarray:
        return np.asarray(raw, np.float64)

    def close(self) -> None:
        if self._model is not None:
            self._model.close()
        super().close()


def parse_rerank_reply(body: Any, n: int, where: str) -> np.ndarray:
    """One finite score per document, in document order, from a rerank reply."""
    items = body.get("results", body.get("data")) if isinstance(body, dict) else body
    bad = f"rerank endpoint {where} answered"
    if not isinstance(items, list):
        raise RerankerError(f'{bad} neither a list nor {{"results": [...]}}')
    if len(items) != n:
        raise RerankerError(f"{bad} {len(items)} scores for {n} documents")
    scores = [math.nan] * n
    for item in items:
        index = item.get("index") if isinstance(item, dict) else None
        value = item.get("relevance_score", item.get("score")) if isinstance(item, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n or not math.isnan(scores[index]):
            raise RerankerError(f"{bad} an item without a valid, distinct index: {str(item)[:100]}")
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise RerankerError(f"{bad} an item without a numeric score: {str(item)[:100]}")
        scores[index] = float(value)
    return np.asarray(scores, np.float64)


def make_reranker(name: str) -> Reranker:
    """The reranker memory.rerankModel names: an HTTP endpoint or a CrossEncoder."""
    return HttpReranker(name) if is_endpoint(name) else Reranker(name)


@dataclass
class RerankOutcome:
    """What the rerank stage did. `order` is the new order of the input ids."""

    status: str  # reranked | disabled | timeout | not_loaded | failed | empty
    reason: str
    order: list[str]
    scores: dict[str, float] = field(default_factory=dict)
    ranks: dict[str, int] = field(default_factory=dict)  # 1-based rank among the reranked head
    per_item: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (status, reason)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (id, reason) below min score
    filter_skipped: bool = False
    head: int = 0  # how many ids at the start of `order` were reranked


async def rerank_stage(
    query: str,
    candidates: Sequence[tuple[str, str]],
    reranker: Optional[Reranker],
    enabled: bool,
    top_k: int,
    timeout: float,
    load_timeout: float,
    min_score: float,
) -> RerankOutcome:
    """Rerank the first top_k of candidates ((id, text) in RRF order)."""
    ids = [c[0] for c in candidates]
    if not ids:
        return RerankOutcome("empty", "no candidates to rerank", [])
    head_ids = ids[:top_k]
    tail_ids = ids[top_k:]

    def unchanged(status: str, reason: str) -> RerankOutcome:
        per = {i: (status, reason) for i in head_ids}
        if status != DISABLED:
            per.update({i: (OUTSIDE_TOP_K, f"rank > memory.rerankTopK={top_k}") for i in tail_ids})
        else:
            per.update({i: (status, reason) for i in tail_ids})
        return RerankOutcome(status, reason, list(ids), per_item=per)

    if not enabled:
        return unchanged(DISABLED, "memory.rerankEnabled is false")
    if reranker is None:
        return unchanged(STATUS_FAILED, "no reranker available")
    try:
        await reranker.ensure_loaded(load_timeout)
    except LookupError as exc:
        return unchanged(STATUS_NOT_LOADED, str(exc))
    except TimeoutError as exc:
        return unchanged(TIMEOUT, f"{exc} (memory.rerankLoadTimeoutSeconds)")
    except Exception as exc:
        return unchanged(STATUS_FAILED, str(exc))
    texts = [c[1] for c in candidates[:top_k]]
    try:
        scores = await reranker.score(query, texts, timeout)
    except TimeoutError as exc:
        return unchanged(TIMEOUT, f"{exc} (memory.rerankTimeoutSeconds)")
    except Exception as exc:
        return unchanged(STATUS_FAILED, f"rerank inference failed: {type(exc).__name__}: {exc}")

    score_of = {i: float(s) for i, s in zip(head_ids, scores)}
    # stable: equal scores keep their RRF order
    ranked = sorted(head_ids, key=lambda i: -score_of[i])
    ranks = {i: r for r, i in enumerate(ranked, start=1)}
    per = {i: (RERANKED, f"cross-encoder score {score_of[i]:.4f}") for i in head_ids}
    per.update({i: (OUTSIDE_TOP_K, f"rank > memory.rerankTopK={top_k}") for i in tail_ids})
    out = RerankOutcome(RERANKED, f"reranked the first {len(head_ids)} candidate(s)", [], score_of, ranks, per)
    if min_score > 0:
        low = [i for i in ranked if score_of[i] < min_score]
        if len(low) == len(ranked):
            out.filter_skipped = True
            for i in ranked:
                out.per_item[i] = (
                    FILTER_SKIPPED,
                    f"score {score_of[i]:.4f} < memory.rerankMinScore={min_score:g}, but every reranked "
                    "candidate scored below it, so the filter was skipped",
                )
        else:
            lows = set(low)
            for i in low:
                reason = f"cross-encoder score {score_of[i]:.4f} < memory.rerankMinScore={min_score:g}"
                out.per_item[i] = (FILTERED, reason)
                out.dropped.append((i, reason))
            ranked = [i for i in ranked if i not in lows]
    out.order = ranked + tail_ids
    out.head = len(ranked)
    return out
