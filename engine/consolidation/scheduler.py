"""A background asyncio task scheduler, as the spec's consolidation needs it.

- schedule() never blocks and never awaits: it queues and returns.
- Tasks are re-invocable factories, so a failed one is retried (bounded, with
  exponential backoff) by calling the factory again.
- Per-key deduplication: scheduling a key that is already queued returns
  "duplicate"; two tasks with the same key never run at the same time.
- Tiering: when the scheduler is saturated, a BEST_EFFORT task is dropped, a
  DURABLE one is queued anyway."""

from __future__ import annotations

import asyncio
import enum
import logging
from collections import deque
from dataclasses import dataclass
from typing import Awaitable, Callable, Optional

log = logging.getLogger(__name__)

TaskFactory = Callable[[], Awaitable[object]]
GiveUp = Callable[[BaseException], Awaitable[object]]


class Durability(enum.Enum):
    DURABLE = "durable"
    BEST_EFFORT = "best_effort"


@dataclass
class _Task:
    key: str
    factory: TaskFactory
    durability: Durability
    on_give_up: Optional[GiveUp]


class TaskScheduler:
    def __init__(self, workers: int = 1, capacity: int = 16, max_attempts: int = 3, backoff_seconds: float = 1.0):
        if workers < 1 or capacity < 1 or max_attempts < 1:
            raise ValueError("workers, capacity and max_attempts must be at least 1")
        self.workers = workers
        self.capacity = capacity
        self.max_attempts = max_attempts
        self.backoff_seconds = backoff_seconds
        self._queue: deque[_Task] = deque()
        self._running: set[str] = set()
        self._changed: Optional[asyncio.Condition] = None
        self._workers: list[asyncio.Task] = []
        self.dropped = 0

    @property
    def saturated(self) -> bool:
        return len(self._queue) + len(self._running) >= self.capacity

    @property
    def pending_keys(self) -> list[str]:
        return [t.key for t in self._queue]

    @property
    def running_keys(self) -> list[str]:
        return sorted(self._running)

    def schedule(
        self, key: str, factory: TaskFactory, durability: Durability = Durability.DURABLE, on_give_up: Optional[GiveUp] = None
    ) -> str:
        """Queue factory under key; returns 'queued', 'duplicate' or 'dropped'."""
        if any(t.key == key for t in self._queue):
            return "duplicate"
        if self.saturated and durability is Durability.BEST_EFFORT:
            self.dropped += 1
            return "dropped"
        self._start()
        self._queue.append(_Task(key, factory, durability, on_give_up))
        self._notify()
        return "queued"

    async def drain(self) -> None:
        """Wait until nothing is queued or running."""
        if self._changed is None:
            return
        async with self._changed:
            await self._changed.wait_for(lambda: not self._queue and not self._running)

    async def close(self) -> None:
        """Stop the workers; queued tasks are forgotten (durable work is persisted by its owner)."""
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._queue.clear()
        self._running.clear()
        self._changed = None

    # ---- internals -------------------------------------------------------------------
    def _start(self) -> None:
        if self._workers:
            return
        self._changed = asyncio.Condition()
        self._workers = [
            asyncio.get_running_loop().create_task(self._work(), name=f"scheduler-worker-{i}") for i in range(self.workers)
        ]

    def _notify(self) -> None:
        async def notify() -> None:
            async with self._changed:
                self._changed.notify_all()

        asyncio.get_running_loop().create_task(notify())

    def _next(self) -> Optional[_Task]:
        for task in self._queue:
            if task.key not in self._running:
                self._queue.remove(task)
                return task
        return None

    async def _work(self) -> None:
        while True:
            async with self._changed:
                await self._changed.wait_for(lambda: any(t.key not in self._running for t in self._queue))
                task = self._next()
                self._running.add(task.key)
            try:
                await self._run(task)
            finally:
                async with self._changed:
                    self._running.discard(task.key)
                    self._changed.notify_all()

    async def _run(self, task: _Task) -> None:
        for attempt in range(1, self.max_attempts + 1):
            try:
                await task.factory()
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a task's failure must not kill the worker
                if attempt == self.max_attempts:
                    log.warning("task %s failed %d times; giving up: %s", task.key, attempt, exc)
                    if task.on_give_up is not None:
                        try:
                            await task.on_give_up(exc)
                        except Exception:  # noqa: BLE001
                            log.exception("give-up handler of %s failed", task.key)
                    return
                await asyncio.sleep(self.backoff_seconds * 2 ** (attempt - 1))
