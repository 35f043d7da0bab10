"""`echo-memory`'s headless commands over the engine (every one with --json).

The console script is the app's, which hands every command
here and passes `open_app` for the no-command case; `python -m engine.cli` with
no command prints the help and points to the app.

Exit codes: 0 ok, 1 failure (missing entry, unusable store), 2 usage error or
invalid value, 3 refused by the scanner or a guard.

Why so long: the argparse tree of the core commands, each with its help text
and allowed values; recall, consolidation, bridge and kb commands register
from their own modules."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable, Optional

import platformdirs

from .actors import Actor
from .config import Settings
from .errors import ConfigError, EchoMemoryError, InvalidValue, WriteRejected
from .memory import SORTABLE, EntryFilter, MemoryEngine, import_place
from .models import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel
from .progress import for_cli
from .query import parse_provenance, parse_tier, parse_type
from .scanner import MAX_CONTENT_CHARS, learned_status, scan_memory_content, strip_invisible

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_REFUSED = 0, 1, 2, 3

# Modules whose register(add) adds their subcommands: add(name, handler, help) returns
# the subparser (with --json already) and handler(engine, args) returns an exit code.
EXTENSIONS: tuple[str, ...] = ("engine.consolidation.cli", "engine.recall.cli", "engine.bridge.cli")


class CliError(EchoMemoryError):
    """A command-line problem that carries its own exit code."""

    def __init__(self, message: str, code: int = EXIT_FAIL):
        super().__init__(message)
        self.code = code


def exit_code(exc: EchoMemoryError) -> int:
    """The one map from engine errors to the README's exit codes."""
    if isinstance(exc, CliError):
        return exc.code
    if isinstance(exc, WriteRejected):
        return EXIT_REFUSED
    if isinstance(exc, (InvalidValue, ConfigError)):
        return EXIT_USAGE
    return EXIT_FAIL


