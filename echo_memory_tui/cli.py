"""The `echo-memory` console script: no command opens the app; any command is the
engine's headless CLI (engine.cli), so the app sits on top of the engine."""

from __future__ import annotations

import argparse
import sys
from typing import Optional

from engine import Settings
from engine import cli as engine_cli


def open_app(args: argparse.Namespace, settings: Settings, config_error: Optional[str]) -> int:
    """Open the app on the store and settings the command line chose (the app imports late)."""
    from .app import run_app

    return run_app(args.db or engine_cli.default_db_path(), settings, read_only=args.read_only,
                   config_error=config_error, create=args.create)


def main(argv: Optional[list[str]] = None) -> int:
    return engine_cli.main(argv, open_app=open_app)


if __name__ == "__main__":
    sys.exit(main())
