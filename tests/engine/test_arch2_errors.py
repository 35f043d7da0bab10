"""Issue 10: every exception class the engine defines derives from
EchoMemoryError, so the CLI, the app and the MCP server can tell "the engine
refused, here is why" from a bug (and map it to an exit code) without a hand list."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import engine
from engine.errors import EchoMemoryError


def engine_exception_classes() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__ == info.name:
                found.append(obj)
    return found


def test_every_engine_exception_derives_from_echo_memory_error():
    classes = engine_exception_classes()
    names = {c.__name__ for c in classes}
    # the enumeration reaches recall, the CLI and the models, not just errors.py
    assert {"RerankerError", "EmbeddingTimeout", "VectorDimensionError", "KnowledgeBaseError", "CliError"} <= names
    stray = sorted(f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, EchoMemoryError))
    assert stray == [], f"exceptions outside EchoMemoryError: {stray}"


def test_recall_errors_keep_their_builtin_bases():
    """Older `except TimeoutError` / `except ValueError` clauses still catch them."""
    from engine.recall.embedder import EmbeddingTimeout
    from engine.recall.knowledge import KnowledgeBaseError
    from engine.recall.vectors import VectorDimensionError

    assert issubclass(EmbeddingTimeout, TimeoutError)
    assert issubclass(VectorDimensionError, ValueError) and issubclass(KnowledgeBaseError, ValueError)
