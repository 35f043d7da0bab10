"""Export a sentence-transformers model's network to an ONNX file, in a process of its own.

    python -m engine.recall.onnx_export MODEL_DIR OUT.onnx

Why a process: torch's exporter holds the GIL for most of its ~3 s (measured: one stretch
of 658 ms for all-MiniLM-L6-v2), and in the app that was the longest stall of the event
loop at every first open with a backlog. Here it costs the other core, at a lower OS
priority, and the app's process only loads the finished file. The graph goes to OUT with
engine.files.atomic_write once whole (exported to a temporary folder first), so a kill
never leaves half of one there.
"""

from __future__ import annotations

import os
import sys
import tempfile
import warnings
from pathlib import Path

from ..files import atomic_write
from .model_workers import BACKGROUND_NICE


def export(tokenizer, net, path: Path) -> None:
    """Write `net` (a Hugging Face BERT-like model) to `path` as ONNX: the last hidden state
    from the tokenizer's inputs, batch and token axes dynamic."""
    import torch

    sample = tokenizer(["a short text", "and a second, longer one"], return_tensors="pt", padding=True)
    names = [k for k in ("input_ids", "attention_mask", "token_type_ids") if k in sample]

    class Hidden(torch.nn.Module):
        """The network's last hidden state from keyword inputs (the exporter passes positions)."""

        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, *inputs):
            return self.inner(**dict(zip(names, inputs))).last_hidden_state

    axes = {k: {0: "batch", 1: "tokens"} for k in [*names, "hidden"]}
    with torch.no_grad(), warnings.catch_warnings(), tempfile.TemporaryDirectory() as tmp:
        warnings.simplefilter("ignore")  # the tracer's notes on shapes it keeps dynamic
        graph = Path(tmp) / "model.onnx"
        torch.onnx.export(
            Hidden(net).eval(),
            tuple(sample[k] for k in names),
            graph,
            input_names=names,
            output_names=["hidden"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,  # the TorchScript exporter needs onnx only; dynamo also needs onnxscript
        )
        atomic_write(path, graph.read_bytes(), backup=False)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m engine.recall.onnx_export MODEL_DIR OUT.onnx", file=sys.stderr)
        return 2
    model_dir, out = argv
    if BACKGROUND_NICE > 0:
        os.nice(BACKGROUND_NICE)
    from .embedder import _load_sentence_transformer, _mean_pooled_parts

    parts = _mean_pooled_parts(_load_sentence_transformer(model_dir))
    if parts is None:
        print("the model is not a [Transformer, mean Pooling, Normalize] stack", file=sys.stderr)
        return 1
    tokenizer, net, _ = parts
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    export(tokenizer, net, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
