"""Rebuilding the lexical index (and the text hashes) from the entries table.

    lexical, hashes = await rebuild_lexical(store)

Serially, the next page is read while the current one is cut. Why worker processes:
reading and cutting a million texts (rows, text hashes, bulk_tokens.py) is still
~11 s of one core under load (it was ~20 s before the byte tokenizer). For a large
store, with workers on (WORKERS below), slices of the table (by rowid) are read and
cut in spawned worker processes, each with its own read-only connection, while this
process adds the finished slices to one LexicalBuilder in rowid order: the index
equals the one built here serially (a test checks). Rows committed while the
workers read are harmless: the caller took the change_log watermark first, and
the replay after it brings every entry to its current row. If the workers cannot
be used (the file cannot be opened read-only, a process cannot start) the build
runs here instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import sqlite3
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import AsyncGenerator, Optional

import numpy as np

from ..worker_exit import exit_with_parent
from .heap import release_free_memory
from .lexical import SUPERSEDED, LexicalBuilder, LexicalIndex, bulk_tokenize_ids
from .tokenize import entry_text

log = logging.getLogger(__name__)

SELECT = "id, key, content, tags, superseded_by"
SLICE_ROWS = 50_000  # entries per slice (one worker job, or one page read here)
PARALLEL_MIN_ROWS = 50_000  # below this a worker's start (~0.7 s) costs more than it saves
# Off by default (1): measured on this 2-core machine under other load, the workers
# lost to the serial build (200k entries, load ~3.5: 11.6 s against 6.6 s; the parent
# spent 0.8 CPU-s against 4.8, but two workers and their spawn share the cores with
# everything else). ECHO_MEMORY_INDEX_WORKERS=2 turns them on for an idle machine.
WORKERS = max(1, int(os.environ.get("ECHO_MEMORY_INDEX_WORKERS", "1")))


def text_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def entry_flags(superseded_by: Optional[str]) -> int:
    return SUPERSEDED if superseded_by else 0


@dataclass
class Slice:
    """Entries cut into tokens: what a worker sends back (numpy arrays pickle cheaply)."""

    ids: list[str]
    hashes: np.ndarray  # uint64 text_hash per entry
    flags: np.ndarray  # uint8
    terms: list[str]
    doc: np.ndarray  # per token occurrence: index into ids
    tid: np.ndarray  # per token occurrence: index into terms


def cut(rows: list[tuple], skip: int = 0) -> Slice:
    """(id, key, content, tags json, superseded_by) rows (after `skip` leading
    columns) -> their tokens and text hashes."""
    ids = [r[skip] for r in rows]
    texts = [entry_text(r[skip + 1], r[skip + 2], json.loads(r[skip + 3]) if r[skip + 3] != "[]" else []) for r in rows]
    hashes = np.fromiter(map(text_hash, texts), np.uint64, len(texts))
    flags = np.fromiter((entry_flags(r[skip + 4]) for r in rows), np.uint8, len(rows))
    terms, doc, tid = bulk_tokenize_ids(texts)
    return Slice(ids, hashes, flags, terms, doc.astype(np.int32), tid.astype(np.int32))


def _read_slice(uri: str, lo: int, hi: int) -> Slice:
    """In a worker: the entries with lo < rowid <= hi, read-only, cut."""
    con = sqlite3.connect(uri, uri=True)
    try:
        rows = con.execute(
            f"SELECT {SELECT} FROM entries WHERE rowid > ? AND rowid <= ? AND tier != 'working' ORDER BY rowid", (lo, hi)
        ).fetchall()
    finally:
        con.close()
    return cut(rows)


async def _serial_slices(store) -> AsyncGenerator[Slice, None]:
    """Pages of the table cut in threads: while the caller adds one slice, the next
    page is cut and the one after it read (SQLite and numpy release the GIL for much
    of their work, so the three overlap on two cores)."""

    async def page(after: int) -> list[tuple]:
        return await store.fetchall(
            f"SELECT rowid, {SELECT} FROM entries WHERE rowid > ? AND tier != 'working' ORDER BY rowid LIMIT {SLICE_ROWS}",
            (after,),
        )

    ahead = asyncio.ensure_future(page(0))
    cutting: Optional[asyncio.Future[Slice]] = None
    nxt: Optional[asyncio.Future[Slice]] = None
    try:
        while True:
            rows = await ahead
            nxt = None
            if rows:
                ahead = asyncio.ensure_future(page(rows[-1][0]))
                nxt = asyncio.ensure_future(asyncio.to_thread(cut, rows, 1))
            if cutting is not None:
                yield await cutting
            if nxt is None:
                return
            cutting = nxt
    finally:  # a caller that stops early leaves no cut to report a lost exception
        ahead.cancel()
        for job in (cutting, nxt):
            if job is not None:
                job.cancel()


async def _parallel_slices(path: Path, count: int, top: int, workers: int) -> AsyncGenerator[Slice, None]:
    """Every slice submitted at once, awaited in rowid order."""
    uri = path.resolve().as_uri() + "?mode=ro"
    width = max(1, -(-SLICE_ROWS * top // max(count, 1)))
    ctx = multiprocessing.get_context("spawn")  # the caller has threads: never fork
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=exit_with_parent)
    try:
        futures = [pool.submit(_read_slice, uri, lo, lo + width) for lo in range(0, top, width)]
        for fut in futures:
            yield await asyncio.wrap_future(fut)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


async def rebuild_lexical(
    store, workers: int = WORKERS, parallel_min: int = PARALLEL_MIN_ROWS
) -> tuple[LexicalIndex, dict[str, int]]:
    """The lexical index and text hashes of every non-working entry; cut in `workers`
    processes when the store has at least parallel_min entries, else here."""
    count, top = await store.fetchone("SELECT count(*), COALESCE(max(rowid), 0) FROM entries")
    if workers > 1 and count >= parallel_min and str(store.path) != ":memory:":
        try:
            return await _build(_parallel_slices(Path(store.path), count, top, workers))
        except (OSError, sqlite3.Error, BrokenProcessPool) as exc:
            log.warning("index workers failed (%s); building the index in this process", exc)
    return await _build(_serial_slices(store))


async def _build(slices: AsyncGenerator[Slice, None]) -> tuple[LexicalIndex, dict[str, int]]:
    builder = LexicalBuilder()
    hashes: dict[str, int] = {}

    def add(s: Slice) -> None:
        builder.add_tokens(s.ids, s.terms, s.doc, s.tid, s.flags)
        hashes.update(zip(s.ids, s.hashes.tolist()))
        release_free_memory()  # the previous slice's temporaries, before the next one grows the heap

    def finish() -> LexicalIndex:
        index = builder.finish()
        release_free_memory()  # the builder's pair arrays, before the vectors' int8 codes are made
        return index

    async with contextlib.aclosing(slices):  # a failure stops the workers at once
        async for s in slices:
            await asyncio.to_thread(add, s)
    return await asyncio.to_thread(finish), hashes
