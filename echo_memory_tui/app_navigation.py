"""The app's views and navigation: which view class each tab lazily mounts, view
keys and scoped keys, sorting and filtering, theme, help and store info, and
jumps to an entry or its linked entries. Mixed into EchoMemoryApp (app.py)."""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from rich.table import Table
from textual import work
from textual.actions import SkipAction
from textual.command import CommandPalette
from textual.widget import Widget
from textual.widgets import Input, TabbedContent

from engine import (
    EntryFilter,
    EntryNotFound,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    Settings,
    StoreError,
)

from . import keys
from .failures import ENGINE_FAILURES
from .widgets.browser import EntryBrowser
from .widgets.lattice import VersionLattice
from .widgets.memory import MemoryView
from .widgets.pyramid import TierPyramid

VIEWS = ("memory", "recall", "review", "working", "episodes", "quarantine")
VIEW_TITLES = {
    "memory": "1 Memory",
    "recall": "2 Recall",
    "review": "3 Review",
    "working": "4 Working",
    "episodes": "5 Episodes",
    "quarantine": "6 Blocked",
}
SCOPE_VIEW = {
    "memory": "memory",
    "browser": "memory",
    "pyramid": "memory",
    "lattice": "memory",  # scope -> view
    "playground": "recall",
    "review": "review",
    "working": "working",
    "episodes": "episodes",
    "quarantine": "quarantine",
}


