"""The background scheduler: never blocks, one queued task per key, DURABLE tasks
survive saturation while BEST_EFFORT ones are dropped, failures are retried by
re-invoking the factory, and one key never runs twice at once."""

from __future__ import annotations

import asyncio

import pytest

from engine.consolidation import Durability, TaskScheduler


async def test_schedule_returns_before_the_task_runs():
    scheduler, ran = TaskScheduler(backoff_seconds=0), []

    async def task():
        ran.append(1)

    assert scheduler.schedule("k", task) == "queued"
    assert ran == []  # queued, not run, and schedule() is not even a coroutine
    await scheduler.drain()
    assert ran == [1]
    await scheduler.close()


async def test_a_key_already_queued_is_a_duplicate():
    scheduler, ran, gate = TaskScheduler(backoff_seconds=0), [], asyncio.Event()

    async def blocker():
        await gate.wait()

    async def task():
        ran.append("k")

    scheduler.schedule("block", blocker)
    assert scheduler.schedule("k", task) == "queued"
    assert scheduler.schedule("k", task) == "duplicate"
    gate.set()
    await scheduler.drain()
    assert ran == ["k"]
    await scheduler.close()


async def test_saturation_drops_best_effort_and_queues_durable():
    scheduler, gate, ran = TaskScheduler(capacity=2, backoff_seconds=0), asyncio.Event(), []

    def job(name):
        async def run():
            await gate.wait()
            ran.append(name)

        return run

    assert scheduler.schedule("a", job("a")) == "queued"
    assert scheduler.schedule("b", job("b")) == "queued"
    assert scheduler.saturated
    assert scheduler.schedule("best", job("best"), Durability.BEST_EFFORT) == "dropped"
    assert scheduler.schedule("durable", job("durable"), Durability.DURABLE) == "queued"
    assert scheduler.dropped == 1
    gate.set()
    await scheduler.drain()
    assert sorted(ran) == ["a", "b", "durable"]
    await scheduler.close()


async def test_failures_are_retried_by_calling_the_factory_again_then_given_up():
    scheduler, calls, given_up = TaskScheduler(max_attempts=3, backoff_seconds=0.01), [], []

    async def flaky():
        calls.append(asyncio.get_running_loop().time())
        raise RuntimeError("nope")

    async def give_up(exc):
        given_up.append(str(exc))

    scheduler.schedule("k", flaky, on_give_up=give_up)
    await scheduler.drain()
    assert len(calls) == 3 and given_up == ["nope"]
    assert calls[2] - calls[1] >= calls[1] - calls[0] >= 0.009  # exponential backoff
    await scheduler.close()


async def test_a_retry_that_succeeds_stops_retrying():
    scheduler, attempts = TaskScheduler(max_attempts=5, backoff_seconds=0), []

    async def second_time_lucky():
        attempts.append(1)
        if len(attempts) < 2:
            raise RuntimeError("transient")

    scheduler.schedule("k", second_time_lucky)
    await scheduler.drain()
    assert len(attempts) == 2
    await scheduler.close()


async def test_the_same_key_never_runs_concurrently():
    scheduler, running, overlap = TaskScheduler(workers=2, backoff_seconds=0), set(), []
    first_started = asyncio.Event()

    def job(key):
        async def run():
            if key in running:
                overlap.append(key)
            running.add(key)
            first_started.set()
            await asyncio.sleep(0.02)
            running.discard(key)

        return run

    scheduler.schedule("same", job("same"))
    await first_started.wait()
    assert scheduler.running_keys == ["same"]
    assert scheduler.schedule("same", job("same")) == "queued"  # running, not queued: a new run is due
    await scheduler.drain()
    assert overlap == []
    await scheduler.close()


async def test_close_stops_workers_and_forgets_the_queue():
    scheduler, gate = TaskScheduler(backoff_seconds=0), asyncio.Event()

    async def stuck():
        await gate.wait()

    scheduler.schedule("k", stuck)
    scheduler.schedule("j", stuck)
    await asyncio.sleep(0)
    await scheduler.close()
    assert scheduler.pending_keys == [] and scheduler.running_keys == []


def test_bad_limits_are_refused():
    with pytest.raises(ValueError):
        TaskScheduler(workers=0)
