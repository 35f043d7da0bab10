"""echo-memory's terminal app.

The first frame is drawn before the store is touched: the engine opens in a
worker, every engine call runs in a worker that posts a typed message, and the
embedding model loads in the background with its state in the status line.
"""

from __future__ import annotations

import time

IMPORTED_AT = time.perf_counter()  # startup timing (ECHO_MEMORY_STARTUP_LOG)

import asyncio  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from datetime import datetime, timedelta, timezone  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Awaitable, Callable, Iterable, Mapping, Optional

from rich.table import Table
from rich.text import Text
from textual import events, on, work
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.command import CommandPalette
from textual.widget import Widget
from textual.widgets import Footer, Header, Input, Static, TabbedContent, TabPane

from engine import (
    Actor,
    ConfigError,
    EntryFilter,
    EntryNotFound,
    InvalidValue,
    MemoryEngine,
    MemoryEntry,
    MemoryTier,
    ReadOnlyStore,
    Settings,
    StoreError,
    UndoStep,
    WriteRejected,
)

from . import keys
from .busy import is_busy, retry_busy
from .commands import EchoCommands
from .lagprobe import LagProbe
from .messages import (
    DataChanged,
    EngineFailed,
    EngineReady,
    RecallState,
    StatsLoaded,
    StoreChanged,
    WriteDone,
    WriteFailed,
)
from .widgets.browser import EntryBrowser
from .widgets.lattice import VersionLattice
from .widgets.memory import MemoryView
from .widgets.progress import Job, JobPanel
from .widgets.pyramid import TierPyramid
from .widgets.sources import RECENT_MINUTES, SourcesBar, SyncState, SyncStatus, sources_text
from .widgets.status import StatusBar

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


# The longest a burst's next key waits for focus to land (a first, lazy mount of a view).
HOLD_MAX_S = 2.0


class Views(TabbedContent):
    """The app decides which view is shown: focusing a widget in a hidden pane
    (a late focus call during a burst of view keys) must not switch to it, or two
    views take turns activating each other forever."""

    def _on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        event.stop()
        event.prevent_default()  # TabbedContent's own handler would activate the pane


@dataclass
class Bulk:
    """Several entries changed at once (decay pass, bulk action, undo), shaped like a
    WriteOutcome for the refresh; refused names the entries left as they were, and why."""

    changed: list[MemoryEntry]
    action: str = "updated"
    refused: list[str] = field(default_factory=list)
    what: str = ""  # when set, names the write in the notice and the undo list
    note: str = ""

    @property
    def entry(self) -> Optional[MemoryEntry]:
        return self.changed[0] if self.changed else None


