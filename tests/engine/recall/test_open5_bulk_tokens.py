"""The bulk tokenizer a first open builds the index with cuts exactly what the
per-text tokenizer (the one queries go through) cuts: otherwise a query word would
miss the memories holding it, or match others."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.recall import bulk_tokens
from engine.recall.bulk_tokens import bulk_tokenize_ids
from engine.recall.lexical import LexicalIndex
from engine.recall.tokenize import index_tokens, tokenize

# Word pieces of every length around the 8-byte packing and the long-token limit,
# glued by the characters the tokenizer splits on or keeps.
ASCII_PIECES = st.one_of(
    st.text("abcXYZ019", min_size=1, max_size=20),
    st.sampled_from(["a" * 8, "b" * 9, "c" * 16, "d" * 17, "e" * 64, "f" * 65, "g" * 130, "abcdefgh" * 9]),
    st.sampled_from(["'s", "n't", "_", "-", ".", " ", "\n", "\t", ",", "3.12", "c++", "user_name", "\x00", "~"]),
)
ASCII_TEXT = st.lists(ASCII_PIECES, max_size=30).map("".join)
ANY_TEXT = st.one_of(
    ASCII_TEXT,
    st.text(
        st.one_of(
            st.sampled_from(list("向量检索的我・ー한국어ＡＢＣ１２ßéŞİﬁ\ue000'’_ \n")),
            st.characters(codec="utf-8", exclude_categories=("Cs",)),
            st.sampled_from("abcdXYZ0123456789 .,'"),
        ),
        max_size=40,
    ),
)


def per_text(texts: list[str]) -> list[list[str]]:
    """What bulk_tokenize_ids cut, regrouped per text."""
    terms, doc, tid = bulk_tokenize_ids(texts)
    assert len(set(terms)) == len(terms), "a term listed twice"
    out: list[list[str]] = [[] for _ in texts]
    for d, t in zip(doc.tolist(), tid.tolist()):
        out[d].append(terms[t])
    return out


def first_seen(texts: list[str]) -> list[str]:
    return list(dict.fromkeys(t for text in texts for t in tokenize(text)))


@hsettings(max_examples=300, deadline=None)
@given(st.lists(ASCII_TEXT, min_size=1, max_size=8))
def test_ascii_texts_cut_like_the_query_tokenizer(texts):
    assert per_text(texts) == [tokenize(t) for t in texts]
    assert bulk_tokenize_ids(texts)[0] == first_seen(texts)  # terms numbered by first occurrence


@hsettings(max_examples=300, deadline=None)
@given(st.lists(ANY_TEXT, min_size=1, max_size=8))
def test_any_texts_cut_like_the_query_tokenizer(texts):
    """CJK, full-width forms, case folding, possessives, numbers, punctuation, the
    regex path's own separator: whichever path a chunk takes, the same tokens."""
    assert per_text(texts) == [tokenize(t) for t in texts]
    assert bulk_tokenize_ids(texts)[0] == first_seen(texts)


def test_a_hash_collision_falls_back_to_exact_tokens(monkeypatch):
    """If two different words ever hashed alike they would become one term: the
    check after grouping catches it (forced here: every key hashes to 0)."""
    monkeypatch.setattr(bulk_tokens, "_MIX", bulk_tokens.np.uint64(0))
    texts = ["apple banana apple", "cherry " + "x" * 70, "banana date"]
    assert per_text(texts) == [tokenize(t) for t in texts]


@pytest.mark.parametrize(
    "texts",
    [
        ["Deploy with `make ship`; the API key lives in ~/.config/app.toml", "We ship on FRIDAYS", ""],
        ["commit 4f2c9a1be33d0c8e1f7a2b6c9d0e4f5a6b7c8d9e fixed it", "4F2C9A1BE33D0C8E1F7A2B6C9D0E4F5A6B7C8D9E"],
        ["Ada's laptop", "向量检索 uses Python 3.12"],
    ],
)
def test_index_built_in_bulk_finds_what_a_query_names(texts):
    """The user-visible end: a query for a text's words ranks that text first, and the
    scores equal those of an index fed one text at a time through the query tokenizer."""
    bulk = LexicalIndex.build([str(i) for i in range(len(texts))], texts)
    one = LexicalIndex()
    for i, t in enumerate(texts):
        one.add(str(i), index_tokens(t))
    for t in texts:
        q = index_tokens(t)
        assert bulk.get_scores(q) == pytest.approx(one.get_scores(q))
        if q:
            assert bulk.search(q, 1).ids == one.search(q, 1).ids
