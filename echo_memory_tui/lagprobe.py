"""A loop-lag probe: how long the app's event loop was too busy to answer a key.

A timer asks to run every `interval` seconds; whatever delays it (a callback that
holds the loop, a thread that holds the GIL) shows as lateness. The longest lateness
over a stretch of time is the longest stall a person typing would have felt.

On a loaded machine lateness also counts the time the OS did not run the process at
all, which no code change can fix; so each tick also records the CPU time the loop's
own thread used since the last one (`busy`): a callback that holds the loop shows in
both, starvation only in lateness.
With ECHO_MEMORY_LAG_LOG set the app runs one and writes its samples there on exit
(benchmarks/tui_bench.py slices them by time per scenario); tests start one directly.
The browser also notes there (`note`) each time every visible row is drawn, so the
bench can time a key to the rows settling, not to a placeholder frame.

A stall's cause: with ECHO_MEMORY_LAG_STACKS set too, a StackSampler thread records the
loop thread's stack every few ms, and the stack of any other thread that ran meanwhile
(lateness without busy is another thread holding the GIL: this names it), and each
garbage collection's length (a collection holds the GIL, so no stack sample shows it).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import threading
import time
from typing import Optional

INTERVAL = 0.01


class LagProbe:
    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self.samples: list[tuple[float, float, float]] = []  # (perf_counter at the tick, seconds late, busy)
        self._handle: Optional[asyncio.TimerHandle] = None
        self._due = 0.0
        self._cpu = 0.0
        self.sampler: Optional[StackSampler] = None

    def start(self, stacks: bool = False) -> None:
        """Start ticking (on the loop); with stacks, sample the loop thread's stack too."""
        loop = asyncio.get_running_loop()
        if stacks:
            self.sampler = StackSampler()
            self.sampler.start()
        self._due = loop.time() + self.interval
        self._cpu = time.thread_time()
        self._handle = loop.call_at(self._due, self._tick, loop)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self.sampler is not None:
            self.sampler.stop()

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        now, cpu = loop.time(), time.thread_time()
        self.samples.append((time.perf_counter(), max(0.0, now - self._due), cpu - self._cpu))
        self._cpu = cpu
        self._due = now + self.interval
        self._handle = loop.call_at(self._due, self._tick, loop)

    def since(self, start: float, end: float = float("inf"), busy: bool = False) -> list[float]:
        """Lateness (or, with busy, the loop thread's CPU past the interval), in seconds, of
        the ticks between two perf_counter times."""
        return [b if busy else late for at, late, b in self.samples if start <= at <= end]

    def log(self) -> list[dict]:
        """What write() appends, as records (benchmarks/tui_bench.stall_causes reads them)."""
        records: list[dict] = [{"interval": self.interval, "samples": self.samples}]
        if self.sampler is not None:
            records.append(self.sampler.record())
        return records

    def write(self, path: str) -> None:
        with open(path, "a", encoding="utf-8") as fh:
            for record in self.log():
                fh.write(json.dumps(record) + "\n")


class StackSampler:
    """Samples the loop thread's stack (and other threads that used CPU since the last
    sample) from a daemon thread; stacks are interned, so a long run stays small."""

    def __init__(self, interval: float = 0.004) -> None:
        self.interval = interval
        self.loop_ident = threading.get_ident()  # started on the loop's thread
        self.stacks: dict[str, int] = {}
        # (perf_counter, loop stack, stacks of other busy threads): tuples of numbers, which the
        # collector stops tracking, so a long run's samples do not lengthen the passes they time
        self.samples: list[tuple[float, int, tuple[int, ...]]] = []
        # each GC pass: (perf_counter at its start, seconds, generation, CPU seconds of the thread
        # that ran it (a loaded machine inflates the wall time, not this), 1 if that was the loop's)
        self.collections: list[tuple[float, float, int, float, int]] = []
        self._gc_started = self._gc_cpu = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lag-stack-sampler", daemon=True)

    def start(self) -> None:
        gc.callbacks.append(self._gc)  # a collection holds the GIL: no sample can show it
        self._thread.start()

    def stop(self) -> None:
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)
        self._stop.set()
        self._thread.join(1)

    def _gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started, self._gc_cpu = time.perf_counter(), time.thread_time()
        else:
            on_loop = int(threading.get_ident() == self.loop_ident)
            took, cpu = time.perf_counter() - self._gc_started, time.thread_time() - self._gc_cpu
            self.collections.append((self._gc_started, took, info["generation"], cpu, on_loop))

    def _stack(self, frame) -> int:
        names = []
        while frame is not None:
            code = frame.f_code
            names.append(f"{code.co_filename.rsplit('site-packages/', 1)[-1]}:{code.co_name}:{frame.f_lineno}")
            frame = frame.f_back
        return self.stacks.setdefault(";".join(reversed(names)), len(self.stacks))

    def _run(self) -> None:
        cpu: dict[int, float] = {}
        me = threading.get_ident()
        while not self._stop.wait(self.interval):
            frames = sys._current_frames()
            others = []
            for ident, frame in frames.items():
                if ident in (me, self.loop_ident):
                    continue
                try:
                    used = time.clock_gettime(time.pthread_getcpuclockid(ident))
                except (OSError, ValueError):
                    continue
                if used - cpu.get(ident, used) > 0.001:
                    others.append(self._stack(frame))
                cpu[ident] = used
            loop = frames.get(self.loop_ident)
            self.samples.append((time.perf_counter(), -1 if loop is None else self._stack(loop), tuple(others)))

    def record(self) -> dict:
        names = sorted(self.stacks, key=self.stacks.__getitem__)
        return {"stacks": names, "stack_samples": list(self.samples), "collections": list(self.collections)}


def note(event: str, **data: object) -> None:
    """Append a timed event to ECHO_MEMORY_LAG_LOG (a no-op without it)."""
    path = os.environ.get("ECHO_MEMORY_LAG_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"event": event, "t": time.perf_counter(), **data}) + "\n")


def note_heap_at_exit() -> None:
    """What the collector policy (collector.py) kept: objects frozen, and how many of them a
    full collection over everything, unfrozen, finds unreachable at exit (cycles that
    became garbage after being frozen; what was not frozen is collected first), with their
    commonest types. Costs two full passes: only as the app exits, with the probe on."""
    from collections import Counter

    frozen = gc.get_freeze_count()
    gc.collect()  # what is garbage now, before the frozen objects join the walk
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what the pass finds, to name its types
    started = time.perf_counter()
    found = gc.collect()
    took = time.perf_counter() - started
    gc.set_debug(0)
    kinds = Counter(type(o).__name__ for o in gc.garbage).most_common(8)
    gc.garbage.clear()
    note("heap_at_exit", frozen=frozen, unreachable=found, kinds=kinds, pass_s=round(took, 3))


def summary(lates: list[float]) -> dict[str, float]:
    """max and p95 stall in ms over a stretch, and how many ticks it saw."""
    if not lates:
        return {"max_ms": float("nan"), "p95_ms": float("nan"), "ticks": 0}
    ordered = sorted(lates)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return {"max_ms": round(ordered[-1] * 1000, 1), "p95_ms": round(p95 * 1000, 1), "ticks": len(ordered)}