class EchoMemoryApp(App[int]):
    """Inspect and curate an agent's long-term memory."""

    CSS_PATH = "app.tcss"
    TITLE = "echo-memory"
    # classes on the screen that app.tcss uses to collapse side panels in small terminals
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-medium"), (150, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-mid"), (44, "-tall")]
    BINDINGS = keys.bindings("app")
    COMMANDS = App.COMMANDS | {EchoCommands}

    def __init__(
        self,
        db_path: str | os.PathLike,
        settings: Optional[Settings] = None,
        read_only: bool = False,
        *,
        clock: Optional[Callable[[], datetime]] = None,
        live: bool = True,
        warm_recall: bool = True,
        config_error: Optional[str] = None,
        engine_factory: Optional[Callable[..., Awaitable[MemoryEngine]]] = None,
        create: bool = False,
        syncs: Iterable[tuple[str, str]] = (),
        sync_write_back: bool = False,
    ) -> None:
        super().__init__()
        self.db_path = Path(db_path)
        self.create = create  # --create: a missing store is made without asking
        self.settings = settings or Settings.defaults()
        self.requested_read_only = read_only
        self.read_only = read_only
        self.clock: Callable[[], datetime] = clock or (lambda: datetime.now(timezone.utc))
        self.live_enabled = live
        self.warm_recall = warm_recall
        self.config_error = config_error
        self.engine_factory = engine_factory
        self.engine: Optional[MemoryEngine] = None
        self.live_paused = False
        self.pending_changes: list[StoreChanged] = []
        self.lag_probe: Optional[LagProbe] = None  # ECHO_MEMORY_LAG_LOG: see lagprobe.py
        self._watch_stop: Optional[asyncio.Event] = None
        self._config_stop: Optional[asyncio.Event] = None
        self._started_views: set[str] = set()
        self.keymap, self.key_problems = keys.keymap_from_config(self.settings.extra.get("keys"))
        ui = self.settings.extra.get("ui") if isinstance(self.settings.extra.get("ui"), Mapping) else {}
        self._initial_theme = ui.get("theme") if isinstance(ui.get("theme"), str) else None
        self.first_frame_at: Optional[float] = None
        self._warm_pending = False
        self.recall_state = "not_loaded"
        self.stats: Optional[dict[str, Any]] = None
        self.milestones: dict[str, float] = {}
        self._held_keys: Optional[list[events.Key]] = None
        self._hold_landed: Callable[[], bool] = lambda: True
        self._hold_deadline = 0.0
        self._hold_generation = 0
        self.undo_list: list[UndoStep] = []  # this session's writes, oldest first
        # --sync FORMAT:DIR folders: each syncs in a thread of its own (own loop, own connection)
        self.syncs = [(fmt, str(folder)) for fmt, folder in syncs]
        self.sync_write_back = sync_write_back
        self.sync_states: dict[str, SyncState] = {}
        self._writers: list = []  # agents the audit log saw lately (engine.recent_writers)
        self._sync_stops: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        self._closing = False
        self.embedding_paused = False  # the backlog's job was stopped (E resumes)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> Optional[bool]:
        if action == "cancel_job" and not any(panel.jobs for panel in self.query(JobPanel)):
            return False  # no job: the key is not in the footer and does what it does elsewhere
        return keys.key_allowed("app", action, self)

    # ---- keys typed in a burst -----------------------------------------------------------
    async def on_event(self, event: events.Event) -> None:
        """While a view key, `/`, Esc or a dialog close is still moving the focus, the keys
        typed after it wait here: they go to the widget that key made active, never to
        one that is being hidden (where `a` would archive the entry under a hidden cursor)."""
        if isinstance(event, events.Key) and not event.is_forwarded and self._held_keys is not None:
            self._held_keys.append(event)
            return
        await super().on_event(event)

    def hold_keys(self, landed: Callable[[], bool]) -> None:
        """Hold the keys typed from now on until landed() is true (or HOLD_MAX_S passed)."""
        if self._held_keys is None:
            self._held_keys = []
        self._hold_landed = landed
        self._hold_deadline = time.monotonic() + HOLD_MAX_S
        self._hold_generation += 1
        self.call_after_refresh(self._release_keys, self._hold_generation)

    def focus_and_hold(self, widget: Widget) -> None:
        widget.focus()
        self.hold_keys(lambda: self.focused is widget)

    async def _release_keys(self, generation: int) -> None:
        if generation != self._hold_generation or self._held_keys is None:
            return
        if not self._hold_landed() and time.monotonic() < self._hold_deadline:
            self.set_timer(0.01, lambda: self.call_after_refresh(self._release_keys, generation))
            return
        held, self._held_keys = self._held_keys, None
        while held:
            await super().on_event(held.pop(0))
            if self._held_keys is not None:  # that key started another move: the rest wait again
                self._held_keys[:0] = held
                return

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        """A dialog opens: keys typed right after the key that opened it go to the dialog."""
        result = super().push_screen(screen, *args, **kwargs)
        pushed = self.screen
        self.hold_keys(
            lambda: (
                self.screen is not pushed
                or not pushed.focus_chain
                or (self.focused is not None and self.focused.screen is pushed)
            )
        )
        return result

    def pop_screen(self) -> Any:
        """A dialog closes: keys typed right after it wait for the view's focus to come back."""
        closing = self.screen
        self.hold_keys(lambda: self.screen is not closing and self.focused is not None and self.focused.screen is self.screen)
        return super().pop_screen()

    # ---- layout --------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield SourcesBar(id="sources")
        with Views(initial="memory", id="views"):
            with TabPane(VIEW_TITLES["memory"], id="memory"):
                yield MemoryView(id="memory-view")
            for view_id in VIEWS[1:]:
                with TabPane(VIEW_TITLES[view_id], id=view_id):
                    yield Static("", classes="view-placeholder")
        yield JobPanel(lambda: keys.display_keys(keys.BY_ID["app.cancel_job"], self.keymap), id="jobs")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        if self._initial_theme:
            if self._initial_theme in self.available_themes:
                self.theme = self._initial_theme
            else:
                self.notify(f"[ui] theme {self._initial_theme!r} is not a theme; using {self.theme}", severity="warning")
        if self.keymap:
            self.set_keymap(self.keymap)
        for problem in self.key_problems:
            self.notify(problem, title="Config", severity="warning", timeout=8)
        if self.config_error:
            self.notify(self.config_error, title="Config file not used", severity="error", timeout=15)
        status = self.status
        status.read_only = self.read_only
        status.store = f"opening {self.db_path.name}…"
        self.sub_title = self._subtitle()
        self.query_one(EntryBrowser).focus()
        self.call_after_refresh(self._first_frame)
        if os.environ.get("ECHO_MEMORY_LAG_LOG"):  # benchmarks/tui_bench.py: the loop's stalls
            self.lag_probe = LagProbe()
            self.lag_probe.start()
        self._open_or_ask()
        if self.live_enabled and self.settings.path is not None:
            self._watch_config(self.settings.path)

    def _open_or_ask(self) -> None:
        """A store path with nothing there may be a typo: ask before making a store there
        (declining quits and creates nothing); --create, or --read-only (which never
        creates and says so), opens at once."""
        from .screens.dialogs import ConfirmScreen

        path = self.db_path.expanduser()
        if self.requested_read_only or path.exists():
            self._open_engine()
            return
        if self.create:
            self._create_store(path)
            return
        self.status.store = f"no store at {self.db_path.name}"
        body = Text()
        body.append(f"Create a new empty store at {path}?\n\n", style="bold")
        body.append(
            "There is no store file at that path. If it has a typo, choose Cancel (or Esc): the app closes and creates nothing.",
            style="dim",
        )

        def decided(yes: Optional[bool]) -> None:
            if yes:
                self._create_store(path)
            else:
                self.exit(
                    return_code=2,
                    message=f"no store at {path}; nothing was created (run with --create to make one without asking)",
                )

        self.push_screen(ConfirmScreen("New store?", body, "Create", danger=False), decided)

    def _create_store(self, path: Path) -> None:
        """The person asked for a store at path (--create or the dialog): its folder too."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.post_message(EngineFailed(f"cannot create {path.parent}: {exc.strerror or exc}"))
            return
        self._open_engine()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: str = "information",
        timeout: Optional[float] = None,
        markup: bool = False,
    ) -> None:
        """Notifications carry store data (keys, errors): plain text unless asked."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def _first_frame(self) -> None:
        self.first_frame_at = time.perf_counter()
        self.mark("first_frame")

    def mark(self, event: str, at: Optional[float] = None) -> None:
        """Startup milestones, for benchmarks/tui_bench.py: with ECHO_MEMORY_STARTUP_LOG set,
        each is appended as JSON with a CLOCK_MONOTONIC time (comparable across processes)."""
        if event in self.milestones:
            return
        self.milestones[event] = time.perf_counter() if at is None else at
        if event == "first_rows":
            self.set_timer(0.2, self._start_warm)
        path = os.environ.get("ECHO_MEMORY_STARTUP_LOG")
        if path:
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"event": event, "t": self.milestones[event]}) + "\n")

    def _subtitle(self) -> str:
        return f"{self.db_path.name}" + (" · read-only" if self.read_only else "")

    @property
    def status(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def memory_view(self) -> MemoryView:
        return self.query_one(MemoryView)

    # ---- long jobs: progress and stop --------------------------------------------------------
    @property
    def jobs(self) -> JobPanel:
        return self.query_one(JobPanel)

    def start_job(self, title: str) -> Job:
        """A job line in the panel (and the stop key in the footer) until end_job."""
        job = self.jobs.add(Job(title))
        self.refresh_bindings()
        return job

    def end_job(self, job: Job) -> None:
        for panel in self.query(JobPanel):  # (gone when the app is closing)
            panel.remove_job(job)
            self.refresh_bindings()

    def action_cancel_job(self) -> None:
        """Stop the newest job: the engine stops at its next page or batch boundary."""
        job = self.jobs.newest()
        if job is not None:
            job.cancel()
            self.notify(f"Stopping {job.title.lower()}…", title="Stop", timeout=3)

    # ---- engine lifecycle ------------------------------------------------------------
    @work(exclusive=True, group="engine")
    async def _open_engine(self) -> None:
        try:
            if self.engine_factory is not None:
                engine = await self.engine_factory(self.db_path, self.settings, self.requested_read_only, self.clock)
            else:
                engine = await MemoryEngine.open(
                    self.db_path, self.settings, read_only=self.requested_read_only, clock=self.clock
                )
        except (StoreError, OSError, InvalidValue) as exc:
            self.post_message(EngineFailed(str(exc)))
            return
        except Exception as exc:  # anything else still must not take the app down
            self.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        engine.actor = Actor.person("user")  # the app acts for the person at the keyboard
        self.post_message(EngineReady(engine))

    def on_engine_ready(self, message: EngineReady) -> None:
        self.mark("engine_ready")
        self.engine = message.engine
        self.read_only = bool(self.engine.read_only)
        self.refresh_bindings()  # write keys leave the footer on a read-only store
        if self.read_only and not self.requested_read_only:
            self.notify(f"{self.db_path} is not writable: opened read-only.", severity="warning")
        self.sub_title = self._subtitle()
        status = self.status
        status.read_only = self.read_only
        status.store = self.db_path.name
        self.memory_view.start()
        self._started_views.add("memory")
        self.load_stats()
        self._start_sources()
        if self.live_enabled:
            self._watch()
        if self.warm_recall:
            # The model loads in a thread, but importing torch holds the GIL for
            # seconds: start it once the first rows are up (or after 1.5 s at most).
            self._warm_pending = True
            self.set_timer(1.5, self._start_warm)
            if "first_rows" in self.milestones:
                self._start_warm()
        else:
            self._report_recall_state()
        active = self.query_one(TabbedContent).active
        if active and active != "memory":
            self._start_view(active)

    def on_engine_failed(self, message: EngineFailed) -> None:
        self.status.error = f"cannot open {self.db_path}: {message.error}"
        self.memory_view.failed(message.error)
        self.notify(message.error, title="Cannot open the store", severity="error", timeout=20)

    def consolidation(self) -> Any:
        """engine.consolidation: sessions, contradictions, the version lattice
        (engine.close() stops its scheduler when the app exits)."""
        return self.engine.consolidation

    async def on_unmount(self) -> None:
        if self.lag_probe is not None:
            self.lag_probe.stop()
            self.lag_probe.write(os.environ["ECHO_MEMORY_LAG_LOG"])
        for stop in (self._watch_stop, self._config_stop):
            if stop is not None:
                stop.set()
        self._stop_syncs()
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                await engine.close()  # stops consolidation and recall if they were started
            except Exception:
                pass

    # ---- stats -------------------------------------------------------------------------
    @work(exclusive=True, group="stats")
    async def load_stats(self) -> None:
        if self.engine is None:
            return
        engine = self.engine
        try:
            stats = await self.retry_busy(engine.stats)
        except Exception as exc:
            self.notify(f"{type(exc).__name__}: {exc}", title="Could not count entries", severity="error")
            return
        self.post_message(StatsLoaded(stats))

    def on_stats_loaded(self, message: StatsLoaded) -> None:
        if not self.query(StatusBar):  # the app is closing and its widgets are gone
            return
        stats = message.stats
        self.stats = stats
        self.memory_view.set_stats(stats)
        tiers = stats.get("tiers", {})
        self.status.entries = sum(tiers.get(t, 0) for t in ("working", "semantic", "archival"))
        pending = stats.get("pending_contradictions", 0)
        tabs = self.query_one(TabbedContent)
        try:
            tabs.get_tab("review").label = VIEW_TITLES["review"] + (f" ({pending})" if pending else "")
            blocked = stats.get("blocked_writes", 0)
            tabs.get_tab("quarantine").label = VIEW_TITLES["quarantine"] + (f" ({blocked})" if blocked else "")
        except Exception:
            pass

    # ---- embedding model in the background ------------------------------------------------
    def _start_warm(self) -> None:
        if self._warm_pending and self.engine is not None:
            self._warm_pending = False
            self._warm_recall()

    @work(exclusive=True, group="recall-warm")
    async def _warm_recall(self) -> None:
        """engine.warm_recall() opens the recall indexes and starts the model load
        (off the loop); the status line follows engine.recall_status() until it settles."""
        engine = self.engine
        self.post_message(RecallState("loading", "embeddings loading…"))
        try:
            await engine.warm_recall()
        except Exception as exc:
            self.post_message(RecallState("failed", f"embeddings failed: {type(exc).__name__}: {exc}"))
            return
        job: Optional[Job] = None
        try:
            for _ in range(1200):
                job = await self._follow_backlog(job)
                state = self._recall_state()
                self.post_message(RecallState(*state))
                if self.embedding_paused and not engine.embedding_running():
                    return  # paused, and the batches that were running are saved (the line shows them)
                if not self.embedding_paused and state[0] != "loading" and not state[1].startswith("embedding "):
                    return  # loaded (or failed) and no backlog left to count
                await asyncio.sleep(0.5)
        finally:
            if job is not None:
                self.end_job(job)

    async def _follow_backlog(self, job: Optional[Job]) -> Optional[Job]:
        """While the model works through entries without a vector, a job line counts them;
        stopping it pauses the embedding (recall finds those entries by words meanwhile)."""
        status = self.engine.recall_status()
        if status.state != "ready" or not status.pending:
            if job is not None:
                self.end_job(job)
            return None
        job = job or self.start_job("Embedding backlog")
        if job.cancelled():
            left = await self.engine.pause_embedding()
            self.embedding_paused = True
            self.end_job(job)
            resume = keys.display_keys(keys.BY_ID["app.embed"], self.keymap)
            self.notify(
                f"Embedding paused: {left:,} entries have no vector yet (recall finds them by their words). {resume} resumes.",
                title="Embedding",
            )
            return None
        job.update(status.indexed - status.pending, status.indexed)
        return job

    def action_embed_backlog(self) -> None:
        """E: resume embedding the backlog after a stop."""
        if self.engine is None or not self.embedding_paused:
            self.notify("Embedding is not paused.", title="Embedding")
            return
        self.embedding_paused = False
        self._warm_recall()

    def _recall_state(self) -> tuple[str, str]:
        engine = self.engine
        if engine is None:
            return ("not_loaded", "embeddings not loaded")
        try:
            status = engine.recall_status()
        except Exception as exc:
            return ("failed", f"embeddings failed: {type(exc).__name__}: {exc}")
        label = {
            "ready": "embeddings ready",
            "loading": "embeddings loading…",
            "failed": "embeddings failed",
            "not_loaded": "embeddings not loaded",
        }.get(status.state, f"embeddings {status.state}")
        if status.state == "ready" and status.pending:
            label = f"embedding {status.indexed - status.pending:,} / {status.indexed:,}"  # ready only when done
            if self.embedding_paused:
                label += " paused"
        if status.state == "failed" and status.message:
            label += f": {status.message}"
        if status.reranker_state == "failed":
            label += " · reranker failed (recall keeps the RRF order)"
        return status.state, label

    def _report_recall_state(self) -> None:
        self.post_message(RecallState(*self._recall_state()))

    def on_recall_state(self, message: RecallState) -> None:
        self.status.model = message.detail or message.state
        self.recall_state = message.state

    # ---- live reload -----------------------------------------------------------------------
    @work(exclusive=True, group="watch")
    async def _watch(self) -> None:
        engine = self.engine
        if engine is None:
            return
        self._watch_stop = asyncio.Event()
        self.status.live = "paused" if self.live_paused else "live"
        attempt = 0
        while not self._watch_stop.is_set():
            try:
                async for change in engine.watch_changes(self._watch_stop):
                    attempt = 0
                    self.post_message(StoreChanged(change.entry_ids, change.ops))
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not is_busy(exc):
                    self.status.live = "stopped"
                    self.notify(f"{type(exc).__name__}: {exc}", title="Live reload stopped", severity="warning")
                    return
                # another process holds the lock: wait, then catch up with everything it wrote
                attempt += 1
                self.busy(attempt)
                await asyncio.sleep(min(4.0, 0.25 * 2**attempt))
                self.busy(0)
                self.post_message(StoreChanged([], []))

    def on_store_changed(self, message: StoreChanged) -> None:
        if self.live_paused:
            self.pending_changes.append(message)
            self.status.pending = sum(m.count for m in self.pending_changes)
            return
        self.refresh_all(message.entry_ids, source="live")

    def action_toggle_live(self) -> None:
        if not self.live_enabled:
            self.notify("Live reload is off for this session.")
            return
        self.live_paused = not self.live_paused
        self.status.live = "paused" if self.live_paused else "live"
        if not self.live_paused:
            pending, self.pending_changes = self.pending_changes, []
            self.status.pending = 0
            if pending:
                ids = sorted({i for m in pending for i in m.entry_ids})
                self.refresh_all(ids, source="live")
                self.notify(f"applied {sum(m.count for m in pending)} change(s) made while paused")
        else:
            self.notify(
                "Live reload paused: changes from other processes wait until you press "
                f"{keys.display_keys(keys.BY_ID['app.live'], self.keymap)} again."
            )

    def refresh_all(self, entry_ids: Optional[list[str]] = None, source: str = "app", select: Optional[str] = None) -> None:
        """Counts, lists and queues refresh in place; cursors stay where they were
        (the browser's moves to `select`, the new head a write made)."""
        if self.engine is None:
            return
        self.load_stats()
        self.load_sources()
        self.memory_view.refresh_data(entry_ids, select=select)
        for view_id in self._started_views - {"memory"}:
            view = self._view_widget(view_id)
            if view is not None and hasattr(view, "refresh_data"):
                view.refresh_data(entry_ids)
        self.post_message(DataChanged(entry_ids, source))

    def action_reload(self) -> None:
        self.refresh_all()
        self.notify("reloaded")

    # ---- the config file changed on disk -------------------------------------------------------
    @work(exclusive=True, group="config-watch")
    async def _watch_config(self, path: Path) -> None:
        """Follow the config file the app started with (an editor's save or rename
        lands here): valid settings are adopted, anything else is reported and the
        settings in use stay."""
        from watchfiles import awatch

        if not path.parent.is_dir():
            return
        self._config_stop = asyncio.Event()
        try:
            async for _changes in awatch(
                path.parent,
                stop_event=self._config_stop,
                debounce=200,
                step=50,
                watch_filter=lambda _c, p: Path(p).name == path.name,
            ):
                try:
                    settings = await asyncio.to_thread(Settings.load, path)
                except ConfigError as exc:
                    self.notify(
                        f"{exc}. The settings in use stay as they were.",
                        title="Config not reloaded",
                        severity="error",
                        timeout=15,
                    )
                    continue
                if settings.as_dict() != self.settings.as_dict() or settings.extra != self.settings.extra:
                    self.reload_settings(settings)
        except Exception as exc:  # e.g. the folder went away: the app goes on without following it
            self.notify(f"{path}: {type(exc).__name__}: {exc}", title="Config no longer followed", severity="warning")

    def reload_settings(self, settings: Settings) -> None:
        """Adopt a config file changed on disk: knobs, [keys] and [ui]. Knob values the
        person edited in the playground and has not saved are kept over the file's."""
        old = self.settings
        changed = [f"{k.removeprefix('memory.')} {old.get(k)} → {v}" for k, v in settings.as_dict().items() if v != old.get(k)]
        kept = self._keep_unsaved_knobs(settings)
        self.apply_settings(settings)
        self.keymap, problems = keys.keymap_from_config(settings.extra.get("keys"))
        self.set_keymap(self.keymap)
        ui = settings.extra.get("ui") if isinstance(settings.extra.get("ui"), dict) else {}
        if ui.get("theme") in self.available_themes:
            self.theme = ui["theme"]
        message = f"{settings.path}: " + (", ".join(changed[:6]) or "[keys] or [ui] changed")
        if len(changed) > 6:
            message += f" and {len(changed) - 6} more"
        if kept:
            message += (
                f". Your unsaved playground edits ({', '.join(k.removeprefix('memory.') for k in kept)}) "
                "are kept: ctrl+s saves them over the file, ctrl+z takes the file's values"
            )
        self.notify(". ".join([message, *problems]), title="Config reloaded", timeout=10)

    def _keep_unsaved_knobs(self, settings: Settings) -> list[str]:
        """The playground's knob panel takes the new file as its base; the knobs the person
        changed and has not saved (typed text included, even invalid) stay as typed."""
        from .widgets.knobs import KnobPanel, knob_id

        view = self._view_widget("recall")
        panels = view.query(KnobPanel) if view is not None else []
        if not panels:
            return []
        panel = panels.first()
        typed = {
            k: panel.query_one(f"#{knob_id(k)}").value
            for k, v in panel.values.items()
            if v != panel.base.get(k) or k in panel.invalid
        }
        panel.reset(settings)
        for key, value in typed.items():
            panel.set_value(key, value)
        return sorted(typed)

    # ---- live agent sources and --sync folders -------------------------------------------
    def _start_sources(self) -> None:
        """The sources line follows the audit log (and drops agents gone quiet), and each
        --sync folder starts syncing in the background."""
        self.load_sources()
        self.set_interval(30, self.load_sources)
        for fmt, folder in self.syncs:
            spec = f"{fmt}:{folder}"
            self.sync_states[spec] = SyncState(spec)
            if self.read_only:
                self.sync_states[spec] = SyncState(spec, "error", message="the store is read-only; not synced")
            else:
                self._run_sync(fmt, folder)
        self._show_sources(self._writers)

    @work(exclusive=True, group="sources")
    async def load_sources(self) -> None:
        engine = self.engine
        if engine is None:
            return
        try:
            writers = await engine.recent_writers(self.clock() - timedelta(minutes=RECENT_MINUTES))
        except Exception:
            return  # a busy store: the next change or the timer asks again
        self._show_sources(writers)

    def _show_sources(self, writers: list) -> None:
        """One line under the header; on a short screen (no row to spare) in the status line."""
        if not self.query(SourcesBar):
            return
        self._writers = writers
        text = sources_text(writers, list(self.sync_states.values()), self.clock())
        self.query_one(SourcesBar).show(text)
        self.status.sources = text if self.size.height < self.VERTICAL_BREAKPOINTS[1][0] else Text()

    def on_resize(self) -> None:
        if self.engine is not None:
            self._show_sources(self._writers)

    def on_sync_status(self, message: SyncStatus) -> None:
        self.sync_states[message.state.spec] = message.state
        self._show_sources(self._writers)

    @work(thread=True, group="sync", exit_on_error=False)
    def _run_sync(self, fmt: str, folder: str) -> None:
        """Off the app's loop: the sync has its own event loop and store connection, so the
        app's live reload sees what it writes as any other process's commit."""
        asyncio.run(self._sync_loop(fmt, folder))

    async def _sync_loop(self, fmt: str, folder: str) -> None:
        stop = asyncio.Event()
        self._sync_stops.append((asyncio.get_running_loop(), stop))
        spec = f"{fmt}:{folder}"
        engine: Optional[MemoryEngine] = None

        def report(result: Any) -> None:
            problems = result.errors + [f"{r['key']}: {r['message']}" for r in result.refused]
            if result.errors:
                state = SyncState(spec, "error", self.clock(), "; ".join(result.errors))
            else:
                news = f"{len(result.landed)} in, {len(result.archived)} archived" if result.landed or result.archived else ""
                state = SyncState(spec, "watching", self.clock(), "; ".join(filter(None, [news, *problems])))
            self.post_message(SyncStatus(state))

        try:
            while not (stop.is_set() or self._closing):
                try:
                    if engine is None:
                        engine = await MemoryEngine.open(
                            self.db_path, self.settings, clock=self.clock, actor=Actor.agent(f"sync:{fmt}")
                        )
                    await engine.watch_folder(fmt, folder, self.sync_write_back, report, stop)
                except Exception as exc:  # shown on the sources line; try again shortly
                    self.post_message(SyncStatus(SyncState(spec, "error", message=str(exc) or type(exc).__name__)))
                    try:
                        await asyncio.wait_for(stop.wait(), 5)
                    except asyncio.TimeoutError:
                        pass
        finally:
            if engine is not None:
                await engine.close()

    def _stop_syncs(self) -> None:
        self._closing = True
        for loop, stop in self._sync_stops:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass  # that loop already ended

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

    @on(TabbedContent.TabActivated, "#views")
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        view_id = event.pane.id or "memory"
        await self.ensure_view(view_id)
        self._start_view(view_id)
        self._focus_view(view_id)  # only if it is still the active view once mounted

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
        except Exception as exc:
            self.notify(f"{type(exc).__name__}: {exc}", title="Settings not applied", severity="warning")

    # ---- writes ----------------------------------------------------------------------------------
    def can_write(self, what: str) -> bool:
        if self.engine is None:
            self.notify("No store is open.", severity="error")
            return False
        if self.read_only:
            why = "was opened with --read-only" if self.requested_read_only else "is not writable"
            self.notify(
                f"Nothing written: {what} needs a writable store, and this one {why}.", title="Read-only", severity="warning"
            )
            return False
        gone = self.store_unavailable()
        if gone:
            self.status.error = gone
            self.notify(
                f"Nothing written: {gone}. Reopen the store to write again.",
                title="Store unavailable",
                severity="error",
                timeout=15,
            )
            return False
        return True

    def store_unavailable(self) -> Optional[str]:
        """The open connection would still write into a file deleted, moved or made read-only
        under the app (and so lose the change): check the path before each write."""
        if not self.db_path.exists():
            return f"the store file {self.db_path} was deleted or moved while the app was open"
        if not os.access(self.db_path, os.W_OK):
            return f"the store file {self.db_path} became read-only while the app was open"
        return None

    def write(
        self,
        what: str,
        op: Callable[[MemoryEngine], Awaitable[Any]],
        *,
        select_result: bool = False,
        on_refused: Optional[Callable[[dict[str, Any]], None]] = None,
        undo_ids: Iterable[str] = (),
    ) -> None:
        """Run one write through the engine in a worker; success refreshes every
        pane in place, a refusal is shown (or handed to on_refused). undo_ids: the
        entries the write changes; their state before it goes on the undo list."""
        gone = self.store_unavailable() if self.engine is not None else None
        if gone and on_refused is not None:  # a dialog's text goes back to it
            on_refused({"reason": "store_unavailable", "message": f"Nothing written: {gone}."})
            return
        if not self.can_write("this change"):
            return
        self._run_write(what, op, select_result, on_refused, list(undo_ids))

    def busy(self, attempt: int) -> None:
        """Called from workers while the store is locked by another process (attempt 0:
        no longer). Quiet when the app is shutting down and the status line is gone."""
        for bar in self.query(StatusBar):
            if attempt:
                bar.error = f"database busy, retrying ({attempt})…"
            elif bar.error.startswith("database busy"):
                bar.error = ""

    async def retry_busy(self, call: Callable[[], Awaitable[Any]]) -> Any:
        """call() with busy retries; the status line says busy while it waits."""
        try:
            return await retry_busy(call, self.busy)
        finally:
            self.busy(0)

    @work(group="write")
    async def _run_write(
        self,
        what: str,
        op: Callable[[MemoryEngine], Awaitable[Any]],
        select_result: bool,
        on_refused: Optional[Callable[[dict[str, Any]], None]],
        undo_ids: list[str],
    ) -> None:
        engine = self.engine
        try:
            before = await self.retry_busy(lambda: engine.undo_snapshot(undo_ids)) if undo_ids else None
            result = await self.retry_busy(lambda: op(engine))
        except WriteRejected as exc:
            self.post_message(WriteFailed(what, exc.message, exc.to_dict(), retry=on_refused))
            return
        except InvalidValue as exc:  # e.g. over a field's limit: the typed text goes back to its dialog
            self.post_message(WriteFailed(what, str(exc), {"reason": "invalid_value", "message": str(exc)}, retry=on_refused))
            return
        except Exception as exc:
            if is_busy(exc):
                message = "the database stayed busy (another process is writing); nothing was written, try again"
                self.post_message(WriteFailed(what, message, busy=True))
            elif isinstance(exc, (ReadOnlyStore, EntryNotFound, InvalidValue, StoreError, ValueError, LookupError)):
                self.post_message(WriteFailed(what, str(exc)))
            else:
                self.post_message(WriteFailed(what, f"{type(exc).__name__}: {exc}"))
            return
        ids: list[str] = []
        note = getattr(result, "note", "")
        what = getattr(result, "what", "") or what
        entry = getattr(result, "entry", None)
        changed = list(getattr(result, "changed", []))
        if entry is not None:
            ids = [e.id for e in changed] or [entry.id]
            if getattr(result, "action", "") == "unchanged":
                note = "unchanged"
        refused = getattr(result, "refused", [])
        if refused:
            note = f"{len(refused)} left as they were: " + "; ".join(refused[:3]) + (" …" if len(refused) > 3 else "")
        step = UndoStep.after(what, before, changed) if before and entry and note != "unchanged" else None
        self.post_message(WriteDone(what, ids, note, select=entry.id if (select_result and entry) else None, undo=step))

    def on_write_done(self, message: WriteDone) -> None:
        self.notify(message.what + (f" ({message.note})" if message.note else ""), title="Done", timeout=3)
        if message.undo is not None:
            self.undo_list.append(message.undo)
        self.refresh_all(message.entry_ids, select=message.select)

    # ---- undo ------------------------------------------------------------------------------------
    def action_undo(self) -> None:
        """u: take back the newest write on the undo list (in Review, u undoes a resolution)."""
        if not self.undo_list:
            self.notify("Nothing to undo: this session's writes are all taken back (or none made).", title="Undo")
            return
        if not self.can_write("undo"):
            return
        step = self.undo_list.pop()

        def failed(detail: dict[str, Any]) -> None:
            self.undo_list.append(step)  # still there to try again once the way is clear
            self.notify(detail.get("message", ""), title=f"Cannot undo: {step.what}", severity="error", timeout=10)

        self.write(f"undid: {step.what}", lambda engine: self._undo(engine, step), on_refused=failed)

    @staticmethod
    async def _undo(engine: MemoryEngine, step: UndoStep) -> Any:
        return Bulk(await engine.undo(step), action="undone")

    def action_undo_list(self) -> None:
        from .screens.dialogs import TextScreen

        body = Text()
        if not self.undo_list:
            body.append("Nothing to undo yet.")
        for n, step in enumerate(reversed(self.undo_list)):
            body.append(f"{'u →' if n == 0 else '   '} {step.what}\n", style="bold" if n == 0 else "")
        body.append("\nu takes back the top one; purged entries are kept here until the app closes.", style="dim")
        self.push_screen(TextScreen(f"Undo list ({len(self.undo_list)})", body))

    def on_write_failed(self, message: WriteFailed) -> None:
        if message.retry is not None and message.detail:
            message.retry(message.detail)
            return
        title = f"Busy: {message.what}" if message.busy else f"Refused: {message.what}"
        self.notify(message.message, title=title, severity="warning" if message.busy else "error", timeout=10)

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

    # ---- edit / add / purge / decay flows --------------------------------------------------------
    def edit_entry(self, entry: MemoryEntry, text: Optional[str] = None, note: str = "") -> None:
        from .screens.dialogs import EditScreen, RefusalScreen

        if text is None and not self.can_write("edit"):  # (back from a refusal: the typed text reopens)
            return

        def edited(new_text: Optional[str]) -> None:
            if new_text is None:
                return
            if new_text == entry.content:
                self.notify("Content unchanged: nothing written.")
                return

            def refused(detail: dict[str, Any]) -> None:
                def after(choice: Optional[str]) -> None:
                    if choice == "edit":
                        self.edit_entry(entry, new_text, note=f"Refused: {detail.get('message', '')}")

                self.push_screen(RefusalScreen(f"edit of {entry.key}", detail, new_text), after)

            self.write(
                f"edited {entry.key}",
                lambda engine: engine.edit(entry.id, new_text),
                on_refused=refused,
                select_result=True,
                undo_ids=[entry.id],
            )

        if entry.superseded_by is not None:
            self._edit_head(entry)
            return
        self.push_screen(EditScreen(entry, text, note), edited)

    @work(group="edit-head")
    async def _edit_head(self, old: MemoryEntry) -> None:
        """An edit always writes the head: a superseded version opens the head, saying so
        before the user types."""
        head, seen = old, {old.id}
        try:
            while head.superseded_by is not None and head.superseded_by not in seen:
                seen.add(head.superseded_by)
                head = await self.engine.get(head.superseded_by)
        except (EntryNotFound, StoreError) as exc:
            self.notify(f"Cannot find the head of {old.key}: {exc}", title="Edit", severity="error")
            return
        if head.key != old.key or head.type != old.type:
            self.notify(
                f"v{old.version} of {old.key} lost to {head.key}; restore or undo that first.", title="Edit", severity="warning"
            )
            return
        self.edit_entry(head, note=f"v{old.version} is superseded: you are editing the head, v{head.version}.")

    def action_add_entry(self, values: Optional[dict[str, Any]] = None, note: str = "") -> None:
        from .screens.dialogs import AddEntryScreen, RefusalScreen

        if values is None and not self.can_write("adding an entry"):  # (back from a refusal: the form reopens)
            return

        def submitted(form: Optional[dict[str, Any]]) -> None:
            if form is None:
                return
            tags = [t.strip() for t in form["tags"].split(",") if t.strip()]

            def refused(detail: dict[str, Any]) -> None:
                def after(choice: Optional[str]) -> None:
                    if choice == "edit":
                        self.action_add_entry(form, note=f"Refused: {detail.get('message', '')}")

                self.push_screen(RefusalScreen(f"new entry {form['key']}", detail, form["content"]), after)

            self.write(
                f"added {form['key']}",
                lambda engine: engine.add(
                    form["key"], form["content"], form["type"], form["source"], tags, float(form["importance"]), actor="user"
                ),
                on_refused=refused,
            )

        self.push_screen(AddEntryScreen(values, note), submitted)

    def confirm_purge(self, entry: MemoryEntry) -> None:
        from .screens.dialogs import ConfirmScreen

        if not self.can_write("purge"):
            return
        if entry.tier.label != "archival":
            self.notify(
                f"Only archived entries can be purged; {entry.key} is {entry.tier.label}. Archive it first.",
                title="Purge",
                severity="warning",
            )
            return
        body = Text()
        body.append("Delete this archived entry for good?\n\n")
        body.append(f"{entry.key}  v{entry.version}\n", style="bold")
        body.append(entry.content + "\n\n")
        body.append("u undoes the purge until the app closes; after that it is gone (the audit log keeps a record).", style="dim")

        def confirmed(yes: Optional[bool]) -> None:
            if yes:
                self.write(f"purged {entry.key} v{entry.version}", lambda engine: engine.purge(entry.id), undo_ids=[entry.id])

        self.push_screen(ConfirmScreen("Purge entry", body, "Purge"), confirmed)

    BULK = {  # action -> (which marked entries it applies to, the engine call); pin is decided below
        "archive": (lambda e: e.tier.label == "semantic", lambda engine, e: engine.archive(e.id)),
        "restore": (lambda e: e.tier.label == "archival", lambda engine, e: engine.restore(e.id)),
        "purge": (lambda e: e.tier.label == "archival", lambda engine, e: engine.purge(e.id)),
    }

    def bulk_write(
        self, action: str, marked: list[MemoryEntry], rule: Optional[tuple[Callable, Callable]] = None, note: str = ""
    ) -> None:
        """One confirmation for every marked entry, then one write and one undo for all of them.
        rule: (which entries it applies to, the engine call) for an action not in BULK (tag)."""
        from .screens.dialogs import ConfirmScreen

        if not self.can_write(f"{action} of the marked entries"):
            return
        if rule is not None:
            verb, (applies, call) = action, rule
        elif action == "pin":  # pin them all, or unpin them all when every one is pinned already
            pin = not all(e.pinned for e in marked)
            verb = "pin" if pin else "unpin"
            applies = lambda e: e.pinned != pin  # noqa: E731
            call = lambda engine, e: engine.pin(e.id) if pin else engine.unpin(e.id)  # noqa: E731
        else:
            verb, (applies, call) = action, self.BULK[action]
        targets = [e for e in marked if applies(e)]
        skipped = len(marked) - len(targets)
        if not targets:
            self.notify(f"Nothing to {verb}: none of the {len(marked)} marked entries qualifies.", title=verb.title())
            return
        body = Text()
        body.append(f"{verb.title()} {len(targets)} marked entr{'y' if len(targets) == 1 else 'ies'}?\n\n", style="bold")
        if note:
            body.append(note + "\n\n")
        for entry in targets[:12]:
            body.append(f"  {entry.key}  v{entry.version}  {entry.tier.label}\n")
        if len(targets) > 12:
            body.append(f"  … and {len(targets) - 12} more\n")
        if skipped:
            body.append(
                f"\n{skipped} marked entr{'y is' if skipped == 1 else 'ies are'} left out (nothing to {verb}).\n", style="dim"
            )
        body.append("\nu undoes all of them at once.", style="dim")
        what = f"{verb} {len(targets)} entries"

        async def run(engine: MemoryEngine) -> Bulk:
            done = Bulk([])
            for entry in targets:
                try:
                    outcome = await call(engine, entry)
                    done.changed.extend(outcome.changed or [outcome.entry])
                except (WriteRejected, EntryNotFound, InvalidValue) as exc:  # named in the notice; the rest land
                    done.refused.append(f"{entry.key}: {getattr(exc, 'message', exc)}")
            return done

        def confirmed(yes: Optional[bool]) -> None:
            if yes:
                self.memory_view.browser.set_marks([])
                self.write(what, run, undo_ids=[e.id for e in targets])

        self.push_screen(
            ConfirmScreen(f"{verb.title()} marked entries", body, verb.title(), danger=action in ("archive", "purge")), confirmed
        )

    def tag_entries(self, entries: list[MemoryEntry]) -> None:
        """t: tags to add and remove on the marked entries (or the one under the cursor), then
        one confirmation listing them; each tagged entry gets a new version, one undo for all."""
        from .screens.dialogs import TagScreen

        if not self.can_write("tagging"):
            return
        present = sorted({t for e in entries for t in e.tags}, key=str.lower)

        def chosen(lists: Optional[tuple[list[str], list[str]]]) -> None:
            if not lists:
                return
            add, remove = lists
            gone = {t.lower() for t in remove}

            def applies(e: MemoryEntry) -> bool:
                have = {t.lower() for t in e.tags}
                live = e.superseded_by is None and e.tier is MemoryTier.SEMANTIC
                return live and (bool(have & gone) or any(t.lower() not in have for t in add))

            change = " ".join([f"+{t}" for t in add] + [f"-{t}" for t in remove])
            self.bulk_write(
                "tag",
                entries,
                rule=(applies, lambda engine, e: engine.retag(e.id, add, remove)),
                note=f"Tags: {change} (each tagged entry gets a new version)",
            )

        self.push_screen(TagScreen(len(entries), present), chosen)

    def action_decay(self) -> None:
        if self.engine is None:
            self.notify("No store is open.", severity="error")
            return
        self._decay_preview()

    @work(exclusive=True, group="decay")
    async def _decay_preview(self) -> None:
        """The preview reads the store a page at a time with a progress line; stopping it
        writes nothing. Apply archives what the preview showed, a batch per transaction."""
        from .screens.dialogs import DecayPreviewScreen

        job = self.start_job("Decay preview")
        try:
            run = await self.retry_busy(lambda: self.engine.decay_preview(job.update, job.cancelled))
        except Exception as exc:
            self.notify(f"{type(exc).__name__}: {exc}", title="Decay preview failed", severity="error")
            return
        finally:
            self.end_job(job)
        if run.cancelled:
            self.notify(f"Decay preview stopped at {run.done:,} / {run.total:,} entries: nothing was written.", title="Decay")
            return
        changes = run.items
        threshold = float(self.engine.settings.get("memory.archiveThreshold"))

        def decided(apply: Optional[bool]) -> None:
            if apply:
                self.write(
                    f"decay pass archived {len(changes)} entries",
                    lambda engine: self._apply_decay(engine, changes),
                    undo_ids=[c.entry.id for c in changes],
                )

        self.push_screen(DecayPreviewScreen(changes, threshold, self.read_only), decided)

    async def _apply_decay(self, engine: MemoryEngine, changes: list[Any]) -> Bulk:
        job = self.start_job("Decay apply")
        try:
            run = await engine.decay_apply(changes, job.update, job.cancelled)
        finally:
            self.end_job(job)
        archived = len(run.items)
        skipped = run.done - archived  # pinned, recalled or edited since the preview
        note = f"{skipped} changed since the preview, left as they are" if skipped else ""
        if run.cancelled:
            note = f"stopped: {archived:,} archived in whole batches, {run.total - run.done:,} untouched" + (
                f"; {note}" if note else ""
            )
        return Bulk([c.entry for c in run.items], what=f"decay pass archived {archived:,} entries", note=note)

    async def action_consolidate(self) -> None:
        if not self.can_write("consolidation"):
            return
        await self.ensure_view("review")
        self._consolidate()

    @work(exclusive=True, group="consolidate")
    async def _consolidate(self) -> None:
        """Every session with new messages, a session at a time with a job line; a stop
        lets the session in hand finish. The review view shows the runs."""
        from .widgets.review import ReviewView

        job = self.start_job("Consolidation (sessions)")
        try:
            run = await self.engine.consolidate_sessions(job.update, job.cancelled)
        except Exception as exc:
            self.notify(f"{type(exc).__name__}: {exc}", title="Consolidation failed", severity="error")
            return
        finally:
            self.end_job(job)
        if run.cancelled:
            self.notify(
                f"Consolidation stopped after {run.done} of {run.total} sessions; the others keep their "
                "messages for the next run.",
                title="Consolidation",
            )
        self._view_widget("review").post_message(ReviewView.Consolidated(run.items))


def run_app(db_path: str | os.PathLike, settings: Optional[Settings] = None, read_only: bool = False, **kwargs: Any) -> int:
    """The CLI's no-command path: run the app, return an exit code."""
    started = time.perf_counter()
    app = EchoMemoryApp(db_path, settings, read_only=read_only, **kwargs)
    app.mark("module_imported", IMPORTED_AT)
    app.mark("run_app", started)
    result = app.run()
    return int(result or 0) if isinstance(result, int) else (app.return_code or 0)
