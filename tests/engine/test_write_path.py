"""Every write to the entries table goes through the gate (engine/gate.py): no
other engine module runs INSERT/UPDATE/DELETE on `entries` or calls the store's
row writers. Checked on the syntax tree, so a new writer fails CI, not review."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import engine

ROOT = Path(engine.__file__).parent
WRITE_SQL = re.compile(r"\b(INSERT(\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+entries\b", re.IGNORECASE)
ROW_WRITERS = {"insert_entry", "update_entry", "delete_entry", "write_rows"}
ALLOWED = {
    "gate.py",  # the one write path
    "gate_bulk.py",  # its batches, and the fixture load of throw-away measurement stores
    "gate_retention.py",  # WriteGate's purge, decay and episode retention (a part of the gate)
    "gate_versions.py",  # WriteGate's supersede, reinstate, unmerge and undo (a part of the gate)
    "store.py",  # the row writers themselves, called only by the gate
}


def writes_entries(source: str) -> list[str]:
    """What in this module writes entries: SQL strings and calls to the row writers."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and WRITE_SQL.search(node.value):
            found.append(f"line {node.lineno}: SQL {WRITE_SQL.search(node.value).group(0)!r}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ROW_WRITERS:
            found.append(f"line {node.lineno}: .{node.func.attr}()")
    return sorted(found)


def test_the_checker_sees_sql_and_row_writer_calls():
    code = 'async def f(db, store):\n    await db.execute("update entries SET x=1")\n    await store.insert_entry(e)\n'
    assert writes_entries(code) == ["line 2: SQL 'update entries'", "line 3: .insert_entry()"]
    assert writes_entries('db.execute("UPDATE entries_fts SET x=1")') == []


def test_only_the_gate_writes_entries():
    writers = {}
    for path in sorted(ROOT.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name not in ALLOWED and (found := writes_entries(path.read_text())):
            writers[name] = found
    assert writers == {}, f"write entries through engine/gate.py, not here: {writers}"
