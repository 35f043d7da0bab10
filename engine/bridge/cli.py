"""The `mcp` and `sync` subcommands, registered through engine.cli's EXTENSIONS
hook. The MCP SDK loads only when the server starts, so other commands stay quick."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from ..cli import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, CliError, default_db_path, require_store
from ..config import Settings


def port_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535, got {value}")
    return value


def register(add) -> None:
    p = add("mcp", cmd_mcp, "serve the memory to agents over the Model Context Protocol (stdio or HTTP)")
    # dests of their own: a subcommand's default would otherwise overwrite `echo-memory --db X mcp`
    p.add_argument("--db", dest="mcp_db", type=Path, metavar="PATH", help="store file (default: the global --db)")
    p.add_argument("--config", dest="mcp_config", type=Path, metavar="PATH", help="TOML config (default: the global --config)")
    p.add_argument(
        "--read-only",
        dest="mcp_read_only",
        action="store_true",
        help="serve reads only: no write tool is listed and the store opens read-only",
    )
    p.add_argument(
        "--create",
        dest="mcp_create",
        action="store_true",
        help="make a new empty store at --db if there is none (without it a missing store is refused)",
    )
    p.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (default; the agent launches this command) or http (streamable HTTP)",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="HTTP address to bind (default 127.0.0.1, loopback only: there is no authentication)"
    )
    p.add_argument("--port", type=port_number, default=8765, help="HTTP port (default 8765)")
    p.set_defaults(needs_store=False)
    register_sync(add)


async def cmd_mcp(_engine, args) -> int:
    from .mcp_server import serve  # the SDK, only when serving

    settings = Settings.load(args.mcp_config or args.config)
    db = args.mcp_db or args.db or default_db_path()
    require_store(db, args, create=args.mcp_create)
    db.parent.mkdir(parents=True, exist_ok=True)
    await serve(db, settings, args.mcp_read_only or args.read_only, args.transport, args.host, args.port)
    return EXIT_OK


def register_sync(add) -> None:
    p = add("sync", cmd_sync, "two-way sync with an agent's memory folder (hermes, Echo-Agent)")
    p.add_argument(
        "--from",
        dest="sync_format",
        required=True,
        choices=["hermes", "echo-agent"],
        help="the folder's format: hermes (MEMORY.md, USER.md) or echo-agent",
    )
    p.add_argument("folder", type=Path, metavar="DIR", help="the agent's memory folder")
    p.add_argument("--watch", action="store_true", help="keep syncing on every change until interrupted")
    p.add_argument(
        "--write-back",
        action="store_true",
        help="also write the store's curated state back into the folder's files (previous file kept as NAME.bak)",
    )


async def cmd_sync(engine, args) -> int:
    from .sync import FolderSync, watch

    if not args.folder.is_dir():
        raise CliError(f"{args.folder} is not a folder", EXIT_USAGE)
    sync = FolderSync(engine, args.sync_format, args.folder)

    def show(report) -> None:
        """One line per pass with --json (JSON lines while watching)."""
        print(json.dumps(report.to_dict(), ensure_ascii=False) if args.json else describe(report), flush=True)

    if args.watch:
        try:
            await watch(sync, args.write_back, show)
        except asyncio.CancelledError:
            pass
        return EXIT_OK
    report = await sync.run(args.write_back)
    show(report)
    if report.errors:
        return EXIT_USAGE
    return EXIT_REFUSED if report.refused and not (report.landed or report.archived) else EXIT_OK


def describe(report) -> str:
    lines = [
        f"landed {len(report.landed)}, archived {len(report.archived)}, conflicts {len(report.conflicts)}, "
        f"refused {len(report.refused)}" + "".join(f", wrote {n} to {f}" for f, n in report.written.items())
    ]
    lines += [f"  conflict: {c['file']} {c['key']}: kept as {c['kept_as']}" for c in report.conflicts]
    lines += [f"  refused: {r['file']} {r['key']}: {r['reason']}: {r['message']}" for r in report.refused]
    lines += [f"  error: {e}" for e in report.errors]
    if report.left_out:
        lines.append(f"  not written back (over the file's limit or format): {', '.join(report.left_out)}")
    return "\n".join(lines)
