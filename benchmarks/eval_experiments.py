"""Offline fusion experiments on the dev sets (LongMemEval dev sessions and turns,
SciFact train): BM25 tokenizer variants against rank_bm25 with a plain tokenizer,
and fusion candidates, over cached embeddings, without building stores.

    python -m benchmarks.eval_experiments --cache .eval-cache --out eval-experiments.json
    python -m benchmarks.eval_experiments --skip-lexical --sets turn   # turns already in the cache

The turn set takes only the questions whose turns are all in the cache (fill it
with `echo-memory eval --granularity turn --cache .eval-cache`); the count is printed.

This is how the shipped defaults were chosen; `echo-memory eval` then measures
the real pipeline with them. Each candidate is a handful of principled settings,
not a grid search (the count is printed)."""

from __future__ import annotations

import argparse
import ast
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np

from engine.models import MemoryEntry
from engine.recall.eval_cache import CachedEmbedder, VectorCache
from engine.recall.evaluation import dedupe, query_metrics
from engine.recall.fusion import rrf_fuse
from engine.recall.lexical import LexicalHits, LexicalIndex
from engine.recall.pipeline import (
    above_floor,
    above_relative_floor,
    bm25_weight,
    decay_weight,
    session_boost,
    with_uncredited,
)
from engine.recall.tokenize import ENGLISH_STOP_WORDS, STOP_WORDS, entry_text, tokenize
from engine.recall.vectors import VectorHits

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
METRICS = ("recall@1", "recall@5", "recall@10", "mrr", "ndcg@10")


def plain_tokens(text: str) -> list[str]:
    """The baseline of issue 13: lower-cased \\w+ words, English stop words removed."""
    return [t for t in re.findall(r"\w+", text.lower()) if t not in ENGLISH_STOP_WORDS]


def _lme_sessions(q):
    return [
        entry_text(f"session {i}", "\n".join(f"{t['role']}: {t['content']}" for t in turns), [])
        for i, turns in enumerate(q["haystack_sessions"])
    ]


def lme_date(text: str) -> datetime:
    """'2023/05/20 (Sat) 07:47' -> datetime."""
    return datetime.strptime(text[:10] + text[-5:], "%Y/%m/%d%H:%M")


def load_sets():
    lme = json.loads((DATA / "longmemeval-dev" / "longmemeval_s_dev.json").read_text())
    lme = [q for q in lme if not q["question_id"].endswith("_abs")]
    sets = {"lme": []}
    for q in lme:
        ids = q["haystack_session_ids"]
        ids = ast.literal_eval(ids) if isinstance(ids, str) else ids
        gold = q["answer_session_ids"]
        gold = ast.literal_eval(gold) if isinstance(gold, str) else gold
        dates = q["haystack_dates"]
        dates = ast.literal_eval(dates) if isinstance(dates, str) else dates
        now = lme_date(q["question_date"])
        age = np.array([max(0, (now - lme_date(d)).days) for d in dates], float)
        sets["lme"].append((q["question"], _lme_sessions(q), ids, {g: 1.0 for g in gold}, age))
    folder = DATA / "scifact-train"
    corpus = [json.loads(x) for x in open(folder / "corpus.jsonl")]
    queries = {str(j["_id"]): j["text"] for j in map(json.loads, open(folder / "queries.jsonl"))}
    qrels: dict = {}
    for line in list(open(folder / "qrels" / "train.tsv"))[1:]:
        a, b, c = line.split("\t")[:3]
        qrels.setdefault(a, {})[b] = float(c)
    texts = [entry_text(str(d.get("title") or ""), str(d.get("text") or ""), []) for d in corpus]
    ids = [str(d["_id"]) for d in corpus]
    age = np.zeros(len(texts))
    sets["scifact"] = [(queries[q], texts, ids, g, age) for q, g in qrels.items() if q in queries]
    return sets


