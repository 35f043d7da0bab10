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
from datetime import datetime, timezone  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Awaitable, Callable, Iterable, Mapping, Optional

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Header, Static, TabbedContent, TabPane

from engine import (
    Actor,
    InvalidValue,
    MemoryEngine,
    Settings,
    StoreError,
    UndoStep,
)

from . import collector, keys
from .app_background import BackgroundWork
from .app_navigation import VIEW_TITLES, VIEWS, Navigation
from .app_writes import Writes
from .commands import EchoCommands
from .failures import ENGINE_FAILURES
from .lagprobe import LagProbe, note_heap_at_exit
from .messages import (
    EngineFailed,
    EngineReady,
    StoreChanged,
)
from .widgets.browser import EntryBrowser
from .widgets.footer import RowsFirstFooter
from .widgets.memory import MemoryView
from .widgets.progress import Job, JobPanel
from .widgets.sources import SourcesBar, SyncState
from .widgets.status import StatusBar

# The longest a burst's next key waits for focus to land (a first, lazy mount of a view).
HOLD_MAX_S = 2.0
IDLE_RELEASE_S = 30.0  # no key or click for this long: a full garbage pass cannot be felt
RELEASE_EVERY_S = 300.0  # at most one such pass per five minutes


class Views(TabbedContent):
    """The app decides which view is shown: focusing a widget in a hidden pane
    (a late focus call during a burst of view keys) must not switch to it, or two
    views take turns activating each other forever."""

    def _on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        event.stop()
        event.prevent_default()  # TabbedContent's own handler would activate the pane


class EchoMemoryApp(BackgroundWork, Navigation, Writes, App[int]):
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
        self._warm_timer: Optional[Timer] = None
        self.last_input_at = time.perf_counter()  # the last key or click (the launch, until one comes)
        self._released_at = time.perf_counter()  # the last release of frozen garbage (collector.py)
        self._stats_waiting = False  # a count is asked for and not yet begun
        self._stats_first_pending = False  # the first count waits for the first rows
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
        if isinstance(event, (events.Key, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp)):
            self.last_input_at = time.perf_counter()  # the recall warm-up waits for a pause (_start_warm)
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
        yield RowsFirstFooter()

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
            self.lag_probe.start(stacks=bool(os.environ.get("ECHO_MEMORY_LAG_STACKS")))
        self._open_or_ask()
        self.set_interval(IDLE_RELEASE_S / 3, self._release_when_idle)
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

    def _release_when_idle(self) -> None:
        """The collector policy keeps cycles that became garbage after a freeze (closed
        dialogs' widgets); once the user has left the app idle, one full pass frees them."""
        now = time.perf_counter()
        if not collector.freezing_after_full_passes():
            return
        if now - self.last_input_at < IDLE_RELEASE_S or now - self._released_at < RELEASE_EVERY_S:
            return
        self._released_at = now
        collector.release_frozen_garbage()

    def mark(self, event: str, at: Optional[float] = None) -> None:
        """Startup milestones, for benchmarks/tui_bench.py: with ECHO_MEMORY_STARTUP_LOG set,
        each is appended as JSON with a CLOCK_MONOTONIC time (comparable across processes)."""
        if event in self.milestones:
            return
        self.milestones[event] = time.perf_counter() if at is None else at
        if event == "first_rows":
            if self.warm_recall:
                # what the app has made so far (modules, widgets, the first page) lives as long
                # as it does: out of the collector's walk, which took 0.2-0.5 s a pass at 100k
                # entries while keys were pressed before the warm-up (which freezes its own too)
                collector.freeze()
            self._start_stats()
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
        except ENGINE_FAILURES as exc:  # e.g. sqlite3.DatabaseError: not a database
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
        # the counts wait for the browser's first rows (or 1 s at most): at 1M entries
        # they are a pass over an index on the connection the first page is read through
        self._stats_first_pending = True
        self.set_timer(1.0, self._start_stats)
        if "first_rows" in self.milestones:
            self._start_stats()
        self._check_scanner()
        self._start_sources()
        if self.live_enabled:
            self._watch()
        if self.warm_recall:
            # The model loads in a thread, but importing torch holds the GIL for
            # seconds: first asked once the first rows are up (or after 1.5 s at most),
            # it then waits for a pause in the keys (_start_warm).
            self._warm_pending = True
            self._first_recall_state()
            self.set_timer(1.5, self._start_warm)
            if "first_rows" in self.milestones:
                self._start_warm()
        else:
            self._first_recall_state()
        active = self.query_one(TabbedContent).active
        if active and active != "memory":
            self._start_view(active)

    # @on handlers are collected from the App class itself, not from its mixins
    @on(TabbedContent.TabActivated, "#views")
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        view_id = event.pane.id or "memory"
        await self.ensure_view(view_id)
        self._start_view(view_id)
        self._focus_view(view_id)  # only if it is still the active view once mounted

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
            note_heap_at_exit()
        for stop in (self._watch_stop, self._config_stop):
            if stop is not None:
                stop.set()
        self._stop_syncs()
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                await engine.close()  # stops consolidation and recall if they were started
            except ENGINE_FAILURES:
                pass  # closing anyway: nothing left to tell the user


def run_app(db_path: str | os.PathLike, settings: Optional[Settings] = None, read_only: bool = False, **kwargs: Any) -> int:
    """The CLI's no-command path: run the app, return an exit code."""
    started = time.perf_counter()
    app = EchoMemoryApp(db_path, settings, read_only=read_only, **kwargs)
    app.mark("module_imported", IMPORTED_AT)
    app.mark("run_app", started)
    collector.freeze_start_up()  # this process is the app's: its collector policy (collector.py)
    collector.freeze_after_full_passes()
    result = app.run()
    return int(result or 0) if isinstance(result, int) else (app.return_code or 0)
