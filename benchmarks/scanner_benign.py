"""The shipped scanner on benign text it was never written or trained from: how much
ordinary chat, science and documentation it refuses, and which rule refuses it.

    python -m benchmarks.scanner_benign        # writes benchmarks/results/scanner-benign.json

The sources are outside every training, dev and blind set: the LongMemEval chat turns
and the SciFact abstracts in ../shared/data (the retrieval evaluation's data), the
descriptions of the packages installed in this virtual environment (paragraphs of each
``*.dist-info/METADATA``) and a seeded sample of the docstrings in their sources. The
last two follow the pinned install (constraints.txt), so a run names its package count.
This project's own README is left out of the descriptions: it quotes attacks on purpose.
"""

from __future__ import annotations

import ast
import json
import random
import re
import sys
import sysconfig
from collections import Counter
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a plain script
    sys.path.insert(0, str(REPO))

from benchmarks.results_io import command_line, measure, result_path, save  # noqa: E402
from engine.scanner import scan_many  # noqa: E402

DATA = REPO.parent / "shared" / "data"
SITE = Path(sysconfig.get_paths()["purelib"])
OWN_DISTRIBUTION = "echo_memory_tui"
DOCSTRING_FILES, DOCSTRINGS, SEED = 6000, 30_000, 7
PARAGRAPH = re.compile(r"\n\s*\n")


def chat_turns(path: Path = DATA / "longmemeval-dev" / "longmemeval_s_dev.json") -> list[str]:
    """Every distinct LongMemEval haystack turn, user and assistant."""
    questions = json.loads(path.read_text(encoding="utf-8"))
    return list(dict.fromkeys(t["content"] for q in questions for s in q["haystack_sessions"] for t in s))


def abstracts(path: Path = DATA / "scifact-train" / "corpus.jsonl") -> list[str]:
    """Every SciFact abstract, its title first."""
    docs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [f"{d['title']}. {d['text']}" for d in docs]


def _paragraphs(text: str, shortest: int, longest: int) -> Iterator[str]:
    for part in PARAGRAPH.split(text):
        part = part.strip()
        if shortest <= len(part) <= longest:
            yield part


def package_descriptions() -> list[str]:
    """Paragraphs of the installed packages' long descriptions (after the headers)."""
    found = []
    for meta in sorted(SITE.glob("*.dist-info/METADATA")):
        if meta.parent.name.startswith(OWN_DISTRIBUTION):
            continue
        _, _, body = meta.read_text(encoding="utf-8", errors="replace").partition("\n\n")
        found.extend(_paragraphs(body, 40, 4000))
    return list(dict.fromkeys(found))


def docstrings() -> list[str]:
    """Paragraphs of docstrings from a seeded sample of the installed packages' modules."""
    files = sorted(p for p in SITE.rglob("*.py") if OWN_DISTRIBUTION not in str(p))
    random.Random(SEED).shuffle(files)
    found = []
    for path in files[:DOCSTRING_FILES]:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                found.extend(_paragraphs(ast.get_docstring(node) or "", 60, 3000))
    found = list(dict.fromkeys(found))
    random.Random(SEED).shuffle(found)
    return found[:DOCSTRINGS]


def refusals(texts: list[str]) -> dict:
    """How many texts are refused, and by which rule or layer (decoding noted apart)."""
    verdicts = scan_many(texts)
    by = Counter(v.pattern.split(" (")[0] if v.layer == "rules" else v.layer for v in verdicts if v.blocked)
    refused = sum(by.values())
    return {"texts": len(texts), "refused": refused, "rate": round(refused / max(len(texts), 1), 5), "by": dict(by.most_common())}


SOURCES = {
    "longmemeval_chat_turns": chat_turns,
    "scifact_abstracts": abstracts,
    "package_descriptions": package_descriptions,
    "package_docstrings": docstrings,
}


def run() -> dict:
    missing = [p for p in (DATA / "longmemeval-dev", DATA / "scifact-train") if not p.is_dir()]
    if missing:
        raise SystemExit(f"missing data: {', '.join(map(str, missing))} (see ../shared/data/README.md)")
    results = {name: refusals(load()) for name, load in SOURCES.items()}
    results["packages"] = sum(1 for _ in SITE.glob("*.dist-info"))
    return results


def main(argv: list[str]) -> int:
    document = measure(run, command_line("benchmarks.scanner_benign", argv))
    print(f"scanner-benign: {save(document, result_path('scanner-benign'))}", file=sys.stderr)
    for name in SOURCES:
        r = document["results"][name]
        print(f"{name}: {r['refused']} of {r['texts']} refused ({100 * r['rate']:.2f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