def positive_int(text: str) -> int:
    """argparse type for counts: refused before any store opens or model loads."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def default_db_path() -> Path:
    env = os.environ.get("ECHO_MEMORY_DB")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("echo-memory")) / "memory.db"


def emit(args: argparse.Namespace, data: Any, human: Callable[[], str]) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=None if isinstance(data, list) else 2, default=str))
    else:
        text = human()
        if text:
            print(text)


def entry_line(e: MemoryEntry) -> str:
    pin = "📌" if e.pinned else "  "
    return (
        f"{e.id[:8]} {pin} {e.tier.label:<8} {e.type.label:<11} {e.source.label:<14} v{e.version:<2} {e.key:<24} {e.content[:70]}"
    )


def plain(value: Any) -> str:
    """A field as a person reads it: no Python reprs (None, True, [..])."""
    if value is None or value == "" or value == []:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def entry_block(e: MemoryEntry) -> str:
    return "\n".join(f"{k:>15}: {plain(v)}" for k, v in e.to_dict().items())


def audit_line(r: Any) -> str:
    return f"{r.at:%Y-%m-%d %H:%M} {r.action:<10} {r.actor:<10} {(r.entry_id or '')[:8]:<8} {r.reason}"


# ---- commands ------------------------------------------------------------------------
async def cmd_stats(engine: MemoryEngine, args) -> int:
    stats = {**await engine.stats(), "scanner": learned_status().to_dict()}
    emit(
        args,
        stats,
        lambda: "\n".join(
            [
                f"store {stats['path']} (schema v{stats['schema_version']}{', read-only' if stats['read_only'] else ''})",
                "tiers:   " + "  ".join(f"{k}={v}" for k, v in stats["tiers"].items()),
                "types:   " + "  ".join(f"{k}={v}" for k, v in stats["types"].items()),
                "sources: " + "  ".join(f"{k}={v}" for k, v in stats["sources"].items()),
                f"pinned={stats['pinned']}  superseded={stats['superseded']}  "
                f"pending contradictions={stats['pending_contradictions']}  blocked writes={stats['blocked_writes']}",
                f"scanner: {stats['scanner']['message']}",
            ]
        ),
    )
    if not stats["scanner"]["enabled"]:
        print(f"WARNING: {stats['scanner']['message']}", file=sys.stderr)
    return EXIT_OK


async def cmd_list(engine: MemoryEngine, args) -> int:
    flt = EntryFilter(
        tier=parse_tier(args.tier) if args.tier else None,
        type=parse_type(args.type) if args.type else None,
        source=parse_provenance(args.source) if args.source else None,
        pinned=True if args.pinned else None,
        text=args.text,
        tag=args.tag,
    )
    entries = await engine.list_entries(flt, order_by=args.sort, limit=args.limit)
    emit(args, [e.to_dict() for e in entries], lambda: "\n".join(entry_line(e) for e in entries) or "(no entries)")
    return EXIT_OK


async def cmd_show(engine: MemoryEngine, args) -> int:
    entry = await engine.get(args.id)
    data = entry.to_dict()
    data["decay"] = engine.explain_decay(entry)
    audit_records = await engine.audit(entry.id, limit=50)
    data["audit"] = [r.to_dict() for r in audit_records]
    recalls = await engine.recent_recalls(entry.id, limit=SHOWN_RECALLS)
    data["recalls"] = recalls.to_dict()
    decay = data["decay"]
    emit(
        args,
        data,
        lambda: "\n".join(
            [
                entry_block(entry),
                f"{'decay':>15}: factor {decay['factor']:.3f}, effective importance {decay['effective_importance']:.3f} "
                f"(archived under {decay['threshold']:.2f}); half-life {decay['half_life_days']:.0f} days; "
                + (
                    f"archived in {decay['days_until_archive']} days if never recalled"
                    if decay["days_until_archive"] is not None
                    else "not archived by decay"
                ),
                f"recent recalls: {recalls.total}"
                + (" (newest first):" if recalls.total else " (no non-dry recall returned it)"),
                *(f"  {r.at:%Y-%m-%d %H:%M} {r.query[:80]!r} #{r.rank} by {r.actor}" for r in recalls.recent),
                "audit trail (newest first):",
                *("  " + audit_line(r) for r in audit_records),
            ]
        ),
    )
    return EXIT_OK


SHOWN_RECALLS = 10  # show: the newest recalls that returned the entry


async def cmd_add(engine: MemoryEngine, args) -> int:
    tags = (args.tags or "").split(",")
    content = read_text_arg(args.content, MAX_CONTENT_CHARS)
    removed: list[dict] = []
    if args.strip_invisible:  # the fix for an invisible-character refusal: strip, say what went, write
        content, removed = strip_invisible(content)
        if removed:
            print(
                f"stripped {len(removed)} invisible character(s): "
                + ", ".join(f"{r['codepoint']}@{r['offset']}" for r in removed[:20])
                + (" ..." if len(removed) > 20 else ""),
                file=sys.stderr,
            )
    outcome = await engine.add(args.key, content, args.type, args.source, tags, args.importance, args.pin, actor="cli")
    data = outcome.to_dict() if not removed else {**outcome.to_dict(), "stripped_invisible": removed}
    emit(args, data, lambda: f"{outcome.action}: {entry_line(outcome.entry)}")
    return EXIT_OK


def _simple(method: str) -> Callable[[MemoryEngine, argparse.Namespace], Awaitable[int]]:
    async def run(engine: MemoryEngine, args) -> int:
        outcome = await getattr(engine, method)(args.id, actor="cli")
        emit(args, outcome.to_dict(), lambda: f"{outcome.action}: {entry_line(outcome.entry)}")
        return EXIT_OK

    return run


async def cmd_purge(engine: MemoryEngine, args) -> int:
    if args.expired:
        purged = await engine.purge_expired(actor="cli", dry_run=args.dry_run)
        verb = "would purge" if args.dry_run else "purged"
        emit(
            args,
            [e.to_dict() for e in purged],
            lambda: "\n".join([f"{verb} {len(purged)} archived entries"] + [f"  {entry_line(e)}" for e in purged]),
        )
        return EXIT_OK
    if args.dry_run:
        raise CliError("--dry-run needs --expired (to see one entry before purging it: show ID)", EXIT_USAGE)
    if not args.id:
        raise CliError("purge needs an ID or --expired", EXIT_USAGE)
    return await _simple("purge")(engine, args)


async def cmd_decay(engine: MemoryEngine, args) -> int:
    changes = await engine.decay(dry_run=args.dry_run, actor="cli")
    verb = "would archive" if args.dry_run else "archived"
    emit(
        args,
        [c.to_dict() for c in changes],
        lambda: "\n".join(
            [f"{verb} {len(changes)} entries"]
            + [f"  {c.entry.id[:8]} {c.entry.key:<24} effective {c.effective_importance:.4f}" for c in changes]
        ),
    )
    return EXIT_OK


async def cmd_export(engine: MemoryEngine, args) -> int:
    count = await engine.export_jsonl(args.path)
    judged = len(await engine.judgments())
    emit(
        args,
        {"exported": count, "judgments": judged, "path": args.path},
        lambda: f"exported {count} entries and {judged} judgments to {args.path}",
    )
    return EXIT_OK


async def cmd_import(engine: MemoryEngine, args) -> int:
    progress = for_cli(args, "import", "entries")
    try:
        if args.source_format:
            if args.source_format == "echo-agent":
                from .importers.echo_agent import read_folder
            else:
                from .importers.hermes import read_folder
            folder = Path(args.path)
            if not folder.is_dir():
                raise CliError(f"{folder} is not a folder", EXIT_USAGE)
            report = await engine.import_entries(
                list(read_folder(folder)),
                actor=f"import:{args.source_format}",
                verbatim=args.source_format == "echo-agent",
                trust_provenance=args.trust_provenance,
                progress=progress,
            )
        else:
            if not Path(args.path).is_file():
                raise CliError(f"{args.path} is not a file", EXIT_USAGE)
            report = await engine.import_jsonl(args.path, trust_provenance=args.trust_provenance, progress=progress)
    finally:
        progress.close()
    summary = f"landed {report.landed}, unchanged {report.unchanged}, refused {len(report.refused)}"
    if report.judgments:
        summary += f"; judgments landed {report.judgments['landed']}, unchanged {report.judgments['unchanged']}"
    if report.all_refused:
        summary = f"nothing imported: every entry was refused ({len(report.refused)})"
    notes = []
    if not args.trust_provenance and any(r["reason"] == "provenance_guard" for r in report.refused):
        notes.append(
            "note: imported entries land as legacy; restoring your own export, --trust-provenance keeps the provenance it records"
        )
    emit(args, report.to_dict(), lambda: "\n".join([summary] + [f"  {_refusal_line(r)}" for r in report.refused] + notes))
    if report.all_refused:
        # Every line unreadable is an invalid input; any scanner or guard refusal is a refusal.
        return EXIT_USAGE if all(r["reason"] == "invalid" for r in report.refused) else EXIT_REFUSED
    return EXIT_OK


def _refusal_line(refusal: dict) -> str:
    where = import_place(refusal)
    key = f" ({refusal['key']})" if refusal.get("key") else ""
    return f"{where}{key}: {refusal['reason']}: {refusal['message']}"


# ---- relevance judgments (engine/judgments.py) -----------------------------------------
async def cmd_judgments(engine: MemoryEngine, args) -> int:
    """list | add | remove | import: the judgments `eval --judgments` measures recall by."""
    if args.action == "list":
        found = await engine.judgments(args.query)
        emit(
            args,
            [j.to_dict() for j in found],
            lambda: (
                "\n".join(f"{j.grade:>2} {j.entry_id[:8]} {(j.key or '(entry purged)')[:24]:<24} {j.query}" for j in found)
                or "(no judgments)"
            ),
        )
        return EXIT_OK
    if args.action in ("add", "remove"):
        try:
            entry_id = await engine.resolve_id(args.id)
        except EchoMemoryError:
            if args.action == "add":
                raise
            entry_id = args.id  # a purged entry's judgment is cleared by its full id
        if args.action == "add":
            judgment = await engine.judge(args.query, entry_id, args.grade, actor="cli")
            emit(
                args,
                judgment.to_dict(),
                lambda: f"judged {judgment.entry_id[:8]} {judgment.key}: grade {judgment.grade} for {judgment.query!r}",
            )
            return EXIT_OK
        cleared = await engine.unjudge(args.query, entry_id, actor="cli")
        emit(args, {"cleared": cleared}, lambda: "cleared" if cleared else "no such judgment")
        return EXIT_OK if cleared else EXIT_FAIL
    report = await engine.import_judgments(
        qrels=args.qrels, queries=args.queries, longmemeval=args.longmemeval, actor="import:judgments"
    )
    for line in report.messages():
        print(f"warning: {line}", file=sys.stderr)
    emit(
        args,
        report.to_dict(),
        lambda: "\n".join(
            [f"judgments landed {report.landed}, unchanged {report.unchanged}, refused {len(report.refused)}"]
            + [f"  query {r['query_id']}: {r['message']}" for r in report.refused]
        ),
    )
    return EXIT_OK if report.landed or report.unchanged else EXIT_USAGE


def add_judgments_parser(add) -> None:
    p = add("judgments", cmd_judgments, "relevance judgments: list, add, remove, import (BEIR qrels, LongMemEval)")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, help_: str) -> argparse.ArgumentParser:
        a = actions.add_parser(name, help=help_)
        a.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
        return a

    action("list", "every judgment (a purged entry's shows as 'entry purged')").add_argument(
        "--query", help="only this query's judgments"
    )
    for name, help_ in (
        ("add", "judge an entry relevant (or --grade 0: not relevant) to a query"),
        ("remove", "clear a judgment"),
    ):
        a = action(name, help_)
        a.add_argument("query", help="the query text (whitespace is collapsed)")
        a.add_argument("id", help="entry id, or its first 8 characters (as list prints them)")
        if name == "add":
            a.add_argument("--grade", type=int, default=1, help="0 not relevant, 1 relevant (default), up to 10")
    a = action(
        "import",
        "judgments from a BEIR qrels file or a LongMemEval file, placed on the entries whose id, key or a tag is the corpus id",
    )
    source = a.add_mutually_exclusive_group(required=True)
    source.add_argument("--qrels", metavar="FILE", help="BEIR qrels TSV (query-id, corpus-id, score)")
    source.add_argument("--longmemeval", metavar="FILE", help="LongMemEval JSON (answer_session_ids are relevant)")
    a.add_argument("--queries", metavar="FILE", help="BEIR queries.jsonl (default: ../queries.jsonl beside qrels/)")


async def cmd_working(engine: MemoryEngine, args) -> int:
    rendered = await (engine.core_snapshot() if args.core else engine.render_working(args.session))
    emit(args, rendered.to_dict(), lambda: rendered.markdown)
    return EXIT_OK


async def cmd_audit(engine: MemoryEngine, args) -> int:
    records = await engine.audit(args.id, args.action, args.limit)
    emit(args, [r.to_dict() for r in records], lambda: "\n".join(map(audit_line, records)))
    return EXIT_OK


async def cmd_demo(engine: MemoryEngine, args) -> int:
    from .demo import build_demo

    counts = await build_demo(engine)
    emit(args, counts, lambda: f"demo store written to {engine.path}: " + ", ".join(f"{k}={v}" for k, v in counts.items()))
    return EXIT_OK


def cmd_scan(args) -> int:
    """Needs no store: the scanner is a pure function."""
    if args.jsonl:
        from .scan_stream import scan_jsonl

        status = learned_status()
        if not status.enabled:  # each line says `layer: rules`; a pipe would never show why
            print(f"WARNING: {status.message}", file=sys.stderr)
        scan_jsonl(sys.stdin.buffer, sys.stdout)
        return EXIT_OK
    if args.text is None:
        raise CliError("scan needs TEXT or --jsonl", EXIT_USAGE)
    result = scan_memory_content(read_text_arg(args.text))
    emit(
        args,
        result.to_dict(),
        lambda: (
            "blocked: " + ", ".join(f"{k}={v}" for k, v in result.to_dict().items() if v not in (None, True))
            if result.blocked
            else "clean"
        ),
    )
    if result.blocked:
        print(f"refused: {result.reason}", file=sys.stderr)
        return EXIT_REFUSED
    return EXIT_OK


def read_text_arg(value: str, limit: Optional[int] = None) -> str:
    """`-` reads the text from stdin, strictly as UTF-8; an argument must be UTF-8 too.
    With a limit (in characters), stdin is read no further than the limit allows, so
    oversize input is refused without holding it whole."""
    if value != "-":
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidValue(f"argument is not UTF-8 (byte {exc.start})") from None
        if limit is not None and len(value) > limit:
            raise InvalidValue(f"content is {len(value):,} characters; the limit is {limit:,}")
        return value
    # A character is at most 4 UTF-8 bytes: more bytes than that is over the limit.
    max_bytes = None if limit is None else 4 * limit
    raw = sys.stdin.buffer.read() if max_bytes is None else sys.stdin.buffer.read(max_bytes + 1)
    if max_bytes is not None and len(raw) > max_bytes:
        raise InvalidValue(f"content on stdin is over the limit of {limit:,} characters")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidValue(f"stdin is not UTF-8 (byte {exc.start})") from exc
    if limit is not None and len(text) > limit:
        raise InvalidValue(f"content on stdin is {len(text):,} characters; the limit is {limit:,}")
    return text


# ---- parser ----------------------------------------------------------------------------
AddCommand = Callable[..., argparse.ArgumentParser]  # add(name, handler, help) -> the command's parser
ID = "entry id, or its first 8 characters (as list prints them)"


def build_parser() -> argparse.ArgumentParser:
    """The whole command tree: global options, then each group of commands in the
    order `--help` lists them, then the extensions' (consolidation, recall, bridge)."""
    parser = argparse.ArgumentParser(prog="echo-memory", description="Inspect and curate an AI agent's long-term memory.")
    _add_global_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, handler, help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_)
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.set_defaults(handler=handler)
        return p

    _add_read_commands(add)
    _add_write_commands(add)
    _add_file_commands(add)
    add_judgments_parser(add)
    for module in EXTENSIONS:
        importlib.import_module(module).register(add)
    return parser


