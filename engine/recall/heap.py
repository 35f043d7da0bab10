"""Giving memory the process has freed back to the operating system.

A first open of a large store builds its lexical index from slices of the table:
each slice's token lists, text hashes and pair arrays are freed once it is added,
but glibc's allocator keeps freed pieces inside its heap, where they stay resident
(at a million memories ~0.7 GB after the build, and ~0.4 GB of them at the peak,
since the next slices cannot always reuse them). `malloc_trim(0)` hands the free
pages back. Elsewhere (macOS, musl) there is no such call and this does nothing.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Callable, Optional


def _malloc_trim() -> Optional[Callable[[int], int]]:
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _malloc_trim()


def release_free_memory() -> None:
    """Return the allocator's free pages to the OS (a few ms on a heap of gigabytes;
    call it off the event loop, after a large build has freed its temporaries)."""
    if _TRIM is not None:
        _TRIM(0)
