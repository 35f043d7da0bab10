"""The threads that run model work: interactive jobs on one set of threads, background
jobs (backfill batches) on another that the OS runs at a lower priority.

Why two sets: on 2 cores a backfill keeps one single-threaded batch per core busy for
minutes. Sharing threads, a query that arrived while every worker held a batch waited
for one to finish; and the batches, at the app's own priority, took their full share of
the cores from the app's event loop, which then ran late (the TUI bench's stalls at 100k
entries showed the ONNX Runtime batches running in the windows where the loop was late
but not busy). Background threads are reniced on Linux (a thread's nice value is its
own there), so the loop, the SQLite thread and queries get a core first; with nothing
else to run, a niced batch runs as fast as before.
"""

from __future__ import annotations

import concurrent.futures
import os
import queue
import sys
import threading

INTERACTIVE, BACKGROUND = 0, 1
# Added to the background threads' nice value: at +10 the Linux scheduler gives a
# runnable thread of normal priority about ten times their share of a core.
BACKGROUND_NICE = int(os.environ.get("ECHO_MEMORY_BACKGROUND_NICE", "10"))


def lower_thread_priority(by: int) -> bool:
    """Raise the calling thread's nice value by ``by`` (Linux only: elsewhere
    PRIO_PROCESS names a whole process, not a thread). False when it could not."""
    if by <= 0 or not sys.platform.startswith("linux"):
        return False
    tid = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + by))
    except OSError:
        return False
    return True


class _Lane:
    """One kind of job: a FIFO queue and the daemon threads (up to ``size``, started as
    jobs arrive) that take from it."""

    def __init__(self, size: int, name: str, nice: int) -> None:
        self.queue: "queue.SimpleQueue[tuple]" = queue.SimpleQueue()
        self.size, self.name, self.nice = size, name, nice
        self.threads: list[threading.Thread] = []

    def put(self, fut: concurrent.futures.Future, fn, args: tuple) -> None:
        self.queue.put((fut, fn, args))
        if len(self.threads) < self.size:
            t = threading.Thread(target=self._work, name=f"{self.name}-{len(self.threads)}", daemon=True)
            self.threads.append(t)
            t.start()

    def _work(self) -> None:
        lower_thread_priority(self.nice)
        while True:
            fut, fn, args = self.queue.get()
            if fut is None:
                return
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as exc:
                fut.set_exception(exc)
            else:
                fut.set_result(result)

    def cancel_queued(self) -> None:
        while True:
            try:
                fut, _, _ = self.queue.get_nowait()
            except queue.Empty:
                return
            if fut is not None:
                fut.cancel()

    def stop(self) -> None:
        for _ in self.threads:
            self.queue.put((None, None, None))


class ModelWorkers:
    """Interactive jobs (loading, query embeddings, vector scans) and background jobs
    (backfill batches), each on up to ``workers`` threads of their own: a query that
    arrives during a backfill never waits for a batch, in progress or queued.

    Like a ThreadPoolExecutor (submit -> Future, shutdown). Daemon threads: an idle
    worker never holds the process open, and a close() stops them."""

    def __init__(self, workers: int = 1, name: str = "echo-embed") -> None:
        size = max(1, workers)
        self._lanes = (_Lane(size, name, 0), _Lane(size, f"{name}-bg", BACKGROUND_NICE))
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, fn, *args, background: bool = False) -> concurrent.futures.Future:
        fut: concurrent.futures.Future = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the embedding model has been closed")
            self._lanes[BACKGROUND if background else INTERACTIVE].put(fut, fn, args)
        return fut

    def shutdown(self, wait: bool = False, cancel_futures: bool = True) -> None:
        """Refuse new jobs, cancel the queued ones and let the threads end."""
        with self._lock:
            self._closed = True
            for lane in self._lanes:
                if cancel_futures:
                    lane.cancel_queued()
                lane.stop()
        if wait:
            for lane in self._lanes:
                for t in lane.threads:
                    t.join()
