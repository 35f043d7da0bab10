"""Keeping Python's cyclic garbage collector out of bulk work.

An import or a first open allocates rows, records and tokens by the million. Their
count alone sets off the collector, and each pass walks everything the process
holds so far (every entry of an import's file, the index a first open has built),
with the GIL held, to find nothing: reference counting frees those objects. Measured:
about a fifth of a 100k import's CPU, and ~0.8 s of a first open at a million
memories (~2,600 passes). :func:`collector_paused` holds it off for the block.
"""

from __future__ import annotations

import contextlib
import gc
from typing import Iterator

_PAUSED = 0  # blocks under way with the collector paused


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off while the block runs, for the whole process (the event loop's
    other tasks too, which only postpones the collection of their cycles). Overlapping
    blocks (an import during a first open) share one pause, which ends with the last of
    them; a collector someone else turned off stays off."""
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
