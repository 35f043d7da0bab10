"""Tokenizer and BM25: parity with rank_bm25.BM25Okapi, incremental updates, search."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from engine.recall.lexical import LexicalIndex, bulk_tokenize_ids
from engine.recall.tokenize import content_tokens, entry_text, index_tokens, is_stop_word, tokenize


# ---- tokenizer -----------------------------------------------------------------------
def test_english_lowercase_word_boundaries_and_stop_words_kept():
    assert tokenize("The User's name_is  Ada, in BERLIN!") == ["the", "user", "s", "name", "is", "ada", "in", "berlin"]
    assert content_tokens(tokenize("what is the name of my dog")) == ["name", "dog"]
    assert is_stop_word("the") and not is_stop_word("berlin")


def test_unicode_normalisation():
    assert tokenize("ＡＢＣ１２ Straße Café") == ["abc12", "strasse", "café"]


def test_chinese_bigrams_and_mixed_text():
    assert tokenize("向量检索") == ["向量", "量检", "检索"]
    assert tokenize("用 Python 写的API") == ["用", "python", "写的", "api"]
    # a one-character run stays one token; stop characters are recognised
    assert tokenize("我") == ["我"] and is_stop_word("我") and is_stop_word("的")


def test_query_and_document_tokenised_alike():
    doc = tokenize(entry_text("user.city", "用户住在柏林 Berlin", ["home"]))
    assert set(tokenize("柏林")) <= set(doc) and "berlin" in doc and "home" in doc


def test_bulk_build_indexes_what_incremental_add_indexes():
    texts = ["The user's cat, in BERLIN", "我的向量检索 is fast", "the of and"]
    bulk = LexicalIndex.build(["a", "b", "c"], texts)
    one = LexicalIndex()
    for i, t in zip("abc", texts):
        one.add(i, index_tokens(t))
    assert "the" not in index_tokens(texts[0]) and index_tokens(texts[2]) == []
    for q in (["user", "cat"], ["向量", "fast"], ["the"]):
        assert bulk.get_scores(q) == pytest.approx(one.get_scores(q))
    assert bulk.search(["the"], 5).ids == []


@pytest.mark.parametrize(
    "texts",
    [
        ["Hello, World! I'm here", "向量检索很快 用 Python", "", "x", "ＡＢＣ user_name 的"],
        ["only ascii words here", "and more"],
        ["contains the \ue000 separator", "fine"],
    ],
)
def test_bulk_tokenizer_equals_per_document(texts):
    terms, doc, tid = bulk_tokenize_ids(texts)
    per = [[] for _ in texts]
    for d, t in zip(doc.tolist(), tid.tolist()):
        per[d].append(terms[t])
    assert per == [tokenize(t) for t in texts]


# ---- BM25 parity ---------------------------------------------------------------------
def assert_parity(index: LexicalIndex, docs: dict[str, list[str]], queries, tol=1e-6):
    ref = BM25Okapi(list(docs.values()))
    for query in queries:
        want = ref.get_scores(query)
        got = index.get_scores(query)
        assert set(got) == set(docs)
        for i, d in enumerate(docs):
            assert abs(want[i] - got[d]) <= tol, (query, d, want[i], got[d])
    assert abs(ref.average_idf - index.average_idf()) <= 1e-9
    for term in {t for ts in docs.values() for t in ts}:
        assert abs(ref.idf[term] - index.idf(term)) <= 1e-9


def random_corpus(rng: random.Random, vocab: int, n_docs: int):
    words = [f"w{i}" for i in range(vocab)]
    # skewed frequencies so some terms sit in more than half the documents (negative idf)
    docs = {}
    for i in range(n_docs):
        docs[f"d{i}"] = [words[min(int(rng.expovariate(0.4)), vocab - 1)] for _ in range(rng.randint(0, 15))]
    return words, docs


@pytest.mark.parametrize("seed", range(40))
def test_parity_with_rank_bm25_after_incremental_changes(seed):
    rng = random.Random(seed)
    words, docs = random_corpus(rng, rng.randint(3, 40), rng.randint(1, 40))
    docs["anchor"] = [rng.choice(words)]  # rank_bm25 needs a non-empty corpus
    index = LexicalIndex.from_tokens(list(docs), list(docs.values()))
    queries = [[rng.choice(words + ["unseen"]) for _ in range(rng.randint(1, 6))] for _ in range(6)]
    assert_parity(index, docs, queries)
    for step in range(rng.randint(5, 60)):
        r = rng.random()
        if r < 0.4:  # add
            d = f"n{step}"
            docs[d] = [rng.choice(words) for _ in range(rng.randint(0, 12))]
            index.add(d, docs[d])
        elif r < 0.7:  # update
            d = rng.choice(list(docs))
            docs[d] = [rng.choice(words) for _ in range(rng.randint(0, 12))]
            index.add(d, docs[d])
        elif len(docs) > 1:  # delete (keep the anchor so the corpus has text)
            d = rng.choice([x for x in docs if x != "anchor"] or ["anchor"])
            if d != "anchor":
                del docs[d]
                assert index.remove(d)
        if rng.random() < 0.1:
            index.compact()
        if step % 7 == 0:
            assert_parity(index, docs, queries)
    assert_parity(index, docs, queries)
    assert len(index) == len(docs)


@hsettings(max_examples=60, deadline=None)
@given(
    docs=st.lists(st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "g"]), max_size=8), min_size=1, max_size=15),
    query=st.lists(st.sampled_from(["a", "b", "c", "g", "zz"]), min_size=1, max_size=5),
    ops=st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 30), st.lists(st.sampled_from(["a", "b", "c", "h"]), max_size=6)), max_size=12
    ),
)
def test_parity_property(docs, query, ops):
    corpus = {f"d{i}": d for i, d in enumerate(docs)}
    index = LexicalIndex.from_tokens(list(corpus), list(corpus.values()))
    for kind, pick, tokens in ops:
        ids = list(corpus)
        if kind == 0:
            name = f"x{len(corpus)}_{pick}"
            corpus[name] = tokens
            index.add(name, tokens)
        elif kind == 1 and ids:
            d = ids[pick % len(ids)]
            corpus[d] = tokens
            index.add(d, tokens)
        elif kind == 2 and len(ids) > 1:
            d = ids[pick % len(ids)]
            del corpus[d]
            index.remove(d)
    if sum(len(v) for v in corpus.values()) == 0:
        return  # rank_bm25 divides by zero on an all-empty corpus
    assert_parity(index, corpus, [query])


def test_negative_idf_uses_epsilon_floor():
    docs = {"a": ["common", "x"], "b": ["common", "y"], "c": ["common", "z"]}
    index = LexicalIndex.from_tokens(list(docs), list(docs.values()))
    ref = BM25Okapi(list(docs.values()))
    assert index.raw_idf("common") < 0
    assert index.idf("common") == pytest.approx(0.25 * ref.average_idf)
    assert_parity(index, docs, [["common"], ["common", "x"]])


# ---- search --------------------------------------------------------------------------
def test_search_top_k_matched_terms_and_superseded_flag():
    texts = {
        "1": "user lives in berlin",
        "2": "berlin is the capital of germany berlin",
        "3": "the project uses python",
        "4": "old: user lives in paris",
    }
    index = LexicalIndex.build(list(texts), list(texts.values()), flags=[0, 0, 0, 1])
    hits = index.search(tokenize("where does the user live in berlin"), 10)
    assert hits.ids[0] in {"1", "2"} and "4" not in hits.ids
    assert list(hits.scores) == sorted(hits.scores, reverse=True)
    matched = dict(zip(hits.ids, hits.matched))
    assert "berlin" in matched["1"] and "user" in matched["1"]
    assert "3" not in matched  # stop words are not indexed: "the" alone matches nothing
    with_old = index.search(tokenize("paris"), 10, include_superseded=True)
    assert with_old.ids == ["4"]
    assert index.search(tokenize("paris"), 10).ids == []
    assert len(index.search(tokenize("berlin user python"), 2)) == 2


def test_tiny_store_matches_are_found_even_with_non_positive_scores():
    index = LexicalIndex.build(["only"], ["the user lives in berlin"])
    hits = index.search(["berlin"], 5)
    assert hits.ids == ["only"] and hits.scores[0] < 0  # one document: rank_bm25's idf is negative
    assert hits.matched == [["berlin"]]


def test_incremental_add_update_remove_visible_in_next_query():
    index = LexicalIndex.build(["a"], ["alpha beta"])
    index.add("b", tokenize("gamma delta"))
    assert index.search(["gamma"], 5).ids == ["b"]
    index.add("b", tokenize("epsilon"))  # update
    assert index.search(["gamma"], 5).ids == []
    assert index.search(["epsilon"], 5).ids == ["b"]
    index.remove("a")
    assert index.search(["alpha"], 5).ids == [] and len(index) == 1


def test_snapshot_roundtrip_preserves_scores():
    rng = random.Random(3)
    words, docs = random_corpus(rng, 30, 60)
    index = LexicalIndex.from_tokens(list(docs), list(docs.values()))
    index.add("late", ["w1", "w2"])
    index.remove("d3")
    copy = LexicalIndex.from_arrays(index.to_arrays())
    for q in (["w0"], ["w1", "w5", "w5"], ["w29"]):
        a, b = index.get_scores(q), copy.get_scores(q)
        assert a.keys() == b.keys()
        assert all(abs(a[k] - b[k]) < 1e-12 for k in a)


def test_large_random_corpus_parity_after_compaction():
    rng = np.random.default_rng(0)
    words = [f"t{i}" for i in range(500)]
    p = 1 / np.arange(1, 501) ** 1.1
    p /= p.sum()
    docs = {f"d{i}": list(rng.choice(words, rng.integers(1, 30), p=p)) for i in range(3000)}
    index = LexicalIndex.from_tokens(list(docs), list(docs.values()))
    for i in range(400):
        docs[f"n{i}"] = list(rng.choice(words, 10, p=p))
        index.add(f"n{i}", docs[f"n{i}"])
    for i in range(0, 800, 2):
        del docs[f"d{i}"]
        index.remove(f"d{i}")
    index.compact()
    assert_parity(index, docs, [["t0", "t1"], ["t100", "t7", "t0"], ["t499"]])