def _add_global_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=None, help="store file (default: $ECHO_MEMORY_DB or the user data dir)")
    parser.add_argument("--config", type=Path, default=None, help="TOML config (default: the user config dir)")
    parser.add_argument("--read-only", action="store_true", help="open the store read-only")
    parser.add_argument(
        "--create",
        action="store_true",
        help="make a new empty store at the --db path if there is none (without it a path with no "
        "store is refused, so a typo never makes an empty store; demo and import create theirs)",
    )


def _labels(enum) -> str:
    return ", ".join(m.label for m in enum)


def _add_read_commands(add: AddCommand) -> None:
    """demo, stats, list, show."""
    add("demo", cmd_demo, "fill a new store with the demo data")
    add("stats", cmd_stats, "counts per tier, type, provenance")
    p = add("list", cmd_list, "list entries")
    p.add_argument("--tier", help=f"only this tier: {_labels(MemoryTier)}")
    p.add_argument("--type", help=f"only this type: {_labels(MemoryType)}")
    p.add_argument("--source", help=f"only this provenance: {_labels(ProvenanceLevel)}")
    p.add_argument("--pinned", action="store_true", help="only pinned entries")
    p.add_argument("--text", help="only entries whose key or content contains TEXT (case-insensitive)")
    p.add_argument("--tag", help="only entries with this tag (case-insensitive)")
    p.add_argument(
        "--sort", default="updated_at", help=f"sort (descending) by one of: {', '.join(SORTABLE)} (default: updated_at)"
    )
    p.add_argument("--limit", type=positive_int, default=None, help="at most N entries (a whole number >= 1)")
    add("show", cmd_show, "one entry with decay and audit trail").add_argument("id", help=ID)


