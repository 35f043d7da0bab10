"""Backfill batches no longer share threads or priority with interactive model work.

Before, one pool of BACKFILL_WORKERS threads ran both: a query that arrived while
every worker held a backfill batch waited for one to finish, and the batches ran at
the app's own priority, taking their share of both cores from the event loop."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from engine.recall.model_workers import BACKGROUND_NICE, ModelWorkers


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_a_query_runs_while_every_backfill_worker_holds_a_batch():
    pool = ModelWorkers(2)
    release = threading.Event()
    try:
        batches = [pool.submit(release.wait, 30, background=True) for _ in range(2)]
        query = pool.submit(lambda: "query vector")
        assert query.result(timeout=10) == "query vector"
        assert not any(b.done() for b in batches), "the batches were meant to be still running"
    finally:
        release.set()
        pool.shutdown(wait=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice value is a Linux feature")
def test_backfill_batches_run_at_a_lower_os_priority_than_queries():
    pool = ModelWorkers(1)
    try:
        background = pool.submit(_niceness, background=True).result(timeout=10)
        interactive = pool.submit(_niceness).result(timeout=10)
    finally:
        pool.shutdown(wait=True)
    assert interactive == _niceness(), "interactive jobs keep the app's priority"
    assert background == min(19, interactive + BACKGROUND_NICE)


def test_closing_cancels_queued_batches_and_refuses_new_jobs():
    pool = ModelWorkers(1)
    started, release = threading.Event(), threading.Event()
    running = pool.submit(lambda: started.set() or release.wait(30), background=True)
    queued = pool.submit(release.wait, 30, background=True)
    assert started.wait(10)
    pool.shutdown(wait=False)
    release.set()
    assert running.result(timeout=10) is True
    assert queued.cancelled()
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(lambda: None)
