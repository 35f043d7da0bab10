"""ONNX Runtime for the backfill's batches: the loaded model's network, exported to a file.

On this 2-core machine one thread of ONNX Runtime embedded ~1.8x the entries per
CPU-second of one torch thread (all-MiniLM-L6-v2, length-sorted batches of 64 texts of
~28 tokens: 230 against 126), with the same vectors (cosine 1.0000). The export takes a
few seconds and holds the GIL, so it runs in a child process (onnx_export.py) and its
file is kept in a cache (ECHO_MEMORY_CACHE_DIR, else $XDG_CACHE_HOME/echo-memory, else
~/.cache/echo-memory) under a key of the model's files and the torch version: later
opens only load it. A build that fails (onnxruntime or onnx missing, an exporter error)
or whose vectors drift from torch's returns None with the reason, and the backfill stays
on torch: stored vectors keep the model's stamp only because both encoders agree.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

# the least cosine between an ONNX vector and torch's, per checked text, for the export to be used
MIN_COSINE = 0.9999
# texts of mixed lengths (padding, the longest the model takes) checked against torch at build
CHECK_TEXTS = (
    "pinned",
    "The user prefers dark roast coffee, brewed in a French press every morning.",
    "deploy target: staging-eu-2; rollback plan agreed with the on-call engineer " * 12,
    "Names, numbers (42, 3.14) and punctuation: all tokenised the same way?",
)
EXPORT_TIMEOUT_S = 600

Encoder = Callable[[list[str]], np.ndarray]


def cache_dir() -> Path:
    base = os.environ.get("ECHO_MEMORY_CACHE_DIR")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "echo-memory"


def cached_path(model_dir: str) -> Path:
    """Where the export of the model in `model_dir` is kept: a new key when any of its
    files or the exporting torch changes, so a stale file is never loaded."""
    import torch

    digest = hashlib.sha256(f"{os.path.realpath(model_dir)}\ntorch {torch.__version__}".encode())
    files = []
    for root, dirs, names in os.walk(model_dir):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files += [os.path.join(root, name) for name in names]
    for file in sorted(files):
        st = os.stat(file)
        digest.update(f"\n{os.path.relpath(file, model_dir)} {st.st_size} {st.st_mtime_ns}".encode())
    return cache_dir() / "onnx" / f"{Path(model_dir).name}-{digest.hexdigest()[:16]}.onnx"


def export_in_child(model_dir: str, out: Path) -> None:
    """Run onnx_export.py in a child process (this checkout's `engine` first on its path);
    raises RuntimeError with the child's last words if it fails."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    child = subprocess.Popen(
        [sys.executable, "-m", "engine.recall.onnx_export", model_dir, str(out)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _, stderr = child.communicate(timeout=EXPORT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        child.kill()  # it writes `out` only once the export is whole: nothing to remove here
        child.communicate()
        raise RuntimeError(f"the export process took longer than {EXPORT_TIMEOUT_S}s") from None
    if child.returncode != 0:
        last = (stderr.strip().splitlines() or [f"exit status {child.returncode}"])[-1]
        raise RuntimeError(f"the export process failed: {last}")


def build(
    model_dir: str,
    tokenizer,
    max_len: int,
    lock: threading.Lock,
    reference: Encoder,
    check: Sequence[str] = CHECK_TEXTS,
) -> tuple[Optional[Encoder], str]:
    """An encoder running the network of the model in `model_dir` on ONNX Runtime, with
    mean pooling and unit length as in `reference` (the torch path), or None and why.

    A cached export that does not load or agree with torch is exported again, once.
    The session has one intra-op thread and is shared by the model workers (ONNX
    Runtime's run is thread-safe): one batch per core, as the torch backfill runs."""
    try:
        import onnxruntime as ort
    except ImportError as exc:
        return None, f"onnxruntime is not installed ({exc})"
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.enable_cpu_mem_arena = False  # 46 MB less resident, the same speed (measured)
    path = cached_path(model_dir)
    why = ""
    for fresh in (False, True) if path.exists() else (True,):
        try:
            if fresh:
                export_in_child(model_dir, path)
            session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # an exporter or runtime refusal: torch stays in use
            why = f"ONNX export failed: {type(exc).__name__}: {exc}"
            continue
        encode = _encoder(session, tokenizer, max_len, lock)
        texts = list(check)
        cosine = float((encode(texts) * reference(texts)).sum(1).min())
        if cosine >= MIN_COSINE:
            origin = "exported" if fresh else "cached"
            return encode, f"ONNX Runtime {ort.__version__} ({origin}, cosine to torch {cosine:.5f})"
        why = f"ONNX vectors differ from torch's (cosine {cosine:.5f} < {MIN_COSINE})"
    return None, why


def _encoder(session, tokenizer, max_len: int, lock: threading.Lock) -> Encoder:
    """Mean-pooled unit vectors from the session's hidden states; the tokenizer under
    `lock` (a fast tokenizer is not safe on two threads at once)."""
    wanted = [i.name for i in session.get_inputs()]  # ONNX Runtime drops inputs the graph ignores

    def encode(texts: list[str]) -> np.ndarray:
        with lock:
            feats = tokenizer(texts, return_tensors="np", truncation=True, max_length=max_len, padding=True)
        hidden = session.run(None, {k: feats[k].astype(np.int64) for k in wanted})[0]
        mask = feats["attention_mask"][..., None].astype(np.float32)
        vec = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
        vec /= np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-12)
        return np.ascontiguousarray(vec, dtype=np.float32)

    return encode
