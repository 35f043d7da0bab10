"""Issue 10: the spec's knowledge base (the `<db>.kb.npz` sidecar) is reachable:
`echo-memory kb build PATH...`, `kb recall QUERY`, `kb info`."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.errors import InvalidValue
from engine.recall import knowledge
from engine.recall.knowledge import KnowledgeBaseError, passages, sidecar_path

from .helpers import FakeEmbedder

DEPLOY = "# Deploy\n\nThe service deploys with kubectl apply.\n\nRollbacks use helm rollback on the prod cluster.\n"
OFFICE = "The coffee machine on floor three is broken again.\n"


@pytest.fixture
def docs(tmp_path):
    folder = tmp_path / "docs"
    (folder / "ops").mkdir(parents=True)
    (folder / "ops" / "deploy.md").write_text(DEPLOY)
    (folder / "office.txt").write_text(OFFICE)
    (folder / "image.png").write_bytes(b"\x89PNG\r\n")  # not a text suffix: skipped in a folder
    return folder


def test_passages_pack_paragraphs_and_cut_long_ones():
    assert passages("a b\n\nc d\n\n\n e ") == ["a b\n\nc d\n\ne"]
    long = " ".join(["word"] * 100)  # 499 characters
    parts = passages(f"intro\n\n{long}", limit=120)
    assert parts[0] == "intro" and all(len(p) <= 120 for p in parts)
    assert " ".join(parts[1:]).split() == long.split()  # nothing lost at the cuts


async def test_build_recall_rebuild_and_info(tmp_path, docs):
    db, emb = tmp_path / "s.db", FakeEmbedder("fake")
    report = await knowledge.build(db, emb, [str(docs)])
    assert (report["documents"], report["passages"]) == (2, 2)
    hits = await knowledge.recall(db, emb, "helm rollback prod cluster", limit=1)
    assert hits[0].id.endswith("ops/deploy.md#0") and "helm rollback" in hits[0].text
    # a rebuilt document replaces its passages; the others stay
    (docs / "ops" / "deploy.md").write_text("Deploys now go through argocd sync.\n")
    await knowledge.build(db, emb, [str(docs / "ops" / "deploy.md")])
    hits = await knowledge.recall(db, emb, "helm rollback argocd", limit=5)
    assert len(hits) == 2 and any("argocd" in h.text for h in hits) and not any("helm" in h.text for h in hits)
    info = knowledge.info(db)
    assert (info["passages"], info["documents"], info["model_id"]) == (2, 2, emb.model_id)


async def test_a_model_change_is_refused_until_reset(tmp_path, docs):
    db = tmp_path / "s.db"
    await knowledge.build(db, FakeEmbedder("fake", dim=64), [str(docs)])
    other = FakeEmbedder("other", dim=32)
    with pytest.raises(KnowledgeBaseError, match="kb build --reset"):
        await knowledge.build(db, other, [str(docs / "office.txt")])
    report = await knowledge.build(db, other, [str(docs / "office.txt")], reset=True)
    assert report["total_passages"] == 1 and knowledge.info(db)["model_id"] == other.model_id


async def test_bad_paths_are_refused_before_anything_is_written(tmp_path, docs):
    db, emb = tmp_path / "s.db", FakeEmbedder("fake")
    (docs / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(InvalidValue, match="latin1.txt: not UTF-8"):
        await knowledge.build(db, emb, [str(docs / "office.txt"), str(docs / "latin1.txt")])
    with pytest.raises(InvalidValue, match="nope: no such file or folder"):
        await knowledge.build(db, emb, [str(tmp_path / "nope")])
    with pytest.raises(InvalidValue, match="no text files"):
        await knowledge.build(db, emb, [str(_empty(tmp_path))])
    assert not sidecar_path(db).exists() and emb.encoded == 0


def _empty(tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def test_cli_kb_commands(tmp_path, docs, capsys):
    db = str(tmp_path / "s.db")
    assert main(["--db", db, "--create", "kb", "info"]) == 0
    assert "not built yet" in capsys.readouterr().out
    assert main(["--db", db, "kb", "recall", "deploy"]) == 1
    assert "kb build" in capsys.readouterr().err
    assert main(["--db", db, "kb", "build", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "no such file or folder" in err and "Traceback" not in err
    # the real embedding model, once: build, recall, info
    assert main(["--db", db, "kb", "build", str(docs)]) == 0
    assert "2 passages from 2 documents" in capsys.readouterr().out
    assert main(["--db", db, "kb", "recall", "how do I roll back a deploy", "--limit", "1", "--json"]) == 0
    [hit] = json.loads(capsys.readouterr().out)
    assert hit["id"].endswith("deploy.md#0")
    assert main(["--db", db, "kb", "info", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["passages"] == 2
    assert main(["--db", db, "--read-only", "kb", "build", str(docs)]) == 1
    assert "read-only" in capsys.readouterr().err
