"""Giving memory the process has freed back to the operating system, and keeping the
cyclic garbage collector out of a bulk build.

A first open of a large store builds its lexical index from slices of the table:
each slice's token lists, text hashes and pair arrays are freed once it is added,
but glibc's allocator keeps freed pieces inside its heap, where they stay resident
(at a million memories ~0.7 GB after the build, and ~0.4 GB of them at the peak,
since the next slices cannot always reuse them). `malloc_trim(0)` hands the free
pages back. Elsewhere (macOS, musl) there is no such call and this does nothing.

The same build makes millions of short-lived tuples (rows read, tokens cut), which
trigger the cyclic collector by their count alone; each of its passes walks the
index and hash table built so far, with the GIL held, and finds nothing: the rows
and tokens are freed by their reference counts. At a million memories that was
~1.5 s of a first open (3,800 passes); :func:`collector_paused` holds it off.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import sys
from typing import Callable, Iterator, Optional


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


_PAUSED = 0  # builds under way with the collector paused


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off while the block runs (for the whole process: the event
    loop's other tasks too, which only postpones their cycles' collection). Nested or
    overlapping builds share one pause; a collector someone else turned off stays off."""
    global _PAUSED
    if _PAUSED == 0 and not gc.isenabled():
        yield
        return
    _PAUSED += 1
    gc.disable()
    try:
        yield
    finally:
        _PAUSED -= 1
        if _PAUSED == 0:
            gc.enable()