def load_turns(cache: VectorCache) -> list:
    """LongMemEval dev at turn granularity (one document per turn, ranked as its
    session), as `echo-memory eval --granularity turn` indexes it; only questions
    whose turns are all cached."""
    lme = json.loads((DATA / "longmemeval-dev" / "longmemeval_s_dev.json").read_text())
    out = []
    for q in lme:
        if q["question_id"].endswith("_abs"):
            continue
        now = lme_date(q["question_date"])
        texts, ids, age = [], [], []
        for si, (sid, turns, date) in enumerate(zip(q["haystack_session_ids"], q["haystack_sessions"], q["haystack_dates"])):
            for ti, t in enumerate(turns):
                texts.append(entry_text(f"session {si} turn {ti}", f"{t.get('role', '')}: {t.get('content', '')}", []))
                ids.append(sid)
                age.append(max(0, (now - lme_date(date)).days))
        if all(cache.get(t) is not None for t in texts):
            out.append((q["question"], texts, ids, {g: 1.0 for g in q["answer_session_ids"]}, np.array(age, float)))
    return out


def stemmer():
    import Stemmer

    st = Stemmer.Stemmer("english")
    return lambda toks: st.stemWords(toks)


def tokenizers():
    out = {
        "ours (stop words kept)": tokenize,
        "ours, stop words dropped": lambda t: [x for x in tokenize(t) if x not in STOP_WORDS],
        "plain (rank_bm25 baseline)": plain_tokens,
    }
    try:
        stem = stemmer()
        out["ours, stop words dropped, stemmed"] = lambda t: stem([x for x in tokenize(t) if x not in STOP_WORDS])
    except ImportError:
        pass
    return out


def bm25_index(docs_tok) -> LexicalIndex:
    return LexicalIndex.from_tokens([str(i) for i in range(len(docs_tok))], docs_tok)


def bm25_scores(idx: LexicalIndex, q_tok) -> np.ndarray:
    """Every document's score (documents are named by their position)."""
    out = np.zeros(len(idx))
    slots, scores, _, _ = idx._score(q_tok)
    out[slots] = scores
    return out


def ranked_units(scores, ids, depth, valid=None):
    order = np.argsort(-scores, kind="stable")
    if valid is not None:
        order = [i for i in order if valid[i]]
    return dedupe(ids[i] for i in list(order)[:depth])


def evaluate(rows):
    return {m: round(float(np.mean([r[m] for r in rows])), 4) for m in METRICS}


def rrf(
    bm,
    cos,
    pool,
    k=60,
    w_bm=1.0,
    w_vec=1.0,
    floor=None,
    conf=0.0,
    age=None,
    blend=None,
    bfloor=0.0,
    agree=0.0,
    vconf=0.0,
    sess=None,
    sboost=0.0,
):
    """Fused order of doc indexes, by the pipeline's own fusion functions in the
    pipeline's order (no gate, no fetch). Decay as in a store whose entries keep the
    default importance 0.5, were never accessed, and date from `age` days before
    the question; `sess[i]` is doc i's session (memory.sessionBoost). Not shipped:
    `agree`, a bonus agree / (k + worse rank) for a candidate both paths rank in
    their top 5; `vconf`, the vector weight times (1 + vconf x (top - 10th) / top
    cosine), the vector path's counterpart of lexical confidence."""
    nb = [i for i in np.argsort(-bm, kind="stable")[:pool] if bm[i] != 0]
    nv = np.argsort(-cos, kind="stable")[:pool]
    lex = LexicalHits([str(i) for i in nb], bm[nb], [[] for _ in nb], [])
    vec = VectorHits([str(i) for i in nv], cos[nv].astype(np.float32))
    if floor is not None:
        vec = above_floor(vec, floor)
    top, tenth = float(cos[nv[0]]), float(cos[nv[min(9, len(nv) - 1)]])
    w_vec *= 1.0 + (vconf * (top - tenth) / top if vconf and top > 0 else 0.0)
    weights = {"bm25": bm25_weight(lex, w_bm, conf), "vector": w_vec}
    credited = above_relative_floor(lex, bfloor)
    fused = with_uncredited(rrf_fuse({"bm25": credited.ids, "vector": vec.ids}, k, weights), lex, credited)
    score = {int(f.id): f.rrf for f in fused}
    if agree:
        for f in fused:
            if len(f.ranks) == 2 and max(f.ranks.values()) <= 5:
                score[int(f.id)] += agree / (k + max(f.ranks.values()))
    if sboost and sess is not None:
        for i, gain in session_boost(score, {i: str(sess[i]) for i in score}, sboost).items():
            score[i] += gain
    return _decayed(score, age, blend)


