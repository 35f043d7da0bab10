"""Freed memory goes back to the OS after a large build (engine/recall/heap.py), and the
build runs with the cyclic collector paused (engine/collector.py)."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import pytest


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim is glibc's (Linux)")
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


async def test_a_first_open_builds_with_the_collector_paused_and_turns_it_back_on(store, make_service, monkeypatch, collector_on):
    """The rebuild's millions of rows and tokens do not set off the cyclic collector (each
    pass would walk the index built so far, GIL held); once open, the app's collector is on
    again, also when the build fails."""
    from engine.recall import indexes

    from .helpers import insert, make_entry

    await insert(store, *(make_entry(f"fact{i}", f"note number {i}") for i in range(5)))
    seen: list[bool] = []
    real = indexes.rebuild_lexical

    async def watched(st):
        seen.append(gc.isenabled())
        return await real(st)

    monkeypatch.setattr(indexes, "rebuild_lexical", watched)
    svc = await make_service(snapshot=False)
    assert svc.open_report.source == "rebuild" and svc.open_report.entries == 5
    assert seen == [False] and gc.isenabled()

    async def failing(st):
        raise OSError("disk gone")

    monkeypatch.setattr(indexes, "rebuild_lexical", failing)
    with pytest.raises(OSError):
        await make_service(snapshot=False)
    assert gc.isenabled()
