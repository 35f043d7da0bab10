"""ONNX Runtime for the backfill's batches: the loaded torch network exported in memory.

On this 2-core machine one thread of ONNX Runtime embedded ~1.8x the entries per
CPU-second of one torch thread (all-MiniLM-L6-v2, length-sorted batches of 64 texts of
~28 tokens: 230 against 126), with the same vectors (cosine 1.0000). The export takes a
few seconds, so the backfill asks for it only for a large backlog. A build that fails
(onnxruntime or onnx missing, an exporter error) or whose vectors drift from torch's
returns None with the reason, and the backfill stays on torch: stored vectors keep the
model's stamp only because both encoders agree.
"""

from __future__ import annotations

import copy
import os
import tempfile
import threading
import warnings
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

Encoder = Callable[[list[str]], np.ndarray]


def build(
    tokenizer,
    net,
    max_len: int,
    lock: threading.Lock,
    reference: Encoder,
    check: Sequence[str] = CHECK_TEXTS,
) -> tuple[Optional[Encoder], str]:
    """An encoder running `net` (a Hugging Face BERT-like model) on ONNX Runtime, with
    mean pooling and unit length as in `reference` (the torch path), or None and why.

    The session has one intra-op thread and is shared by the model workers (ONNX
    Runtime's run is thread-safe): one batch per core, as the torch backfill runs."""
    try:
        import onnxruntime as ort
        import torch
    except ImportError as exc:
        return None, f"onnxruntime is not installed ({exc})"
    with lock:
        sample = tokenizer(list(check[:2]), return_tensors="pt", truncation=True, max_length=max_len, padding=True)
    names = [k for k in ("input_ids", "attention_mask", "token_type_ids") if k in sample]

    class Hidden(torch.nn.Module):
        """The network's last hidden state from keyword inputs (the exporter passes positions)."""

        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, *inputs):
            return self.inner(**dict(zip(names, inputs))).last_hidden_state

    axes = {k: {0: "batch", 1: "tokens"} for k in [*names, "hidden"]}
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.enable_cpu_mem_arena = False  # 46 MB less resident, the same speed (measured)
    try:
        with torch.no_grad(), warnings.catch_warnings(), tempfile.TemporaryDirectory() as tmp:
            warnings.simplefilter("ignore")  # the tracer's notes on shapes it keeps dynamic
            path = os.path.join(tmp, "model.onnx")
            torch.onnx.export(
                Hidden(copy.deepcopy(net)).eval(),  # a copy: model workers run `net` meanwhile
                tuple(sample[k] for k in names),
                path,
                input_names=names,
                output_names=["hidden"],
                dynamic_axes=axes,
                opset_version=17,
                dynamo=False,  # the TorchScript exporter needs onnx only; dynamo also needs onnxscript
            )
            session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # an exporter or runtime refusal: torch stays in use
        return None, f"ONNX export failed: {type(exc).__name__}: {exc}"
    wanted = [i.name for i in session.get_inputs()]  # ONNX Runtime drops inputs the graph ignores

    def encode(texts: list[str]) -> np.ndarray:
        with lock:
            feats = tokenizer(texts, return_tensors="np", truncation=True, max_length=max_len, padding=True)
        hidden = session.run(None, {k: feats[k].astype(np.int64) for k in wanted})[0]
        mask = feats["attention_mask"][..., None].astype(np.float32)
        vec = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
        vec /= np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-12)
        return np.ascontiguousarray(vec, dtype=np.float32)

    texts = list(check)
    cosine = float((encode(texts) * reference(texts)).sum(1).min())
    if cosine < MIN_COSINE:
        return None, f"ONNX vectors differ from torch's (cosine {cosine:.5f} < {MIN_COSINE})"
    return encode, f"ONNX Runtime {ort.__version__} (cosine to torch {cosine:.5f})"
