"""The app's background work, each in its own worker: entry counts for the status
line, the embedding model's load and backlog, live reload of other processes'
commits, the config file followed on disk, and the agent sources line with its
folder syncs. Mixed into EchoMemoryApp (app.py)."""

from __future__ import annotations

import asyncio
import gc
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, Optional

from rich.text import Text
from textual import work
from textual.css.query import NoMatches, WrongType
from textual.widgets import TabbedContent

from engine import (
    Actor,
    ConfigError,
    MemoryEngine,
    Settings,
    learned_status,
)

from . import collector, keys
from .app_navigation import VIEW_TITLES
from .busy import is_busy
from .failures import ENGINE_FAILURES
from .messages import (
    DataChanged,
    RecallState,
    StatsLoaded,
    StoreChanged,
)
from .widgets.progress import Job
from .widgets.sources import RECENT_MINUTES, SourcesBar, SyncState, SyncStatus, sources_text
from .widgets.status import StatusBar


def freeze_heap() -> None:
    """Take what the app keeps for its whole life (modules, widgets, the recall indexes, the
    model) out of the cyclic collector's walk, and collect again: at 100k entries a full
    collection walked ~520k objects, ~0.3 s of CPU with the GIL held, the loop's longest
    stall while other processes wrote. Objects made later are collected as before. No
    collection first: it would walk everything the warm-up made (~1 s on a loaded machine);
    the one after the freeze walks nothing and paces the next ones (collector.freeze)."""
    collector.freeze()
    gc.enable()


STATS_PAUSE_SECONDS = 0.3
WARM_IDLE_SECONDS = 2.0  # no key for this long before the recall warm-up starts (_start_warm)


class BackgroundWork:
    """EchoMemoryApp's background workers (this module's docstring lists them)."""

    # ---- stats -------------------------------------------------------------------------
    def load_stats(self) -> None:
        """Ask for fresh counts. They share the one connection with the browser's page
        reads, and at 1M entries a count is a pass over an index: so it waits
        STATS_PAUSE_SECONDS first, and only one count waits at a time, so a burst of
        refreshes (a live reload of many writes) costs one count. None is cancelled
        (a cancelled count would still run in the connection's thread), so a steady
        stream of changes still sees fresh counts every pause or so."""
        if not self._stats_waiting:
            self._stats_waiting = True
            self._count_stats()

    def _start_stats(self) -> None:
        """The first count, once the browser has its first rows (or after a cap)."""
        if self._stats_first_pending:
            self._stats_first_pending = False
            self.load_stats()

    @work(group="stats")
    async def _count_stats(self) -> None:
        await asyncio.sleep(STATS_PAUSE_SECONDS)
        self._stats_waiting = False
        if self.engine is None:
            return
        engine = self.engine
        try:
            stats = await self.retry_busy(engine.stats)
        except ENGINE_FAILURES as exc:
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
        blocked = stats.get("blocked_writes", 0)
        tabs = self.query_one(TabbedContent)
        try:
            for view_id, count in (("review", pending), ("quarantine", blocked)):
                tab = tabs.get_tab(view_id)
                label = VIEW_TITLES[view_id] + (f" ({count})" if count else "")
                if tab.label_text != label:  # a new label lays the whole screen out again
                    tab.label = label
        except (NoMatches, WrongType, ValueError):
            pass  # the tabs are being torn down (the app is closing)

    # ---- embedding model in the background ------------------------------------------------
    def _start_warm(self) -> None:
        """The warm-up's thread holds the GIL for long stretches (importing torch, reading
        the recall indexes: a key waited 0.3-0.8 s at 1M entries), so it waits until the
        browser's first rows are drawn and then no key or click came for WARM_IDLE_SECONDS.
        Opening the playground starts it at once (warm_now)."""
        if not self._warm_pending or self.engine is None:
            return
        shown = self.milestones.get("first_rows")
        wait = WARM_IDLE_SECONDS - (time.perf_counter() - max(self.last_input_at, shown or 0.0))
        if wait > 0 or shown is None or not self.memory_view.browser.rows_ready():
            if self._warm_timer is not None:
                self._warm_timer.stop()
            self._warm_timer = self.set_timer(min(max(wait, 0.1), 1.0), self._start_warm)
            return
        self.warm_now()

    def warm_now(self) -> None:
        """Start the recall warm-up if it is still waiting for a pause."""
        if self._warm_pending and self.engine is not None:
            self._warm_pending = False
            if self._warm_timer is not None:
                self._warm_timer.stop()
            self._warm_recall()

    @work(exclusive=True, group="scanner-status")
    async def _check_scanner(self) -> None:
        """A write scanner without its learned layer lets through what only that layer
        catches, so say it loudly: a red mark on the status line and the reason. Loading
        the layer reads numpy and its artifact: off the loop."""
        status = await asyncio.to_thread(learned_status)
        self.status.scanner = "" if status.enabled else "learned scanner OFF: rules only"
        if not status.enabled:
            self.notify(status.message, title="Write scanner", severity="error", timeout=20)

    @work(exclusive=True, group="recall-warm")
    async def _warm_recall(self) -> None:
        """engine.warm_recall() opens the recall indexes and starts the model load
        (off the loop); the status line follows engine.recall_status() until it settles.
        Meanwhile no full collection runs (each walked the ~500k objects the load makes,
        0.3 s with the GIL held); once it settles they are frozen (freeze_heap)."""
        engine = self.engine
        self.post_message(RecallState("loading", "embeddings loading…"))
        gc.disable()
        job: Optional[Job] = None
        try:
            try:
                await engine.warm_recall()
            except ENGINE_FAILURES as exc:
                self.post_message(RecallState("failed", f"embeddings failed: {type(exc).__name__}: {exc}"))
                return
            for _ in range(1200):
                job = await self._follow_backlog(job)
                state = self._recall_state()
                self.post_message(RecallState(*state))
                if state[0] != "loading" and not gc.isenabled():
                    freeze_heap()
                if self.embedding_paused and not engine.embedding_running():
                    return  # paused, and the batches that were running are saved (the line shows them)
                if not self.embedding_paused and state[0] != "loading" and not state[1].startswith("embedding "):
                    return  # loaded (or failed) and no backlog left to count
                await asyncio.sleep(0.5)
        finally:
            if not gc.isenabled():
                freeze_heap()
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
        except ENGINE_FAILURES as exc:
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
        if status.state == "not_loaded" and self._warm_pending:
            label = "embeddings load once keys pause"
        if status.state == "failed" and status.message:
            label += f": {status.message}"
        if status.reranker_state == "failed":
            label += " · reranker failed (recall keeps the RRF order)"
        return status.state, label

    @work(group="recall-status")
    async def _first_recall_state(self) -> None:
        """The status line's first word on the model: the engine imports its recall modules
        for it in a thread (prepare_recall; on the loop they held it ~0.1 s at start-up)."""
        engine = self.engine
        if engine is None:
            return
        try:
            await engine.prepare_recall()
        except ENGINE_FAILURES:
            pass  # _recall_state says what failed
        self._report_recall_state()

    def _report_recall_state(self) -> None:
        self.post_message(RecallState(*self._recall_state()))

    def on_recall_state(self, message: RecallState) -> None:
        if not self.query(StatusBar):  # the app is closing and its widgets are gone
            return
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
            except ENGINE_FAILURES as exc:
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
        except ENGINE_FAILURES as exc:  # e.g. the folder went away: the app goes on without following it
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
        except ENGINE_FAILURES:
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
                except ENGINE_FAILURES as exc:  # shown on the sources line; try again shortly
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
