"""Issue 14: BM25 search skips the postings of a word most memories contain when the
rare query words already prove the top k (maxscore.py), and answers exactly what an
exhaustive search answers: the same memories, in the same order, with the same
float scores, through adds, edits, removals, compactions and superseded flags."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.recall import maxscore
from engine.recall.lexical import SUPERSEDED, LexicalIndex


def skewed_doc(rng: random.Random, vocab: int) -> list[str]:
    """A memory over a skewed vocabulary: "proj" (the project's own name) in most of
    them, often twice, a few mid-frequency words and a long tail of rare ones."""
    words = ["proj"] * rng.choice([0, 1, 1, 1, 2, 3])
    words += [f"w{min(int(rng.expovariate(0.05)), vocab)}" for _ in range(rng.randint(0, 14))]
    rng.shuffle(words)
    return words


class Mirror:
    """What the index should hold: each document's tokens, in slot order (an edit
    moves a document to the end), and which are superseded."""

    def __init__(self):
        self.docs: dict[str, list[str]] = {}
        self.superseded: set[str] = set()

    def put(self, doc_id: str, tokens: list[str]) -> None:
        """Add or re-index a document (re-indexing clears its flags, as index.add does)."""
        self.superseded.discard(doc_id)
        self.docs.pop(doc_id, None)
        self.docs[doc_id] = tokens

    def exhaustive(self, index: LexicalIndex, query: list[str], k: int, include_superseded: bool):
        """The top k by every document's score (index.get_scores scores every posting),
        ties in slot order: what search must return."""
        scores = index.get_scores(query)
        wanted = set(query)
        cands = [
            (slot, d)
            for slot, (d, toks) in enumerate(self.docs.items())
            if wanted & set(toks) and (include_superseded or d not in self.superseded)
        ]
        cands.sort(key=lambda c: (-scores[c[1]], c[0]))
        top = [d for _, d in cands[:k]]
        return top, np.array([scores[d] for d in top])


@pytest.fixture
def pruned(monkeypatch):
    """Counts the searches the pruned path answered (so a test knows it ran)."""
    answered = []
    real = maxscore.top_k

    def counting(*args, **kwargs):
        out = real(*args, **kwargs)
        answered.append(out is not None)
        return out

    monkeypatch.setattr(maxscore, "top_k", counting)
    return answered


def check_queries(index, mirror, rng, vocab, queries=12):
    for _ in range(queries):
        query = ["proj"] * rng.choice([1, 1, 2]) + [f"w{rng.randint(0, vocab)}" for _ in range(rng.randint(1, 3))]
        rng.shuffle(query)
        k = rng.choice([1, 3, 10, 50])
        for include in (False, True):
            hits = index.search(query, k, include_superseded=include)
            want_ids, want_scores = mirror.exhaustive(index, query, k, include)
            assert hits.ids == want_ids, (query, k, include)
            assert np.array_equal(hits.scores, want_scores), (query, k, include)
            for doc_id, matched in zip(hits.ids, hits.matched):
                assert matched == [t for t in dict.fromkeys(query) if t in mirror.docs[doc_id]]


def run_history(seed: int) -> None:
    rng = random.Random(seed)
    vocab = rng.choice([40, 200, 1000])
    mirror = Mirror()
    for i in range(rng.randint(200, 600)):
        mirror.put(f"d{i}", skewed_doc(rng, vocab))
    index = LexicalIndex.from_tokens(list(mirror.docs), list(mirror.docs.values()))
    check_queries(index, mirror, rng, vocab)
    for step in range(rng.randint(20, 120)):
        r = rng.random()
        if r < 0.5:
            doc_id = f"n{step}" if r < 0.3 else rng.choice(list(mirror.docs))
            mirror.put(doc_id, skewed_doc(rng, vocab))
            index.add(doc_id, mirror.docs[doc_id])
        elif r < 0.8 and len(mirror.docs) > 1:
            doc_id = rng.choice(list(mirror.docs))
            del mirror.docs[doc_id]
            mirror.superseded.discard(doc_id)
            assert index.remove(doc_id)
        else:
            doc_id = rng.choice(list(mirror.docs))
            mirror.superseded ^= {doc_id}
            index.set_flags(doc_id, SUPERSEDED if doc_id in mirror.superseded else 0)
        if rng.random() < 0.05:
            index.compact()
    check_queries(index, mirror, rng, vocab)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_pruned_search_equals_the_exhaustive_one(seed):
    run_history(seed)


def test_the_pruned_path_answers_most_queries_pairing_a_common_and_a_rare_word(pruned):
    """Without this the property above could pass by never pruning."""
    for seed in range(6):
        run_history(seed)
    assert sum(pruned) >= len(pruned) // 3, f"pruned {sum(pruned)} of {len(pruned)}"


def test_a_word_in_most_memories_is_not_scored_when_a_rare_word_decides(pruned):
    """1,000 memories name the project; 60 also name "kafka". Asking for "proj kafka"
    returns the kafka memories without scoring the project word's 1,000 postings."""
    docs = {f"p{i}": ["proj", f"t{i % 97}", f"u{i % 13}"] for i in range(1000)}
    docs.update({f"k{i}": ["proj", "kafka", f"t{i}"] for i in range(60)})
    index = LexicalIndex.from_tokens(list(docs), list(docs.values()))
    hits = index.search(["proj", "kafka"], 10)
    assert pruned == [True]
    assert all(h.startswith("k") for h in hits.ids)
    assert index.search(["proj", "kafka"], 10).ids == hits.ids


def test_negative_or_zero_weights_are_scored_exhaustively(pruned):
    """In a small store a word in most memories has a negative idf: no bound argument
    holds, so the exhaustive path answers (and still finds the match)."""
    docs = {"a": ["common", "x"], "b": ["common", "y"], "c": ["common", "z"]}
    index = LexicalIndex.from_tokens(list(docs), list(docs.values()))
    hits = index.search(["common", "x"], 1)
    assert pruned == [False]
    assert hits.ids == ["a"]
