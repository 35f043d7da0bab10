"""The `mcp` subcommand, registered through engine.cli's EXTENSIONS hook. The MCP
SDK loads only when the server starts, so other commands stay quick."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli import EXIT_OK, default_db_path
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
    p.add_argument("--read-only", dest="mcp_read_only", action="store_true",
                   help="serve reads only: no write tool is listed and the store opens read-only")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio",
                   help="stdio (default; the agent launches this command) or streamable HTTP")
    p.add_argument("--host", default="127.0.0.1", help="HTTP address to bind (default loopback only)")
    p.add_argument("--port", type=port_number, default=8765, help="HTTP port (default 8765)")
    p.set_defaults(needs_store=False)


async def cmd_mcp(_engine, args) -> int:
    from .mcp_server import serve  # the SDK, only when serving

    settings = Settings.load(args.mcp_config or args.config)
    db = args.mcp_db or args.db or default_db_path()
    db.parent.mkdir(parents=True, exist_ok=True)
    await serve(db, settings, args.mcp_read_only or args.read_only, args.transport, args.host, args.port)
    return EXIT_OK
