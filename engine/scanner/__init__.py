"""The write-path prompt-injection scanner: the spec's ``_scan_memory_content``.

Every memory write passes through :func:`scan_memory_content` before it reaches
storage. The checks run in the spec's order and the first hit decides:

1. ``too_large``          the input is bounded, so the scan is bounded too;
2. ``invisible_unicode``  zero tolerance for characters a human cannot see but a
                          model reads (zero-width, bidi controls, tag characters,
                          variation selectors, fillers, every format character);
                          :func:`strip_invisible` is the offered fix;
3. ``en_injection``       English pattern families (overrides, role hijack,
                          exfiltration, memory poisoning...), plus common German,
                          Spanish, French and Russian override phrasings;
4. ``zh_injection``       Chinese pattern families;
5. ``learned_injection``  the learned layer (``learned.py``): a linear model over
                          hashed n-grams, for wording no rule names.

Patterns run on normalised views (``normalise.py``): NFKC, casefolded, look-alike
letters folded; de-obfuscated (split letters joined, leetspeak and confusables
mapped, words joined by ``_`` or capitals spaced apart, long letter runs read
solid); for Chinese also traditional-to-simplified and spaced-out characters
joined; and, when nothing matched, on what the content decodes to (base64, URL
encoding, HTML entities, rot13, reversed). Offsets in a verdict always point
into the caller's original string. A hit inside a quotation the text only reports or cites
("a message saying '…'") is judged again without its framed quotations (``quoted.py``).

The families are data (``rules.py``): tuples of :class:`Rule` (family, name,
compiled regex, gate). Each targets a kind of phrasing and insists on the
context that makes it an attack, so harmless uses of trigger words ("ignore the
typo", "the system prompt builder lives in src/prompt.py") pass. Run time needs
the standard library and numpy only.

The bulk write path scans a whole batch with :func:`scan_many`: the same verdict
per text as :func:`scan_memory_content`, each distinct text once, the learned layer
batched, and a large batch split over worker processes.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import re
import threading
import unicodedata
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Optional

from engine.models import ScanResult
from engine.worker_exit import exit_with_parent

if TYPE_CHECKING:
    from .learned import LearnedModel

from .encodings import decoded_texts
from .invisible import find_invisible, invisible_class, reveal_invisible, strip_invisible
from .normalise import (
    _deobfuscated_views,
    _normalised_view,
    _View,
    chinese_views,
    long_runs,
    respaced_view,
)
from .quoted import blank_framed_quotes
from .rules import EN_RULES, POISONING_RULES, SQUASHED_RULES, ZH_POISONING_RULES, ZH_RULES, GateIndex, Rule
from .status import MODEL_DIR, LearnedStatus

__all__ = [
    "MAX_CONTENT_CHARS",
    "Rule",
    "EN_RULES",
    "SQUASHED_RULES",
    "ZH_RULES",
    "LearnedStatus",
    "ScanAhead",
    "find_invisible",
    "learned_status",
    "learned_text",
    "reload_learned",
    "scan_rules",
    "strip_invisible",
    "invisible_class",
    "reveal_invisible",
    "scan_memory_content",
    "scan_many",
    "refusals_many",
    "CLEAN",
    "warm_pool",
    "_scan_memory_content",
]

CLEAN = ScanResult(blocked=False)
"""The rules' verdict on a text they pass (one object: a verdict is frozen)."""

_normalised_view = functools.lru_cache(maxsize=4)(_normalised_view)
"""The rules and the learned layer read the same view of one content: build it once."""

MAX_CONTENT_CHARS = 65536
"""Longest content the scanner accepts; longer content is refused as ``too_large``."""

_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_EN_TABLE = EN_RULES + POISONING_RULES
_ZH_TABLE = ZH_RULES + ZH_POISONING_RULES
_EN_GATES = GateIndex(_EN_TABLE)
_ZH_GATES = GateIndex(_ZH_TABLE)


