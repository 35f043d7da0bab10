"""Issue 8, must-show: two `consolidate` processes and an importer on one store,
while a fourth process keeps holding conversations. No lock error (or any error)
reaches a user, no run is left `running`, no job is run twice, and when the dust
settles every session is consolidated and every imported line has landed.

The issue asks for 60 s; the suite runs ECHO_CONSOL_CONCURRENCY_SECONDS (default
15 s) to stay quick on a shared 2-core machine. Set it to 60 to replay the issue."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from engine.cli import main

SECONDS = float(os.environ.get("ECHO_CONSOL_CONCURRENCY_SECONDS", "15"))
REPO = Path(__file__).resolve().parents[2]

DRIVER = textwrap.dedent("""
    import asyncio, contextlib, io, json, sys, time
    from engine.cli import main
    from engine.models import MemoryEntry

    role, db, until, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    calls = []

    def cli(*args):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main(["--db", db, *args])
            except BaseException as exc:  # a raw traceback would reach the user
                code, err = "raised", io.StringIO(f"{type(exc).__name__}: {exc}")
        calls.append([list(args[:1]), code, err.getvalue()])

    async def converse(n):
        from engine import MemoryEngine
        engine = await MemoryEngine.open(db)
        service = engine.consolidation
        service.scheduler.schedule = lambda *a, **k: "queued"   # the consolidate processes do the work
        key = f"conv-{n}"
        await service.open_session(key)
        for text in (f"orbit-web is on pnpm {8 + n % 3} now.", f"atlas-api tokens now last {n % 50 + 10} minutes.",
                     f"ledger-cli releases are cut every {('Monday', 'Friday')[n % 2]} now."):
            await service.add_message(key, "user", text)
        await service.end_session(key)
        await engine.close()

    n = 0
    while time.time() < until:
        n += 1
        if role == "consolidate":
            cli("consolidate")
            time.sleep(0.2)
        elif role == "import":
            path = f"{out}.{n}.jsonl"
            with open(path, "w") as fh:
                for i in range(50):
                    e = MemoryEntry(key=f"imported/{n}/{i}", content=f"imported fact {n}-{i}")
                    fh.write(json.dumps(e.to_dict()) + "\\n")
            cli("import", path)
            time.sleep(1.0)
        else:
            asyncio.run(converse(n))
            calls.append([["converse"], 0, ""])
            time.sleep(0.3)  # a conversation ends every ~0.4 s: work for the consolidators all along
    json.dump({"calls": calls, "iterations": n}, open(out, "w"))
""")


def test_two_consolidators_and_an_importer_share_a_store(tmp_path):
    db = tmp_path / "memory.db"
    assert main(["--db", str(db), "--create", "stats"]) == 0
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    until = time.time() + SECONDS
    roles = ["consolidate", "consolidate", "import", "converse"]
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), role, str(db), str(until), str(tmp_path / f"{i}.json")],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, role in enumerate(roles)
    ]
    outputs = [p.communicate(timeout=SECONDS + 300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [err for _, err in outputs]
    reports = [json.loads((tmp_path / f"{i}.json").read_text()) for i in range(4)]
    calls = [c for r in reports for c in r["calls"]]
    failures = [c for c in calls if c[1] != 0 or "locked" in c[2] or "Traceback" in c[2]]
    assert failures == []
    assert reports[0]["iterations"] > 1 and reports[1]["iterations"] > 1 and reports[3]["iterations"] > 1

    assert main(["--db", str(db), "consolidate"]) == 0  # what the last request left, one process alone
    con = sqlite3.connect(db)
    runs = con.execute("SELECT status, count(*) FROM consolidation_runs GROUP BY status").fetchall()
    assert dict(runs).get("running", 0) == 0 and dict(runs).get("failed", 0) == 0
    assert con.execute("SELECT job_id FROM consolidation_runs GROUP BY job_id HAVING count(*) > 1").fetchall() == []
    # (`consolidate` may also take an open conversation: a manual job before its session_end one)
    assert con.execute("SELECT DISTINCT status FROM jobs").fetchall() == [("done",)]
    assert con.execute("SELECT count(DISTINCT session_key) FROM jobs").fetchone()[0] == reports[3]["iterations"]
    assert set(con.execute("SELECT DISTINCT status FROM sessions")) == {("consolidated",)}
    # every message is in exactly one episode: nothing summarised twice, nothing skipped
    covered = con.execute("SELECT sum(message_range_end - message_range_start + 1) FROM episodes").fetchone()[0]
    assert covered == con.execute("SELECT count(*) FROM messages").fetchone()[0] == 3 * reports[3]["iterations"]
    imported = con.execute("SELECT count(*) FROM entries WHERE key LIKE 'imported/%'").fetchone()[0]
    assert imported == 50 * reports[2]["iterations"]
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
