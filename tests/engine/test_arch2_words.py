"""Issue 10: one module (engine/words.py) holds the stop words and the
tokenizers recall and consolidation use; each caller keeps what it needs."""

from __future__ import annotations

from engine import words
from engine.consolidation import text
from engine.consolidation.text import content_words, slug
from engine.recall import bulk_tokens, lexical, tokenize
from engine.recall.pipeline import prepare_query


def test_recall_and_consolidation_read_the_one_module():
    assert tokenize.STOP_WORDS is lexical.STOP_WORDS is words.STOP_WORDS
    assert tokenize.tokenize is bulk_tokens.tokenize is words.tokenize  # the index builder cuts with the same rules
    assert text.STOP_WORDS is words.CHAT_STOP_WORDS and text.words is words.words
    # one core: every word both callers drop is in both lists
    assert words._CORE <= words.ENGLISH_STOP_WORDS and words._CORE <= words.CHAT_STOP_WORDS


def test_recall_drops_contraction_fragments_and_keeps_cjk_bigrams():
    assert prepare_query("I'm sure they'd not").content == ["sure"]
    assert prepare_query("向量检索 ok").content == ["向量", "量检", "检索", "ok"]


def test_consolidation_keeps_negations_months_and_values_whole():
    assert words.words("Maya doesn't use Node.js 20 in May") == [
        "maya",
        "does",
        "not",
        "use",
        "node.js",
        "20",
        "in",
        "may",
    ]
    assert slug("not in May, not ever") == "not-may-not"
    assert content_words("She really uses zsh every day") == {"zsh", "day"}