def _match_rules(
    rules: tuple[Rule, ...], views: list[_View], gates: Optional[GateIndex]
) -> Optional[tuple[Rule, re.Match[str], _View]]:
    """The first rule (in table order) that matches one of the views; with ``gates``,
    a rule's regex runs only on the views whose text passes its gate."""
    if gates is None:
        runnable = [(1 << len(rules)) - 1] * len(views)
    else:
        runnable = [gates.runnable(view.text) for view in views]
    pending = 0
    for bits in runnable:
        pending |= bits
    while pending:  # lowest bit first: table order
        bit = pending & -pending
        pending ^= bit
        r = bit.bit_length() - 1
        for view, allowed in zip(views, runnable):
            if allowed & bit:
                match = rules[r].regex.search(view.text)
                if match:
                    return rules[r], match, view
    return None


def scan_memory_content(content: str) -> ScanResult:
    """Scan content bound for memory; ``blocked=True`` means it must not be stored.

    Order (first hit wins): too_large, invisible_unicode, en_injection,
    zh_injection (the rules), then the learned layer.
    """
    result = scan_rules(content)
    if result.blocked:
        return result
    return _scan_learned(content)


def scan_rules(content: str) -> ScanResult:
    """The rule layers alone: size, invisible characters, English and Chinese families."""
    if not isinstance(content, str):
        raise TypeError(f"content must be str, not {type(content).__name__}")
    if len(content) > MAX_CONTENT_CHARS:
        return ScanResult(
            blocked=True,
            reason="too_large",
            family="size_limit",
            pattern=f"content is {len(content)} characters; the limit is {MAX_CONTENT_CHARS}",
            offset=MAX_CONTENT_CHARS,
            layer="rules",
        )

    found = find_invisible(content)
    if found is not None:
        offset, codepoint, klass = found
        return ScanResult(
            blocked=True,
            reason="invisible_unicode",
            family=klass,
            pattern=unicodedata.name(content[offset], f"unnamed {klass}"),
            matched=f"⟨{codepoint}⟩",
            codepoint=codepoint,
            offset=offset,
            layer="rules",
        )

    result = _scan_patterns(content)
    if result.blocked and result.offset is not None:
        # A hit inside a quotation that the text reports or cites ("a message saying '…'"):
        # judge the text again without its framed quotations.
        unquoted = blank_framed_quotes(content, result.offset)
        if unquoted is not None:
            return _scan_patterns(unquoted)
    return result


def _scan_patterns(content: str, use_gates: bool = True, decode: bool = True) -> ScanResult:
    """Steps 3 and 4: the English, then the Chinese pattern families; then the
    same on whatever the content decodes to (base64, URL, HTML entities, rot13,
    reversed), reported at the offset of the encoded span."""
    view = _normalised_view(content)
    deobfuscated, squashed = _deobfuscated_views(view)
    views = [view] if deobfuscated is None else [view, deobfuscated]
    respaced = respaced_view(content)
    if respaced is not None:
        views.append(respaced)

    hit = _match_rules(_EN_TABLE, views, _EN_GATES if use_gates else None)
    if hit is None:
        solid = ([squashed] if squashed is not None else []) + long_runs(view)
        if solid:
            hit = _match_rules(SQUASHED_RULES, solid, None)
    reason = "en_injection"
    if hit is None and _CJK_RE.search(view.text):
        zh_views = chinese_views(view)
        hit = _match_rules(_ZH_TABLE, zh_views, _ZH_GATES if use_gates else None)
        reason = "zh_injection"
    if hit is None:
        if decode:
            for how, offset, text in decoded_texts(content):
                inner = _scan_patterns(text, use_gates, decode=False)
                if inner.blocked:
                    return replace(inner, pattern=f"{inner.pattern} (decoded {how})", offset=offset)
        return CLEAN
    rule, match, matched_view = hit
    return ScanResult(
        blocked=True,
        reason=reason,
        family=rule.family,
        pattern=rule.name,
        matched=match.group(),
        offset=matched_view.offset(match.start()),
        layer="rules",
    )


