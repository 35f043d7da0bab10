"""Offline contradiction verification: two statements about the same subject that
carry incompatible values. The checks run from the most to the least certain
kind, and the first that fires decides:

  version     the same tool at versions neither refines (Python 3.12 vs 3.13)          0.90
  value       the same exclusive slot filled by different tools (webpack vs Vite)     0.80
  number      the same duration with different lengths (one hour vs 30 minutes)       0.75
              or numbers in the same neighbourhood (listens on 8080 vs port 8000)     0.65
  date        the same event on different days or dates (second Tuesday vs Friday)   0.70
  preference  opposite attitudes to one topic (wants type hints vs hates them)        0.62
  negation    one statement denies what the other asserts                             0.60

Confidence is the kind's own certainty scaled by how sure the pre-filter is that
both speak of the same subject, so a weakly paired conflict stays pending."""

from __future__ import annotations

from typing import Optional

from ..models import MemoryEntry, MemoryType
from .extract import PRODUCER, find_projects, primary_tool
from .records import Signals, Verdict
from .text import (
    anchored_numbers,
    antonym_clash,
    content_words,
    dates,
    durations,
    find_tools,
    is_negated,
    jaccard,
    preference,
    surface,
    versions_compatible,
)

_SHARED_SLOTS = {"runtime", "framework", "database", "cache", "test-runner"}  # a project may use several at once


def subjects(entry: MemoryEntry) -> set[str]:
    """Projects an entry is about (from key, tags and content), or {'user'} for USER facts."""
    found = set(find_projects(" ".join([entry.key.replace("/", " "), *entry.tags, entry.content])))
    if not found and entry.type is MemoryType.USER:
        found = {"user"}
    return found


def scaled(certainty: float, signals: Signals) -> float:
    return round(certainty * (0.6 + 0.4 * signals.strength), 3)


def verify_offline(a: MemoryEntry, b: MemoryEntry, signals: Signals) -> Verdict:
    sa, sb = subjects(a), subjects(b)
    if sa and sb and not sa & sb:
        return _none(f"different subjects ({', '.join(sorted(sa))} vs {', '.join(sorted(sb))})")
    for check in (_version, _value, _number, _date, _preference, _negation):
        found = check(a.content, b.content)
        if found is not None:
            kind, certainty, description, evidence = found
            confidence = scaled(certainty, signals)
            explanation = (
                f"{description}. Kind '{kind}' has certainty {certainty:.2f}; the pair's "
                f"subject match is {signals.strength:.2f} (key {signals.key_similarity:.2f}, tags "
                f"{signals.tag_overlap:.2f}"
                + (f", embedding {signals.embedding_similarity:.2f}" if signals.embedding_similarity is not None else "")
                + f"), so confidence is {confidence:.2f}."
            )
            return Verdict(True, confidence, kind, description, explanation, PRODUCER, evidence)
    return _none("no incompatible values found")


def _none(why: str) -> Verdict:
    return Verdict(False, 0.0, "none", why, why, PRODUCER)


Found = Optional[tuple[str, float, str, dict]]  # kind, certainty, description, evidence


def _version(a: str, b: str) -> Found:
    va = {m.tool.name.lower(): (m.tool.name, m.version) for m in find_tools(a) if m.version}
    vb = {m.tool.name.lower(): m.version for m in find_tools(b) if m.version}
    for tool, (display, version_a) in va.items():
        version_b = vb.get(tool)
        if version_b and not versions_compatible(version_a, version_b):
            detail = {"tool": display, "a": version_a, "b": version_b}
            return "version", 0.9, f"{display} version: {version_a} vs {version_b}", detail
    return None


def _value(a: str, b: str) -> Found:
    ta, tb = primary_tool(a), primary_tool(b)
    if ta is None or tb is None or ta.tool.slot != tb.tool.slot or ta.tool.slot in _SHARED_SLOTS:
        return None
    if ta.tool.name == tb.tool.name:
        return None
    return (
        "value",
        0.8,
        f"{ta.tool.slot}: {ta.tool.name} vs {tb.tool.name}",
        {"slot": ta.tool.slot, "a": ta.tool.name, "b": tb.tool.name},
    )


def _number(a: str, b: str) -> Found:
    da, db = durations(a), durations(b)
    if da and db and not any(abs(x - y) <= 0.01 * max(x, y) for x, _ in da for y, _ in db):
        return "number", 0.75, f"durations differ: {da[0][1]} vs {db[0][1]}", {"a": da[0][1], "b": db[0][1]}
    na, nb = anchored_numbers(a), anchored_numbers(b)
    values_a, values_b = {v for _, v in na}, {v for _, v in nb}
    for anchors_a, value_a in na:
        for anchors_b, value_b in nb:
            shared = anchors_a & anchors_b
            if shared and value_a != value_b and value_a not in values_b and value_b not in values_a:
                about = ", ".join(surface(shared, a + " " + b)[:2])
                return ("number", 0.65, f"{about}: {value_a} vs {value_b}", {"about": sorted(shared), "a": value_a, "b": value_b})
    return None


def _date(a: str, b: str) -> Found:
    da, db = dates(a), dates(b)
    if not da or not db or da & db:
        return None
    shared = content_words(a) & content_words(b) - {d.split()[-1] for d in da | db}
    if not shared:
        return None
    about = ", ".join(surface(shared, b)[:3])
    return (
        "date",
        0.7,
        f"dates differ for {about}: {', '.join(sorted(da))} vs {', '.join(sorted(db))}",
        {"a": sorted(da), "b": sorted(db), "about": sorted(shared)},
    )


def _preference(a: str, b: str) -> Found:
    pa, pb = preference(a), preference(b)
    if pa and pb and pa[0] != pb[0] and pa[1] & pb[1]:
        topic = " ".join(surface(pa[1] & pb[1], b)[:3])
        liked, disliked = (a, b) if pa[0] > 0 else (b, a)
        return "preference", 0.62, f"opposite preferences about {topic}", {"topic": topic, "likes": liked, "dislikes": disliked}
    clash = antonym_clash(a, b)
    if clash and (pa is None or pa[0] > 0) and (pb is None or pb[0] > 0):
        return "preference", 0.62, f"opposite choices: {clash[0]} vs {clash[1]}", {"a": clash[0], "b": clash[1]}
    return None


def _negation(a: str, b: str) -> Found:
    if is_negated(a) == is_negated(b):
        return None
    overlap = jaccard(content_words(a), content_words(b))
    if overlap < 0.35:
        return None
    denied, asserted = (a, b) if is_negated(a) else (b, a)
    about = " ".join(surface(content_words(a) & content_words(b), asserted)[:4])
    return (
        "negation",
        0.6,
        f"one denies what the other asserts about {about}",
        {"denies": denied, "asserts": asserted, "overlap": round(overlap, 3)},
    )
