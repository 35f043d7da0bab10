"""CLI help that teaches, and the small CLI items of issue 9: every option documents its
allowed values; audit --id and show take the 8-character prefix; show prints the audit
trail and no Python reprs; purge --expired --dry-run lists what it would remove."""

from __future__ import annotations

import argparse
import json
import shutil

from engine import MemoryTier, MemoryType, ProvenanceLevel
from engine.cli import build_parser, main
from tests.tui.conftest import demo_template  # noqa: F401  (the seeded demo store, built once)


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


# engine/cli.py's own commands (extensions such as contradictions and mcp register theirs elsewhere)
CORE = (
    "demo",
    "stats",
    "list",
    "show",
    "add",
    "pin",
    "unpin",
    "archive",
    "restore",
    "purge",
    "decay",
    "scan",
    "export",
    "import",
    "working",
    "audit",
)


def test_every_option_says_what_it_takes():
    for name, parser in subcommands().items():
        if name not in CORE:
            continue
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {'/'.join(action.option_strings) or action.dest} has no help"
    helps = {a.dest: a.help for a in subcommands()["list"]._actions}
    assert all(t.label in helps["tier"] for t in MemoryTier)
    assert all(t.label in helps["type"] for t in MemoryType)
    assert all(p.label in helps["source"] for p in ProvenanceLevel)
    assert "importance" in helps["sort"] and "updated_at" in helps["sort"]
    add = {a.dest: a.help for a in subcommands()["add"]._actions}
    assert "0.0 to 1.0" in add["importance"] and "comma-separated" in add["tags"]


def demo(tmp_path, template) -> str:
    db = tmp_path / "demo.db"
    shutil.copy(template, db)
    return str(db)


def test_audit_and_show_take_the_prefix_and_show_has_no_reprs(tmp_path, capsys, demo_template):  # noqa: F811
    db = demo(tmp_path, demo_template)
    assert main(["--db", db, "list", "--limit", "1", "--json"]) == 0
    entry = json.loads(capsys.readouterr().out)[0]
    assert main(["--db", db, "audit", "--id", entry["id"][:8], "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert records and all(r["entry_id"] == entry["id"] for r in records)
    assert main(["--db", db, "show", entry["id"][:8]]) == 0
    shown = capsys.readouterr().out
    assert "audit trail" in shown and entry["id"][:8] in shown.split("audit trail", 1)[1]
    for repr_ in (": None", ": True", ": False", ": [", "(0, 0."):
        assert repr_ not in shown


def test_purge_expired_dry_run_lists_and_removes_nothing(tmp_path, capsys, demo_template):  # noqa: F811
    db = demo(tmp_path, demo_template)
    assert main(["--db", db, "stats", "--json"]) == 0
    before = json.loads(capsys.readouterr().out)["tiers"]["archival"]
    assert main(["--db", db, "purge", "--expired", "--dry-run", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed and all(e["tier"] == "archival" for e in listed)
    assert main(["--db", db, "purge", "--expired", "--dry-run"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"would purge {len(listed)}") and listed[0]["key"] in text
    assert main(["--db", db, "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tiers"]["archival"] == before
    assert main(["--db", db, "purge", "--dry-run", listed[0]["id"]]) == 2  # --dry-run needs --expired