_scan_memory_content = scan_memory_content
"""The spec's name for the write gate."""


def learned_text(content: str) -> str:
    """What the learned layer reads: the casefolded NFKC view the rules see."""
    return _normalised_view(content).text


_LEARNED: Optional[tuple[Optional["LearnedModel"], LearnedStatus]] = None
_LEARNED_FROM: Path = MODEL_DIR


def _learned() -> tuple[Optional["LearnedModel"], LearnedStatus]:
    """The shipped model, loaded on first use (numpy and ~1 MB, a few ms) and kept."""
    global _LEARNED
    if _LEARNED is None:
        from .learned import load_model

        _LEARNED = load_model()
    return _LEARNED


def learned_status() -> LearnedStatus:
    """Whether the learned layer is on, and if not why: ``stats`` and the app show it."""
    return _learned()[1]


def reload_learned(folder: Path = MODEL_DIR) -> LearnedStatus:
    """Load the learned layer from ``folder`` (a missing or corrupt one turns the layer off)."""
    from .learned import load_model

    global _LEARNED, _LEARNED_FROM
    _LEARNED, _LEARNED_FROM = load_model(folder), folder
    _retire_pool()  # its workers hold the layer they loaded
    return _LEARNED[1]


_POOL_MIN_TEXTS = 2048
"""Fewer distinct texts than this are scanned in-process: the workers' round trip
(pickling, a wake-up) would cost more than the work they share."""
_POOL: Optional[tuple[int, ProcessPoolExecutor]] = None  # (workers, pool)


def scan_many(texts: Iterable[str], processes: int = 1, ahead: Optional["ScanAhead"] = None) -> list[ScanResult]:
    """One verdict per text, each exactly what :func:`scan_memory_content` gives that
    text alone. The bulk write path's scanner: each distinct text is scanned once
    (tags and session keys repeat across a batch), and the learned layer scores
    every text the rules passed in one batched call. With ``processes`` > 1 and a
    large batch, slices of it are scanned in worker processes at the same time
    (same code, same learned artifact, so the same verdicts). Texts ``ahead`` was
    given earlier take its verdicts (:class:`ScanAhead`)."""
    texts = list(texts)
    verdicts = _gathered(texts, processes, ahead, compact=False)
    return [verdicts[text] for text in texts]


def refusals_many(texts: Iterable[str], processes: int = 1, ahead: Optional["ScanAhead"] = None) -> dict[str, ScanResult]:
    """scan_many's refusals alone, by text (a text not in it is clean): what the write
    gate reads. Clean verdicts are never built, here or in the scanner's processes
    (a 100k-line import: 19.3 -> 17.1 CPU-s, 10.4 -> 9.2 s)."""
    found = _gathered(texts, processes, ahead, compact=True)
    return {text: verdict for text, verdict in found.items() if isinstance(verdict, ScanResult)}


def _gathered(texts: Iterable[str], processes: int, ahead: Optional["ScanAhead"], compact: bool) -> dict[str, Any]:
    """Each distinct text's verdict, whole or compact: from ``ahead`` where it has one,
    else scanned here or, for a large batch and ``processes`` > 1, in worker processes."""
    distinct = list(dict.fromkeys(texts))
    found: dict[str, Any] = {} if ahead is None else ahead.take(distinct, compact)
    rest = [text for text in distinct if text not in found] if found else distinct
    if processes > 1 and len(rest) >= _POOL_MIN_TEXTS:
        found.update(_scan_in_processes(rest, processes, compact))
    elif rest:
        threshold, verdicts = _scan_compact(rest)
        found.update(zip(rest, verdicts if compact else (_whole(threshold, verdict) for verdict in verdicts)))
    return found


_Chunk = tuple[frozenset[str], list[str], "Future[tuple[Optional[float], list[Any]]]"]
"""Texts sent to a worker process together (as a set and in order), and the future of
their verdicts (:func:`_scan_compact`), in the same order."""


