"""`echo-memory sync` as a process: a SIGKILL during write-back never leaves a partial
file, and --watch brings a change made in the folder into the store."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import EntryFilter
from engine.bridge.sync import FORMATS, FolderSync
from engine.models import MemoryTier

from .conftest import REPO, server_env
from .test_sync_echo_agent import row


def sync_command(db: Path, fmt: str, folder: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "engine.cli", "--db", str(db), "sync", "--from", fmt, str(folder), *extra]


def seed(folder: Path, fmt: str) -> None:
    if fmt == "hermes":
        (folder / "MEMORY.md").write_text("The project uses sqlite\n§\nDeploys run on Fridays\n", encoding="utf-8")
        (folder / "USER.md").write_text("The user prefers vim\n", encoding="utf-8")
    else:
        rows = [row(f"e{n}", f"fact{n}", f"Environment fact number {n} " + "x" * 200, "environment") for n in range(400)]
        (folder / "env_memory.json").write_text(json.dumps(rows, indent=2), encoding="utf-8")
        (folder / "user_memory.json").write_text(json.dumps([row("u1", "editor", "The user prefers vim", "user")]))


@pytest.mark.parametrize("fmt", ["hermes", "echo-agent"])
async def test_a_sigkill_during_write_back_leaves_the_old_or_the_new_file(engine, db_path, tmp_path, fmt):
    folder = tmp_path / fmt
    folder.mkdir()
    seed(folder, fmt)
    await FolderSync(engine, fmt, folder).run(write_back=True)
    files = list(FORMATS[fmt].files)
    for attempt in range(6):
        before = {f: (folder / f).read_bytes() for f in files}
        for entry in await engine.list_entries(EntryFilter(tier=MemoryTier.SEMANTIC)):
            await engine.edit(entry.id, f"{entry.content.split(' (edit')[0]} (edit {attempt})")
        proc = subprocess.Popen(
            sync_command(db_path, fmt, folder, "--write-back"),
            env=server_env(),
            cwd=str(REPO),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.6 + 0.25 * attempt)  # from before the write to after it
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed = {f: (folder / f).read_bytes() for f in files}
        finished = subprocess.run(
            sync_command(db_path, fmt, folder, "--write-back"),
            env=server_env(),
            cwd=str(REPO),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert finished.returncode == 0, finished.stderr
        after = {f: (folder / f).read_bytes() for f in files}
        for f in files:
            assert killed[f] in (before[f], after[f]), f"{f} was left partial after a kill (attempt {attempt})"
            FORMATS[fmt].parse(f, killed[f])  # and the agent's parser reads it


def test_watch_brings_a_folder_change_into_the_store_and_reports_a_vanished_folder(db_path, tmp_path):
    folder = tmp_path / "hermes"
    folder.mkdir()
    seed(folder, "hermes")
    command = sync_command(db_path, "hermes", folder, "--watch", "--json")
    command.insert(command.index("sync"), "--create")  # a new store: sync into it on purpose
    proc = subprocess.Popen(command, env=server_env(), cwd=str(REPO), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = json.loads(proc.stdout.readline())
        assert len(first["landed"]) == 3
        with open(folder / "MEMORY.md", "a", encoding="utf-8") as fh:
            fh.write("§\nThe API listens on port 8080\n")
        report = json.loads(proc.stdout.readline())  # the next pass, woken by the change
        assert report["landed"] == ["hermes/the-api-listens-on-port-8080"]
        for child in folder.iterdir():
            child.unlink()
        folder.rmdir()
        _, err = proc.communicate(timeout=60)
        assert proc.returncode != 0 and "is not a folder" in err and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    listed = subprocess.run(
        [sys.executable, "-m", "engine.cli", "--db", str(db_path), "list", "--json"],
        env=server_env(),
        cwd=str(REPO),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "The API listens on port 8080" in {e["content"] for e in json.loads(listed.stdout)}
