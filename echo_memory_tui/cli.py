"""The `echo-memory` console script: no command opens the app; any command is the
engine's headless CLI (engine.cli), so the app sits on top of the engine.

The app's own options are read here before the engine's parser sees the rest:
`--sync FORMAT:DIR` (repeatable) syncs an agent's memory folder while the app is
open, `--sync-write-back` also writes the curated state back into those folders."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from engine import MemoryEngine, Settings
from engine import cli as engine_cli


def sync_spec(text: str) -> tuple[str, str]:
    """FORMAT:DIR, e.g. hermes:~/.hermes/memories; the folder must exist now."""
    fmt, sep, folder = text.partition(":")
    formats = MemoryEngine.sync_formats()
    if not sep or fmt not in formats or not folder:
        raise argparse.ArgumentTypeError(f"expected FORMAT:DIR with FORMAT one of {', '.join(formats)}, got {text!r}")
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{folder} is not a folder")
    return fmt, str(path)


def app_options() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="echo-memory", add_help=False, allow_abbrev=False)
    parser.add_argument("--sync", action="append", type=sync_spec, default=[], metavar="FORMAT:DIR")
    parser.add_argument("--sync-write-back", action="store_true")
    return parser


def open_app(
    args: argparse.Namespace, settings: Settings, config_error: Optional[str], syncs=(), sync_write_back: bool = False
) -> int:
    """Open the app on the store and settings the command line chose (the app imports late)."""
    from .app import run_app

    return run_app(
        args.db or engine_cli.default_db_path(),
        settings,
        read_only=args.read_only,
        config_error=config_error,
        create=args.create,
        syncs=syncs,
        sync_write_back=sync_write_back,
    )


APP_HELP = """
app options (no COMMAND: open the app):
  --sync FORMAT:DIR     keep an agent's memory folder in sync while the app is open
                        (repeatable; FORMAT: hermes or echo-agent)
  --sync-write-back     also write the curated state back into those folders"""


def main(argv: Optional[list[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[-1] in ("-h", "--help") and all(a.startswith("-") for a in argv):
        engine_cli.build_parser().print_help()  # the root help, with the options only the app takes
        print(APP_HELP)
        return 0
    options, rest = app_options().parse_known_args(argv)
    if options.sync_write_back and not options.sync:
        app_options().error("--sync-write-back needs at least one --sync FORMAT:DIR")
    if options.sync and engine_cli.build_parser().parse_args(rest).command is not None:
        app_options().error(
            "--sync opens the app with a folder sync; for a headless sync use `echo-memory sync --from FORMAT DIR --watch`"
        )

    def open_with_syncs(args: argparse.Namespace, settings: Settings, config_error: Optional[str]) -> int:
        if not options.sync:
            return open_app(args, settings, config_error)
        return open_app(args, settings, config_error, options.sync, options.sync_write_back)

    return engine_cli.main(rest, open_app=open_with_syncs)


if __name__ == "__main__":
    sys.exit(main())