class ScanAhead:
    """Verdicts started before anyone asks for them. An import hands the texts of each
    chunk of its file to the scanner's worker processes as soon as it has read them, so
    the workers scan while the file is still being read and the versions grouped, and
    stay a chunk ahead of the writes, instead of idling until the first batch is checked.
    The gate then takes the verdicts from here (``refusals_many(..., ahead=...)``): the same
    function in the same workers with the same learned artifact, so the same verdicts.

    A text goes to the first chunk that has it only (a tag repeats in every chunk), so a
    batch waits for no chunk past its own lines; a verdict is handed out once and then
    dropped, so a million-line import holds the verdicts of a chunk or two, not all of
    them (a text asked for again, that tag, is scanned by the gate itself, in a moment).
    ``submit`` may be called from one thread while ``take`` runs in another."""

    def __init__(self, processes: int) -> None:
        self._pool = _worker_pool(processes)
        self._chunks: list[_Chunk] = []
        self._submitted: set[str] = set()
        self._verdicts: dict[str, Any] = {}  # compact (_scan_compact)
        self._threshold: Optional[float] = None
        self._lock = threading.Lock()

    def submit(self, texts: Iterable[str]) -> None:
        """Start scanning, in a worker process, those of ``texts`` not submitted before."""
        with self._lock:
            fresh = [text for text in dict.fromkeys(texts) if text not in self._submitted]
            if fresh:
                self._submitted.update(fresh)
                self._chunks.append((frozenset(fresh), fresh, self._pool.submit(_scan_compact, fresh)))

    def take(self, texts: Iterable[str], compact: bool = False) -> dict[str, Any]:
        """The verdicts of those of ``texts`` that were submitted and not taken yet, whole
        or (``compact``) as the workers sent them, waiting only for the chunks that hold
        them; a worker's failure is raised here, as scan_many's would be."""
        wanted = set(texts)
        needed: list[_Chunk] = []
        kept: list[_Chunk] = []
        with self._lock:
            for chunk in self._chunks:
                (kept if chunk[0].isdisjoint(wanted) else needed).append(chunk)
            self._chunks = kept
        for _, listed, future in needed:
            self._threshold, found = future.result()  # one pool, one artifact: the same threshold
            with self._lock:
                self._verdicts.update(zip(listed, found))
        with self._lock:
            taken = {text: self._verdicts.pop(text) for text in wanted if text in self._verdicts}
        if compact:
            return taken
        return {text: _whole(self._threshold, verdict) for text, verdict in taken.items()}

    def close(self) -> None:
        """Drop what is still queued (an import that failed or was cancelled)."""
        with self._lock:
            for _, _, future in self._chunks:
                future.cancel()
            self._chunks = []
            self._verdicts = {}


def _scan_compact(distinct: list[str]) -> tuple[Optional[float], list[Any]]:
    """The learned layer's threshold (None: it is off) and the verdicts of distinct texts
    in order, compact: a refusal whole, a clean verdict as its score alone (None: the rules
    alone ran). What a scanner process returns: its caller has the texts, and unpickling a
    ScanResult cost it (an import's longest path) ~3 us, a float nothing."""
    found: list[Any] = []
    passed: list[int] = []  # where the texts the rules passed are in found
    seen: list[str] = []  # what the learned layer reads of each
    for text in distinct:
        result = scan_rules(text)
        if not result.blocked:
            passed.append(len(found))
            seen.append(learned_text(text))  # now, while the rules' view is cached
            result = None
        found.append(result)
    model, _ = _learned()
    if model is None:
        return None, found
    for k, view, score in zip(passed, seen, _learned_scores(model, seen)):
        found[k] = _learned_compact(model, view, score)
    return model.threshold, found