class Navigation:
    """EchoMemoryApp's views and navigation; its @on handlers stay in app.py (Textual
    collects those from the App class only)."""

    # ---- views -------------------------------------------------------------------------------
    # Only the memory view is built for the first frame; the others are imported
    # and mounted the first time they are shown.
    def _view_class(self, view_id: str) -> type:
        if view_id == "recall":
            from .widgets.playground import PlaygroundView

            return PlaygroundView
        if view_id == "review":
            from .widgets.review import ReviewView

            return ReviewView
        if view_id == "working":
            from .widgets.working import WorkingView

            return WorkingView
        if view_id == "episodes":
            from .widgets.episodes import EpisodesView

            return EpisodesView
        if view_id == "quarantine":
            from .widgets.quarantine import QuarantineView

            return QuarantineView
        return MemoryView

    def _view_widget(self, view_id: str) -> Any:
        results = self.query(f"#{view_id}-view")
        return results.first() if results else None

    async def ensure_view(self, view_id: str) -> Any:
        view = self._view_widget(view_id)
        if view is None:
            pane = self.query_one(f"TabPane#{view_id}")
            view = self._view_class(view_id)(id=f"{view_id}-view")
            await pane.query(".view-placeholder").remove()
            await pane.mount(view)
        return view

    def action_view(self, view_id: str) -> None:
        self.query_one(TabbedContent).active = view_id

    def action_view_key(self, view_id: str) -> None:
        """A view key (in a text field or a dialog it is text: keys.key_allowed): nothing
        stays focused in the view being left, and the next keys wait for the new view's focus."""
        tabs = self.query_one(TabbedContent)
        if tabs.active == view_id:
            self._focus_view(view_id)
            return
        self.screen.set_focus(None)
        tabs.active = view_id
        self.hold_keys(lambda: self._view_has_focus(view_id))

    async def action_leave_input(self) -> None:
        """Esc in a text field of a view: back to the view's main widget. Esc in the command
        palette closes it here, at once: its own Esc reaches it after the keys typed next
        are routed, and those went into its closing input."""
        focused = self.focused
        if isinstance(self.screen, CommandPalette):
            await self.screen.run_action("escape")
            return
        if len(self.screen_stack) > 1 or not isinstance(focused, Input):
            raise SkipAction()
        view = self._view_widget(self.query_one(TabbedContent).active)
        if view is None:
            raise SkipAction()
        leave = getattr(view, "leave_input", None)
        leave(focused) if leave is not None else view.focus_default()
        self.hold_keys(lambda: self.focused is not focused)

    def _view_has_focus(self, view_id: str) -> bool:
        view = self._view_widget(view_id)
        focused = self.focused
        return (
            self.query_one(TabbedContent).active == view_id
            and view is not None
            and focused is not None
            and view in focused.ancestors_with_self
        )

    def view_visible(self, view: Widget) -> bool:
        """The view is the shown tab of the main screen (no dialog over it)."""
        return len(self.screen_stack) == 1 and self._view_widget(self.query_one(TabbedContent).active) is view

    def _focus_view(self, view_id: str) -> None:
        view = self._view_widget(view_id)
        if view is not None and self.query_one(TabbedContent).active == view_id:
            view.focus_default()

    def _start_view(self, view_id: str) -> None:
        if self.engine is None or view_id in self._started_views:
            return
        view = self._view_widget(view_id)
        if view is not None and hasattr(view, "start"):
            self._started_views.add(view_id)
            view.start()

    def scope_node(self, scope: str) -> Any:
        if scope == "app":
            return self
        if scope in ("browser", "pyramid", "lattice"):
            return self.query_one({"browser": EntryBrowser, "pyramid": TierPyramid, "lattice": VersionLattice}[scope])
        return self._view_widget(SCOPE_VIEW[scope])

    async def run_scoped(self, key: keys.Key) -> None:
        """Run a binding's action from the palette, in its pane."""
        if key.write and not self.can_write(key.description.lower()):
            return
        view = SCOPE_VIEW.get(key.scope)
        if view:
            await self.ensure_view(view)
            if self.query_one(TabbedContent).active != view:
                self.action_view(view)
                await asyncio.sleep(0)
        await self.run_action(key.action, self.scope_node(key.scope))

    def sort_entries(self, column: str) -> None:
        self.action_view("memory")
        browser = self.query_one(EntryBrowser)
        if browser.sort == column:
            return
        browser.sort_by(column)

    def filter_tier(self, tier: Optional[str]) -> None:
        self.action_view("memory")
        self.memory_view.select_tier(tier)

    def filter_text(self, text: str) -> None:
        self.action_view("memory")
        view = self.memory_view
        view.action_filter()
        view.query_one("#filter").value = text

    def set_theme(self, theme: str) -> None:
        self.theme = theme

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    def action_maximize_pane(self) -> None:
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
        elif self.focused is not None:
            screen.maximize(self.focused)

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def show_store_info(self) -> None:
        from .screens.dialogs import TextScreen

        stats = self.stats or {}
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", justify="right")
        table.add_column()
        table.add_row("path", str(self.db_path.resolve()))
        table.add_row("config", str(self.settings.path or "defaults"))
        table.add_row("read-only", "yes" if self.read_only else "no")
        for name in ("schema_version", "pinned", "superseded", "pending_contradictions", "blocked_writes", "reembed_queue"):
            if name in stats:
                table.add_row(name.replace("_", " "), str(stats[name]))
        for group in ("tiers", "types", "sources"):
            if group in stats:
                table.add_row(group, "  ".join(f"{k}={v}" for k, v in stats[group].items()))
        self.push_screen(TextScreen("Store", table))

    def apply_settings(self, settings: Settings) -> None:
        """Saved knobs: the app's settings change and the running engine adopts them
        (engine.apply_settings is async: it runs in a worker)."""
        self.settings = settings
        if self.engine is not None:
            self._apply_engine_settings(settings)

    @work(exclusive=True, group="settings")
    async def _apply_engine_settings(self, settings: Settings) -> None:
        try:
            await self.engine.apply_settings(settings)
        except ENGINE_FAILURES as exc:
            self.notify(f"{type(exc).__name__}: {exc}", title="Settings not applied", severity="warning")

    # ---- jump and cross-links ----------------------------------------------------------------
    def action_jump(self, text: str = "", note: str = "") -> None:
        """`:`: open an entry in the Memory view by id prefix or key."""
        from .screens.dialogs import JumpScreen

        if self.engine is None:
            self.notify("No store is open.", severity="error")
            return
        self.push_screen(JumpScreen(text, note), lambda found: self._jump(found) if found else None)

    @work(exclusive=True, group="jump")
    async def _jump(self, text: str) -> None:
        try:
            entry = await self.retry_busy(lambda: self._find_entry(text))
        except (InvalidValue, StoreError) as exc:
            self.action_jump(text, str(exc))
            return
        if entry is None:
            self.action_jump(text, f"No entry has the id or key {text!r}.")
            return
        self.open_entry(entry)

    async def _find_entry(self, text: str) -> Optional[MemoryEntry]:
        """An id or id prefix first, else the key's current version (else its newest)."""
        engine = self.engine
        try:
            return await engine.get(await engine.resolve_id(text))
        except EntryNotFound:
            pass
        same = [e for e in await engine.list_entries(EntryFilter(text=text), limit=1000) if e.key == text]
        same.sort(key=lambda e: (e.superseded_by is None, e.tier is not MemoryTier.WORKING, e.version))
        return same[-1] if same else None

    def open_entry(self, entry: MemoryEntry) -> None:
        """Show one entry in the Memory view (from a jump or another view's cross-link)."""
        self.screen.set_focus(None)
        self.action_view("memory")
        self.memory_view.show_entry(entry)

    def action_open_linked(self) -> None:
        """The entry the active view's selection names (a candidate, a blocked write's
        protected entry, a review side, an episode's entries), opened in the Memory view;
        from the Memory view, the entry's episode in the Episodes view."""
        view = self._view_widget(self.query_one(TabbedContent).active)
        if view is self.memory_view:
            self._open_episode(view.current_entry())
            return
        several = getattr(view, "linked_entries", None)
        if several is not None:
            self._pick_linked(several())
            return
        linked = getattr(view, "linked_entry", None)
        target = linked() if linked is not None else None
        if not target:
            self.notify("Nothing here names a stored entry.", title="Open in Memory")
            return
        self._jump_linked(target)

    @work(exclusive=True, group="jump")
    async def _jump_linked(self, target: str) -> None:
        try:
            entry = await self.retry_busy(lambda: self._find_entry(target))
        except (InvalidValue, StoreError) as exc:
            entry, why = None, str(exc)
        else:
            why = "it is no longer in the store (purged or undone)"
        if entry is None:
            self.notify(f"Cannot open {target}: {why}.", title="Open in Memory", severity="warning")
            return
        self.open_entry(entry)

    def _pick_linked(self, choices: list[tuple[str, str]]) -> None:
        """One linked entry opens at once; several are offered in a list first."""
        from .screens.dialogs import PickScreen

        if not choices:
            self.notify("Nothing here names a stored entry.", title="Open in Memory")
        elif len(choices) == 1:
            self._jump_linked(choices[0][0])
        else:
            self.push_screen(
                PickScreen("Open which entry?", choices), lambda chosen: self._jump_linked(chosen) if chosen else None
            )

    @work(exclusive=True, group="jump")
    async def _open_episode(self, entry: Optional[MemoryEntry]) -> None:
        if entry is None:
            return
        if not entry.episode_id:
            self.notify(
                f"{entry.key} v{entry.version} came from no episode (it was written directly, not by consolidation).",
                title="Open episode",
            )
            return
        episodes = await self.ensure_view("episodes")
        self.screen.set_focus(None)
        self.action_view("episodes")
        episodes.show_episode(entry.episode_id)
