"""A busy database (another process holds SQLite's write lock, e.g. a big import) is
a wait, not a refusal: the app retries with backoff and says "database busy"."""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Optional, TypeVar

from .failures import ENGINE_FAILURES

T = TypeVar("T")

BUSY_WORDS = ("database is locked", "database is busy", "database table is locked")
BACKOFF_S = (0.25, 0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0)  # ~28 s in all, then give up


def is_busy(exc: BaseException) -> bool:
    """True when exc (or what caused it) is SQLite's locked/busy error."""
    seen: set[int] = set()
    current: Optional[BaseException] = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if any(word in str(current).lower() for word in BUSY_WORDS):
            return True
        current = current.__cause__ or current.__context__
    return False


async def retry_busy(call: Callable[[], Awaitable[T]], on_busy: Callable[[int], None]) -> T:
    """Run call(); while the database is busy, report the attempt and retry after a backoff.
    After the last attempt the busy error is raised to the caller."""
    for attempt, delay in enumerate(BACKOFF_S, start=1):
        try:
            return await call()
        except ENGINE_FAILURES as exc:
            if not is_busy(exc):
                raise
            on_busy(attempt)
            await asyncio.sleep(delay)
    return await call()