def _add_write_commands(add: AddCommand) -> None:
    """add, pin, unpin, archive, restore, purge, decay: each through the gate."""
    p = add("add", cmd_add, "write an entry through the gate")
    p.add_argument("--key", required=True, help="the fact's name, e.g. user/editor (one key, one fact)")
    p.add_argument("--content", required=True, help="text, or - for stdin")
    p.add_argument(
        "--strip-invisible",
        action="store_true",
        help="remove invisible characters (zero-width, bidi controls, tags...) before the write, and list them",
    )
    p.add_argument(
        "--type",
        default="environment",
        choices=[t.label for t in MemoryType],
        help="user (about the person) or environment (about the world; default)",
    )
    p.add_argument(
        "--source",
        default="model_inferred",
        choices=[s.label for s in ProvenanceLevel],
        help="provenance, lowest to highest: " + _labels(ProvenanceLevel) + " (default: model_inferred)",
    )
    p.add_argument("--tags", default="", help="comma-separated tags, e.g. python,ci")
    p.add_argument("--importance", type=float, default=0.5, help="0.0 to 1.0 (default 0.5): higher decays later and ranks higher")
    p.add_argument("--pin", action="store_true", help="pin it: always in prompts, never decays (a person's choice)")
    for name in ("pin", "unpin", "archive", "restore"):
        add(name, _simple(name), f"{name} an entry").add_argument("id", help=ID)
    p = add("purge", cmd_purge, "delete an archived entry, or all past retention")
    p.add_argument("id", nargs="?", help=ID + " (an archived entry)")
    p.add_argument(
        "--expired",
        action="store_true",
        help="every archived, unpinned entry not updated for memory.purgeRetentionDays (default 90)",
    )
    p.add_argument("--dry-run", action="store_true", help="with --expired: list what would be purged, purge nothing")
    add("decay", cmd_decay, "archive entries whose effective importance fell under the threshold").add_argument(
        "--dry-run", action="store_true", help="list what would be archived, archive nothing"
    )


