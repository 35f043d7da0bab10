"""Issue 13: an evaluation JSON names the code it measured. A long run (the
LongMemEval turn run takes an hour on a loaded machine) must record the revision
it started from, not whatever was committed while it ran."""

from __future__ import annotations

from engine.recall import evaluation
from engine.recall.evaluation import run_beir

from .helpers import FakeEmbedder
from .test_evaluation import write_beir


async def test_the_recorded_revision_is_the_one_the_run_started_from(tmp_path, monkeypatch):
    head = ["abc123"]
    monkeypatch.setattr(evaluation, "git_revision", lambda: head[0])

    def embedder(name):  # called once the run is under way: a commit lands now
        head[0] = "def456"
        return FakeEmbedder(name)

    write_beir(tmp_path / "beir")
    res = await run_beir(tmp_path / "beir", "test", None, {"memory.embeddingModel": "fake"}, embedder_factory=embedder)
    assert res["_meta"]["git_revision"] == "abc123"
