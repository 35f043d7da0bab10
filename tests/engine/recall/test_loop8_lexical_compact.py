"""A sync that grew the lexical index's delta past its compaction limit folded it in on
the event loop: `LexicalIndex.add` compacted as soon as the delta held 50,000 postings
(or a quarter of the base), inside the sync's apply loop. At 100k entries that rebuild
takes a second or more, and the app's loop stalled on it during a live-reload burst or
an import in another process (issue 14). The sync now folds the delta in a thread under
the index lock and swaps the copy in on the loop; the index answers as before."""

from __future__ import annotations

import threading
from dataclasses import replace

from engine.recall.lexical import LexicalIndex
from engine.recall.tokenize import entry_text, index_tokens
from engine.store import Store

from .helpers import insert, make_entry


def _content(i: int) -> str:
    return " ".join(f"word{(i * 7 + j * 13) % 4000}" for j in range(16))


def base_threads(monkeypatch) -> list[int]:
    """The thread that made each fresh lexical base from now on (a compaction makes one)."""
    bases: list[int] = []
    real_set_base = LexicalIndex._set_base

    def set_base(self, *args):
        bases.append(threading.get_ident())
        return real_set_base(self, *args)

    monkeypatch.setattr(LexicalIndex, "_set_base", set_base)
    return bases


def built_from(entries) -> LexicalIndex:
    """A lexical index built afresh from the entries: what a compacted one must answer like."""
    return LexicalIndex.from_tokens(
        [e.id for e in entries], [index_tokens(entry_text(e.key, e.content, e.tags)) for e in entries]
    )


async def test_a_sync_that_fills_the_delta_folds_it_in_off_the_loop(store, make_service, monkeypatch):
    svc = await make_service()
    await svc.recall("anything")
    entries = [make_entry(f"note-{i}", _content(i)) for i in range(4000)]  # 16 terms each: 64k postings
    await insert(store, *entries)
    loop_thread = threading.get_ident()
    bases = base_threads(monkeypatch)
    assert await svc.sync() == len(entries)
    assert bases, "the delta passed the compaction limit and was never folded in"
    assert loop_thread not in bases

    lexical = svc.indexes.lexical
    assert not lexical.compact_due()
    fresh = built_from(entries)
    for query in (["word7", "word20"], ["word3999"], ["note", "word100", "word13"]):
        assert lexical.get_scores(query) == fresh.get_scores(query)
    result = await svc.recall("word7 word20")  # note-1 is the one entry holding both words
    assert entries[1].id in result.hit_ids[:3]


async def test_a_sync_that_rewrites_many_entries_folds_their_old_postings_off_the_loop(store, make_service, monkeypatch):
    """Re-indexing an entry removes its old postings first: thousands of edits pile up dead
    postings past the limit just as new entries do."""
    entries = [make_entry(f"note-{i}", _content(i)) for i in range(4000)]
    await insert(store, *entries)
    svc = await make_service()
    await svc.recall("anything")
    entries = [replace(e, content=_content(i + 5000)) for i, e in enumerate(entries)]  # every text changed
    async with store.transaction() as conn:
        for e in entries:
            await Store.update_entry(conn, e)
    loop_thread = threading.get_ident()
    bases = base_threads(monkeypatch)
    assert await svc.sync() == len(entries)
    assert bases, "the dead postings passed the compaction limit and were never folded out"
    assert loop_thread not in bases
    fresh = built_from(entries)
    for query in (["word35"], ["note", "word3999", "word13"]):
        assert svc.indexes.lexical.get_scores(query) == fresh.get_scores(query)


def test_a_compacted_copy_leaves_the_original_untouched_until_adopted():
    index = LexicalIndex.from_tokens(["a", "b"], [["red", "fox"], ["blue", "fox"]])
    index.add("c", ["red", "hen"], compact=False)
    index.remove("a", compact=False)
    before = index.get_scores(["red", "fox"])
    copy = index.compacted()
    assert index.get_scores(["red", "fox"]) == before
    assert copy.get_scores(["red", "fox"]) == before
    index.adopt(copy)
    assert index.get_scores(["red", "fox"]) == before
    assert sorted(index.ids()) == ["b", "c"]