def _add_file_commands(add: AddCommand) -> None:
    """scan, export, import, working, audit: text and files in and out."""
    p = add("scan", None, "run the write scanner on TEXT or on JSON lines from stdin")
    p.add_argument("text", nargs="?", help="the text to scan (or use --jsonl)")
    p.add_argument(
        "--jsonl", action="store_true", help='read JSON lines {"text": "..."} from stdin and print one verdict per line'
    )
    add("export", cmd_export, "write every entry as JSONL").add_argument("path", help="the JSONL file to write")
    p = add("import", cmd_import, "read JSONL, or another agent's memory folder")
    p.add_argument("path", help="a JSONL file (an export), or a folder with --from")
    p.add_argument(
        "--from",
        dest="source_format",
        choices=["echo-agent", "hermes"],
        help="read another agent's memory folder: echo-agent or hermes",
    )
    p.add_argument(
        "--trust-provenance",
        action="store_true",
        help="keep the provenance the file declares (restoring your own export); audited",
    )
    p = add("working", cmd_working, "the WORKING tier (or --core snapshot) as prompt markdown")
    p.add_argument("--session", help="one session's WORKING notes (default: every session)")
    p.add_argument(
        "--core", action="store_true", help="the core snapshot instead: pinned and user facts as injected into every prompt"
    )
    p = add("audit", cmd_audit, "the audit log")
    p.add_argument("--id", help="only records about this entry: " + ID)
    p.add_argument("--action", help="only this action, e.g. write, pin, archive, restore, purge, reject, undo")
    p.add_argument("--limit", type=positive_int, default=100, help="at most N records, newest first (default 100)")


