"""Retrieval evaluation: BEIR-layout datasets and LongMemEval, four methods in one run.

    await run_longmemeval(path, granularity="session", limit=None, overrides=None)
    await run_beir(folder, split="test", limit=None, overrides=None)

Both return {method: {"recall@1", "recall@5", "recall@10", "mrr", "ndcg@10", "queries"}}
for method in bm25 | vector | hybrid | hybrid (decay off) | hybrid+rerank, plus
"_meta" (dataset, timing, what was skipped, what the reranker actually did, the
settings used and the git revision measured). Methods:

* bm25: the lexical candidate list alone; vector: the vector list alone;
* hybrid: the full recall pipeline as shipped (RRF, token gate, forgetting
  curve) with memory.rerankEnabled false;
* hybrid (decay off): the same with memory.importanceBlend 0, so the forgetting
  curve does not act;
* hybrid+rerank: the same with memory.rerankEnabled true. With the configured hub
  model and no network the reranker cannot load: the pipeline then keeps RRF order,
  and `_meta.rerank` says so (statuses counted per query). Point
  memory.rerankModel at a local cross-encoder folder through `overrides` to
  measure a real one.

LongMemEval: a fresh store per question holding its haystack, one memory per
session (or per turn with granularity="turn"); gold = answer_session_ids; ranks
are over sessions (turn hits are mapped to their session, first occurrence
wins); each entry's source_session is a neutral label of its session ("s12"), as
a conversation memory carries its session's. Abstention questions (question_id ending in "_abs") have no gold
session and are skipped (counted in `_meta`). Entry keys are neutral ("session
12"), never the dataset's session ids, which would leak the answer. Each entry
is dated by the dataset (`haystack_dates`: created, updated and last accessed
then) and each question is asked at its `question_date`, so the forgetting curve
acts as it would in a user's store. BEIR has no dates: its entries are dated
"now" and decay is uniform.
"""

from __future__ import annotations

import csv
import json
import math
import subprocess
import tempfile
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

from ..gate_bulk import load_fixture
from ..models import InvalidValue, MemoryEntry, utcnow
from ..store import Store
from .pipeline import prepare_query

METHODS = ("bm25", "vector", "hybrid", "hybrid (decay off)", "hybrid+rerank")
DECAY_OFF = {"memory.importanceBlend": 0.0}
KS = (1, 5, 10)


# ---- metrics -----------------------------------------------------------------------
def dedupe(units: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(units))


def query_metrics(ranked: Sequence[str], gold: dict[str, float]) -> dict[str, float]:
    """recall@k (share of relevant units in the top k), MRR, nDCG@10 (graded gains)."""
    relevant = {u for u, g in gold.items() if g > 0}
    out: dict[str, float] = {}
    for k in KS:
        out[f"recall@{k}"] = len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0
    rr = 0.0
    for i, u in enumerate(ranked, start=1):
        if u in relevant:
            rr = 1.0 / i
            break
    out["mrr"] = rr
    dcg = sum(gold.get(u, 0.0) / math.log2(i + 1) for i, u in enumerate(ranked[:10], start=1))
    ideal = sorted((g for g in gold.values() if g > 0), reverse=True)[:10]
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
    out["ndcg@10"] = dcg / idcg if idcg else 0.0
    return out


def average(rows: list[dict[str, float]]) -> dict[str, Any]:
    keys = [f"recall@{k}" for k in KS] + ["mrr", "ndcg@10"]
    out: dict[str, Any] = {k: (round(sum(r[k] for r in rows) / len(rows), 4) if rows else 0.0) for k in keys}
    out["queries"] = len(rows)
    return out


# ---- running the four methods over one store ----------------------------------------
class _Accumulator:
    def __init__(self):
        self.rows: dict[str, list[dict[str, float]]] = {m: [] for m in METHODS}
        self.rerank_status: Counter = Counter()
        self.rerank_reasons: Counter = Counter()
        self.modes: Counter = Counter()
        self.by_type: dict[str, list[dict[str, float]]] = {}

    def result(self) -> dict[str, Any]:
        return {m: average(rows) for m, rows in self.rows.items()}


