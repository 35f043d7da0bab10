"""Freed memory goes back to the OS after a large build (engine/recall/heap.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim is glibc's (Linux)")


def test_memory_freed_in_pieces_is_returned_to_the_os():
    """What a first open leaves behind: ~300 MB of 4 KiB pieces freed while every 16th
    one is kept, so glibc cannot shrink its heap from the top. Without the trim the
    pieces stay resident; with it the resident set falls by most of them."""
    script = textwrap.dedent(
        """
        import gc
        from engine.recall.heap import release_free_memory

        def rss_mb():
            for line in open("/proc/self/status"):
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) / 1024

        gc.disable()
        pieces = [bytearray(4096) for _ in range(75_000)]
        kept = pieces[::16]
        del pieces
        before = rss_mb()
        release_free_memory()
        after = rss_mb()
        print(before, after, len(kept))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    before, after = float(out[0]), float(out[1])
    assert before - after > 150, (before, after)
