"""Who holds a running consolidation job. A job claimed by a process carries that
process as its owner and a lease it keeps renewing; another process (the app and
the `consolidate` command may share a store) takes the job over only when the
owner is gone: a dead process on this machine, or a lease left to expire."""

from __future__ import annotations

import os
import socket
import time

LEASE_SECONDS = 120.0
RENEW_SECONDS = 30.0


def current_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def lease_until() -> float:
    return time.time() + LEASE_SECONDS


def is_abandoned(owner: str, until: float) -> bool:
    """True when nobody can still be working on a job held by owner."""
    host, _, pid = owner.rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        if int(pid) == os.getpid():
            return False
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        if _is_zombie(int(pid)):
            return True  # killed, not yet reaped by its parent: it will never renew
        return until < time.time()
    return until < time.time()


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rpartition(")")[2].split()[0] == "Z"
    except (OSError, IndexError):
        return False
