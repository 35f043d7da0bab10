"""Issue 8, item 11: consolidation gives the same memory whatever order jobs run
in: resumed jobs run in creation order, the recency rule uses the times the facts
were stated, and a killed owner that lingers as a zombie does not hold its job."""

from __future__ import annotations

import socket
import subprocess
import time

from engine.models import to_iso

from ..engine.consolidation.conftest import svc  # noqa: F401 - the service fixture

KEY = "orbit-web/package-manager"


async def _head(engine, key):
    [head] = [e for e in await engine.list_entries() if e.key == key and e.superseded_by is None]
    return head.content


async def _say(svc, clock, key, text):
    await svc.open_session(key)
    clock.advance(minutes=1)
    await svc.add_message(key, "user", text)


async def test_the_more_recently_stated_fact_wins_whatever_order_sessions_end(engine, svc, clock):
    await _say(svc, clock, "older", "orbit-web is on pnpm 8 now.")
    await _say(svc, clock, "newer", "orbit-web is on pnpm 9 now.")
    await svc.end_session("newer")  # the newer statement is consolidated first...
    await svc.drain()
    clock.advance(minutes=5)
    await svc.end_session("older")  # ...the older one after it must not take its place
    await svc.drain()
    assert await _head(engine, KEY) == "orbit-web is on pnpm 9 now."


async def test_resumed_jobs_run_in_the_order_they_were_created(engine, svc, clock):
    await _say(svc, clock, "b-first", "orbit-web is on pnpm 8 now.")
    await _say(svc, clock, "a-second", "orbit-web is on pnpm 9 now.")
    async with engine.store.transaction() as conn:  # both jobs persisted, as a crash leaves them
        for key in ("b-first", "a-second"):
            clock.advance(seconds=1)
            await svc.sessions.end(conn, key, clock())
            await svc._insert_job(conn, key, "session_end")
    assert await svc.start(watch_idle=False) == ["b-first", "a-second"]
    await svc.drain()
    assert await _head(engine, KEY) == "orbit-web is on pnpm 9 now."


async def test_a_job_held_by_a_zombie_owner_is_taken_over(engine, svc, clock):
    await _say(svc, clock, "s1", "orbit-web is on pnpm 9 now.")
    job = await svc.end_session("s1")
    await svc.stop()
    zombie = subprocess.Popen(["true"])  # exits at once and is never reaped: a zombie
    for _ in range(200):
        with open(f"/proc/{zombie.pid}/stat") as fh:
            if fh.read().split(") ")[-1].startswith("Z"):
                break
        time.sleep(0.01)
    async with engine.store.transaction() as conn:
        await conn.execute(
            "UPDATE jobs SET status='running', owner=?, lease_until=?, updated_at=? WHERE id=?",
            (f"{socket.gethostname()}:{zombie.pid}", time.time() + 3600, to_iso(clock()), job.id),
        )
    try:
        runs = await svc.consolidate()
    finally:
        zombie.wait()
    assert [r.status for r in runs] == ["ok"]
    assert [j.status for j in await svc.jobs()] == ["done"]
    assert await _head(engine, KEY) == "orbit-web is on pnpm 9 now."
