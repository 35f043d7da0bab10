"""Keyset paging (engine/paging.py) against the OFFSET reads it replaces: for every sort
column, direction and filter the browser offers, on a store full of ties, a forward
walk, a backward walk from the end and a seek through the key ladder return exactly
the rows, in exactly the order, that `list_entries` with LIMIT/OFFSET does."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EntryFilter, MemoryEngine, MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel, Settings
from engine.paging import SORTABLE

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
WORDS = ["deploy", "cache", "ports", "queue", "lint"]
TAGS = ["alpha", "beta", "gamma"]
SESSIONS = ["s1", "s2", ""]


def tied_entries(n: int, seed: int = 3, prefix: str = "a") -> list[tuple[dict, MemoryEntry]]:
    """Few distinct values per column, so every sort has long runs of ties (keys are unique:
    a key names one entry)."""
    rng = random.Random(seed)
    days = [NOW - timedelta(days=d) for d in (1, 5, 30)]
    out = []
    for i in range(n):
        created = rng.choice(days)
        out.append(
            (
                {"n": i},
                MemoryEntry(
                    key=f"{prefix}/{rng.choice(WORDS)}/{i}",
                    content=f"{rng.choice(WORDS)} note {i}",
                    type=rng.choice(list(MemoryType)),
                    tier=rng.choice([MemoryTier.SEMANTIC, MemoryTier.ARCHIVAL]),
                    tags=[rng.choice(TAGS)],
                    source_session=rng.choice(SESSIONS),
                    created_at=created,
                    updated_at=rng.choice(days),
                    last_accessed=rng.choice(days),
                    importance=rng.choice([0.2, 0.5, 0.8]),
                    access_count=rng.choice([0, 1, 2]),
                    source=rng.choice(list(ProvenanceLevel)),
                    pinned=rng.random() < 0.2,
                ),
            )
        )
    return out


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """One store and one loop for all examples (reads never change it)."""
    loop = asyncio.new_event_loop()
    path = tmp_path_factory.mktemp("paging") / "memory.db"
    engine = loop.run_until_complete(MemoryEngine.open(path, Settings.defaults(), clock=lambda: NOW, actor="user"))
    report = loop.run_until_complete(engine.import_entries(tied_entries(240), actor="test", verbatim=True, trust_provenance=True))
    assert loop.run_until_complete(engine.count_entries()) == 240, report
    yield loop, engine
    loop.run_until_complete(engine.close())
    loop.close()


FILTERS = st.builds(
    EntryFilter,
    tier=st.sampled_from([None, MemoryTier.SEMANTIC, MemoryTier.ARCHIVAL]),
    type=st.sampled_from([None, *MemoryType]),
    source=st.sampled_from([None, *ProvenanceLevel]),
    pinned=st.sampled_from([None, True, False]),
    text=st.sampled_from([None, *WORDS]),
    tag=st.sampled_from([None, *TAGS]),
    session=st.sampled_from([None, "s1", "s2"]),
    origin=st.sampled_from([None, "import", "person"]),
)


def ids(entries) -> list[str]:
    return [e.id for e in entries]


async def offset_pages(engine, flt, sort, desc, size) -> list[str]:
    out, offset = [], 0
    while True:
        page = await engine.list_entries(flt, order_by=sort, descending=desc, limit=size, offset=offset)
        out += ids(page)
        if len(page) < size:
            return out
        offset += size


async def forward_pages(engine, flt, sort, desc, size, matching) -> list[str]:
    out, anchor = [], None
    while True:
        page = await engine.page_entries(flt, sort, desc, size, anchor=anchor, matching=matching)
        out += ids(page.entries)
        if len(page.entries) < size:
            return out
        anchor = page.last


async def backward_pages(engine, flt, sort, desc, size, matching) -> list[str]:
    out, anchor = [], None
    while True:
        page = await engine.page_entries(flt, sort, desc, size, anchor=anchor, backward=True, matching=matching)
        out = ids(page.entries) + out
        if len(page.entries) < size:
            return out
        anchor = page.first


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    flt=FILTERS,
    sort=st.sampled_from(SORTABLE),
    desc=st.booleans(),
    size=st.integers(1, 40),
    step=st.integers(1, 30),
    matching=st.sampled_from([None, 10**6]),  # 10**6: reads pinned to the sort column's index
    data=st.data(),
)
def test_keyset_reads_return_what_offset_reads_return(store, flt, sort, desc, size, step, matching, data):
    loop, engine = store

    async def check() -> None:
        expected = await offset_pages(engine, flt, sort, desc, size)
        assert ids(await engine.list_entries(flt, order_by=sort, descending=desc)) == expected
        assert await forward_pages(engine, flt, sort, desc, size, matching) == expected
        assert await backward_pages(engine, flt, sort, desc, size, matching) == expected
        # any row through the ladder: seek from the rung below it, skip fewer than `step`
        ladder = await engine.key_ladder(flt, sort, desc, step, matching)
        assert len(ladder) == len(expected) // step
        if expected:
            row = data.draw(st.integers(0, len(expected) - 1), label="row")
            rung, skip = divmod(row, step)
            anchor = ladder[rung - 1] if rung else None
            page = await engine.page_entries(flt, sort, desc, size, anchor=anchor, skip=skip, matching=matching)
            assert ids(page.entries) == expected[row : row + size]

    loop.run_until_complete(check())


def test_no_sort_column_can_hold_null(store):
    """Keyset order needs a value in every row: the schema refuses NULL in each sortable column
    (if one ever becomes nullable, paging must place NULLs the way ORDER BY does)."""
    loop, engine = store
    columns = loop.run_until_complete(engine.store.fetchall("PRAGMA table_info(entries)"))
    notnull = {name: bool(nn) for _cid, name, _type, nn, _default, _pk in columns}
    assert {c: notnull[c] for c in SORTABLE} == {c: True for c in SORTABLE}


@pytest.mark.parametrize("sort", SORTABLE)
async def test_rows_written_between_page_reads_appear_once_in_order(engine, sort):
    """A live store: between two page reads another writer adds rows. The walk never
    repeats or loses a row it could have seen; a new row appears iff it sorts after
    the key the next read starts from (OFFSET paging would repeat a row here)."""
    await engine.import_entries(tied_entries(60, seed=5), actor="test", verbatim=True, trust_provenance=True)
    first = await engine.page_entries(None, sort, True, 25)
    await engine.import_entries(tied_entries(30, seed=9, prefix="b"), actor="test", verbatim=True, trust_provenance=True)
    after = ids(await engine.list_entries(None, order_by=sort, descending=True))
    walked = ids(first.entries)
    anchor = first.last
    while True:
        page = await engine.page_entries(None, sort, True, 25, anchor=anchor)
        walked += ids(page.entries)
        if len(page.entries) < 25:
            break
        anchor = page.last
    assert len(walked) == len(set(walked))  # no row twice
    cut = after.index(first.entries[-1].id)
    assert walked[25:] == after[cut + 1 :]  # everything after the anchor, new rows included, in order
