"""A --db path with no store is a typo until said otherwise (issue 9): the CLI refuses it
with exit 2 and creates nothing, unless --create asks for a new store or the command
exists to fill one (demo, import)."""

from __future__ import annotations

import json

import pytest

from engine.cli import main


def files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize(
    "argv",
    [
        ["stats"],
        ["list"],
        ["add", "--key", "k", "--content", "v"],
        ["show", "abcd1234"],
        ["audit"],
        ["recall", "editor"],
        ["working"],
        ["decay", "--dry-run"],
        ["contradictions"],
        ["episodes"],
        ["export", "out.jsonl"],
    ],
)
def test_a_missing_store_is_refused_and_nothing_is_created(tmp_path, capsys, argv):
    typo = tmp_path / "memroy.db"
    assert main(["--db", str(typo), *argv]) == 2
    err = capsys.readouterr().err
    assert f"no store at {typo}" in err and "--create" in err
    assert files(tmp_path) == []


def test_mcp_and_sync_refuse_a_missing_store_too(tmp_path, capsys):
    (tmp_path / "hermes").mkdir()
    typo = tmp_path / "memroy.db"
    assert main(["mcp", "--db", str(typo)]) == 2
    assert "no store at" in capsys.readouterr().err
    assert main(["--db", str(typo), "sync", "--from", "hermes", str(tmp_path / "hermes")]) == 2
    assert files(tmp_path) == ["hermes"]


def test_the_default_path_from_the_environment_names_where_it_came_from(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ECHO_MEMORY_DB", str(tmp_path / "env.db"))
    assert main(["stats"]) == 2
    assert "$ECHO_MEMORY_DB" in capsys.readouterr().err
    assert files(tmp_path) == []


def test_create_makes_the_store_and_is_harmless_on_an_existing_one(tmp_path, capsys):
    db = tmp_path / "new.db"
    assert main(["--db", str(db), "--create", "add", "--key", "user/editor", "--content", "neovim"]) == 0
    assert db.exists()
    assert main(["--db", str(db), "--create", "stats", "--json"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "list", "--json"]) == 0
    assert [e["key"] for e in json.loads(capsys.readouterr().out)] == ["user/editor"]


def test_demo_and_import_create_their_store(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "demo.db"), "demo"]) == 0
    assert main(["--db", str(tmp_path / "demo.db"), "export", str(tmp_path / "out.jsonl")]) == 0
    assert main(["--db", str(tmp_path / "copy.db"), "import", str(tmp_path / "out.jsonl")]) == 0
    assert (tmp_path / "copy.db").exists()


def test_read_only_never_creates(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "x.db"), "--read-only", "--create", "stats"]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert files(tmp_path) == []