async def run_with_engine(args, settings: Settings) -> int:
    engine = await MemoryEngine.open(args.db or default_db_path(), settings, read_only=args.read_only, actor=Actor.person("cli"))
    try:
        if engine.read_only and not args.read_only:
            print(f"notice: {engine.path} is not writable; opened read-only", file=sys.stderr)
        if getattr(args, "id", None) and args.command in ID_COMMANDS:
            args.id = await engine.resolve_id(args.id)
        return await args.handler(engine, args)
    finally:
        await engine.close()


# open_app(args, settings, config_error) -> exit code: what runs when no command is given.
OpenApp = Callable[[argparse.Namespace, Settings, Optional[str]], int]


def no_command(parser: argparse.ArgumentParser) -> int:
    """Headless use without a command: the help, and where the app lives."""
    parser.print_help()
    print("\nthe app: run `echo-memory` with no command", file=sys.stderr)
    return EXIT_USAGE


# Commands whose point is to fill a new store: they create a missing one without --create.
CREATES_STORE = ("demo", "import")


def require_store(path: Path, args: argparse.Namespace, create: bool = False) -> None:
    """A store path with nothing there is taken for a typo: refused (exit 2, nothing
    created) unless --create says to make it or the command exists to fill a new store."""
    if path.expanduser().exists() or create or args.create or args.command in CREATES_STORE:
        return
    source = (
        "--db"
        if path != default_db_path()
        else ("$ECHO_MEMORY_DB" if os.environ.get("ECHO_MEMORY_DB") else "the default store path")
    )
    raise CliError(
        f"no store at {path} (from {source}); check the path, or add --create to make a new empty store there", EXIT_USAGE
    )


