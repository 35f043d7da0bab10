"""The app process's collector policy (echo_memory_tui/collector.py, issue 14): full
garbage collections walked every object made after the start-up freeze, 30-60 ms of CPU
a pass on the loop thread during an outside import at 100k entries, and the imported
modules (~50 ms) before the first frame. run_app freezes the start-up heap and, after
each full pass, that pass's survivors; dropped objects are still freed."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

from echo_memory_tui import collector
from echo_memory_tui.app import EchoMemoryApp, run_app


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_run_app_freezes_the_start_up_heap_and_each_full_pass_survivors(monkeypatch, tmp_path):
    seen: dict[str, object] = {}

    def run(self) -> int:
        seen["frozen_at_start"] = gc.get_freeze_count()
        kept = [Node() for _ in range(200)]  # live through the next full pass
        gone = Node()
        ref = weakref.ref(gone)
        del gone  # garbage before that pass: collected, not frozen
        gc.collect()
        seen["walked_by_the_next_pass"] = len(gc.get_objects(generation=2))
        seen["garbage_freed"] = ref() is None
        seen["kept_alive"] = all(k.me is k for k in kept)
        return 0

    gc.unfreeze()
    monkeypatch.setattr(EchoMemoryApp, "run", run)
    try:
        assert run_app(tmp_path / "m.db", warm_recall=False, live=False) == 0
    finally:
        collector.stop_freezing_after_full_passes()
        gc.unfreeze()
    assert seen["frozen_at_start"] > 0  # the imports' objects left the walk before the app ran
    assert seen == {**seen, "walked_by_the_next_pass": 0, "garbage_freed": True, "kept_alive": True}


def test_a_freeze_keeps_full_passes_at_their_pace_whatever_the_heap_was():
    """The collector runs a full pass once the long-lived objects grew by a quarter of what
    its last full pass saw. After a bare gc.freeze() of a big heap (a test process late in a
    full run) that quarter stayed the old heap's: the first pass then came late and walked
    every object made since in one go (the stall guard's ~0.5 s). collector.freeze() resets
    it: new long-lived objects meet full passes at the usual pace, each walking a few."""
    padding = [[i] for i in range(1_000_000)]  # the big heap a late test process has
    gc.collect()
    collector.freeze()
    try:
        before = gc.get_stats()[2]["collections"]
        kept = [[i] for i in range(150_000)]  # fewer than a quarter of the padding
        assert gc.get_stats()[2]["collections"] > before, "no full pass over the new objects yet"
        assert len(kept) == 150_000 and len(padding) == 1_000_000
    finally:
        gc.unfreeze()


def test_cycles_frozen_then_dropped_are_freed_once_the_user_is_idle(monkeypatch, tmp_path):
    """The price of freezing survivors: a cycle that became garbage after its freeze (a
    closed dialog's widgets) was kept until exit. Once nobody has typed for a while, the
    app collects them in one full pass; while keys keep coming it does not."""
    from echo_memory_tui import app as app_mod

    monkeypatch.setattr(app_mod, "IDLE_RELEASE_S", 0.3)  # the check runs every 0.1 s
    monkeypatch.setattr(app_mod, "RELEASE_EVERY_S", 0.0)
    released: list[int] = []
    real = collector.release_frozen_garbage
    monkeypatch.setattr(collector, "release_frozen_garbage", lambda: released.append(real()) or released[-1])
    collector.freeze_after_full_passes()
    try:
        app = EchoMemoryApp(tmp_path / "m.db", warm_recall=False, live=False)

        async def scenario() -> tuple[bool, bool, bool]:
            async with app.run_test() as pilot:
                app.last_input_at = float("inf")  # typing goes on (the periodic check stays out)
                await pilot.pause(0.2)
                released.clear()  # what the start-up's own idle moment released
                closed = Node()
                ref = weakref.ref(closed)
                gc.collect()  # a full pass: it survives, and is frozen
                del closed  # garbage now, but frozen: no pass finds it
                gc.collect()
                kept_by_the_freeze = ref() is not None
                app.last_input_at = time.perf_counter()  # a key just came
                app._release_when_idle()  # not idle: no release
                typing_released = bool(released)
                app.last_input_at = time.perf_counter() - 1.0  # nobody has typed for a second
                for _ in range(100):  # the app's own periodic check releases
                    await pilot.pause(0.1)
                    if ref() is None:
                        break
                return kept_by_the_freeze, typing_released, ref() is None

        assert asyncio.run(scenario()) == (True, False, True)
    finally:
        collector.stop_freezing_after_full_passes()
        gc.unfreeze()
    assert released and released[0] > 0
