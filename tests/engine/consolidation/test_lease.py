"""A job another live process is running is left to it; an abandoned one is taken over."""

from __future__ import annotations

import asyncio
import os
import socket
import time

from engine.consolidation.lease import is_abandoned


async def hand_job_to(engine, svc, owner: str, until: float) -> str:
    await engine.open_session("s1")
    await engine.add_message("s1", "user", "I use Neovim with lazy.nvim for all my editing.")
    async with engine.store.transaction() as conn:
        job = await svc._insert_job(conn, "s1", "session_end")
        await conn.execute("UPDATE jobs SET status='running', owner=?, lease_until=? WHERE id=?", (owner, until, job.id))
    return job.id


async def job_status(engine, job_id: str) -> str:
    return (await engine.store.fetchone("SELECT status FROM jobs WHERE id=?", (job_id,)))[0]


async def test_a_job_held_by_a_live_process_is_not_run_twice(engine, svc):
    live_other = f"{socket.gethostname()}:{os.getppid()}"  # our parent: alive, not us
    job_id = await hand_job_to(engine, svc, live_other, time.time() + 60)
    runs = await svc.consolidate("s1")
    assert runs == [] and await job_status(engine, job_id) == "running"


async def test_an_abandoned_job_is_taken_over_and_finished(engine, svc):
    job_id = await hand_job_to(engine, svc, "elsewhere:123", time.time() - 1)  # lease ran out
    runs = await svc.consolidate("s1")
    assert runs and await job_status(engine, job_id) == "done"


def test_owner_liveness():
    here = socket.gethostname()
    assert not is_abandoned(f"{here}:{os.getpid()}", 0)
    assert not is_abandoned(f"{here}:{os.getppid()}", time.time() + 60)
    assert is_abandoned("elsewhere:1", time.time() - 1)
    assert not is_abandoned("elsewhere:1", time.time() + 60)


async def test_the_cli_says_a_live_process_holds_the_session_and_does_not_fail(engine, svc, db_path, capsys):
    from engine.cli import main

    live_other = f"{socket.gethostname()}:{os.getppid()}"
    await hand_job_to(engine, svc, live_other, time.time() + 60)
    code = await asyncio.to_thread(main, ["--db", str(db_path), "consolidate"])
    err = capsys.readouterr().err
    assert code == 0
    assert f"session s1 is being consolidated by another process ({live_other}); left to it" in err