async def _evaluate_queries(
    svc,
    queries,
    unit_of: dict[str, str],
    depth: int,
    overrides: dict,
    acc: _Accumulator,
    qtype_of: Optional[dict[str, str]] = None,
    now: Optional[datetime] = None,
) -> None:
    """queries: (qid, text, gold {unit: gain}); unit_of maps entry id -> evaluated unit;
    now: when the questions are asked (the forgetting curve's "now")."""
    # each path must offer at least `depth` candidates (the service's settings already hold `overrides`)
    pool = max(int(svc.settings.get("memory.poolSize")), depth)
    hybrid_over = {**overrides, "memory.poolSize": pool, "memory.rerankEnabled": False}
    decay_off = {**hybrid_over, **DECAY_OFF}
    rerank_over = {**overrides, "memory.poolSize": pool, "memory.rerankEnabled": True}
    now = now or utcnow()
    for qid, text, gold in queries:
        try:
            prepared = prepare_query(text)
        except ValueError:
            continue
        bm25, vec = await svc.candidates(prepared.text, depth)
        ranked = {
            "bm25": dedupe(unit_of[i] for i in bm25.ids),
            "vector": dedupe(unit_of[i] for i in vec.ids) if vec is not None else [],
        }
        res = await svc.recall(text, limit=depth, overrides=hybrid_over, now=now)
        acc.modes[res.mode] += 1
        ranked["hybrid"] = dedupe(unit_of[h.id] for h in res.results)
        res = await svc.recall(text, limit=depth, overrides=decay_off, now=now)
        ranked["hybrid (decay off)"] = dedupe(unit_of[h.id] for h in res.results)
        res = await svc.recall(text, limit=depth, overrides=rerank_over, now=now)
        ranked["hybrid+rerank"] = dedupe(unit_of[h.id] for h in res.results)
        # what the reranker did for this query: the status of the best result (the head)
        acc.rerank_status[res.results[0].rerank.status if res.results else "empty"] += 1
        for n in res.notices:
            if n.code == "rerank_unavailable":
                acc.rerank_reasons[n.message[:200]] += 1
        for m in METHODS:
            metrics = query_metrics(ranked[m], gold)
            acc.rows[m].append(metrics)
            if qtype_of is not None and m == "hybrid":
                acc.by_type.setdefault(qtype_of[qid], []).append(metrics)


def _rerank_meta(acc: _Accumulator, settings) -> dict[str, Any]:
    meta: dict[str, Any] = {"model": settings.get("memory.rerankModel"), "status_per_query": dict(acc.rerank_status)}
    if acc.rerank_status and set(acc.rerank_status) <= {"failed", "timeout", "not_loaded", "empty"}:
        meta["note"] = "the reranker never ran: hybrid+rerank reports RRF order (identical to hybrid)"
    if acc.rerank_reasons:
        meta["reasons"] = [r for r, _ in acc.rerank_reasons.most_common(3)]
    return meta


def _make_service(store, settings, embedder_factory, reranker_factory):
    from .service import RecallService

    return RecallService(store, settings, embedder_factory, reranker_factory, snapshot=False)


async def _index(store, entries, settings, embedder_factory, reranker_factory, acc: _Accumulator):
    """Load entries into a throwaway evaluation store and embed them; returns the
    service and the seconds spent embedding. The store holds benchmark text, not
    anyone's memory: it loads through the gate's fixture path (gate_bulk.load_fixture),
    which lands every document as given, since the scanner would refuse some chat
    turns and skew what is measured."""
    await load_fixture(store, entries, "eval", "evaluation corpus")
    svc = _make_service(store, settings, embedder_factory, reranker_factory)
    await svc.open()
    t = time.perf_counter()
    try:
        await svc.embed_pending(batch=64)
    except Exception as exc:  # evaluate what still works, and say why vectors are missing
        acc.modes[f"embedding failed: {exc}"[:120]] += 1
    return svc, time.perf_counter() - t


def _shared_factories(embedder_factory, reranker_factory):
    """One embedder and one reranker per model for the whole run (fresh stores per
    question must not mean fresh worker threads per question)."""
    from .embedder import default_embedder_factory
    from .rerank import make_reranker

    embedders: dict = {}
    rerankers: dict = {}
    make_e = embedder_factory or default_embedder_factory
    make_r = reranker_factory or make_reranker

    def embedder(name):
        if name not in embedders:
            embedders[name] = make_e(name)
        return embedders[name]

    def reranker(name):
        if name not in rerankers:
            rerankers[name] = make_r(name)
        return rerankers[name]

    def close():
        for e in embedders.values():
            e.close()
        for r in rerankers.values():
            r.close()

    return embedder, reranker, close


def _settings(overrides: Optional[dict]):
    from ..config import Settings

    return Settings.defaults().override(overrides or {})


def git_revision() -> str:
    """The commit of the code being measured ("+dirty" with uncommitted changes), or "unknown"."""
    here = Path(__file__).resolve().parent
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=here, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (rev + ("+dirty" if dirty else "")) if rev else "unknown"


def _run_meta(settings) -> dict[str, Any]:
    """What every evaluation JSON records about how it was made; taken when the run
    starts, since a commit during an hour-long run would otherwise relabel it."""
    return {"git_revision": git_revision(), "settings": settings.as_dict()}


