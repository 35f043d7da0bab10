"""Issue 10: a cycle hidden by an import inside a function is still a cycle (it
runs the first time the function does); an import under `if TYPE_CHECKING:`
never runs and is no cycle."""

from __future__ import annotations

import textwrap

from tools import shape


def _fake_engine(tmp_path, monkeypatch, sources: dict[str, str]) -> None:
    files = {}
    for name, text in sources.items():
        path = tmp_path / f"{name.replace('.', '_')}.py"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        files[name] = path
    monkeypatch.setattr(shape, "modules", lambda: files)


def test_a_cycle_through_a_function_level_import_is_found(tmp_path, monkeypatch):
    _fake_engine(
        tmp_path,
        monkeypatch,
        {
            "engine.a": "from engine.b import thing\n",
            "engine.b": "def thing():\n    from engine.a import other\n    return other\n",
        },
    )
    assert shape.cycles() == [["engine.a", "engine.b"]]


def test_an_annotation_only_import_is_no_cycle(tmp_path, monkeypatch):
    _fake_engine(
        tmp_path,
        monkeypatch,
        {
            "engine.a": "from engine.b import thing\n",
            "engine.b": """
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from engine.a import Other
                else:
                    import engine.c
                def thing(x: "Other") -> None: ...
            """,
            "engine.c": "",
        },
    )
    assert shape.cycles() == []
    assert shape.graph(runtime_only=True)["engine.b"] == {"engine.c"}  # the else branch runs
    assert shape.graph()["engine.b"] == {"engine.a", "engine.c"}  # the drawing shows both
