"""Incremental Okapi BM25 whose scores equal `rank_bm25.BM25Okapi` on the same tokens.

rank_bm25 (k1=1.5, b=0.75, epsilon=0.25) scores a document d for a query q1..qn
(repeated query tokens count each time) as

    sum_i idf(qi) * tf(qi,d) * (k1+1) / (tf(qi,d) + k1 * (1 - b + b * |d| / avgdl))
    idf(t) = log(N - n(t) + 0.5) - log(n(t) + 0.5)       if that is >= 0
           = epsilon * average_idf                         otherwise

where average_idf is the mean raw idf over the whole vocabulary. Because N,
avgdl and average_idf depend on the whole corpus, nothing corpus-wide is
precomputed: the index keeps document frequencies, the total length and a
histogram of document frequencies (how many terms occur in exactly n documents)
incrementally, so idf is computed at query time for the query's terms only and
average_idf costs one pass over the distinct document-frequency values, cached
until the next write.

Layout: a compressed base (term-major postings and doc-major term lists as flat
numpy arrays, built in bulk) plus a delta for documents added since, and an
`alive` mask for removed ones. An update is remove + add. When the delta or the
dead postings grow large the whole thing is compacted back into a base. A query
touches only the postings of its terms.

Why so long: one data structure with one invariant (scores equal rank_bm25's
after any sequence of adds, removes and compactions); the bulk builder, the delta,
the compaction and the snapshot format all maintain the same arrays, and split
across modules each would need the others' private layout.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

import numpy as np

from ..words import STOP_WORDS
from . import maxscore
from .bulk_tokens import bulk_tokenize_ids
from .topk import stable_top_k

TOKENIZER_VERSION = 2  # 2: stop words are not indexed
SUPERSEDED = 1  # flag bit: the entry has superseded_by set


@dataclass
class LexicalHits:
    """BM25 candidates, best first: entry ids, scores, and which query terms each matched."""

    ids: list[str]
    scores: np.ndarray
    matched: list[list[str]]
    query_terms: list[str]  # distinct query tokens, in query order

    def __len__(self) -> int:
        return len(self.ids)


COMPACT_MIN_POSTINGS = 50_000
"""A delta smaller than this is never folded in (at any size of the base)."""


def _grow(arr: np.ndarray, need: int, fill=0) -> np.ndarray:
    if need <= len(arr):
        return arr
    new = np.full(max(need, 2 * len(arr), 16), fill, dtype=arr.dtype)
    new[: len(arr)] = arr
    return new


def _count_pairs(doc: np.ndarray, tid: np.ndarray, n_terms: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (doc, term) pairs of the occurrences, sorted, with their counts. An
    in-place sort of packed keys and a boundary scan: np.unique took ~10x longer on
    the nearly sorted keys a build makes (20M occurrences) and held three more copies."""
    key = doc.astype(np.int64) * n_terms + tid
    key.sort()
    if not len(key):
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    first = np.empty(len(key), bool)
    first[0] = True
    np.not_equal(key[1:], key[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    del first
    counts = np.diff(starts, append=len(key))
    ukey = key[starts]
    del key, starts
    return ukey // n_terms, ukey % n_terms, counts


_TF_BITS = 20


def _term_major(d_doc, d_tid, tf, n_docs: int, n_terms: int) -> tuple[np.ndarray, np.ndarray]:
    """(slots, tf) of the postings in term order, slots ascending within a term: one
    in-place sort of (term, slot, tf) packed into an int64 when they fit (integer
    counts; a stable argsort of 15M term ids took ~4x as long), else the argsort.
    Computed in place: at a million entries each temporary would be ~160 MB."""
    fits = n_docs * n_terms < 1 << (63 - _TF_BITS)
    if fits and tf.dtype.kind in "iu" and int(tf.max(initial=0)) < 1 << _TF_BITS:
        key = d_tid.astype(np.int64)
        key *= n_docs
        key += d_doc
        key <<= _TF_BITS
        key |= tf
        key.sort()
        ttf = (key & ((1 << _TF_BITS) - 1)).astype(np.float32)
        key >>= _TF_BITS
        key %= max(n_docs, 1)
        return key.astype(np.int32), ttf
    order = np.argsort(d_tid, kind="stable")
    return np.asarray(d_doc[order], np.int32), np.asarray(tf, np.float32)[order]


class LexicalIndex:
    """Okapi BM25 over an incrementally maintained inverted index."""

    def __init__(self, k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25):
        self.k1, self.b, self.epsilon = float(k1), float(b), float(epsilon)
        self._reset()

    # ---- construction --------------------------------------------------------------
    def _reset(self) -> None:
        self._vocab: dict[str, int] = {}
        self._terms: list[str] = []
        self._df = np.zeros(16, np.int64)
        self._hist = np.zeros(16, np.int64)  # hist[n] = number of terms with df n
        self._avg_idf: Optional[float] = None
        self._slot_ids: list[Optional[str]] = []
        self._id_to_slot: dict[str, int] = {}
        self._dl = np.zeros(16, np.float64)
        self._alive = np.zeros(16, bool)
        self._flags = np.zeros(16, np.uint8)
        self._n = 0
        self._total_len = 0.0
        # base (bulk-built) arrays
        self._b_nterms = 0
        self._b_tptr = np.zeros(1, np.int64)
        self._b_tslots = np.zeros(0, np.int32)
        self._b_ttf = np.zeros(0, np.float32)
        self._b_ndocs = 0
        self._b_dptr = np.zeros(1, np.int64)
        self._b_dterms = np.zeros(0, np.int32)
        self._b_dtf = np.zeros(0, np.float32)
        # delta
        self._d_post: dict[int, tuple[list[int], list[float]]] = {}
        self._d_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._extremes: dict[int, tuple[float, float]] = {}  # see _tf_dl_extremes
        self._d_doc: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._d_npost = 0
        self._dead_post = 0
        self._buf = np.zeros(16, np.float64)
        self._seen = np.zeros(16, bool)
        self._norm: Optional[np.ndarray] = None
        self._norm_key: tuple = ()

    @classmethod
    def build(
        cls,
        ids: Sequence[str],
        texts: Sequence[str],
        flags: Optional[Sequence[int]] = None,
        **params,
    ) -> "LexicalIndex":
        """Bulk-build from entry texts (see `tokenize.entry_text`); indexes what
        `tokenize.index_tokens` gives for each text (stop words left out)."""
        builder = LexicalBuilder(**params)
        builder.add(ids, texts, flags)
        return builder.finish()

    @classmethod
    def from_tokens(cls, ids: Sequence[str], token_lists: Sequence[Sequence[str]], **params) -> "LexicalIndex":
        """Bulk-build from already tokenised documents (tests, rank_bm25 parity)."""
        index = cls(**params)
        vocab: dict[str, int] = {}
        docs, tids = [], []
        for i, toks in enumerate(token_lists):
            for t in toks:
                docs.append(i)
                tids.append(vocab.setdefault(t, len(vocab)))
        index._load_triples(list(ids), list(vocab), np.asarray(docs, np.int64), np.asarray(tids, np.int64), None, None)
        return index

    def _load_triples(
        self,
        ids: list[str],
        terms: list[str],
        doc: np.ndarray,
        tid: np.ndarray,
        tf: Optional[np.ndarray],
        flags,
        dl: Optional[np.ndarray] = None,
    ) -> None:
        """Make a fresh base from (doc, term, tf) occurrences; tf None means one per occurrence."""
        n_docs, n_terms = len(ids), len(terms)
        if tf is None:
            d_doc, d_tid, counts = _count_pairs(doc, tid, max(n_terms, 1))  # doc-major, terms ascending
            lengths: np.ndarray = np.bincount(doc, minlength=n_docs).astype(np.float64)
            self._load_pairs(ids, terms, d_doc, d_tid, counts, lengths, flags)
            return
        doc, tid = np.asarray(doc, np.int64), np.asarray(tid, np.int64)
        order = np.lexsort((tid, doc))
        d_doc, d_tid, d_tf = doc[order], tid[order], np.asarray(tf, np.float32)[order]
        lengths = np.asarray(dl, np.float64) if dl is not None else np.bincount(d_doc, weights=d_tf, minlength=n_docs)
        self._load_pairs(ids, terms, d_doc, d_tid, d_tf, lengths, flags)

    def _load_pairs(self, ids, terms, d_doc, d_tid, tf, lengths, flags) -> None:
        """Make a fresh base from distinct (doc, term) pairs in doc-major order, terms
        ascending within a doc, with their counts (integer counts sort faster)."""
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate document ids")
        n_docs, n_terms = len(ids), len(terms)
        tslots, ttf = _term_major(d_doc, d_tid, tf, n_docs, n_terms)
        dptr = np.zeros(n_docs + 1, np.int64)
        np.cumsum(np.bincount(d_doc, minlength=n_docs), out=dptr[1:])
        tptr = np.zeros(n_terms + 1, np.int64)
        np.cumsum(np.bincount(d_tid, minlength=n_terms), out=tptr[1:])
        self._set_base(
            ids,
            terms,
            dptr,
            np.asarray(d_tid, np.int32),
            np.asarray(tf, np.float32),
            tptr,
            tslots,
            ttf,
            lengths[:n_docs],
            None if flags is None else np.asarray(flags, np.uint8),
        )

    def _set_base(self, ids, terms, dptr, dterms, dtf, tptr, tslots, ttf, dl, flags) -> None:
        """Install a complete base (no delta, every document alive)."""
        self._reset()
        n_docs, n_terms = len(ids), len(terms)
        self._terms = list(terms)
        self._vocab = dict(zip(self._terms, range(n_terms)))  # ~2x a dict comprehension at 1M
        cap = max(16, n_docs)
        self._slot_ids = list(ids)
        self._id_to_slot = dict(zip(self._slot_ids, range(n_docs)))
        self._dl = np.zeros(cap, np.float64)
        self._dl[:n_docs] = dl
        self._alive = np.zeros(cap, bool)
        self._alive[:n_docs] = True
        self._flags = np.zeros(cap, np.uint8)
        if flags is not None:
            self._flags[:n_docs] = flags
        self._n = n_docs
        self._total_len = float(self._dl[:n_docs].sum())
        self._b_ndocs = n_docs
        self._b_dptr, self._b_dterms, self._b_dtf = dptr, dterms, dtf
        self._b_nterms = n_terms
        self._b_tptr, self._b_tslots, self._b_ttf = tptr, tslots, ttf
        df = np.diff(tptr)
        self._df = np.zeros(max(16, n_terms), np.int64)
        self._df[:n_terms] = df
        self._hist = np.bincount(df, minlength=max(16, n_docs + 1)).astype(np.int64)
        self._buf = np.zeros(cap, np.float64)
        self._seen = np.zeros(cap, bool)

    # ---- bookkeeping ---------------------------------------------------------------
    def __len__(self) -> int:
        return self._n

    def __contains__(self, doc_id: str) -> bool:
        return doc_id in self._id_to_slot

    def ids(self) -> list[str]:
        return [d for d in self._slot_ids if d is not None]

    def slots(self, ids: Sequence[str]) -> np.ndarray:
        """Each id's position in ids() order once compacted (what a snapshot records)."""
        return np.fromiter((self._id_to_slot[i] for i in ids), np.int64, len(ids))

    @property
    def avgdl(self) -> float:
        return self._total_len / self._n if self._n else 0.0

    @property
    def vocabulary_size(self) -> int:
        return int(self._hist[1:].sum())

    def _term_id(self, term: str, create: bool) -> int:
        tid = self._vocab.get(term)
        if tid is None and create:
            tid = len(self._terms)
            self._vocab[term] = tid
            self._terms.append(term)
            self._df = _grow(self._df, tid + 1)
        return -1 if tid is None else tid

    def _shift_df(self, tids: np.ndarray, delta: int) -> None:
        old = self._df[tids]
        np.subtract.at(self._hist, old, 1)
        new = old + delta
        self._hist = _grow(self._hist, int(new.max(initial=0)) + 1)
        np.add.at(self._hist, new, 1)
        self._df[tids] = new
        self._avg_idf = None

    def _doc_terms(self, slot: int) -> tuple[np.ndarray, np.ndarray]:
        if slot < self._b_ndocs:
            a, z = self._b_dptr[slot], self._b_dptr[slot + 1]
            return self._b_dterms[a:z], self._b_dtf[a:z]
        return self._d_doc[slot]

    def add(self, doc_id: str, tokens: Iterable[str], flags: int = 0, compact: bool = True) -> None:
        """Index (or re-index) one document. compact=False leaves a due compaction to
        the caller (`compact_due`, then `compacted` in a thread and `adopt`): at 100k
        documents a compaction takes seconds, too long for an event loop."""
        if doc_id in self._id_to_slot:
            self.remove(doc_id, compact=compact)
        tokens = list(tokens)
        counts = Counter(tokens)
        slot = len(self._slot_ids)
        self._slot_ids.append(doc_id)
        self._id_to_slot[doc_id] = slot
        need = slot + 1
        self._dl = _grow(self._dl, need)
        self._alive = _grow(self._alive, need, False)
        self._flags = _grow(self._flags, need)
        self._buf = _grow(self._buf, need)
        self._seen = _grow(self._seen, need, False)
        self._dl[slot] = len(tokens)
        self._alive[slot] = True
        self._flags[slot] = flags
        tids = np.fromiter((self._term_id(t, True) for t in counts), np.int32, len(counts))
        tfs = np.fromiter(counts.values(), np.float32, len(counts))
        order = np.argsort(tids)
        tids, tfs = tids[order], tfs[order]
        self._d_doc[slot] = (tids, tfs)
        for t, f in zip(tids.tolist(), tfs.tolist()):
            post = self._d_post.get(t)
            if post is None:
                self._d_post[t] = ([slot], [f])
            else:
                post[0].append(slot)
                post[1].append(f)
            self._d_cache.pop(t, None)
            self._extremes.pop(t, None)
        self._d_npost += len(tids)
        if len(tids):
            self._shift_df(tids, +1)
        self._n += 1
        self._total_len += len(tokens)
        self._avg_idf = None
        if compact and self.compact_due():
            self.compact()

    def remove(self, doc_id: str, compact: bool = True) -> bool:
        """Drop one document; compact as in `add`."""
        slot = self._id_to_slot.pop(doc_id, None)
        if slot is None:
            return False
        tids, _ = self._doc_terms(slot)
        if len(tids):
            self._shift_df(tids, -1)
        self._alive[slot] = False
        self._slot_ids[slot] = None
        self._dead_post += len(tids)
        self._d_doc.pop(slot, None)
        self._n -= 1
        self._total_len -= float(self._dl[slot])
        self._avg_idf = None
        if compact and self.compact_due():
            self.compact()
        return True

    def set_flags(self, doc_id: str, flags: int) -> None:
        slot = self._id_to_slot.get(doc_id)
        if slot is not None:
            self._flags[slot] = flags

    def flags(self, doc_id: str) -> Optional[int]:
        slot = self._id_to_slot.get(doc_id)
        return None if slot is None else int(self._flags[slot])

    def flags_of(self, ids: list[str]) -> tuple[np.ndarray, list[str], list[str]]:
        """(flags of each id, 0 when not indexed; the ids not indexed; the indexed ids
        not among ids, in ids() order): one dict pass and a few gathers, not a method
        call per id (a first open's million vectors, and the entries still without one)."""
        slots = np.fromiter(map(self._id_to_slot.get, ids, itertools.repeat(-1)), np.int64, len(ids))
        missing = slots < 0
        flags = np.where(missing, 0, self._flags[np.maximum(slots, 0)]).astype(np.uint8)
        covered = np.zeros(len(self._slot_ids), bool)
        covered[slots[~missing]] = True
        slot_ids = self._slot_ids
        uncovered = [d for d in map(slot_ids.__getitem__, np.flatnonzero(~covered).tolist()) if d is not None]
        return flags, [ids[j] for j in np.flatnonzero(missing).tolist()], uncovered

    def compact_due(self) -> bool:
        """Whether the delta (or the removed documents' postings) has grown past a
        quarter of the base: searches then pay for it, so fold it in."""
        limit = max(COMPACT_MIN_POSTINGS, len(self._b_tslots) // 4)
        return self._d_npost > limit or self._dead_post > limit

    def compact(self) -> None:
        """Fold the delta into a fresh base and drop removed documents and unused terms."""
        self.adopt(self.compacted())

    def adopt(self, other: "LexicalIndex") -> None:
        """Become `other` (a `compacted` copy): one cheap swap, so it can run on an event
        loop under the index lock while the copy was built in a thread."""
        self.__dict__.update(vars(other))

    def compacted(self) -> "LexicalIndex":
        """A new index holding what this one holds, the delta folded into its base and
        removed documents and unused terms dropped. Only reads this one: a thread may
        build it while the owner holds its lock (nothing mutates meanwhile)."""
        slots = np.flatnonzero(self._alive[: len(self._slot_ids)])
        ids = [self._slot_ids[s] for s in slots]
        new_slot = np.full(len(self._slot_ids), -1, np.int64)
        new_slot[slots] = np.arange(len(slots))
        parts_doc, parts_tid, parts_tf = [], [], []
        nb = self._b_ndocs
        if nb:
            per = np.diff(self._b_dptr)
            owner = np.repeat(np.arange(nb), per)
            keep = self._alive[owner]
            parts_doc.append(new_slot[owner[keep]])
            parts_tid.append(self._b_dterms[keep].astype(np.int64))
            parts_tf.append(self._b_dtf[keep])
        for s in slots[slots >= nb].tolist():
            tids, tfs = self._d_doc[s]
            parts_doc.append(np.full(len(tids), new_slot[s], np.int64))
            parts_tid.append(tids.astype(np.int64))
            parts_tf.append(tfs)
        doc = np.concatenate(parts_doc) if parts_doc else np.zeros(0, np.int64)
        tid = np.concatenate(parts_tid) if parts_tid else np.zeros(0, np.int64)
        tf = np.concatenate(parts_tf) if parts_tf else np.zeros(0, np.float32)
        used = np.unique(tid)
        remap = np.full(len(self._terms) + 1, -1, np.int64)
        remap[used] = np.arange(len(used))
        terms = [self._terms[t] for t in used.tolist()]
        dl = self._dl[slots].copy()
        flags = self._flags[slots].copy()
        fresh = LexicalIndex(self.k1, self.b, self.epsilon)
        fresh._load_triples(ids, terms, doc, remap[tid], tf, flags, dl=dl)
        return fresh

    # ---- statistics ----------------------------------------------------------------
    def average_idf(self) -> float:
        """Mean raw idf over the vocabulary (rank_bm25's average_idf)."""
        if self._avg_idf is None:
            n_values = np.flatnonzero(self._hist)
            n_values = n_values[n_values > 0]
            if len(n_values) == 0:
                self._avg_idf = 0.0
            else:
                counts = self._hist[n_values].astype(np.float64)
                nv = n_values.astype(np.float64)
                raw = np.log(self._n - nv + 0.5) - np.log(nv + 0.5)
                self._avg_idf = float((counts * raw).sum() / counts.sum())
        return self._avg_idf

    def raw_idf(self, term: str) -> Optional[float]:
        tid = self._vocab.get(term)
        if tid is None or self._df[tid] == 0:
            return None
        n = int(self._df[tid])
        return math.log(self._n - n + 0.5) - math.log(n + 0.5)

    def idf(self, term: str) -> float:
        """The idf BM25 uses for term (0 for a term no document contains)."""
        raw = self.raw_idf(term)
        if raw is None:
            return 0.0
        return self.epsilon * self.average_idf() if raw < 0 else raw

    def df(self, term: str) -> int:
        tid = self._vocab.get(term)
        return 0 if tid is None else int(self._df[tid])

    # ---- scoring -------------------------------------------------------------------
    def _length_norm(self) -> np.ndarray:
        """k1 * (1 - b + b * |d| / avgdl) per slot, cached until the corpus changes."""
        avgdl = self._total_len / self._n
        n = len(self._slot_ids)
        if self._norm is None or self._norm_key != (avgdl, n):
            self._norm = self.k1 * (1 - self.b + self.b * self._dl[:n] / avgdl)
            self._norm_key = (avgdl, n)
        return self._norm

    def _postings(self, tid: int) -> tuple[np.ndarray, np.ndarray]:
        parts_s, parts_f = [], []
        if tid < self._b_nterms:
            a, z = self._b_tptr[tid], self._b_tptr[tid + 1]
            if z > a:
                parts_s.append(self._b_tslots[a:z])
                parts_f.append(self._b_ttf[a:z])
        if tid in self._d_post:
            cached = self._d_cache.get(tid)
            if cached is None:
                slots, freqs = self._d_post[tid]
                cached = (np.asarray(slots, np.int32), np.asarray(freqs, np.float32))
                self._d_cache[tid] = cached
            parts_s.append(cached[0])
            parts_f.append(cached[1])
        if not parts_s:
            return np.zeros(0, np.int32), np.zeros(0, np.float32)
        s = parts_s[0] if len(parts_s) == 1 else np.concatenate(parts_s)
        f = parts_f[0] if len(parts_f) == 1 else np.concatenate(parts_f)
        if self._dead_post:
            live = self._alive[s]
            if not live.all():
                s, f = s[live], f[live]
        return s, f

    def _query_terms(self, tokens: Sequence[str]) -> tuple[list[str], list[maxscore.Term]]:
        """The distinct query tokens in query order, and the postings and weight (query
        count x idf) of those some live document contains: read once per search, for
        the pruned and the exhaustive scorer alike."""
        counts = Counter(tokens)
        found = []
        if self._n and self._total_len:
            avgdl = self._total_len / self._n
            for term, qc in counts.items():
                tid = self._vocab.get(term)
                if tid is not None and self._df[tid] > 0:
                    weight = qc * self.idf(term)
                    s, f = self._postings(tid)
                    max_tf, min_dl = self._tf_dl_extremes(tid, s, f)
                    min_norm = self.k1 * (1 - self.b + self.b * min_dl / avgdl)
                    found.append(maxscore.Term(tid, weight, s, f, maxscore.term_bound(weight, max_tf, min_norm, self.k1)))
        return list(counts), found

    def _score(self, found: list[maxscore.Term]) -> tuple[np.ndarray, np.ndarray]:
        """(slots, scores) of every live document matching any of the query's terms."""
        if not found:
            return np.zeros(0, np.int64), np.zeros(0)
        norm = self._length_norm()
        touched = []
        n_touched = 0
        buf, seen = self._buf, self._seen
        for t in found:
            # tf are small integers, exact in float32; norm is float64, so the
            # arithmetic matches rank_bm25's float64 expression. A term's slots are
            # distinct, so add.at adds what `buf[s] +=` would, 3x faster on long lists
            np.add.at(buf, t.slots, maxscore.contribution(t.weight, t.tf, norm[t.slots], self.k1))
            touched.append(t.slots)
            n_touched += len(t.slots)
        if len(touched) == 1:
            slots = touched[0].astype(np.int64)
        elif n_touched * 8 < len(self._slot_ids):  # few postings: sort them
            slots = np.unique(np.concatenate(touched))
        else:  # many postings: a mark-and-scan pass is cheaper than sorting them
            for s in touched:
                seen[s] = True
            slots = np.flatnonzero(seen[: len(self._slot_ids)])
            seen[slots] = False
        scores = buf[slots].copy()
        buf[slots] = 0.0
        return slots, scores

    def _tf_dl_extremes(self, tid: int, slots: np.ndarray, tf: np.ndarray) -> tuple[float, float]:
        """(highest tf, shortest document length) over a term's postings, cached until
        the term gains a posting (a removal leaves the cached pair a valid bound)."""
        got = self._extremes.get(tid)
        if got is None:
            got = (float(tf.max(initial=0)), float(self._dl[slots].min(initial=np.inf)))
            self._extremes[tid] = got
        return got

    def get_scores(self, tokens: Sequence[str]) -> dict[str, float]:
        """Score of every live document (0 when nothing matches), by id: rank_bm25's get_scores."""
        out = {d: 0.0 for d in self._slot_ids if d is not None}
        slots, scores = self._score(self._query_terms(tokens)[1])
        for s, v in zip(slots.tolist(), scores.tolist()):
            out[self._slot_ids[s]] = v
        return out

    def search(self, tokens: Sequence[str], k: int, include_superseded: bool = False) -> LexicalHits:
        """Top k documents matching at least one query token, best first (ties:
        earlier-indexed first). A match counts even when its score is not positive:
        rank_bm25's idf is 0 for a term in exactly half the documents and negative
        (floored at epsilon * average_idf, itself negative in a one-document corpus)
        above that, so in a small store a matching memory can score <= 0. Whether such
        a weak match deserves a place is the token gate's call, with a stated reason."""
        terms, found = self._query_terms(tokens)
        q_tids = [t.tid for t in found]
        eligible = None if include_superseded else (lambda c: (self._flags[c] & SUPERSEDED) == 0)
        pruned = maxscore.top_k(found, self._length_norm(), self.k1, k, eligible) if len(found) > 1 else None
        if pruned is not None:
            slots, scores = pruned
        else:
            slots, scores = self._score(found)
            if not include_superseded and len(slots):
                keep = (self._flags[slots] & SUPERSEDED) == 0
                slots, scores = slots[keep], scores[keep]
            slots, scores = stable_top_k(slots, scores, k)
        # which query terms each hit contains: one vectorised membership test over
        # the hits' term lists (a few hundred ids), not one per hit
        matched: list[list[str]] = [[] for _ in range(len(slots))]
        if len(slots) and q_tids:
            parts = [self._doc_terms(s)[0] for s in slots.tolist()]
            owner = np.repeat(np.arange(len(parts)), [len(p) for p in parts])
            allterms = np.concatenate(parts)
            hit = np.isin(allterms, np.asarray(q_tids, np.int32))
            contains: list[set[int]] = [set() for _ in range(len(slots))]
            for o, t in zip(owner[hit].tolist(), allterms[hit].tolist()):
                contains[o].add(t)
            order_of = {self._terms[t]: t for t in q_tids}
            for i, tids in enumerate(contains):
                matched[i] = [t for t in terms if order_of.get(t) in tids]
        return LexicalHits([self._slot_ids[s] for s in slots.tolist()], scores, matched, terms)

    # ---- snapshot ------------------------------------------------------------------
    def to_arrays(self) -> dict[str, np.ndarray]:
        """A compact, self-contained copy (compacts first if needed) for a snapshot file."""
        if self._b_ndocs != len(self._slot_ids) or len(self._slot_ids) != self._n:
            self.compact()
        meta = {"tokenizer": TOKENIZER_VERSION, "k1": self.k1, "b": self.b, "epsilon": self.epsilon}
        return {
            "lex_meta": np.frombuffer(json.dumps(meta).encode(), np.uint8),
            "lex_ids": np.frombuffer(json.dumps(self._slot_ids, ensure_ascii=False).encode(), np.uint8),
            "lex_terms": np.frombuffer(json.dumps(self._terms, ensure_ascii=False).encode(), np.uint8),
            "lex_dptr": self._b_dptr,
            "lex_dterms": self._b_dterms,
            "lex_dtf": self._b_dtf,
            "lex_tptr": self._b_tptr,
            "lex_tslots": self._b_tslots,
            "lex_ttf": self._b_ttf,
            "lex_dl": self._dl[: self._n].copy(),
            "lex_flags": self._flags[: self._n].copy(),
        }

    @classmethod
    def from_arrays(cls, arrays) -> "LexicalIndex":
        """The index `to_arrays` saved; the large arrays are used as given (memory-mapped,
        read-only: they are never written in place). ValueError if they do not fit together."""
        meta = json.loads(bytes(arrays["lex_meta"]).decode())
        if meta.get("tokenizer") != TOKENIZER_VERSION:
            raise ValueError("snapshot made by another tokenizer version")
        index = cls(k1=meta["k1"], b=meta["b"], epsilon=meta["epsilon"])
        ids = json.loads(bytes(arrays["lex_ids"]).decode())
        terms = json.loads(bytes(arrays["lex_terms"]).decode())
        a = {
            k: np.asarray(arrays[k])
            for k in ("lex_dptr", "lex_dterms", "lex_dtf", "lex_tptr", "lex_tslots", "lex_ttf", "lex_dl", "lex_flags")
        }
        _check_base(a, len(ids), len(terms))
        index._set_base(
            ids,
            terms,
            a["lex_dptr"],
            a["lex_dterms"],
            a["lex_dtf"],
            a["lex_tptr"],
            a["lex_tslots"],
            a["lex_ttf"],
            a["lex_dl"],
            a["lex_flags"],
        )
        return index


def _check_base(a: dict[str, np.ndarray], n_docs: int, n_terms: int) -> None:
    """Cheap structural checks on saved arrays (a damaged or foreign file fails here,
    not later as an IndexError inside a query)."""
    dptr, tptr = a["lex_dptr"], a["lex_tptr"]
    n_post = len(a["lex_dterms"])
    ok = (
        len(dptr) == n_docs + 1
        and len(tptr) == n_terms + 1
        and len(a["lex_dl"]) == n_docs == len(a["lex_flags"])
        and int(dptr[0]) == 0 == int(tptr[0])
        and int(dptr[-1]) == n_post == len(a["lex_dtf"]) == len(a["lex_tslots"]) == len(a["lex_ttf"])
        and int(tptr[-1]) == n_post
        and (n_post == 0 or (int(a["lex_dterms"].max()) < n_terms and int(a["lex_tslots"].max()) < n_docs))
    )
    if not ok:
        raise ValueError("snapshot arrays are inconsistent")


class LexicalBuilder:
    """Bulk-build an index from chunks of documents, so a million entries never need
    all their texts or token strings in memory at once (the chunks share one vocabulary).

        b = LexicalBuilder()
        for ids, texts, flags in chunks:
            b.add(ids, texts, flags)
        index = b.finish()
    """

    def __init__(self, **params):
        self._params = params
        self._vocab: dict[str, int] = {}
        self._ids: list[str] = []
        self._doc: list[np.ndarray] = []  # distinct (doc, term) pairs, doc-major: each chunk counted as added
        self._tid: list[np.ndarray] = []
        self._tf: list[np.ndarray] = []
        self._len: list[np.ndarray] = []  # tokens per document
        self._flags: list[np.ndarray] = []

    def add(self, ids: Sequence[str], texts: Sequence[str], flags: Optional[Sequence[int]] = None) -> None:
        """Index what `tokenize.index_tokens` gives for each text (stop words left out)."""
        terms, doc, tid = bulk_tokenize_ids(texts)
        self.add_tokens(ids, terms, doc, tid, flags)

    def add_tokens(self, ids: Sequence[str], terms: list[str], doc: np.ndarray, tid: np.ndarray, flags=None) -> None:
        """Add a chunk `bulk_tokenize_ids` cut (here or in a worker process): chunks
        added in the same order give the same index however they were cut. The chunk's
        pairs are counted now (a sort of one chunk, not of the whole corpus at the end)."""
        vocab = self._vocab
        gid = np.fromiter((-1 if t in STOP_WORDS else vocab.setdefault(t, len(vocab)) for t in terms), np.int64, len(terms))
        tid = gid[tid]
        keep = tid >= 0
        doc = np.asarray(doc)[keep]
        d_doc, d_tid, counts = _count_pairs(doc, tid[keep], max(len(vocab), 1))
        self._doc.append((d_doc + len(self._ids)).astype(np.int32))
        self._tid.append(d_tid.astype(np.int32))
        self._tf.append(counts.astype(np.int32))
        self._len.append(np.bincount(doc, minlength=len(ids)).astype(np.float64))
        self._flags.append(np.zeros(len(ids), np.uint8) if flags is None else np.asarray(flags, np.uint8))
        self._ids.extend(ids)

    def finish(self) -> "LexicalIndex":
        index = LexicalIndex(**self._params)

        def take(name: str, dtype) -> np.ndarray:
            """One list of chunks joined and let go, so only one copy is held at a time."""
            parts = getattr(self, name)
            setattr(self, name, [])
            return np.concatenate(parts) if parts else np.zeros(0, dtype)

        doc, tid, tf = take("_doc", np.int32), take("_tid", np.int32), take("_tf", np.int32)
        lengths, flags = take("_len", np.float64), take("_flags", np.uint8)
        index._load_pairs(self._ids, list(self._vocab), doc, tid, tf, lengths, flags)
        return index
