"""Recall quality over the store's own relevance judgments (engine/judgments.py).

    await evaluate(engine, overrides=None, progress=None)

Every judged query runs through the real recall pipeline on the user's store, dry
(no access counts, last-accessed dates or decay state move), with the engine's
settings plus `overrides` (the playground's knobs, `eval --judgments --set`). The
metric functions are the evaluation harness's (evaluation.py), so these numbers
mean what `eval --beir` and `eval --longmemeval` numbers mean.

Which judgments count: a judgment of an old version counts for the entry's
current version (an edit does not lose it); a judgment whose entry was purged is
skipped and counted; a query none of whose remaining judgments is relevant
(grade >= 1) is skipped and counted, since recall and MRR are undefined there."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from .evaluation import average, dedupe, query_metrics

if TYPE_CHECKING:
    from ..memory import MemoryEngine
    from ..store import Store

DEPTH = 10  # nDCG@10 and recall@10 need the top ten
METRICS = ("recall@5", "recall@10", "mrr", "ndcg@10")
MAX_CHAIN = 1000  # versions followed from a judged entry to its current one


async def current_versions(store: "Store", entry_ids: list[str]) -> dict[str, str]:
    """entry id -> the id of its chain's current version (itself when not superseded);
    ids that are no longer stored are left out."""
    out: dict[str, str] = {}
    for start in range(0, len(entry_ids), 500):
        chunk = entry_ids[start : start + 500]
        rows = await store.fetchall(f"SELECT id, superseded_by FROM entries WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        for entry_id, newer in rows:
            head, seen = entry_id, 0
            while newer is not None and seen < MAX_CHAIN:
                row = await store.fetchone("SELECT superseded_by FROM entries WHERE id=?", (newer,))
                if row is None:
                    break
                head, newer, seen = newer, row[0], seen + 1
            out[entry_id] = head
    return out


async def evaluate(
    engine: "MemoryEngine", overrides: Optional[dict[str, Any]] = None, progress: Optional[Callable[[int, int], None]] = None
) -> dict[str, Any]:
    """{"metrics": recall@1/5/10, mrr, ndcg@10, queries; "per_query": [...];
    "skipped": what did not count and why; "overrides": the knobs tried;
    "recall_modes" and "embedding": whether the vector path took part}."""
    tried = engine.settings.override(overrides or {})  # an unknown key or bad value is refused here
    overrides = {k: tried.get(k) for k in overrides or {}}
    judgments = await engine.judgments()
    heads = await current_versions(engine.store, sorted({j.entry_id for j in judgments if not j.purged}))
    gold: dict[str, dict[str, float]] = {}
    purged = 0
    for j in judgments:
        head = heads.get(j.entry_id)
        gold.setdefault(j.query, {})
        if j.purged or head is None:
            purged += 1
            continue
        gold[j.query][head] = max(gold[j.query].get(head, 0.0), float(j.grade))
    queries = [q for q, g in gold.items() if any(v > 0 for v in g.values())]
    without_relevant = [q for q in gold if q not in queries]
    embedding = await settle_vectors(engine) if queries else "not needed"
    rows: list[dict[str, float]] = []
    per_query: list[dict[str, Any]] = []
    modes: dict[str, int] = {}
    for n, query in enumerate(queries, start=1):
        result = await engine.recall(query, limit=DEPTH, dry=True, overrides=overrides or None)
        modes[result.mode] = modes.get(result.mode, 0) + 1
        ranked = dedupe(result.hit_ids)
        metrics = query_metrics(ranked, gold[query])
        rows.append(metrics)
        per_query.append(
            {
                "query": query,
                "judged": len(gold[query]),
                "relevant": sum(1 for v in gold[query].values() if v > 0),
                **{k: round(metrics[k], 4) for k in METRICS},
            }
        )
        if progress is not None:
            progress(n, len(queries))
    return {
        "metrics": average(rows),
        "per_query": per_query,
        "skipped": {
            "purged_judgments": purged,
            "queries_without_relevant": len(without_relevant),
            "first_queries_without_relevant": without_relevant[:5],
        },
        "judgments": len(judgments),
        "overrides": dict(overrides or {}),
        "recall_modes": modes,
        "embedding": embedding,
    }


async def settle_vectors(engine: "MemoryEngine") -> str:
    """Embed what is still pending before measuring, so the numbers do not depend on how
    far a background embedding got (vectors are a derived cache, not memory: a read-only
    store embeds in memory only). Returns what the vector path had to work with."""
    service = engine.recall_service
    if not service.open_report:
        await service.open()
    try:
        await service.embed_pending()
    except Exception as exc:  # no model: the vector path is off, and the report says so
        return f"unavailable ({exc})"[:200]
    return "ready"
