"""What an engine call may fail with that is not a bug: the engine refused or could
not do it (EchoMemoryError and its subclasses), or the disk or the database failed
under it (OSError, sqlite3.Error: a busy lock, a full disk, a damaged file).

Workers catch these and say so in place. Anything else is a bug in the app or the
engine: it is not caught, so Textual stops the app with the traceback instead of
the bug passing for something the user did wrong."""

from __future__ import annotations

import sqlite3

from engine import EchoMemoryError

ENGINE_FAILURES: tuple[type[Exception], ...] = (EchoMemoryError, OSError, sqlite3.Error)
