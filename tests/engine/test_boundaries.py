"""The engine never imports Textual or Rich, nor torch at import time."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import engine

CHECK = """
import sys
import engine, engine.cli, engine.memory, engine.gate, engine.demo
import importlib, pkgutil
for mod in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(mod.name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))
print("BAD:" + ",".join(bad))
print("TORCH:" + str("torch" in sys.modules))
"""


def test_engine_imports_no_textual_or_rich():
    proc = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "BAD:\n" in proc.stdout, proc.stdout


def test_importing_engine_does_not_load_torch():
    proc = subprocess.run(
        [sys.executable, "-c", "import sys, engine, engine.cli; print('torch' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.stdout.strip() == "False", proc.stderr


def test_engine_names_the_app_nowhere():
    """The app sits on top of the engine: no engine module imports or names it."""
    root = Path(engine.__file__).parent
    naming = [str(p.relative_to(root)) for p in root.rglob("*.py") if "echo_memory_tui" in p.read_text()]
    assert naming == []


def test_the_console_script_is_the_apps():
    (script,) = [ep for ep in importlib.metadata.entry_points(group="console_scripts") if ep.name == "echo-memory"]
    assert script.value == "echo_memory_tui.cli:main"


def test_headless_cli_without_a_command_points_to_the_app():
    proc = subprocess.run([sys.executable, "-m", "engine.cli"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "usage: echo-memory" in proc.stdout
    assert "run `echo-memory` with no command" in proc.stderr