def _scan_in_processes(distinct: list[str], processes: int, compact: bool) -> dict[str, Any]:
    """The texts in ``processes`` slices, each scanned by a worker process (a ScanAhead
    taken at once); the caller's process stays free for its own work (an import writes
    the previous batch meanwhile)."""
    size = -(-len(distinct) // processes)
    ahead = ScanAhead(processes)
    for i in range(0, len(distinct), size):
        ahead.submit(distinct[i : i + size])
    return ahead.take(distinct, compact)


def _worker_pool(workers: int) -> ProcessPoolExecutor:
    """Scanner processes, started once (spawned: the caller has threads) and kept; each
    loads the learned artifact this process loaded. reload_learned retires them."""
    global _POOL
    if _POOL is None or _POOL[0] != workers:
        _retire_pool()
        _POOL = (
            workers,
            ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start, initargs=(_LEARNED_FROM,)
            ),
        )
    return _POOL[1]


def warm_pool(processes: int) -> None:
    """Start scan_many's worker processes now, without waiting for them: each takes
    over a second to start (an interpreter, numpy, the learned artifact), which a
    caller hides behind work of its own (an import reading its file) instead of
    paying it at its first large batch. A no-op when processes is 1."""
    if processes > 1:
        pool = _worker_pool(processes)
        for _ in range(processes):
            pool.submit(int)  # the pool starts a process per task it cannot hand to an idle one


_WORKER_NICENESS = 10
"""How much lower the scanner processes' CPU priority is than their caller's. Their
work is a batch's verdicts, ahead of when they are needed; the caller (an import
writing the previous batch, the app's loop) waits on its own work first. Measured on 2
cores, a 100k-line import: 11.6-11.9 s with it against 13.0 s without."""


def _worker_start(folder: Path) -> None:
    """In a scanner process: load the caller's learned artifact, exit when the caller
    dies (a killed import must not leave its workers behind), and yield the CPU to it."""
    reload_learned(folder)
    exit_with_parent()
    with contextlib.suppress(OSError, AttributeError):  # allowed to anyone on POSIX; no os.nice elsewhere
        os.nice(_WORKER_NICENESS)


def _retire_pool() -> None:
    global _POOL
    if _POOL is not None:
        _POOL[1].shutdown(wait=False)
        _POOL = None


_RULES_ONLY = ScanResult(blocked=False, layer="rules")
"""The clean verdict while the learned layer is off: only the rules ran."""


def _learned_scores(model: "LearnedModel", texts: list[str]) -> list[float]:
    """The layer's scores for many texts; its batched ``score_many`` when it has one,
    else one ``score`` per text (the same numbers, slower)."""
    score_many = getattr(model, "score_many", None)
    if score_many is not None:
        return [float(score) for score in score_many(texts)]
    return [model.score(text)[0] for text in texts]


def _scan_learned(content: str) -> ScanResult:
    """The learned layer's verdict on content the rules passed."""
    model, _ = _learned()
    if model is None:
        return _RULES_ONLY
    seen = learned_text(content)
    return _whole(model.threshold, _learned_compact(model, seen, model.score(seen)[0]))


def _whole(threshold: Optional[float], verdict: Any) -> ScanResult:
    """A compact verdict (:func:`_scan_compact`) whole, given the threshold of the layer that scored it."""
    if isinstance(verdict, ScanResult):
        return verdict
    if verdict is None:
        return _RULES_ONLY
    return ScanResult(blocked=False, layer="learned", score=verdict, threshold=threshold)


def _learned_compact(model: "LearnedModel", seen: str, score: float) -> "ScanResult | float":
    """Clean below the threshold (the score alone); a block names the n-grams that weighed most."""
    score = round(score, 4)
    if score < model.threshold:
        return score
    top = tuple(model.top_ngrams(model.score(seen)[1]))
    return ScanResult(
        blocked=True,
        reason="learned_injection",
        family="learned",
        pattern=f"score {score:.2f} >= threshold {model.threshold:.2f}",
        matched=" · ".join(top) or None,
        layer="learned",
        score=score,
        threshold=model.threshold,
        top_ngrams=top,
    )
