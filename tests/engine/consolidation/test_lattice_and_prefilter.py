"""The version lattice of an entry, restore through the gate, and the
contradiction pre-filter's signals and bounds."""

from __future__ import annotations

import numpy as np
import pytest

from engine.consolidation import Signals, Verdict
from engine.consolidation.detect import candidate_pairs, cosines, key_tokens, signals
from engine.gate import EntryNotFound
from engine.models import MemoryEntry, MemoryTier, ProvenanceLevel

from .helpers import FakeModel, converse, fact, use_model


async def test_lattice_holds_every_version_and_resolution_edge(engine, svc, clock):
    v1 = (await engine.add("atlas/python-version", "Python 3.10.", tags=["atlas-api"])).entry
    clock.advance(days=1)
    v2 = (await engine.add("atlas/python-version", "Python 3.11.", tags=["atlas-api"])).entry
    clock.advance(days=1)
    v3 = (await engine.add("atlas/python-version", "Python 3.12.", tags=["atlas-api"])).entry
    clock.advance(days=1)
    other = (
        await engine.add("atlas-api/python", "atlas-api is on Python 3.13.", source="consolidated", tags=["atlas-api"])
    ).entry
    c, _ = await svc.book.record(
        v3, other, Verdict(True, 0.9, "version", "3.12 vs 3.13", "", "x"), Signals(0.5, 0.5), "r", "test"
    )
    for start in (v1, v2, v3, other):  # the same graph from anywhere in it
        lattice = await svc.lattice(start.id)
        assert [n["id"] for n in lattice.nodes] == [v1.id, v2.id, v3.id, other.id]
        assert lattice.root_id == start.id
    assert {(e["from"], e["to"], e["kind"]) for e in lattice.edges} == {
        (v1.id, v2.id, "supersede"),
        (v2.id, v3.id, "supersede"),
        (v3.id, other.id, "supersede"),
    }
    node = lattice.nodes[0]
    assert {"id", "version", "tier", "superseded_by", "key", "source", "created_at"} <= set(node)
    assert (node["version"], node["tier"], node["superseded_by"]) == (1, "archival", v2.id)


async def test_restoring_an_earlier_version_goes_through_the_gate(engine, svc, clock):
    v1 = (await engine.add("orbit/bundler", "webpack 4.")).entry
    clock.advance(days=1)
    v2 = (await engine.add("orbit/bundler", "Vite 5.")).entry
    outcome = await svc.restore_version(v1.id)
    assert outcome.action == "replaced" and outcome.entry.content == "webpack 4." and outcome.entry.version == 3
    assert outcome.entry.source is ProvenanceLevel.USER_STATED
    lattice = await svc.lattice(v2.id)
    assert [n["version"] for n in lattice.nodes] == [1, 2, 3]
    assert [n["tier"] for n in lattice.nodes] == ["archival", "archival", "semantic"]


async def test_lattice_of_a_missing_entry(svc):
    with pytest.raises(EntryNotFound):
        await svc.lattice("nope")


def entry(key, tags=(), id_=None) -> MemoryEntry:
    e = MemoryEntry(key=key, content="x", tags=list(tags))
    if id_:
        e.id = id_
    return e


def test_key_similarity_ignores_generic_words_and_stems():
    assert key_tokens("atlas/python-version") == {"atlas", "python"}
    assert signals(entry("atlas/python-version"), entry("atlas-api/python")).key_similarity == pytest.approx(2 / 3)
    assert signals(entry("a/x", ["atlas-api", "python"]), entry("b/y", ["python"])).tag_overlap == 0.5


def test_pairs_are_filtered_ranked_and_bounded():
    new = entry("atlas-api/python", ["atlas-api", "python"], "n")
    live = [
        new,
        entry("atlas/python-version", ["atlas-api", "python"], "strong"),
        entry("orbit/bundler", ["orbit-web"], "unrelated"),
        entry("atlas/db", ["atlas-api", "postgres"], "weak"),
    ]
    pairs = candidate_pairs([new], live, max_pairs=10)
    assert [(a.id, b.id) for a, b, _ in pairs] == [("strong", "n"), ("weak", "n")]
    assert len(candidate_pairs([new], live, max_pairs=1)) == 1
    assert candidate_pairs([new], live, 10, skip={frozenset(("strong", "n"))})[0][0].id == "weak"
    similar = candidate_pairs([new], live, 10, cosine={frozenset(("n", "unrelated")): 0.9})
    assert "unrelated" in [a.id for a, _, _ in similar]


async def test_embedding_similarity_comes_from_stored_vectors_of_the_same_model(engine):
    ids = [(await engine.add(k, "x")).entry.id for k in ("a/one", "b/two", "c/three")]
    vectors = {ids[0]: ("m1", [1.0, 0.0]), ids[1]: ("m1", [0.8, 0.6]), ids[2]: ("m2", [1.0, 0.0])}
    async with engine.store.transaction() as conn:
        for entry_id, (model, values) in vectors.items():
            await conn.execute(
                "INSERT INTO vectors(entry_id, model_id, dim, vector) VALUES (?,?,?,?)",
                (entry_id, model, 2, np.array(values, dtype=np.float32).tobytes()),
            )
    found = await cosines(engine.store, [ids[0]], ids)
    assert found == {frozenset(ids[:2]): pytest.approx(0.8)}  # the m2 vector is another space: ignored


async def test_a_run_verifies_at_most_max_pairs(engine, svc):
    for i in range(5):
        await engine.add(f"atlas/fact-{i}", f"atlas-api fact {i}.", tags=["atlas-api", "python"])
    svc.engine.settings = engine.settings = engine.settings.override({"memory.contradictionMaxPairs": 3})
    model = FakeModel(facts=[fact("atlas-api/python", "atlas-api uses Python 3.13.", tags=["atlas-api", "python"])])
    use_model(svc, model)
    await converse(svc, "s1", "anything")
    assert model.calls.count("verify") == 3 and (await svc.runs())[0].counts["pairs"] == 3


async def test_consolidated_losers_move_to_archival(engine, svc):
    pinned = await engine.add(
        "atlas/python-version", "atlas-api runs on Python 3.12.", tags=["atlas-api", "python"], source="user_stated", pinned=True
    )
    await converse(svc, "s1", "atlas-api is on Python 3.13 now.")
    [c] = await svc.contradictions()
    assert c.resolution == "auto:provenance" and c.entry_a_id == pinned.entry.id
    loser = await engine.get(c.entry_b_id)
    assert loser.tier is MemoryTier.ARCHIVAL and loser.superseded_by == pinned.entry.id
