"""Keyset (seek) paging over entries, so reaching any row costs about the same at the
end of a million rows as at the start.

`LIMIT … OFFSET n` makes SQLite step over n rows; a seek starts from a remembered
(sort value, rowid) pair through the sort column's index (store.py's paging migrations)
and reads only the rows it returns. The order is always `column, rowid` in one
direction, so ties in the sort column (tier, type, importance…) have a total order
the index follows: SQLite ends every index entry with the rowid. Every sortable column
is NOT NULL in the schema, so there are no NULLs to place.

SQLite 3.40 seeks a one-column index for `(column, rowid) > (?, ?)` on the column alone
and then filters the ties row by row (a tier's 250,000 rows for a page in its middle), so
a seek is two ranges merged in order in one statement: the anchor's ties past its rowid
(`column = ? AND rowid > ?`, a seek on both), then the values past it (`column > ?`).

Reaching an arbitrary row (a dragged scrollbar) uses a key ladder: the key of every
`step`-th row, read once per sort and filter as a chain of seeks along the index; a
row is then a seek from the rung below it plus fewer than `step` skipped index entries.
:func:`ladder_step` spaces the rungs so a ladder has at most LADDER_RUNGS of them.

A row inserted between two page reads shows up in the next read if it sorts after the
key that read starts from, and never twice; a row deleted in between is simply absent.
(OFFSET paging instead repeats or skips a row at the page edge.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .errors import InvalidValue
from .models import MemoryEntry
from .store import COL, ENTRY_COLUMNS, Store, row_to_entry

SORTABLE = ("updated_at", "created_at", "key", "importance", "access_count", "last_accessed", "tier", "type", "source", "version")

# Below this many matching rows the planner may sort them (cheap); above it a read is
# pinned to the sort column's index so a page never sorts the whole filtered table.
SORT_SMALL = 2000

Key = tuple[Any, int]  # (raw sort-column value, rowid): where a seek starts

MIN_LADDER_STEP = 1000
LADDER_RUNGS = 200
"""At most this many rungs in a key ladder. Each rung is one read, a trip to the store's
thread (~0.15 ms; a cursor's execute, fetch and close made it three), on top of the index
walk every ladder makes once (~0.1 s per million rows): at a million rows 1,000 rungs took
0.50 s with a cursor each, 0.27 s with one trip each, and 200 take 0.15 s. A seek then
skips up to 5,000 index entries instead of 1,000, ~0.3 ms more."""


def ladder_step(total: int) -> int:
    """Rows between rungs for a list of `total` rows: MIN_LADDER_STEP, or as many as keep
    the ladder within LADDER_RUNGS rungs."""
    return max(MIN_LADDER_STEP, -(-total // LADDER_RUNGS))


@dataclass(frozen=True)
class Page:
    entries: list[MemoryEntry]
    first: Optional[Key]  # the keys of the first and last entry, to seek from next time
    last: Optional[Key]


def index_name(sort: str) -> str:
    return f"entries_page_{sort}"


def order_sql(sort: str, descending: bool) -> str:
    """The one display order: sort column, then rowid, both the same way (ties follow the index)."""
    direction = "DESC" if descending else "ASC"
    return f"{sort} {direction}, rowid {direction}"


def _walk_sql(
    columns: str, source: str, where: tuple[str, list[Any]], sort: str, reverse: bool, anchor: Optional[Key]
) -> tuple[str, list[Any]]:
    """SQL and parameters (LIMIT and OFFSET to append) of the rows in walk order: from the
    first, or past ``anchor``. Past an anchor (sort value, rowid) that is its ties past its
    rowid, then the values past it, two index ranges merged in order (see the module's
    docstring). ``columns`` starts with ``rowid AS seek_rowid`` and holds the sort column."""
    clause, params = where
    if anchor is None:
        return f"SELECT {columns} FROM {source}{clause} ORDER BY {order_sql(sort, reverse)} LIMIT ? OFFSET ?", list(params)
    past, direction = ("<", "DESC") if reverse else (">", "ASC")
    conditions = [clause[len(" WHERE ") :]] if clause else []
    ties, beyond = (
        f"SELECT {columns} FROM {source} WHERE " + " AND ".join([*conditions, seek])
        for seek in (f"{sort} = ? AND rowid {past} ?", f"{sort} {past} ?")
    )
    sql = f"{ties} UNION ALL {beyond} ORDER BY {sort} {direction}, seek_rowid {direction} LIMIT ? OFFSET ?"
    return sql, [*params, anchor[0], anchor[1], *params, anchor[0]]


def _check(sort: str) -> None:
    if sort not in SORTABLE:  # the column name goes into SQL: only these, ever
        raise InvalidValue(f"cannot sort by {sort!r}; choose one of {', '.join(SORTABLE)}")


def _source(sort: str, pinned: bool) -> str:
    return f"entries INDEXED BY {index_name(sort)}" if pinned else "entries"


async def read_page(
    store: Store,
    where: tuple[str, list[Any]],
    sort: str,
    descending: bool,
    limit: int,
    anchor: Optional[Key] = None,
    skip: int = 0,
    backward: bool = False,
    matching: Optional[int] = None,
) -> Page:
    """Up to `limit` rows in display order. Forward: the rows after `anchor` (from the
    first row without one), passing `skip` first. Backward: the rows before `anchor`
    (up to the last row without one), passing the `skip` nearest to it; still returned
    in display order. `matching`, the filter's row count if known, lets a large result
    read through the sort index instead of sorting."""
    _check(sort)
    reverse = descending != backward  # the direction this read walks the index
    source = _source(sort, matching is not None and matching >= SORT_SMALL)
    sql, args = _walk_sql(f"rowid AS seek_rowid, {ENTRY_COLUMNS}", source, where, sort, reverse, anchor)
    rows = list(await store.fetchall(sql, args + [limit, skip]))
    if backward:
        rows.reverse()
    at = COL[sort] + 1
    return Page(
        [row_to_entry(r[1:]) for r in rows],
        (rows[0][at], rows[0][0]) if rows else None,
        (rows[-1][at], rows[-1][0]) if rows else None,
    )


async def key_ladder(
    store: Store, where: tuple[str, list[Any]], sort: str, descending: bool, step: int, matching: Optional[int] = None
) -> list[Key]:
    """The keys of rows step-1, 2*step-1, … in display order: rung k is where a forward
    read of row k*step+j starts (anchor rung k-1, skip j). Each rung is a seek from the
    one before plus step-1 skipped keys, read from the sort column's index alone when the
    filter needs no other column: about as cheap as skipping the rows once, with no sort."""
    _check(sort)
    source = _source(sort, matching is not None and matching >= SORT_SMALL)
    rungs: list[Key] = []
    async with store.read() as conn:  # one trip to the connection's thread per rung, not a cursor's three
        while True:
            sql, args = _walk_sql(f"rowid AS seek_rowid, {sort}", source, where, sort, descending, rungs[-1] if rungs else None)
            rows = list(await conn.execute_fetchall(sql, [*args, 1, step - 1]))
            if not rows:
                return rungs
            rungs.append((rows[0][1], rows[0][0]))
