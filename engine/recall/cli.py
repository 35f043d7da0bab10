"""CLI commands for recall, evaluation and the recall benchmark."""

from __future__ import annotations

import argparse
import json

from ..cli import EXIT_OK, emit, positive_int
from ..config import Settings, parse_assignments
from ..progress import for_cli
from . import kb_cli


class _OnTheStore(argparse.Action):
    """--judgments: unlike the dataset evaluations, this one runs on the user's store."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, True)
        namespace.needs_store = True


def register(add) -> None:
    p = add("recall", cmd_recall, "hybrid recall with every stage's score")
    p.add_argument("query", help="what to remember, in words (quote it)")
    p.add_argument("--limit", type=positive_int, default=10, help="how many results (at least 1; default 10)")
    p.add_argument(
        "--dry",
        action="store_true",
        help="a trial: the hits are not counted as accesses and the recall log records nothing "
        "(without it, each hit's access count moves and the recall log keeps when, the query, "
        "the rank and who asked)",
    )
    p.add_argument(
        "--include-superseded", action="store_true", help="also return old versions (superseded entries are left out by default)"
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="try a config knob for this query only, e.g. memory.rrfK=30 (repeatable; any memory.* key)",
    )
    p = add("eval", cmd_eval, "recall quality: bm25, vector, hybrid, hybrid (decay off), hybrid+rerank side by side")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--longmemeval", metavar="FILE", help="a LongMemEval JSON file (e.g. longmemeval_s_dev.json)")
    source.add_argument("--beir", metavar="DIR", help="a BEIR dataset folder (corpus.jsonl, queries.jsonl, qrels/)")
    source.add_argument(
        "--judgments",
        action=_OnTheStore,
        nargs=0,
        help="recall@5/@10, MRR, nDCG@10 over the store's own relevance judgments, with the "
        "current settings (--config, --set); dry: nothing is recorded",
    )
    p.add_argument(
        "--granularity",
        choices=["session", "turn"],
        default="session",
        help="LongMemEval: index whole sessions or single turns: session or turn (default session)",
    )
    p.add_argument(
        "--split",
        choices=["train", "dev", "test"],
        default="test",
        help="which BEIR qrels file to evaluate (qrels/SPLIT.tsv): train, dev or test (default test)",
    )
    p.add_argument(
        "--cache",
        metavar="DIR",
        default=None,
        help="reuse document embeddings kept in DIR (keyed by model and text) between runs",
    )
    p.add_argument("--limit", type=positive_int, default=None, help="evaluate the first N questions only")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="evaluate with a config knob changed, e.g. memory.bm25Weight=2 (repeatable)",
    )
    p.set_defaults(needs_store=False)
    p = add("bench", cmd_bench, "recall benchmark on a synthetic store (fixed seed)")
    p.add_argument("--entries", type=positive_int, default=10_000, help="synthetic store size (at least 1; default 10,000)")
    p.add_argument("--queries", type=positive_int, default=50, help="queries to time (at least 1; default 50)")
    p.set_defaults(needs_store=False)
    kb_cli.register(add)


async def cmd_recall(engine, args) -> int:
    overrides = parse_assignments(args.set)
    result = await engine.recall(
        args.query, limit=args.limit, dry=args.dry, overrides=overrides or None, include_superseded=args.include_superseded
    )
    data = result.to_dict()
    emit(args, data, lambda: _human(data))
    return EXIT_OK


def _human(data: dict) -> str:
    lines = [f"{'#':>2} {'final':>7} {'bm25':>7} {'vec':>7} {'rrf':>7} {'rerank':>7} {'decay':>5}  key / content"]
    for r in data["results"]:

        def score(part):
            if part == "vector" and (r.get(part) or {}).get("pending"):
                return "pending"  # no vector yet: BM25 found it
            return "-" if not r.get(part) or r[part].get("score") is None else f"{r[part]['score']:.3f}"

        lines.append(
            f"{r['rank']:>2} {r['final']:>7.4f} {score('bm25'):>7} {score('vector'):>7} {r['rrf']:>7.4f} "
            f"{score('rerank'):>7} {r['decay']['factor']:>5.2f}  {r.get('key', '')}: {r.get('content', '')[:60]}"
        )
    for d in data.get("dropped", []):
        lines.append(f"   dropped {d['id'][:8]} at {d['stage']}: {d['reason']}")
    for n in data.get("notices", []):
        lines.append(f"   notice: {n.get('message', n) if isinstance(n, dict) else n}")
    lines.append("   timings ms: " + ", ".join(f"{k}={v}" for k, v in data.get("timings_ms", {}).items()))
    return "\n".join(lines)


async def cmd_eval(_engine, args) -> int:
    from .evaluation import run_beir, run_longmemeval

    overrides = parse_assignments(args.set)
    Settings.defaults().override(overrides)  # refuse a bad --set before any work
    if args.judgments:
        return await _eval_judgments(_engine, args, overrides)

    factory = None
    if args.cache:
        from .eval_cache import cached_embedder_factory

        factory = cached_embedder_factory(args.cache)
    if args.longmemeval:
        progress = for_cli(args, "eval", "questions")
        try:
            report = await run_longmemeval(
                args.longmemeval, args.granularity, args.limit, overrides or None, progress=progress, embedder_factory=factory
            )
        finally:
            progress.close()
    else:
        report = await run_beir(args.beir, args.split, limit=args.limit, overrides=overrides or None, embedder_factory=factory)
    emit(args, report, lambda: json.dumps(report, indent=2))
    return EXIT_OK


async def _eval_judgments(engine, args, overrides: dict) -> int:
    engine.settings.override(overrides)  # a --set the config's values make invalid is refused here

    progress = for_cli(args, "judging", "queries")
    try:
        report = await engine.evaluate_judgments(overrides or None, progress=progress)
    finally:
        progress.close()
    m, skipped = report["metrics"], report["skipped"]
    notes = []
    if skipped["purged_judgments"]:
        notes.append(f"skipped {skipped['purged_judgments']} judgment(s) whose entry was purged")
    if skipped["queries_without_relevant"]:
        notes.append(f"skipped {skipped['queries_without_relevant']} query(ies) with no relevant judgment left")
    emit(
        args,
        report,
        lambda: "\n".join(
            [
                f"{m['queries']} judged queries: recall@5 {m['recall@5']:.4f}  recall@10 {m['recall@10']:.4f}  "
                f"MRR {m['mrr']:.4f}  nDCG@10 {m['ndcg@10']:.4f}"
                if m["queries"]
                else "no judged query with a relevant entry: judge candidates in the playground, or `judgments import`"
            ]
            + [f"note: {n}" for n in notes]
        ),
    )
    return EXIT_OK


async def cmd_bench(_engine, args) -> int:
    from .bench import run_bench

    report = await run_bench(args.entries, queries=args.queries)
    emit(args, report, lambda: json.dumps(report, indent=2))
    return EXIT_OK
