"""The entry browser: a Line-API table that pages from the store.

The built-in DataTable needs every row up front (~12 s for 100k). This one
asks the store for a count, then for 100-row pages only when a line needs
drawing, keeps recent pages and rendered strips in LRU caches, and draws each
visible line with `render_line`, like Toolong does for logs. Opening on 100k
entries costs one count and one page; the whole list's first page is drawn before
its count arrives (the title says "counting…"), since at 1M entries, from a cold
disk, the count walks an index for ~0.9 s.

Pages are keyset reads (engine/paging.py), never OFFSET over the table: a page
next to a loaded one seeks from that page's edge key; the rows within a ladder step
(engine.ladder_step: 1,000, more in a list of over 200,000) of either end are read
from that end; any other row (a dragged scrollbar, a cursor kept deep in the list
across a reload) seeks from a key ladder, the key of every step-th row, read in one
index walk the first time it is needed for a sort and filter. The ladder beats
count-then-seek: SQLite cannot count an index range without walking it, so each seek
would cost a scan anyway.

Why so long: one widget, one job (a virtual table over the store); its paging, caches
and line rendering share the page and cursor state, and the column table is data.
"""

from __future__ import annotations

import asyncio
from dataclasses import astuple, dataclass
from datetime import datetime
from typing import Any, Callable, Optional

from rich.cells import set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events, work
from textual.cache import LRUCache
from textual.geometry import Size
from textual.markup import escape
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from engine import EntryFilter, MemoryEntry, MemoryTier, MemoryType, ladder_step

from .. import keys, lagprobe
from ..failures import ENGINE_FAILURES
from ..format import PROVENANCE, TIER_COLOURS, age
from ..messages import EntryHighlighted

PAGE_SIZE = 100
UNCOUNTED = 1 << 62
"""The row count given for a list not counted yet: "large", so its first page is read
through the sort column's index (engine.page_entries' `matching`), as a whole unfiltered
list of any size can be."""


@dataclass(frozen=True)
class Column:
    name: str
    title: str
    width: int  # 0: takes the remaining width
    sort: Optional[str] = None
    right: bool = False


KEY_WIDTH, MIN_KEY_WIDTH = 22, 12
# In a narrow browser these columns are dropped, in this order, to keep the content readable
# (where an entry came from, the widest, shows only when every column fits; the detail always has it).
DROP_ORDER = ("origin", "access_count", "version", "eff", "source", "type", "importance")
COLUMNS: tuple[Column, ...] = (
    Column("pin", "", 2),
    Column("key", "key", KEY_WIDTH, "key"),
    Column("content", "content", 0),
    Column("tier", "tier", 4, "tier"),
    Column("type", "type", 4, "type"),
    Column("source", "prov", 4, "source"),
    Column("origin", "from", 15),
    Column("importance", "imp", 4, "importance", right=True),
    Column("eff", "eff", 4, None, right=True),
    Column("version", "v", 3, "version", right=True),
    Column("access_count", "acc", 4, "access_count", right=True),
    Column("updated_at", "upd", 5, "updated_at", right=True),
)
SORT_CYCLE = (
    "updated_at",
    "key",
    "importance",
    "access_count",
    "last_accessed",
    "created_at",
    "tier",
    "type",
    "source",
    "version",
)
SORT_LABELS = {
    "updated_at": "updated",
    "last_accessed": "last access",
    "access_count": "access count",
    "created_at": "created",
    "source": "provenance",
}


@dataclass(frozen=True)
class Row:
    entry: MemoryEntry
    eff: float
    origin: str = ""  # who wrote this version: person, mcp:claude-code, sync:hermes…


@dataclass(frozen=True)
class Loaded:
    """A page's rows and the keys at its edges, where the pages beside it seek from."""

    rows: list[Row]
    first: Any
    last: Any


@dataclass(frozen=True)
class Query:
    flt: EntryFilter
    sort: str
    descending: bool


