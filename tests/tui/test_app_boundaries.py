"""The app uses only the engine's public API, and opening it stays light:
no model library is imported before the first frame."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "echo_memory_tui"


def test_app_imports_only_the_engine_package():
    offenders = []
    for path in APP.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine."):
                offenders.append(f"{path.relative_to(APP)}: from {node.module}")
            if isinstance(node, ast.Import):
                offenders += [f"{path.relative_to(APP)}: import {a.name}" for a in node.names if a.name.startswith("engine.")]
    assert not offenders, offenders


def test_importing_the_app_loads_no_model_library():
    code = (
        "import sys, echo_memory_tui.app; "
        "print(','.join(m for m in ('torch', 'sentence_transformers', 'transformers', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
