"""Writing a file so a crash leaves the old one or the new one, never a mix: exports,
sync write-back and sync state all land this way."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes, backup: bool = True) -> None:
    """Replace path with data so a crash leaves the old file or the new one, never a
    mix: the old bytes are first kept as NAME.bak, then a temp file in the same
    folder is written, fsynced and renamed over the target, and the folder fsynced."""
    if backup and path.exists():
        atomic_write(path.with_name(path.name + ".bak"), path.read_bytes(), backup=False)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
