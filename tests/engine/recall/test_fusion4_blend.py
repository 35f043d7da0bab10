"""Issue 13: the shipped memory.importanceBlend. The forgetting curve decides
between memories that are nearly as relevant (a few ranks apart in both paths),
so the fresher one leads; it never lifts a memory far behind in both paths over
a much better one. Hand-made corpus, hand-set vectors, the whole pipeline."""

from __future__ import annotations

from datetime import timedelta

from engine.config import KNOBS

from .helpers import NOW, make_entry
from .test_recall_quality import recall

# "topic" is in every candidate once; longer texts score lower in BM25, and the
# cosines fall in the same order, so candidate i is i-th in both paths.
CANDIDATES = [f"c{i}" for i in range(12)]
UNRELATED = [(f"u{i}", f"gamma delta {i}", 0.0) for i in range(12)]


def corpus(stale: str) -> tuple[list, list]:
    docs = [(key, "topic " + " ".join(f"w{j}" for j in range(i)), 0.9 - 0.02 * i) for i, key in enumerate(CANDIDATES)]
    docs += UNRELATED
    entries = [make_entry(k, c, last_accessed=NOW - timedelta(days=45)) if k == stale else make_entry(k, c) for k, c, _ in docs]
    return docs, entries


async def test_a_near_tie_goes_to_the_fresher_memory_but_relevance_still_leads():
    # c0 leads both paths but has not been used for 45 days (1.5 half-lives)
    docs, entries = corpus("c0")
    keys, res = await recall(docs, "topic", entries=entries)
    assert res.settings["memory.importanceBlend"] == KNOBS["memory.importanceBlend"].default
    # fresh memories four ranks behind in both paths (~6 % less RRF) come first ...
    assert keys.index("c4") < keys.index("c0")
    # ... one far behind in both paths (c9, nine ranks: ~13 % less RRF) does not
    assert keys.index("c0") < keys.index("c9")
    # with the curve off, pure relevance: c0 first
    keys, _ = await recall(docs, "topic", entries=entries, **{"memory.importanceBlend": 0.0})
    assert keys[0] == "c0"