def score_fusion(bm, cos, pool, alpha=0.5, age=None, blend=None):
    """Not shipped: a convex combination alpha x BM25/top + (1 - alpha) x cosine/top
    over both pools (a candidate missing from a pool scores 0 there)."""
    nb = [i for i in np.argsort(-bm, kind="stable")[:pool] if bm[i] != 0]
    nv = list(np.argsort(-cos, kind="stable")[:pool])
    top_b = bm[nb[0]] if nb and bm[nb[0]] > 0 else 1.0
    top_v = cos[nv[0]] if cos[nv[0]] > 0 else 1.0
    b = {i: bm[i] / top_b for i in nb}
    v = {i: cos[i] / top_v for i in nv}
    score = {i: alpha * b.get(i, 0.0) + (1 - alpha) * v.get(i, 0.0) for i in dict.fromkeys(nb + nv)}
    return _decayed(score, age, blend)


def _decayed(score: dict, age, blend) -> list:
    if blend is not None and age is not None and age.any():
        for i in score:
            score[i] *= decay_weight(_aged(age[i]), NOW, 30.0, 1.0, blend).multiplier
    return sorted(score, key=lambda i: -score[i])


NOW = datetime(2024, 1, 1, tzinfo=timezone.utc)


def _aged(days: float) -> MemoryEntry:
    return MemoryEntry(key="x", content="x", last_accessed=NOW - timedelta(days=float(days)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default=".eval-cache")
    ap.add_argument("--out", default="eval-experiments.json")
    ap.add_argument("--skip-vectors", action="store_true")
    ap.add_argument("--skip-lexical", action="store_true")
    ap.add_argument("--sets", nargs="+", default=["lme", "turn", "scifact"], choices=["lme", "turn", "scifact"])
    args = ap.parse_args()
    sets = load_sets()
    report: dict = {"lexical": {}, "fusion": {}}
    toks = tokenizers()
    for name, data in [] if args.skip_lexical else [(n, d) for n, d in sets.items() if n in args.sets]:
        depth = 10
        for tname, tk in toks.items():
            rows = []
            doc_cache = {}
            for query, texts, ids, gold, _ in data:
                key = id(texts)
                if key not in doc_cache:
                    doc_cache = {key: bm25_index([tk(t) for t in texts])}
                s = bm25_scores(doc_cache[key], tk(query))
                rows.append(query_metrics(ranked_units(s, ids, depth, s != 0), gold))
            report["lexical"].setdefault(name, {})[tname] = evaluate(rows)
            print(name, tname, report["lexical"][name][tname], flush=True)
    if args.skip_vectors:
        print(json.dumps(report, indent=1))
        return
    cache = VectorCache(args.cache, "all-MiniLM-L6-v2")
    emb = CachedEmbedder("all-MiniLM-L6-v2", cache)
    emb._load()
    tk = toks["ours, stop words dropped"]
    round3 = dict(w_bm=1.5, conf=1.0, blend=0.1, bfloor=0.3)  # shipped before this round
    shipped = dict(w_bm=1.0, conf=1.0, blend=0.3, bfloor=0.3, sboost=0.3)
    candidates = {
        "equal RRF, no decay (first default)": (rrf, dict()),
        "bm25 1.5, confidence 1, no decay": (rrf, dict(w_bm=1.5, conf=1.0)),
        "bm25 1.5, confidence 1, blend 0.1 (round 2)": (rrf, dict(w_bm=1.5, conf=1.0, blend=0.1)),
        "round 2 + agreement bonus 1 (both top 5)": (rrf, dict(w_bm=1.5, conf=1.0, blend=0.1, agree=1.0)),
        "round 2 + vector floor 0": (rrf, dict(w_bm=1.5, conf=1.0, blend=0.1, floor=0.0)),
        "score fusion alpha 0.5, blend 0.1": (score_fusion, dict(alpha=0.5, blend=0.1)),
        "score fusion alpha 0.7, blend 0.1": (score_fusion, dict(alpha=0.7, blend=0.1)),
        "round 2 + bm25 floor 0.1": (rrf, {**round3, "bfloor": 0.1}),
        "round 2 + bm25 floor 0.3 (round 3)": (rrf, round3),
        "round 2 + bm25 floor 0.5": (rrf, {**round3, "bfloor": 0.5}),
        "round 3, equal weights, no confidence": (rrf, {**round3, "w_bm": 1.0, "conf": 0.0}),
        "round 3, spec product (blend 1)": (rrf, {**round3, "blend": 1.0}),
        "round 3, pool 20": (rrf, {**round3, "pool": 20}),
        "round 3, blend 0.2": (rrf, {**round3, "blend": 0.2}),
        "round 3, blend 0.3": (rrf, {**round3, "blend": 0.3}),
        "round 3, blend 0.5": (rrf, {**round3, "blend": 0.5}),
        "round 3, vector confidence 1 (top vs 10th)": (rrf, {**round3, "vconf": 1.0}),
        "round 3, session boost 0.3": (rrf, {**round3, "sboost": 0.3}),
        "round 3, blend 0.3, bm25 weight 1": (rrf, {**round3, "blend": 0.3, "w_bm": 1.0}),
        "shipped (bm25 1, conf 1, floor 0.3, blend 0.3, session boost 0.3)": (rrf, shipped),
        "shipped, decay off": (rrf, {**shipped, "blend": None}),
        "shipped, session boost 0.15": (rrf, {**shipped, "sboost": 0.15}),
        "shipped, session boost 0.5": (rrf, {**shipped, "sboost": 0.5}),
        "shipped, bm25 weight 1.2": (rrf, {**shipped, "w_bm": 1.2}),
        "shipped, blend 0.2": (rrf, {**shipped, "blend": 0.2}),
        "shipped, blend 0.4": (rrf, {**shipped, "blend": 0.4}),
        "shipped, vector confidence 1": (rrf, {**shipped, "vconf": 1.0}),
    }
    if "turn" in args.sets:
        sets["turn"] = load_turns(cache)
        print("turn: questions with every turn cached:", len(sets["turn"]), flush=True)
    for name, data in sets.items():
        if name not in args.sets:
            continue
        # turns: 50 documents per path and in the fused list, then their first 10 sessions
        depth = 50 if name == "turn" else 10
        doc_vecs: dict = {}
        rows = {c: [] for c in ["bm25", "vector", *candidates]}
        doc_tok: dict = {}
        for n, (query, texts, ids, gold, age) in enumerate(data):
            key = id(texts)
            if key not in doc_vecs:
                doc_vecs = {key: np.concatenate([emb.encode_sync(texts[i : i + 512], 64) for i in range(0, len(texts), 512)])}
                doc_tok = {key: bm25_index([tk(t) for t in texts])}
                cache.save()
            qv = emb.encode_sync([query])[0]
            cos = doc_vecs[key] @ qv
            bm = bm25_scores(doc_tok[key], tk(query))
            rows["bm25"].append(query_metrics(ranked_units(bm, ids, depth, bm != 0)[:10], gold))
            rows["vector"].append(query_metrics(ranked_units(cos, ids, depth)[:10], gold))
            for c, (fn, kw) in candidates.items():
                kw = {"pool": max(50, depth), **kw}
                order = fn(bm, cos, age=age, **kw, **({"sess": ids} if fn is rrf else {}))
                rows[c].append(query_metrics(dedupe(ids[i] for i in order[:depth])[:10], gold))
        cache.save()
        report["fusion"][name] = {c: evaluate(r) for c, r in rows.items()}
        report["fusion"][name]["_queries"] = len(data)
        for c, r in report["fusion"][name].items():
            print(name, c, r, flush=True)
    report["configurations_tried"] = len(candidates)
    Path(args.out).write_text(json.dumps(report, indent=1))
    cache.save()


if __name__ == "__main__":
    main()
