"""Words: the one English stop-word list and the two ways the engine cuts text
into words, shared by recall (`recall/tokenize.py`) and consolidation
(`consolidation/text.py`).

Two tokenizers, on purpose, because the callers need different things:

- `tokenize` (recall) must be symmetric between index and query and cover CJK:
  NFKC-normalised, case-folded runs of Unicode letters/digits; underscores,
  apostrophes and punctuation split words ("user_name" -> "user", "name"; "I'm"
  -> "i", "m"). Each run of Chinese/Japanese characters becomes its overlapping
  character bigrams ("向量检索" -> "向量", "量检", "检索"); a one-character run
  stays a single token. Bigrams rather than a word segmenter because they need no
  dependency or dictionary, are symmetric between index and query, never miss
  out-of-vocabulary names, and are what Lucene's CJKAnalyzer does; the price is
  some spurious cross-word bigrams, which BM25's IDF mostly discounts.
- `words` (consolidation) must keep a statement's values whole: "3.12",
  "node.js", "c++" and "ledger-cli" are one word each, and "doesn't" reads "does
  not", so a contradiction can compare versions and see negation.

One stop-word core, two documented extensions (each caller's set is pinned by
tests/engine/test_arch2_words.py):

- `STOP_WORDS` (recall, with the Chinese function words) adds contraction
  fragments and the rest of the closed class. BM25 itself is stop-word-free on
  purpose (issue 13): a long chat session repeats "the", "i", "you" so often that
  their small positive idf times a high tf lets chatty documents outrank the one
  holding the query's subject; dropping them made our BM25 equal to rank_bm25 on
  both dev sets (benchmarks/eval_experiments.py). Stemming was measured and is
  not used: +0.03 nDCG@10 on SciFact but -0.03 on LongMemEval sessions.
- `CHAT_STOP_WORDS` (fact extraction, slugs, contradiction anchors) adds chat
  filler and generic verbs ("use", "run") but keeps the negations ("not", "no",
  "nor"), which are what a contradiction turns on, and "may", a month.
"""

from __future__ import annotations

import re
import unicodedata

_CORE = frozenset(
    """
    a about above after again all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further get had
    has have having he her here hers him his how i if in into is it its itself just me more most my
    myself now of off on once only or other our ours out over own same she should so some such than
    that the their them then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your
    """.split()
)

ENGLISH_STOP_WORDS = _CORE | frozenset(
    """
    against aren cannot couldn d didn doesn don got hadn hasn haven herself himself isn let ll m may
    might must mustn no nor not o ourselves re s shall shan shouldn t theirs themselves us ve wasn
    weren won wouldn y yours yourself yourselves
    """.split()
)

CHAT_STOP_WORDS = _CORE | frozenset(
    """
    actually anymore btw currently days every fyi gets maybe oh ok okay one please ran really right
    run running runs still thank thanks think use used uses using well yeah yes
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

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
_TOKEN_RE = re.compile(rf"[{CJK}]+|[^\W_{CJK}]+")
_CJK_START = re.compile(rf"[{CJK}]")
_WORD = re.compile(r"[a-z0-9][a-z0-9+#]*(?:[.\-_][a-z0-9+#]+)*")


def normalize(text: str) -> str:
    """NFKC (full-width letters/digits become ASCII) and case folding."""
    return unicodedata.normalize("NFKC", text).casefold()


def tokenize(text: str) -> list[str]:
    """Recall's tokens of text in order, stop words included."""
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


def words(text: str) -> list[str]:
    """Consolidation's words of text: lower case, values kept whole, "n't" read as "not"."""
    return _WORD.findall(text.lower().replace("\u2019", "'").replace("n't", " not"))