def describe_filter(flt: EntryFilter) -> str:
    parts = []
    if flt.tier is not None:
        parts.append(f"tier={flt.tier.label}")
    if flt.type is not None:
        parts.append(f"type={flt.type.label}")
    if flt.source is not None:
        parts.append(f"prov={flt.source.label}")
    if flt.origin:
        parts.append(f"from={flt.origin}")
    if flt.tag:
        parts.append(f"tag={flt.tag}")
    if flt.session:
        parts.append(f"session={flt.session}")
    if flt.pinned is not None:
        parts.append("pinned" if flt.pinned else "not pinned")
    if flt.text:
        parts.append(f"“{flt.text}”")
    return " ".join(parts)


class EntryBrowser(ScrollView, can_focus=True):
    """Every entry matching the filter, one per line, paged from the store."""

    BINDINGS = keys.bindings("browser")

    COMPONENT_CLASSES = {
        "entry-browser--header",
        "entry-browser--cursor",
        "entry-browser--cursor-blur",
        "entry-browser--dim",
        "entry-browser--superseded",
        "entry-browser--loading",
        "entry-browser--sorted",
    }

    DEFAULT_CSS = """
    EntryBrowser { overflow-x: hidden; }
    EntryBrowser > .entry-browser--header { text-style: bold; background: $panel; color: $text; }
    EntryBrowser > .entry-browser--sorted { text-style: bold underline; background: $panel; color: $accent; }
    EntryBrowser > .entry-browser--cursor { background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold; }
    EntryBrowser > .entry-browser--cursor-blur { background: $block-cursor-blurred-background; }
    EntryBrowser > .entry-browser--dim { color: $text-muted; }
    EntryBrowser > .entry-browser--superseded { color: $text-disabled; }
    EntryBrowser > .entry-browser--loading { color: $text-disabled; text-style: italic; }
    """

    cursor: reactive[int] = reactive(0, init=False)
    total: reactive[int] = reactive(-1, init=False)
    sort: reactive[str] = reactive("updated_at", init=False)
    descending: reactive[bool] = reactive(True, init=False)

    class Reloaded(Message):
        """A reload's rows; total None: the first page of a list still being counted."""

        def __init__(self, generation: int, total: Optional[int], pages: dict[int, Loaded], cursor: int) -> None:
            super().__init__()
            self.generation = generation
            self.total = total
            self.pages = pages
            self.cursor = cursor

    class PageLoaded(Message):
        def __init__(self, generation: int, page: int, loaded: Loaded) -> None:
            super().__init__()
            self.generation = generation
            self.page = page
            self.loaded = loaded

    class Failed(Message):
        def __init__(self, error: str) -> None:
            super().__init__()
            self.error = error

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.flt = EntryFilter()
        self._generation = 0  # bumped for every new query; stale results are dropped
        self._pages_gen = 0  # the generation the cached pages belong to
        self._pages: LRUCache[int, Loaded] = LRUCache(400)
        self._ladder: Optional[tuple[int, asyncio.Task]] = None  # (generation, the ladder's read)
        self._strips: LRUCache[tuple, Strip] = LRUCache(2048)
        self._wanted: set[int] = set()
        self._inflight: set[tuple[int, int]] = set()
        self._fetch_scheduled = False
        self._settled: Optional[tuple[int, int]] = None  # (generation, top) last noted as drawn
        self._last_highlight: Optional[str] = "<none>"
        self._counts: dict[tuple, int] = {}  # a filter's fields -> its count, until the store changes
        self.counting = False  # the first page is drawn, the list's count is on its way
        self._bottom_after_count = False  # G pressed while counting: the last row once counted
        self._after_reload: list[Callable[[], None]] = []  # run once the reload's rows are drawn
        self.empty_hint = "No entries."
        self.error: Optional[str] = None
        self.marked: dict[str, MemoryEntry] = {}  # id -> the entry as marked, for a bulk action

    # ---- public --------------------------------------------------------------------
    @property
    def engine(self) -> Any:
        return self.app.engine

    @property
    def now(self) -> datetime:
        return self.app.clock()

    def current_entry(self) -> Optional[MemoryEntry]:
        row = self.row_at(self.cursor)
        return row.entry if row else None

    def row_at(self, index: int) -> Optional[Row]:
        if index < 0 or index >= max(0, self.total):
            return None
        # While a reload is in flight the last applied rows stay on screen (no flicker).
        page = self._pages.get(index // PAGE_SIZE)
        if page is None:
            return None
        offset = index % PAGE_SIZE
        return page.rows[offset] if offset < len(page.rows) else None

    def set_filter(self, flt: EntryFilter, select: Optional[str] = None) -> None:
        """A new filter drops the marks: a bulk action only ever acts on rows the filter shows."""
        self.flt = flt
        self.marked.clear()
        self.reload(keep=False, select=select)

    def set_marks(self, entries: list[MemoryEntry]) -> None:
        self.marked = {e.id: e for e in entries}
        self._update_titles()
        self.refresh()

    def action_toggle_mark(self) -> None:
        """space: mark or unmark the row under the cursor and move down, as in a file manager."""
        entry = self.current_entry()
        if entry is None:
            return
        if self.marked.pop(entry.id, None) is None:
            self.marked[entry.id] = entry
        self._update_titles()
        self.refresh()
        self.action_cursor_down()

    def reload(self, keep: bool = True, select: Optional[str] = None) -> None:
        """Fetch the count and the visible pages again (see fetch in _reload). With keep (a reload in place: the
        store changed), the cursor stays on the same entry (or moves to `select`, a write's
        new head) if it is in view, else on the same row, and every remembered count is
        dropped. Otherwise (a sort, a filter) a count taken since the last change is
        reused: at 1M entries each is a ~0.1 s index pass."""
        if self.engine is None:
            return
        if keep or select is not None:
            self._counts.clear()
        known = self._counts.get(astuple(self.flt))
        self._generation += 1
        keep_id = select
        if keep and select is None:
            entry = self.current_entry()
            # mid-reload the rows are stale: the last highlighted id still names the cursor's entry
            keep_id = entry.id if entry else (self._last_highlight if self._last_highlight != "<none>" else None)
        cursor = self.cursor if keep else 0
        top = int(self.scroll_y) if keep else 0
        query = Query(self.flt, self.sort, self.descending)
        self._reload(self._generation, query, keep_id, cursor, top, max(1, self.size.height - 1), known)

    def reloading(self) -> bool:
        """A reload (a new filter or sort, a change to the store) is on its way."""
        return self.total >= 0 and self._pages_gen != self._generation and self.error is None

    def after_reload(self, callback: Callable[[], None]) -> None:
        """Run callback once the reload in flight has its rows drawn (or failed)."""
        self._after_reload.append(callback)

    def _run_after_reload(self) -> None:
        callbacks, self._after_reload = self._after_reload, []
        for callback in callbacks:
            self.call_after_refresh(callback)

    # ---- workers -------------------------------------------------------------------
    async def _fetch_page(
        self, engine: Any, generation: int, q: Query, page: int, total: int, known: dict[int, Loaded]
    ) -> Loaded:
        """Rows page*PAGE_SIZE… by the cheapest seek: from a loaded neighbour's edge, from
        either end of the list, else from the key ladder."""
        start = page * PAGE_SIZE
        limit = max(0, min(PAGE_SIZE, total - start))
        step = ladder_step(total)
        before, after = known.get(page - 1), known.get(page + 1)
        seek: dict[str, Any]
        if before is not None and before.last is not None:
            seek = {"anchor": before.last}
        elif after is not None and after.first is not None:
            seek = {"anchor": after.first, "backward": True}
        elif start < step:
            seek = {"skip": start}
        elif total - start <= step:
            seek = {"backward": True, "skip": total - start - limit}
        else:
            ladder = await self._ladder_for(engine, generation, q, total, step)
            rung = min(start // step, len(ladder))
            seek = {"anchor": ladder[rung - 1] if rung else None, "skip": start - rung * step}
        got = await engine.page_entries(q.flt, q.sort, q.descending, limit, matching=total, **seek)
        entries = got.entries
        origins = await engine.entry_origins(e.id for e in entries)  # the page's in one query
        rows = [Row(e, engine.effective_importance(e), origins[e.id].origin if e.id in origins else "") for e in entries]
        return Loaded(rows, got.first, got.last)

    async def _ladder_for(self, engine: Any, generation: int, q: Query, total: int, step: int) -> list:
        """The key ladder for this generation, read once and shared by every page that needs it
        (shielded: a cancelled page load does not cancel the others' read)."""
        held = self._ladder
        failed = held is not None and held[1].done() and (held[1].cancelled() or held[1].exception() is not None)
        if held is None or held[0] != generation or failed:  # a failed read is tried again
            read = engine.key_ladder(q.flt, q.sort, q.descending, step, matching=total)
            self._ladder = (generation, asyncio.ensure_future(read))
        return await asyncio.shield(self._ladder[1])

    @work(exclusive=True, group="browser-reload")
    async def _reload(
        self, generation: int, q: Query, keep_id: Optional[str], cursor: int, top: int, height: int, known: Optional[int]
    ) -> None:
        engine = self.engine

        async def fetch() -> tuple[int, int, dict[int, Loaded]]:
            pages: dict[int, Loaded] = {}
            total = known
            if total is None and keep_id is None and cursor == 0 and top == 0 and not q.flt.where()[0]:
                # The whole list from its top: its first page before its count, which walks
                # an index (at 1M entries, from a cold disk, ~0.9 s). A page that is not
                # full is the whole list.
                pages[0] = head = await self._fetch_page(engine, generation, q, 0, UNCOUNTED, pages)
                if len(head.rows) < PAGE_SIZE:
                    total = len(head.rows)
                else:
                    self.post_message(self.Reloaded(generation, None, dict(pages), 0))
            if total is None:
                total = await engine.count_entries(q.flt)
            at = max(0, min(cursor, total - 1))
            first = max(0, min(top, max(0, total - height)))
            needed = sorted({first // PAGE_SIZE, (first + height) // PAGE_SIZE, at // PAGE_SIZE})
            for p in needed:
                if p not in pages and p * PAGE_SIZE < max(total, 1):
                    pages[p] = await self._fetch_page(engine, generation, q, p, total, pages)
            return total, at, pages

        try:
            total, cursor, pages = await self.app.retry_busy(fetch)  # another process's import: wait
        except ENGINE_FAILURES as exc:  # shown in place; the app keeps running
            self.post_message(self.Failed(f"{type(exc).__name__}: {exc}"))
            return
        if keep_id is not None:
            for page, loaded in pages.items():
                for i, row in enumerate(loaded.rows):
                    if row.entry.id == keep_id:
                        cursor = page * PAGE_SIZE + i
        self.post_message(self.Reloaded(generation, total, pages, cursor))

    @work(group="browser-page")
    async def _load_page(self, generation: int, page: int, q: Query, total: int) -> None:
        engine = self.engine

        def known() -> dict[int, Loaded]:  # this generation's pages beside it, as they are now
            if self._pages_gen != generation:
                return {}
            return {p: loaded for p in (page - 1, page + 1) if (loaded := self._pages.get(p)) is not None}

        try:
            loaded = await self.app.retry_busy(lambda: self._fetch_page(engine, generation, q, page, total, known()))
        except ENGINE_FAILURES as exc:
            self.post_message(self.Failed(f"{type(exc).__name__}: {exc}"))
            return
        finally:
            self._inflight.discard((generation, page))
        self.post_message(self.PageLoaded(generation, page, loaded))

    # ---- message handlers ------------------------------------------------------------
    def on_entry_browser_reloaded(self, message: Reloaded) -> None:
        message.stop()
        if message.generation != self._generation:
            return
        self.error = None
        was_counting = self.counting and self._pages_gen == message.generation
        at_bottom = was_counting and self._bottom_after_count and self.cursor == self.total - 1
        self._pages.clear()
        for page, loaded in message.pages.items():
            self._pages[page] = loaded
        self._pages_gen = message.generation
        self._strips.clear()
        self.counting = message.total is None
        total = len(message.pages[0].rows) if message.total is None else message.total
        if message.total is not None:
            self._counts[astuple(self.flt)] = total
        self.total = total
        self.virtual_size = Size(self.size.width, total + 1)
        if was_counting:  # keys pressed while the count was on its way still count: G goes to the end
            self.set_cursor(total - 1 if at_bottom else self.cursor, force=True)
        else:
            self.set_cursor(message.cursor, force=True)
        if not self.counting:
            self._bottom_after_count = False
        self.refresh()
        mark = getattr(self.app, "mark", None)
        if mark is not None:
            self.call_after_refresh(mark, "first_rows")
        self._check_settled()
        if not self.counting:
            self._run_after_reload()

    def on_entry_browser_page_loaded(self, message: PageLoaded) -> None:
        message.stop()
        if message.generation != self._generation or self._pages_gen != self._generation:
            return
        self._pages[message.page] = message.loaded
        self.refresh()
        self._post_highlight()
        self._check_settled()

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self._check_settled()

    def rows_ready(self) -> bool:
        """Every visible row has the current query's data: no placeholder, no stale rows."""
        if self.total < 0 or self._pages_gen != self._generation or self.counting:
            return False
        top = int(self.scroll_y)
        end = min(self.total, top + max(1, self.size.height - 1))
        return all(self.row_at(i) is not None for i in range(top, end))

    def _check_settled(self) -> None:
        """Once the visible rows are ready, note it after the repaint (the bench's 'settled')."""
        state = (self._generation, int(self.scroll_y))
        if state != self._settled and self.rows_ready():
            self._settled = state
            self.call_after_refresh(lagprobe.note, "rows_settled", top=state[1], total=self.total)

    def on_entry_browser_failed(self, message: Failed) -> None:
        message.stop()
        self.error = message.error
        self.app.notify(message.error, title="Could not list entries", severity="error")
        self.refresh()
        self._run_after_reload()

    # ---- cursor ---------------------------------------------------------------------
    def set_cursor(self, index: int, force: bool = False) -> None:
        index = max(0, min(index, self.total - 1)) if self.total > 0 else 0
        if index != self.cursor:
            self.cursor = index
        elif force:
            self.watch_cursor()
        self._post_highlight()

    def watch_cursor(self) -> None:
        body = max(1, self.size.height - 1)
        if self.cursor < self.scroll_y:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= self.scroll_y + body:
            self.scroll_to(y=self.cursor - body + 1, animate=False)
        self.refresh()
        self._post_highlight()
        self._update_titles()

    def watch_total(self) -> None:
        self._update_titles()

    def _update_titles(self) -> None:
        parent = self.parent
        if parent is None:
            return
        sort = SORT_LABELS.get(self.sort, self.sort)
        arrow = "↓" if self.descending else "↑"
        of = "counting…" if self.counting else f"{max(0, self.total):,}"
        shown = f"{self.cursor + 1 if self.total > 0 else 0} / {of}"
        marks = f" · {len(self.marked):,} marked" if self.marked else ""
        parent.border_subtitle = f"{shown}{marks} · {arrow} {sort}"
        described = escape(describe_filter(self.flt))
        parent.border_title = "Entries" + (f" · {described}" if described else "")

    def _post_highlight(self) -> None:
        row = self.row_at(self.cursor)
        entry_id = row.entry.id if row else None
        if row is None and self.total > 0:
            return  # its page is on the way
        if entry_id != self._last_highlight:
            self._last_highlight = entry_id
            self.post_message(EntryHighlighted(entry_id))

    def action_cursor_down(self) -> None:
        self.set_cursor(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.set_cursor(self.cursor - 1)

    def action_cursor_top(self) -> None:
        self.set_cursor(0)

    def action_cursor_bottom(self) -> None:
        self._bottom_after_count = self.counting
        self.set_cursor(self.total - 1)

    def action_page_down(self) -> None:
        self.set_cursor(self.cursor + max(1, self.size.height - 2))

    def action_page_up(self) -> None:
        self.set_cursor(self.cursor - max(1, self.size.height - 2))

    def action_cycle_sort(self) -> None:
        i = SORT_CYCLE.index(self.sort) if self.sort in SORT_CYCLE else -1
        self.sort_by(SORT_CYCLE[(i + 1) % len(SORT_CYCLE)])

    def action_reverse_sort(self) -> None:
        self.descending = not self.descending
        self.reload(keep=False)
        self._update_titles()

    def sort_by(self, column: str) -> None:
        if column == self.sort:
            self.descending = not self.descending
        else:
            self.sort = column
            self.descending = column not in ("key", "tier", "type")
        self.reload(keep=False)
        self._update_titles()

    # ---- mouse ------------------------------------------------------------------------
    def on_click(self, event: events.Click) -> None:
        if event.y == 0:
            column = self._column_at(event.x)
            if column is not None and column.sort:
                self.sort_by(column.sort)
            return
        self.set_cursor(int(self.scroll_y) + event.y - 1)

    def _column_at(self, x: int) -> Optional[Column]:
        for column, start, width in self._layout(self.scrollable_content_region.width):
            if start <= x < start + width + 1:
                return column
        return None

    # ---- rendering ---------------------------------------------------------------------
    def _layout(self, width: int) -> list[tuple[Column, int, int]]:
        """Columns that fit with the content column at least half the width: the
        least telling ones go first, then the key column narrows."""
        columns = list(COLUMNS)
        key_width = KEY_WIDTH

        def flex() -> int:
            return width - sum((key_width if c.name == "key" else c.width) + 1 for c in columns if c.width) - 1

        for name in DROP_ORDER:
            if flex() >= width // 2:
                break
            columns = [c for c in columns if c.name != name]
        if flex() < width // 2:
            key_width = max(MIN_KEY_WIDTH, key_width - (width // 2 - flex()))
        out, x = [], 0
        for column in columns:
            w = key_width if column.name == "key" else (column.width or max(8, flex()))
            out.append((column, x, w))
            x += w + 1
        return out

    def on_resize(self) -> None:
        self._strips.clear()
        self.virtual_size = Size(self.size.width, max(0, self.total) + 1)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        if y == 0:
            return self._header(width, base)
        index = int(self.scroll_y) + y - 1
        if self.total < 0:
            return self._message(width, base, "loading…" if y == 1 else "")
        if self.total == 0:
            text = (self.error or self.empty_text()) if y == 1 else ""
            return self._message(width, base, text)
        if index >= self.total:
            return Strip.blank(width, base)
        row = self.row_at(index)
        if row is None:
            self._want(index // PAGE_SIZE)
            style = base + self.get_component_rich_style("entry-browser--loading")
            return Strip([Segment(set_cell_size(f"  … row {index + 1:,}", width), style)], width)
        is_cursor = index == self.cursor
        key = (self._generation, index, row.entry.id, width, is_cursor, self.has_focus, row.entry.id in self.marked)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._render_row(row, width, base, is_cursor)
            self._strips[key] = strip
        return strip

    def empty_text(self) -> str:
        """An empty filtered list names the filter: it never reads as an empty store."""
        if self.flt.tier is MemoryTier.EPISODIC:
            return "No EPISODIC entries: episodes are listed in the Episodes view (5)."
        described = describe_filter(self.flt)
        if described:
            return f"No entries match the filter {described} (Esc clears it)."
        return self.empty_hint

    def _message(self, width: int, base: Style, text: str) -> Strip:
        style = base + self.get_component_rich_style("entry-browser--dim")
        return Strip([Segment(set_cell_size("  " + text if text else "", width), style)], width)

    def _header(self, width: int, base: Style) -> Strip:
        header = base + self.get_component_rich_style("entry-browser--header")
        sorted_style = base + self.get_component_rich_style("entry-browser--sorted")
        segments = []
        for column, _start, w in self._layout(width):
            title = column.title
            style = header
            if column.sort and column.sort == self.sort:
                title = title + ("↓" if self.descending else "↑")
                style = sorted_style
            cell = title.rjust(w) if column.right else title.ljust(w)
            segments.append(Segment(set_cell_size(cell, w), style))
            segments.append(Segment(" ", header))
        return Strip(segments).crop_extend(0, width, header)

    def _render_row(self, row: Row, width: int, base: Style, is_cursor: bool) -> Strip:
        e = row.entry
        now = self.now
        dim = base + self.get_component_rich_style("entry-browser--dim")
        line = base
        if e.superseded_by is not None:
            line = base + self.get_component_rich_style("entry-browser--superseded")
            dim = line
        cursor_style = None
        if is_cursor:
            cursor_style = self.get_component_rich_style(
                "entry-browser--cursor" if self.has_focus else "entry-browser--cursor-blur"
            )
        segments: list[Segment] = []
        for column, _start, w in self._layout(width):
            style = line
            name = column.name
            if name == "pin":
                text = "● " if e.pinned else ("↳ " if e.superseded_by else "  ")
                if e.pinned and not is_cursor:
                    style = line + Style(color="#f9a825", bold=True)
                if e.id in self.marked:
                    text, style = "✓" + text[0], style + Style(bold=True, reverse=True)
            elif name == "key":
                text = e.key
            elif name == "content":
                text = " ".join(e.content.split())
            elif name == "tier":
                text = e.tier.label[:4].upper()
                if not is_cursor:
                    style = line + Style(color=TIER_COLOURS.get(e.tier.label))
            elif name == "type":
                text = "USER" if e.type is MemoryType.USER else "ENV"
                style = dim if e.type is not MemoryType.USER else line
            elif name == "source":
                text = PROVENANCE[e.source.value][1]
                if not is_cursor:
                    style = line + PROVENANCE[e.source.value][2]
            elif name == "origin":
                text, style = row.origin, dim
            elif name == "importance":
                text = f"{e.importance:.2f}"[1:] if e.importance < 1 else "1.0"
            elif name == "eff":
                text = f"{row.eff:.2f}"[1:] if row.eff < 1 else "1.0"
                style = dim if row.eff < e.importance else line
            elif name == "version":
                text = str(e.version)
            elif name == "access_count":
                text = str(e.access_count)
            elif name == "updated_at":
                text = age(e.updated_at, now).replace("in ", "+")
                style = dim
            else:  # pragma: no cover
                text = ""
            cell = text.rjust(w) if column.right else text
            if cursor_style is not None:
                style = style + cursor_style
            segments.append(Segment(set_cell_size(cell, w), style))
            segments.append(Segment(" ", line + cursor_style if cursor_style else line))
        fill = line + cursor_style if cursor_style else line
        return Strip(segments).crop_extend(0, width, fill)

    # ---- lazy page requests -------------------------------------------------------------
    def _want(self, page: int) -> None:
        if self._pages_gen != self._generation:
            return  # a reload is in flight; it brings the visible pages
        self._wanted.add(page)
        if not self._fetch_scheduled:
            self._fetch_scheduled = True
            self.call_after_refresh(self._fetch_wanted)

    def _fetch_wanted(self) -> None:
        self._fetch_scheduled = False
        generation = self._generation
        wanted, self._wanted = self._wanted, set()
        for page in sorted(wanted):
            if (generation, page) in self._inflight or page in self._pages:
                continue
            self._inflight.add((generation, page))
            self._load_page(generation, page, Query(self.flt, self.sort, self.descending), self.total)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
