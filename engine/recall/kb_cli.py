"""`echo-memory kb ...`: the knowledge base (documents embedded into the store's
`<db>.kb.npz` sidecar, searched apart from memories). See knowledge.py."""

from __future__ import annotations

import argparse

from ..cli import EXIT_OK, emit, positive_int
from ..errors import ReadOnlyStore
from . import knowledge


def register(add) -> None:
    p = add("kb", None, "the knowledge base: documents searched apart from memories (<db>.kb.npz)")
    sub = p.add_subparsers(dest="kb_command", required=True, metavar="{build,recall,info}")

    def child(name: str, handler, help_: str) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=help_)
        c.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
        c.set_defaults(handler=handler)
        return c

    c = child("build", cmd_build, "embed text files (a folder: its .md/.txt/.rst files) into the knowledge base")
    c.add_argument("paths", nargs="+", metavar="PATH", help="files or folders; a rebuilt file replaces its passages")
    c.add_argument("--reset", action="store_true", help="start empty (after changing memory.embeddingModel)")
    c = child("recall", cmd_recall, "the knowledge-base passages nearest to QUERY")
    c.add_argument("query")
    c.add_argument("--limit", type=positive_int, default=5, help="how many passages (at least 1)")
    child("info", cmd_info, "what the knowledge base holds (no model loads)")


async def cmd_build(engine, args) -> int:
    if engine.read_only:
        raise ReadOnlyStore(f"kb build writes {knowledge.sidecar_path(engine.path)}; the store was opened read-only")
    report = await knowledge.build(engine.path, engine.recall_service.embedder, args.paths, reset=args.reset)
    emit(
        args,
        report,
        lambda: (
            f"knowledge base {report['path']}: {report['passages']} passages from "
            f"{report['documents']} documents ({report['total_passages']} in all)"
        ),
    )
    return EXIT_OK


async def cmd_recall(engine, args) -> int:
    hits = await knowledge.recall(engine.path, engine.recall_service.embedder, args.query, args.limit)
    emit(
        args,
        [h.to_dict() for h in hits],
        lambda: "\n".join(f"{h.score:6.3f}  {h.id}\n        {' '.join(h.text.split())[:200]}" for h in hits) or "no passages",
    )
    return EXIT_OK


async def cmd_info(engine, args) -> int:
    data = knowledge.info(engine.path)
    emit(
        args,
        data,
        lambda: (
            f"knowledge base {data['path']}: "
            + (
                f"{data['passages']} passages from {data['documents']} documents, {data['model_id']}, {data['bytes']:,} bytes"
                if data["exists"]
                else "not built yet (echo-memory kb build PATH)"
            )
        ),
    )
    return EXIT_OK
