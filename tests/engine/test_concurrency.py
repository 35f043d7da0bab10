"""Two processes writing the same store at once: no lost write, no 'database is locked'."""

from __future__ import annotations

import json
import subprocess
import sys

WRITER = """
import asyncio, sys
from engine import MemoryEngine
async def main(db, name, n):
    eng = await MemoryEngine.open(db)
    try:
        for i in range(n):
            await eng.add(f"{name}/{i}", f"fact {i} from {name}")
            await eng.add("shared/counter", f"{name} wrote {i}", source="consolidated")
    finally:
        await eng.close()
asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
"""


def test_two_processes_write_without_loss(tmp_path):
    db = tmp_path / "shared.db"
    subprocess.run([sys.executable, "-m", "engine.cli", "--db", str(db), "--create", "stats"], check=True, capture_output=True)
    n = 60
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(db), name, str(n)], stderr=subprocess.PIPE)
        for name in ("alpha", "beta")
    ]
    errors = [p.communicate(timeout=300)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    out = subprocess.run(
        [sys.executable, "-m", "engine.cli", "--db", str(db), "list", "--json"], check=True, capture_output=True
    ).stdout
    entries = json.loads(out)
    keys = {e["key"] for e in entries}
    assert all(f"{name}/{i}" in keys for name in ("alpha", "beta") for i in range(n))
    chain = [e for e in entries if e["key"] == "shared/counter"]
    # every shared write either made a version or was identical: one live head, a linear chain
    assert sum(1 for e in chain if e["superseded_by"] is None) == 1
    assert sorted(e["version"] for e in chain) == list(range(1, len(chain) + 1))
    assert len(chain) == 2 * n
