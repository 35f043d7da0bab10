"""The engine never imports Textual or Rich, nor torch at import time."""

from __future__ import annotations

import subprocess
import sys

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
    proc = subprocess.run([sys.executable, "-c", "import sys, engine, engine.cli; print('torch' in sys.modules)"],
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "False", proc.stderr
