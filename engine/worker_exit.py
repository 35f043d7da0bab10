"""Worker processes die with the process that started them: a killed import or open
must not leave its workers behind (the scanner's pool, the index rebuild's)."""

from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing.connection import wait


def exit_with_parent() -> None:
    """In a spawned worker: a daemon thread waits on the parent's sentinel and exits
    the process the moment the parent is gone."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        sentinel = parent.sentinel
        threading.Thread(target=lambda: (wait([sentinel]), os._exit(0)), daemon=True).start()
