"""Issue 8 item 15: an export writes only its target, next to it, private, and
leaves nothing behind when it fails."""

from __future__ import annotations

import errno
import json
import stat

import pytest

from engine.cli import main
from engine.models import InvalidValue


async def test_export_to_a_folder_is_refused_before_writing(engine, tmp_path):
    await engine.add("db", "pg 15")
    target = tmp_path / "folder"
    target.mkdir()
    with pytest.raises(InvalidValue, match="folder"):
        await engine.export_jsonl(target)
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("memory.db")] == ["folder"]
    assert list(target.iterdir()) == []


def test_cli_export_to_a_folder_is_a_usage_error(tmp_path, capsys):
    db = str(tmp_path / "m.db")
    assert main(["--db", db, "--create", "add", "--key", "k", "--content", "v"]) == 0
    target = tmp_path / "out"
    target.mkdir()
    assert main(["--db", db, "export", str(target)]) == 2
    err = capsys.readouterr().err
    assert "folder" in err and "Traceback" not in err
    assert not (tmp_path / "out.tmp").exists()


async def test_export_is_private_to_the_user(engine, tmp_path):
    await engine.add("db", "pg 15")
    target = tmp_path / "out.jsonl"
    await engine.export_jsonl(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert json.loads(target.read_text())["content"] == "pg 15"


async def test_failed_export_leaves_no_temp_file_and_keeps_the_old_target(engine, tmp_path, monkeypatch):
    await engine.add("db", "pg 15")
    target = tmp_path / "out.jsonl"
    target.write_text("previous export\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("engine.memory.os.fsync", full)
    with pytest.raises(OSError):
        await engine.export_jsonl(target)
    assert target.read_text() == "previous export\n"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("memory.db")) == ["out.jsonl"]