# Commands whose ID may be given as a unique prefix (as `list` prints them).
ID_COMMANDS = ("show", "pin", "unpin", "archive", "restore", "purge", "history", "audit")


def main(argv: Optional[list[str]] = None, open_app: Optional[OpenApp] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None and open_app is None:
        return no_command(parser)
    try:
        try:
            settings = Settings.load(args.config)
        except ConfigError as exc:
            if args.command is not None or open_app is None:
                raise
            # The app opens anyway, on defaults, and says why in place.
            return open_app(args, Settings.defaults(path=args.config), str(exc))
        if args.command is None and open_app is not None:
            return open_app(args, settings, None)
        if args.command == "scan":
            return cmd_scan(args)
        if not getattr(args, "needs_store", True):
            return asyncio.run(args.handler(None, args))
        require_store(args.db or default_db_path(), args)
        if args.db is None:
            (default_db_path()).parent.mkdir(parents=True, exist_ok=True)
        return asyncio.run(run_with_engine(args, settings))
    except WriteRejected as exc:
        if getattr(args, "json", False):
            print(json.dumps(exc.to_dict(), ensure_ascii=False, default=str))
        print(f"refused: {exc.message}", file=sys.stderr)
        return exit_code(exc)
    except EchoMemoryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exit_code(exc)
    except sqlite3.OperationalError as exc:
        if "full" not in str(exc):
            raise
        print(f"error: the disk holding the store is full ({exc}); nothing was written", file=sys.stderr)
        return EXIT_FAIL
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: not an error of ours.
        sys.stdout = open(os.devnull, "w")
        return EXIT_OK
    except OSError as exc:
        print(f"error: {exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL


if __name__ == "__main__":
    sys.exit(main())
