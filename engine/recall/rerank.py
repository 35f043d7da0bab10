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
lazily, in a worker thread, and shared by every recall of the process."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np

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


class RerankerError(RuntimeError):
    pass


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
            self.message = f"{KEY}={self.name!r} could not be loaded: {type(exc).__name__}: {exc}"
            raise RerankerError(self.message) from exc
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
            self._model.predict(pairs, activation_fn=torch.nn.Identity(), show_progress_bar=False,
                                convert_to_numpy=True),
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
        return _sigmoid(logits)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


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
