"""The code's shape, read from the source (no imports run): the import graph of
`engine` and `echo_memory_tui`, its cycles, and the modules and functions that
grew past the sizes ARCHITECTURE.md allows.

    python -m tools.shape drawing    # the mermaid import drawing ARCHITECTURE.md shows (--write: update it there)
    python -m tools.shape sizes      # modules > 500 lines without a "Why so long:" line, functions > 80 lines
    python -m tools.shape cycles     # import cycles inside engine/

tests/engine/test_arch2_shape.py runs these (make test): no cycle inside engine,
the drawing in ARCHITECTURE.md is current, and no new oversize module/function."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "echo_memory_tui")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80
WHY = "Why so long:"  # the docstring line a long module needs


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of both packages."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str, path: Path, known: dict[str, Path], runtime_only: bool = False) -> set[str]:
    """The project modules `module` imports (names imported from a package that
    are its submodules count as those submodules), at the top or inside a function
    alike. runtime_only: leave out those under `if TYPE_CHECKING:`, which never run."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes: Iterator[ast.AST] = _runtime(tree) if runtime_only else ast.walk(tree)
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path.name == "__init__.py", node)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def _runtime(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under `node` except the bodies of `if TYPE_CHECKING:` blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            yield from (n for orelse in child.orelse for n in (orelse, *_runtime(orelse)))
            continue
        yield child
        yield from _runtime(child)


def graph(runtime_only: bool = False) -> dict[str, set[str]]:
    known = modules()
    return {m: imports(m, p, known, runtime_only) for m, p in known.items()}


def cycles(prefix: str = "engine") -> list[list[str]]:
    """Import cycles among `prefix`'s modules, by every import that can run: a lazy
    import inside a function hides a cycle from import time, not from the reader.
    Imports under `if TYPE_CHECKING:` (annotations only) are left out."""
    g = {m: {t for t in ts if t.startswith(prefix)} for m, ts in graph(runtime_only=True).items() if m.startswith(prefix)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def _node(module: str) -> str:
    """What the drawing shows a module as: the app as one box, engine's subpackages
    (recall, consolidation, ...) as one box each, engine's own modules by name."""
    parts = module.split(".")
    if parts[0] == "echo_memory_tui":
        return "echo_memory_tui"
    if len(parts) > 2 or (len(parts) == 2 and (ROOT / "engine" / parts[1]).is_dir()):
        return f"engine.{parts[1]}"
    return module


def drawing() -> str:
    """A mermaid graph of the imports (all of them, lazy ones too), box to box."""
    edges = sorted({(_node(m), _node(t)) for m, ts in graph().items() for t in ts if _node(m) != _node(t)})
    lines = ["```mermaid", "graph TD"]
    lines += [f"  {a.replace('.', '_')}[{a}] --> {b.replace('.', '_')}[{b}]" for a, b in edges]
    lines.append("```")
    return "\n".join(lines)


@dataclass(frozen=True)
class Oversize:
    where: str  # module, or module:function
    lines: int

    def __str__(self) -> str:
        return f"{self.where} ({self.lines} lines)"


def sizes() -> list[Oversize]:
    """Modules over MAX_MODULE_LINES whose docstring has no "Why so long:" line, and
    functions over MAX_FUNCTION_LINES."""
    out = []
    for module, path in modules().items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        n = len(text.splitlines())
        if n > MAX_MODULE_LINES and WHY not in (ast.get_docstring(tree) or ""):
            out.append(Oversize(module, n))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    out.append(Oversize(f"{module}:{node.name}", length))
    return out


ARCHITECTURE = ROOT / "ARCHITECTURE.md"
DRAWING_START, DRAWING_END = "<!-- imports: python -m tools.shape drawing --write -->", "<!-- /imports -->"


def write_drawing() -> None:
    """Replace the drawing between the markers in ARCHITECTURE.md."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    head, _, rest = text.partition(DRAWING_START)
    _, _, tail = rest.partition(DRAWING_END)
    ARCHITECTURE.write_text(f"{head}{DRAWING_START}\n{drawing()}\n{DRAWING_END}{tail}", encoding="utf-8")


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "sizes"
    if command == "drawing" and "--write" in argv:
        write_drawing()
    elif command == "drawing":
        print(drawing())
    elif command == "cycles":
        found = cycles()
        print("\n".join(" <-> ".join(c) for c in found) or "no import cycle inside engine/")
        return 1 if found else 0
    elif command == "sizes":
        print("\n".join(map(str, sizes())) or "nothing oversize")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
