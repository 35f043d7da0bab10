"""The discriminative token gate.

A candidate that only BM25 found, and whose matched query tokens are all
non-discriminative (a stop word, or IDF below memory.gateMinIdf), is discarded:
such a hit says nothing about the query's subject. Candidates the vector path
found always pass (their evidence is semantic, not a token match). Every
candidate gets a verdict and a human-readable reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from .tokenize import is_stop_word


@dataclass
class GateVerdict:
    passed: bool
    reason: str
    discriminative: list[str] = field(default_factory=list)
    non_discriminative: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"passed": self.passed, "reason": self.reason}


def _fmt(x: float) -> str:
    return f"{x:.2f}"


def classify_token(token: str, idf: float, min_idf: float) -> str | None:
    """Why token is non-discriminative, or None when it is discriminative."""
    if is_stop_word(token):
        return f"{token} (stop word)"
    if idf < min_idf:
        return f"{token} (idf {_fmt(idf)} < {_fmt(min_idf)})"
    return None


def gate_candidate(
    found_by_vector: bool,
    found_by_bm25: bool,
    matched_tokens: Sequence[str],
    idf: Callable[[str], float],
    min_idf: float,
) -> GateVerdict:
    if found_by_vector:
        why = "found by vector search" + (" and BM25" if found_by_bm25 else "")
        return GateVerdict(True, why)
    good, weak = [], []
    for token in matched_tokens:
        why = classify_token(token, idf(token), min_idf)
        if why is None:
            good.append(token)
        else:
            weak.append(why)
    if good:
        return GateVerdict(True, "BM25 matched discriminative token(s): " + ", ".join(good), good, weak)
    if not matched_tokens:
        return GateVerdict(False, "BM25-only candidate without matched query tokens", good, weak)
    return GateVerdict(False, "BM25-only match on non-discriminative token(s) only: " + ", ".join(weak), good, weak)
