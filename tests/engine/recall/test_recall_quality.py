"""Issue 13: recall quality. Lexical parity with rank_bm25 on a plain
stop-worded tokenizer, and each fusion knob moving ranks the way it says."""

from __future__ import annotations

import re

from rank_bm25 import BM25Okapi

from engine.recall.tokenize import ENGLISH_STOP_WORDS

from .helpers import NOW, insert, make_entry

# chat-like memories: one chatty session full of stop words that mentions the
# trip once, one that is about the trip, and unrelated ones without stop words
CHAT = [
    ("chatty", "user: what did i do? i did what i said i would do and what you did was what i did, "
               "then i said it was what it was and i did it again on the trip"),
    ("lake", "user: say something about our lake trip, cold water, tent"),
    ("recipe", "assistant: flour, sugar, eggs, butter"),
    ("dog", "user: dog called rex, likes walks"),
    ("table", "user: book table for two, friday"),
    ("car", "assistant: tyre pressure, oil change, brakes"),
]


def plain(text: str) -> list[str]:
    return [t for t in re.findall(r"\w+", text.lower()) if t not in ENGLISH_STOP_WORDS]


async def test_bm25_path_ranks_like_rank_bm25_with_a_plain_stop_worded_tokenizer(store, make_service):
    entries = await insert(store, *[make_entry(k, c) for k, c in CHAT])
    svc = await make_service()
    query = "what did i say about the trip"
    bm25, _ = await svc.candidates(query, 10)
    ref = BM25Okapi([plain(f"{k}\n{c}") for k, c in CHAT]).get_scores(plain(query))
    want = [entries[i].id for i in sorted(range(len(CHAT)), key=lambda i: -ref[i]) if ref[i] > 0]
    assert bm25.ids == want
    assert bm25.ids[0] == entries[1].id  # the session about the trip, not the chatty one
