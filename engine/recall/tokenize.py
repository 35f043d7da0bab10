"""One tokenizer for indexing and for queries, so a query token can only match
what the index produced from the same rules.

English (and any script that separates words with spaces): NFKC-normalised,
case-folded runs of Unicode letters/digits; underscores, apostrophes and
punctuation split words ("user_name" -> "user", "name"; "I'm" -> "i", "m").

Chinese/Japanese (Han, kana): each run of CJK characters becomes its overlapping
character bigrams ("向量检索" -> "向量", "量检", "检索"); a one-character run stays a
single token. Bigrams rather than a word segmenter because they need no
dependency or dictionary, are symmetric between index and query (a segmenter can
cut the query and the document differently), never miss out-of-vocabulary names,
and are what Lucene's CJKAnalyzer does; the price is some spurious cross-word
bigrams, which BM25's IDF mostly discounts. Mixed text ("用 Python 写的 API")
yields both kinds in order.

`tokenize` keeps stop words (the query checks name them); what BM25 indexes
and searches is `index_tokens`, the same stream without them. Keeping them in
BM25 cost 1-2 points against rank_bm25 with a plain stop-worded tokenizer:
a long chat session repeats "the", "i", "you" so often that their (small but
positive) idf times a high tf lets chatty documents outrank the one holding the
query's subject (measured in benchmarks/eval_experiments.py). Dropping them made
our BM25 equal to that baseline on both dev sets. Stemming (PyStemmer, English
Snowball) was measured too and is not used: +0.03 nDCG@10 on SciFact but -0.03
on LongMemEval sessions.
"""

from __future__ import annotations

import re
import unicodedata

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
_TOKEN_RE = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+")
_CJK_START = re.compile(rf"[{_CJK}]")

ENGLISH_STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are aren as at be because been before
    being below between both but by can cannot could couldn d did didn do does doesn doing don
    down during each few for from further had hadn has hasn have haven having he her here hers
    herself him himself his how i if in into is isn it its itself just ll m me more most mustn
    my myself no nor not now o of off on once only or other our ours ourselves out over own re
    s same shan she should shouldn so some such t than that the their theirs them themselves
    then there these they this those through to too under until up ve very was wasn we were
    weren what when where which while who whom why will with won would wouldn y you your yours
    yourself yourselves also get got would shall may might must let us
    """.split()
)

# Function characters and common function words; with bigram tokenisation a
# stop entry can be one character (from a one-character run) or a bigram.
CHINESE_STOP_WORDS = frozenset(
    """
    的 了 是 在 我 你 他 她 它 和 与 及 或 就 都 也 还 很 吗 呢 吧 啊 呀 哦 着 过 被 把 给 从 对 向 于 以 之 而
    这 那 个 有 没 不 一 上 下 中 们 么 其 所 为
    我们 你们 他们 她们 它们 这个 那个 这些 那些 什么 怎么 一个 没有 就是 可以 因为 所以 但是 如果 已经
    还是 自己 的是 是的 了的 在的 我的 你的 他的 她的 它的 这是 那是 不是 也是 都是 就是 而且 或者 以及 然后
    """.split()
)

STOP_WORDS = ENGLISH_STOP_WORDS | CHINESE_STOP_WORDS


def is_stop_word(token: str) -> bool:
    return token in STOP_WORDS


def normalize(text: str) -> str:
    """NFKC (full-width letters/digits become ASCII) and case folding."""
    return unicodedata.normalize("NFKC", text).casefold()


def tokenize(text: str) -> list[str]:
    """Tokens of text in order, stop words included."""
    out: list[str] = []
    append = out.append
    for run in _TOKEN_RE.findall(normalize(text)):
        if _CJK_START.match(run):
            if len(run) == 1:
                append(run)
            else:
                out.extend(run[i : i + 2] for i in range(len(run) - 1))
        else:
            append(run)
    return out


def content_tokens(tokens: list[str]) -> list[str]:
    """The tokens that are not stop words."""
    return [t for t in tokens if t not in STOP_WORDS]


def index_tokens(text: str) -> list[str]:
    """What BM25 indexes and searches for text: its tokens without stop words."""
    return content_tokens(tokenize(text))


def entry_text(key: str, content: str, tags: list[str]) -> str:
    """What the lexical index and the embedder see for a memory: key, content, tags."""
    parts = [key, content]
    if tags:
        parts.append(" ".join(tags))
    return "\n".join(p for p in parts if p)
