"""View 1, Memory: the tier pyramid, the entry browser with its `/` filter,
and the detail pane; the entry actions (pin, edit, archive, restore, purge)
live here so they work from the browser and the detail alike."""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static

from engine import InvalidValue, MemoryEntry, MemoryTier, parse_entry_filter

from .. import keys
from ..failures import ENGINE_FAILURES
from ..messages import EntryHighlighted, TierSelected
from .browser import EntryBrowser, describe_filter
from .detail import EntryDetail
from .lattice import VersionLattice
from .pyramid import TierPyramid

MAX_MARKED = 10_000  # mark all: beyond this the filter should narrow first
FILTER_HELP = "words · tier: type:user|env prov:user|cons|inferred|legacy tag: session: pinned"


class MemoryView(Widget):
    BINDINGS = keys.bindings("memory")

    DEFAULT_CSS = """
    MemoryView { layout: vertical; }
    MemoryView #memory-top { height: 1fr; min-height: 8; }
    MemoryView #pyramid-box { width: 34; border: round $primary-background; border-title-color: $text-accent; }
    MemoryView #pyramid-box:focus-within { border: round $accent; }
    MemoryView #browser-box { width: 1fr; border: round $primary-background; border-title-color: $text-accent;
                              border-subtitle-color: $text-muted; }
    MemoryView #browser-box:focus-within { border: round $accent; }
    MemoryView #detail-box { height: 1fr; min-height: 10; border: round $primary-background;
                             border-title-color: $text-accent; }
    MemoryView #detail-box:focus-within { border: round $accent; }
    MemoryView #filter-bar { height: auto; display: none; }
    MemoryView #filter-bar.-open { display: block; }
    MemoryView #filter { border: none; height: 1; padding: 0 1; background: $boost; }
    MemoryView #filter:focus { background: $primary-background; }
    MemoryView #filter.-invalid { background: $error 30%; }
    MemoryView #filter-error { color: $text-error; padding: 0 1; height: auto; display: none; }
    MemoryView #filter-error.-shown { display: block; }
    MemoryView #filter-help { color: $text-muted; padding: 0 1; height: 1; }
    MemoryView #store-error { display: none; color: $text-error; padding: 1 2; height: auto; }
    MemoryView.-failed #store-error { display: block; }
    """

    class FilterChanged(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.tier: Optional[str] = None
        self.filter_text = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="store-error")
        with Horizontal(id="memory-top"):
            with Vertical(id="pyramid-box") as box:
                box.border_title = "Tiers"
                yield TierPyramid(id="pyramid")
            with Vertical(id="browser-box") as box:
                box.border_title = "Entries"
                with Vertical(id="filter-bar"):
                    yield Input(placeholder="filter: " + FILTER_HELP, id="filter")
                    yield Static("", id="filter-error")
                yield EntryBrowser(id="browser")
        with Vertical(id="detail-box") as box:
            box.border_title = "Detail"
            yield EntryDetail(id="detail")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> Optional[bool]:
        return keys.key_allowed("memory", action, self.app)

    # ---- plumbing --------------------------------------------------------------------
    @property
    def browser(self) -> EntryBrowser:
        return self.query_one(EntryBrowser)

    @property
    def detail(self) -> EntryDetail:
        return self.query_one(EntryDetail)

    def start(self) -> None:
        """The engine is open: first count and page."""
        self.browser.empty_hint = "The store is empty. Fill it with `echo-memory --db PATH demo`, or press N."
        self.browser.reload(keep=False)

    def failed(self, error: str) -> None:
        self.add_class("-failed")
        self.query_one("#store-error", Static).update(Text(f"Cannot open the store: {error}"))
        self.browser.error = "no store open"
        self.browser.total = 0
        self.browser.refresh()

    def refresh_data(self, entry_ids: Optional[list[str]] = None, select: Optional[str] = None) -> None:
        self.browser.reload(keep=True, select=select)
        if select is None:
            self.detail.reload()  # else the cursor's move shows the new entry

    def set_stats(self, stats: dict[str, Any]) -> None:
        self.query_one(TierPyramid).stats = stats

    def current_entry(self) -> Optional[MemoryEntry]:
        """The entry on the browser's visible cursor row (the detail's copy when it shows
        that same entry: a detail still catching up never names the target)."""
        row = self.browser.current_entry()
        detail = self.detail.data
        if row is not None and detail is not None and detail.entry.id == row.id:
            return detail.entry
        return row

    # ---- browser ↔ detail ↔ pyramid ---------------------------------------------------------
    @on(EntryHighlighted)
    def _highlighted(self, message: EntryHighlighted) -> None:
        message.stop()
        self.detail.show(message.entry_id)
        self.query_one("#detail-box").border_title = "Detail" + (f" · {message.entry_id[:8]}" if message.entry_id else "")

    @on(TierSelected)
    def _tier_selected(self, message: TierSelected) -> None:
        message.stop()
        self.tier = message.tier
        self._apply_filter(self.filter_text)

    def select_tier(self, tier: Optional[str]) -> None:
        pyramid = self.query_one(TierPyramid)
        pyramid.choose(tier)

    # ---- filter ------------------------------------------------------------------------------
    def focus_default(self) -> None:
        self.browser.focus()

    def action_filter(self) -> None:
        field = self.query_one("#filter", Input)  # (typed in the filter, `/` is text: check_action)
        self.query_one("#filter-bar").add_class("-open")
        self.app.focus_and_hold(field)

    def leave_input(self, field: Input) -> None:
        """Esc in the filter: back to the browser (the bar closes when empty)."""
        if not field.value:
            self.query_one("#filter-bar").remove_class("-open")
        self.browser.focus()

    def action_clear_filter(self) -> None:
        """Esc: drop the marks first, then the filter."""
        if self.browser.marked:
            self.browser.set_marks([])
            return
        box = self.query_one("#filter-bar")
        field = self.query_one("#filter", Input)
        if field.value or self.tier:
            field.value = ""
            self.filter_text = ""
            self.query_one(TierPyramid).selected = None
            self.query_one(TierPyramid).cursor = 4
            self.tier = None
            box.remove_class("-open")
            self._apply_filter("")

    @on(Input.Changed, "#filter")
    def _filter_typed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value != self.filter_text:  # (show_entry set both: nothing new to apply)
            self._debounced_filter(event.value)

    def show_entry(self, entry: MemoryEntry) -> None:
        """A jump or a cross-link: the browser filtered to the entry's key, its row selected."""
        pyramid = self.query_one(TierPyramid)
        pyramid.selected, self.tier = None, None
        self.filter_text = entry.key
        self.query_one("#filter-bar").add_class("-open")
        self.query_one("#filter", Input).value = entry.key
        try:
            flt = parse_entry_filter(entry.key, None)
        except InvalidValue:  # a key the filter grammar reads otherwise: show everything
            flt = parse_entry_filter("", None)
        self.browser.set_filter(flt, select=entry.id)
        self.app.focus_and_hold(self.browser)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._apply_filter(event.value):
            if not event.value:
                self.query_one("#filter-bar").remove_class("-open")
            self.browser.focus()

    @work(exclusive=True, group="filter-debounce")
    async def _debounced_filter(self, text: str) -> None:
        await asyncio.sleep(0.15)
        if text == self.filter_text:
            return  # Enter applied it meanwhile: a second reload would only drop the first one's rows
        try:
            self._apply_filter(text)
        except NoMatches:
            pass  # the view was torn down during the pause (the app is closing)

    def _apply_filter(self, text: str) -> bool:
        field = self.query_one("#filter", Input)
        error = self.query_one("#filter-error", Static)
        try:
            flt = parse_entry_filter(text, self.tier)
        except InvalidValue as exc:
            field.add_class("-invalid")
            error.add_class("-shown")
            error.update(Text(str(exc)))  # shown in place; the browser keeps the last good filter
            return False
        field.remove_class("-invalid")
        error.remove_class("-shown")
        error.update("")
        self.filter_text = text
        if self.tier is None and flt.tier is not None:
            pass  # a typed tier: wins over the pyramid's "all"
        self.browser.set_filter(flt)
        return True

    def describe(self) -> str:
        return describe_filter(self.browser.flt)

    # ---- focus helpers -------------------------------------------------------------------
    def action_focus_detail(self) -> None:
        self.query_one(VersionLattice).focus()

    def action_focus_browser(self) -> None:
        self.browser.focus()

    def action_focus_pyramid(self) -> None:
        """In a narrow terminal the pyramid is hidden: y shows it, y again hides it."""
        box = self.query_one("#pyramid-box")
        pyramid = self.query_one(TierPyramid)
        if box.has_class("-shown") and pyramid.has_focus:
            box.remove_class("-shown")
            self.app.focus_and_hold(self.browser)
            return
        box.add_class("-shown")
        self.app.focus_and_hold(pyramid)

    # ---- entry actions (writes go through the app, which checks read-only) ----------------
    def _target(self) -> Optional[MemoryEntry]:
        if not self.app.view_visible(self):
            return None  # a key meant for another view or a dialog: never a write here
        entry = self.current_entry()
        if entry is None:
            self.app.notify("No entry under the cursor.", severity="warning")
        return entry

    def _bulk(self, action: str) -> bool:
        """With rows marked, p/a/r/X act on every marked entry (one confirmation, one undo)."""
        if not self.browser.marked or not self.app.view_visible(self):
            return False
        self.app.bulk_write(action, list(self.browser.marked.values()))
        return True

    def action_mark_all(self) -> None:
        if self.app.engine is not None:
            self._mark_all(self.browser.flt)

    @work(exclusive=True, group="mark-all")
    async def _mark_all(self, flt: Any) -> None:
        try:
            entries = await self.app.retry_busy(lambda: self.app.engine.list_entries(flt, limit=MAX_MARKED + 1))
        except ENGINE_FAILURES as exc:
            self.app.notify(f"{type(exc).__name__}: {exc}", title="Mark all", severity="error")
            return
        if len(entries) > MAX_MARKED:
            self.app.notify(
                f"More than {MAX_MARKED:,} entries match: narrow the filter to mark them all.",
                title="Mark all",
                severity="warning",
            )
            return
        if flt is self.browser.flt:  # the filter did not change meanwhile
            self.browser.set_marks(entries)

    def action_pin(self) -> None:
        if self._bulk("pin"):
            return
        entry = self._target()
        if entry is None:
            return
        if entry.pinned:
            self.app.write(f"unpinned {entry.key}", lambda engine: engine.unpin(entry.id), undo_ids=[entry.id])
        else:
            self.app.write(f"pinned {entry.key}", lambda engine: engine.pin(entry.id), undo_ids=[entry.id])

    def action_archive(self) -> None:
        if self._bulk("archive"):
            return
        entry = self._target()
        if entry is None:
            return
        if entry.tier is MemoryTier.ARCHIVAL:
            self.app.notify(f"{entry.key} is already archived", title="Archive")
            return
        self.app.write(f"archived {entry.key}", lambda engine: engine.archive(entry.id), undo_ids=[entry.id])

    def action_restore(self) -> None:
        if self._bulk("restore"):
            return
        entry = self._target()
        if entry is None:
            return
        self.app.write(f"restored {entry.key}", lambda engine: engine.restore(entry.id), select_result=True, undo_ids=[entry.id])

    def action_purge(self) -> None:
        if self._bulk("purge"):
            return
        entry = self._target()
        if entry is None:
            return
        self.app.confirm_purge(entry)

    def action_tag(self) -> None:
        """t: tag the marked entries, else the one under the cursor."""
        if self.app.view_visible(self):
            entries = list(self.browser.marked.values()) or [e for e in [self._target()] if e is not None]
            if entries:
                self.app.tag_entries(entries)

    def action_edit(self) -> None:
        entry = self._target()
        if entry is None:
            return
        self.app.edit_entry(entry)

    @on(VersionLattice.RestoreRequested)
    def _restore_version(self, message: VersionLattice.RestoreRequested) -> None:
        """Restoring a version writes a new head: it asks first, saying what happens."""
        from ..screens.dialogs import ConfirmScreen

        message.stop()
        node = message.node
        if not self.app.can_write("restoring a version"):
            return
        body = Text()
        body.append(f"Restore v{node.version} of {node.key}?\n\n", style="bold")
        body.append(node.content + "\n\n")
        body.append(
            "Its content becomes a new head version, stated by you; the current head is archived "
            "and stays in the lattice. A pin moves to the new head.",
            style="dim",
        )

        def confirmed(yes: Optional[bool]) -> None:
            if yes:
                self.app.write(
                    f"restored v{node.version} of {node.key}",
                    lambda engine: engine.restore(node.id),
                    select_result=True,
                    undo_ids=[node.id],
                )

        self.app.push_screen(ConfirmScreen("Restore version", body, "Restore"), confirmed)