def _common_meta(acc: _Accumulator, settings, embed_s: float, started: float, run_meta: dict) -> dict[str, Any]:
    """What both evaluations record: the model, the time, how recall ran, the settings and revision."""
    return {
        "embedding_model": settings.get("memory.embeddingModel"),
        "embed_seconds": round(embed_s, 1),
        "seconds": round(time.perf_counter() - started, 1),
        "recall_modes": dict(acc.modes),
        "rerank": _rerank_meta(acc, settings),
        **run_meta,
    }


LME_DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"


def lme_date(value: Any, where: str) -> datetime:
    """A LongMemEval date ('2023/05/20 (Sat) 07:47', taken as UTC) or a clear error naming where it is."""
    try:
        return datetime.strptime(str(value), LME_DATE_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        raise InvalidValue(f"{where}: {value!r} is not a LongMemEval date like '2023/05/20 (Sat) 07:47'") from None


def _question_dates(q: dict, n: int, path: Path) -> tuple[Optional[datetime], list[Optional[datetime]]]:
    """(question date, one date per session); all None when the file has no dates."""
    qid = q.get("question_id")
    dates = q.get("haystack_dates")
    if dates is None and q.get("question_date") is None:
        return None, [None] * n
    if not isinstance(dates, list) or len(dates) != n:
        raise InvalidValue(f"{path}: question {qid}: haystack_dates must list one date per session ({n})")
    now = lme_date(q.get("question_date"), f"{path}: question {qid}: question_date")
    return now, [lme_date(d, f"{path}: question {qid}: haystack_dates[{i}]") for i, d in enumerate(dates)]


# ---- LongMemEval -------------------------------------------------------------------
def _session_text(turns: list[dict]) -> str:
    return "\n".join(f"{t.get('role', '')}: {t.get('content', '')}" for t in turns)


def _load_longmemeval(path: Path) -> list[dict]:
    """The questions of a LongMemEval file, or a clear error saying what is wrong with it."""
    if not path.is_file():
        raise InvalidValue(f"no such file: {path}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, list) or (data and not (isinstance(data[0], dict) and "haystack_sessions" in data[0])):
        raise InvalidValue(f"{path} is not a LongMemEval file (expected a JSON list of questions with haystack_sessions)")
    return data


def _haystack_entries(q: dict, granularity: str, dates: list[Optional[datetime]]) -> tuple[list[MemoryEntry], dict[str, str]]:
    """One question's haystack as entries (one per session, or per turn) dated by the
    dataset, and the map entry id -> session id that ranks are evaluated over."""
    unit_of: dict[str, str] = {}
    entries = []
    for si, (sid, turns) in enumerate(zip(q["haystack_session_ids"], q["haystack_sessions"])):
        when: dict[str, Any] = (
            {} if dates[si] is None else {"created_at": dates[si], "updated_at": dates[si], "last_accessed": dates[si]}
        )
        if granularity == "session":
            units = [(f"session {si}", turns)]
        else:
            units = [(f"session {si} turn {ti}", [turn]) for ti, turn in enumerate(turns)]
        for key, part in units:
            e = MemoryEntry(key=key, content=_session_text(part), source_session=f"s{si}", **when)
            entries.append(e)
            unit_of[e.id] = sid
    return entries, unit_of


async def run_longmemeval(
    path: str | Path,
    granularity: str = "session",
    limit: Optional[int] = None,
    overrides: Optional[dict] = None,
    *,
    embedder_factory: Optional[Callable] = None,
    reranker_factory: Optional[Callable] = None,
    depth: int = 10,
    progress: Optional[Callable[[int, int], None]] = None,
) -> dict[str, Any]:
    if granularity not in ("session", "turn"):
        raise ValueError(f"granularity must be 'session' or 'turn', got {granularity!r}")
    path = Path(path)
    data = _load_longmemeval(path)
    settings = _settings(overrides)
    run_meta = _run_meta(settings)
    answerable = [q for q in data if not str(q["question_id"]).endswith("_abs")]
    questions = answerable if limit is None else answerable[:limit]
    acc = _Accumulator()
    started = time.perf_counter()
    # a turn-level run retrieves more units so that ten distinct sessions remain after mapping
    doc_depth = depth if granularity == "session" else depth * 5
    embedder_factory, reranker_factory, release = _shared_factories(embedder_factory, reranker_factory)
    embed_s, docs, undated = 0.0, 0, 0
    with tempfile.TemporaryDirectory(prefix="echo-lme-") as tmp:
        for n, q in enumerate(questions, start=1):
            asked, dates = _question_dates(q, len(q["haystack_sessions"]), path)
            undated += asked is None
            entries, unit_of = _haystack_entries(q, granularity, dates)
            store = await Store.open(Path(tmp) / f"q{n}.db")
            svc, seconds = await _index(store, entries, settings, embedder_factory, reranker_factory, acc)
            embed_s += seconds
            docs += len(entries)
            qid = q["question_id"]
            asked_q = [(qid, q["question"], {sid: 1.0 for sid in q["answer_session_ids"]})]
            types = {qid: q["question_type"]}
            await _evaluate_queries(svc, asked_q, unit_of, doc_depth, dict(overrides or {}), acc, types, asked)
            await svc.close(release_models=False)
            await store.close()
            if progress:
                progress(n, len(questions))
    release()
    out = acc.result()
    out["_meta"] = {
        "dataset": str(path),
        "granularity": granularity,
        "questions": len(questions),
        "skipped_abstention": len(data) - len(answerable),
        "documents": docs,
        **_common_meta(acc, settings, embed_s, started, run_meta),
        "hybrid_by_question_type": {t: average(r) for t, r in sorted(acc.by_type.items())},
        "dates": (
            "haystack_dates, asked at question_date"
            if not undated
            else f"{undated} question(s) without dates: their entries are dated now, so decay is uniform"
        ),
    }
    return out


# ---- BEIR --------------------------------------------------------------------------
def _read_jsonl(path: Path) -> list[dict]:
    """Objects with an _id, one per line; a bad line is an error naming it."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidValue(f"{path}: line {n}: not JSON ({exc.msg})") from None
            if not isinstance(obj, dict) or "_id" not in obj:
                raise InvalidValue(f"{path}: line {n}: expected an object with an _id")
            out.append(obj)
    return out


async def run_beir(
    folder: str | Path,
    split: str = "test",
    limit: Optional[int] = None,
    overrides: Optional[dict] = None,
    *,
    embedder_factory: Optional[Callable] = None,
    reranker_factory: Optional[Callable] = None,
    depth: int = 10,
    db_dir: Optional[str] = None,
) -> dict[str, Any]:
    """BEIR layout: corpus.jsonl {_id, title, text}, queries.jsonl {_id, text},
    qrels/<split>.tsv (query-id, corpus-id, score; header line)."""
    folder = Path(folder)
    for need in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv"):
        if not (folder / need).exists():
            raise InvalidValue(f"{folder} is not a BEIR dataset: no such file {need}")
    settings = _settings(overrides)
    run_meta = _run_meta(settings)
    corpus = _read_jsonl(folder / "corpus.jsonl")
    queries = {str(q["_id"]): q["text"] for q in _read_jsonl(folder / "queries.jsonl")}
    qrels: dict[str, dict[str, float]] = {}
    with open(folder / "qrels" / f"{split}.tsv", encoding="utf-8") as fh:
        reader = csv.reader(fh, delimiter="\t")
        for n, row in enumerate(reader, start=1):
            if len(row) < 3 or row[0] in ("query-id", "query_id"):
                continue
            try:
                gain = float(row[2])
            except ValueError:
                raise InvalidValue(f"{folder / 'qrels' / f'{split}.tsv'}: line {n}: score {row[2]!r} is not a number") from None
            qrels.setdefault(str(row[0]), {})[str(row[1])] = gain
    known = {str(doc["_id"]) for doc in corpus}
    unknown = sorted({d for g in qrels.values() for d in g} - known)
    qids = [q for q in qrels if q in queries and any(g > 0 for g in qrels[q].values())]
    if limit is not None:
        qids = qids[:limit]
    started = time.perf_counter()
    acc = _Accumulator()
    with tempfile.TemporaryDirectory(prefix="echo-beir-", dir=db_dir) as tmp:
        store = await Store.open(Path(tmp) / "beir.db")
        unit_of: dict[str, str] = {}
        entries = []
        for doc in corpus:
            e = MemoryEntry(key=str(doc.get("title") or ""), content=str(doc.get("text") or ""))
            entries.append(e)
            unit_of[e.id] = str(doc["_id"])
        svc, embed_s = await _index(store, entries, settings, embedder_factory, reranker_factory, acc)
        await _evaluate_queries(svc, [(q, queries[q], qrels[q]) for q in qids], unit_of, depth, dict(overrides or {}), acc)
        await svc.close()
        await store.close()
    out = acc.result()
    out["_meta"] = {
        "dataset": str(folder),
        "split": split,
        "documents": len(corpus),
        "queries": len(qids),
        **_common_meta(acc, settings, embed_s, started, run_meta),
        "dates": "none in BEIR: every entry is dated now, so decay is uniform",
        "qrels_unknown_corpus_ids": {"count": len(unknown), "first": unknown[:5]},
        "qrels_unknown_query_ids": sorted(q for q in qrels if q not in queries)[:5],
    }
    return out
