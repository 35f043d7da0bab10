"""Golden recall: the demo store, several queries, the full `recall --json`
explanation (every score, rank, drop, notice and setting; not the timings).
Restructuring the pipeline must not move a single number. Regenerate the golden
file only for a deliberate ranking change: `python -m tests.engine.recall.test_arch2_golden`.

The models are deterministic stand-ins (a hashed bag-of-words embedder, a
word-overlap "cross-encoder") behind the real Embedder/Reranker classes: a tiny
random cross-encoder scores every pair ~0.496 and its order is noise."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from engine import MemoryEngine  # noqa: E402
from engine.config import Settings  # noqa: E402
from engine.demo import build_demo  # noqa: E402
from engine.recall.rerank import Reranker  # noqa: E402
from engine.recall.tokenize import index_tokens  # noqa: E402

from .helpers import NOW, FakeEmbedder  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "arch2_recall.json"

# (query, overrides, include_superseded): hybrid, peaked BM25, superseded chains,
# stop words only, no usable terms, an over-long query, gate drops, a failing model
QUERIES: list[tuple[str, dict[str, Any], bool]] = [
    ("which python version does atlas-api run", {}, False),
    ("which python version does atlas-api run", {}, True),
    ("editor", {"memory.gateMinIdf": 3.0}, False),
    ("where does maya live and work", {"memory.importanceBlend": 1.0}, False),
    ("postgres database port", {"memory.poolSize": 3, "memory.rrfK": 10}, False),
    ("the and of", {}, False),
    ("!!! ???", {}, False),
    ("rust toolchain " * 200, {}, False),
    ("orbit-web deploy build", {"memory.rerankEnabled": True, "memory.rerankTopK": 4}, False),
    ("how are e-mails sent", {"memory.rerankEnabled": True, "memory.rerankMinScore": 0.99}, False),
    ("atlas-api python port", {"memory.rerankEnabled": True, "memory.rerankMinScore": 0.8}, False),
    ("export csv schema timestamps", {}, False),
    ("atlas-api python port", {"memory.rerankEnabled": True, "memory.rerankModel": "broken"}, False),
    ("archived old cron job", {"memory.archivalWeight": 0.1, "memory.embeddingModel": "other"}, False),
    ("maya editor python", {"memory.embeddingModel": "other", "memory.gateMinIdf": 2.5}, False),
]


class OverlapReranker(Reranker):
    """Logit = 2 x shared words - 3 (+ a length tiebreak); "broken" cannot load."""

    def load_model(self):
        if self.name == "broken":
            raise OSError("no such model")
        return object()

    def predict_sync(self, pairs):
        return np.array([2.0 * len(set(index_tokens(q)) & set(index_tokens(p))) - 3.0 + (len(p) % 7) / 100 for q, p in pairs])


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


async def explanations(folder: Path) -> list[dict[str, Any]]:
    """Every query's recall --json payload over a freshly built demo store."""
    settings = Settings.defaults().override(
        {"memory.embeddingModel": "fake", "memory.rerankEnabled": False, "memory.rerankModel": "overlap"}
    )
    engine = await MemoryEngine.open(
        folder / "demo.db",
        settings=settings,
        clock=lambda: NOW,
        embedder_factory=lambda name, **kw: FakeEmbedder(name),
        reranker_factory=OverlapReranker,
    )
    try:
        await build_demo(engine, now=NOW)
        await engine.recall_service.open()
        await engine.recall_service.embed_pending()  # recall never embeds inline: a fully embedded store
        out = []
        for query, overrides, include_superseded in QUERIES:
            res = await engine.recall(query, dry=True, overrides=overrides or None, include_superseded=include_superseded)
            data = res.to_dict()
            data.pop("timings_ms")
            out.append(_rounded(json.loads(json.dumps(data, default=str))))
        return out
    finally:
        await engine.close()


async def test_recall_explanations_match_the_golden_file(tmp_path):
    assert GOLDEN.exists(), f"golden file missing: {GOLDEN}"
    got = await explanations(tmp_path)
    want = json.loads(GOLDEN.read_text())
    assert len(got) == len(want) == len(QUERIES)
    for (query, _, _), g, w in zip(QUERIES, got, want):
        assert g == w, f"recall explanation changed for {query[:40]!r}"


if __name__ == "__main__":  # regenerate (a deliberate ranking change only)
    import tempfile

    data = asyncio.run(explanations(Path(tempfile.mkdtemp())))
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
