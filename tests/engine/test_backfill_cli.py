"""Issue 14: a one-shot `echo-memory recall` in a fresh process loads the real model
under memory.embeddingLoadTimeoutSeconds, so a tight inference budget
(memory.embeddingTimeoutSeconds) no longer turns it lexical-only."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.cli import main


@pytest.mark.slow
def test_cold_cli_recall_uses_vectors(tmp_path, capsys):
    db = str(tmp_path / "m.db")
    assert main(["--db", db, "--create", "add", "--key", "user.city", "--content", "the user lives in berlin", "--json"]) == 0
    capsys.readouterr()
    cfg = tmp_path / "c.toml"
    # one query embedding takes ~10 ms; importing torch and loading the model takes seconds
    cfg.write_text("[memory]\nembeddingTimeoutSeconds = 1.0\nrerankEnabled = false\n")
    proc = subprocess.run(
        [sys.executable, "-m", "engine.cli", "--db", db, "--config", str(cfg), "recall", "berlin", "--dry", "--json"],
        capture_output=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    data = json.loads(proc.stdout)
    codes = [n["code"] for n in data["notices"]]
    assert "lexical_only" not in codes, data["notices"]
    assert "embed" in data["timings_ms"] and data["results"][0]["key"] == "user.city"
    assert data["timings_ms"]["prepare"] > 1000 * 1.0  # the load alone outlasted the inference budget
