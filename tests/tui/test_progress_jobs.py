"""Long work the app starts is visible and can be stopped (issue 9, "Progress and cancel
for long work"): a progress line with counts, rate and ETA above the status line, the
stop key in the footer while a job runs, the app usable meanwhile, and a stopped
decay apply that leaves whole batches archived (audited, undoable) and the rest as
they were. The engine is held at a page or batch boundary by the test, so nothing
here depends on timing."""

from __future__ import annotations

import asyncio
import functools
import threading
from datetime import timedelta
from pathlib import Path

import pytest

from echo_memory_tui.widgets.progress import Job, duration, job_line
from engine import MemoryEngine, MemoryTier

from .conftest import NOW, frozen_clock, ready, recall_settings, wait_until

N = 45


@pytest.fixture
def stale_db(tmp_path: Path) -> Path:
    """N entries last touched 400 days before NOW: every one is under the archive threshold."""
    path = tmp_path / "stale.db"

    async def build() -> None:
        engine = await MemoryEngine.open(path, clock=lambda: NOW - timedelta(days=400), actor="user")
        try:
            for n in range(N):
                await engine.add(f"old/{n:02d}", f"stale fact number {n}", importance=0.1)
        finally:
            await engine.close()

    asyncio.run(build())
    return path


class Hold:
    """Stops the engine at the start of its second page or batch until released."""

    def __init__(self) -> None:
        self.calls = 0
        self.reached = asyncio.Event()
        self.release = asyncio.Event()

    async def wait(self) -> None:
        self.calls += 1
        if self.calls == 2:
            self.reached.set()
            await self.release.wait()


def held_engine(hold: Hold, what: str):
    """The real engine, with small pages/batches and `hold` at the second one."""

    async def factory(path, settings, read_only, clock):
        engine = await MemoryEngine.open(path, settings, read_only=read_only, clock=clock)
        if what == "apply":
            archive = engine.gate.archive_decayed

            async def held_archive(changes, actor, summary=None):
                if changes:
                    await hold.wait()
                return await archive(changes, actor, summary)

            engine.gate.archive_decayed = held_archive
            engine.decay_apply = functools.partial(engine.decay_apply, batch=10)
        else:
            fetchall = engine.store.fetchall

            async def held_fetchall(sql, params=()):
                if "ORDER BY id LIMIT" in sql:
                    await hold.wait()
                return await fetchall(sql, params)

            engine.store.fetchall = held_fetchall
            engine.decay_preview = functools.partial(engine.decay_preview, page=10)
        return engine

    return factory


async def tiers(db: Path) -> dict[str, MemoryTier]:
    """Tier by entry id, in id order (the order a decay pass walks)."""
    engine = await MemoryEngine.open(db, read_only=True, clock=frozen_clock)
    try:
        return {e.id: e.tier for e in sorted(await engine.list_entries(), key=lambda e: e.id)}
    finally:
        await engine.close()


async def audit(db: Path, action: str):
    engine = await MemoryEngine.open(db, read_only=True, clock=frozen_clock)
    try:
        return await engine.audit(action=action)
    finally:
        await engine.close()


def panel_text(app) -> str:
    panel = app.jobs
    return str(panel.render()) if panel.jobs else ""


def footer_keys(app) -> set[str]:
    return {b.binding.action for b in app.active_bindings.values() if app.check_action(b.binding.action, ()) is True}


def notices(app) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


async def test_stopping_a_decay_apply_keeps_whole_batches_audited_and_undoable(stale_db, make_app):
    hold = Hold()
    app = make_app(stale_db, engine_factory=held_engine(hold, "apply"))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        assert not app.jobs.display or not app.jobs.jobs
        assert "cancel_job" not in footer_keys(app)  # no job: no stop key in the footer
        await pilot.press("D")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "DecayPreviewScreen", what="preview")
        app.screen.query_one("#yes").press()  # Archive N
        await wait_until(pilot, hold.reached.is_set, timeout=30, what="first batch archived")
        await wait_until(pilot, lambda: "10 / 45" in panel_text(app), what="progress line")
        line = panel_text(app)
        assert line.startswith("Decay apply") and "ETA" in line and "ctrl+c stop" in line
        assert "cancel_job" in footer_keys(app)
        # the app is not blocked while the job runs: the cursor moves
        browser = app.memory_view.browser
        first = browser.current_entry()
        await pilot.press("j")
        await wait_until(pilot, lambda: browser.current_entry() is not first, what="cursor moved")
        await pilot.press("ctrl+c")
        assert "stopping" in panel_text(app)
        hold.release.set()
        await wait_until(pilot, lambda: any(n.startswith("Done") for n in notices(app)), what="apply done")
        await wait_until(pilot, lambda: not app.jobs.jobs, what="job line gone")
        assert "cancel_job" not in footer_keys(app)
        done = [n for n in notices(app) if n.startswith("Done")][-1]
        assert "decay pass archived 20 entries" in done and "stopped" in done and "25 untouched" in done
    now = await tiers(stale_db)
    ids = list(now)
    assert [now[i] for i in ids[:20]] == [MemoryTier.ARCHIVAL] * 20  # two whole batches of 10
    assert [now[i] for i in ids[20:]] == [MemoryTier.SEMANTIC] * 25  # the rest untouched
    assert len(await audit(stale_db, "archive")) == 20
    [run] = await audit(stale_db, "decay_run")
    assert run.detail == {"candidates": 45, "checked": 20, "archived": 20, "cancelled": True}


async def test_undo_takes_back_a_stopped_decay_apply(stale_db, make_app):
    hold = Hold()
    app = make_app(stale_db, engine_factory=held_engine(hold, "apply"))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "DecayPreviewScreen", what="preview")
        app.screen.query_one("#yes").press()  # Archive N
        await wait_until(pilot, hold.reached.is_set, timeout=30, what="first batch archived")
        await pilot.press("ctrl+c")
        hold.release.set()
        await wait_until(pilot, lambda: app.undo_list, what="undo step")
        assert app.undo_list[-1].what == "decay pass archived 20 entries"
        await pilot.press("u")
        await wait_until(pilot, lambda: any(n.startswith("Done: undid") for n in notices(app)), what="undone")
    assert set((await tiers(stale_db)).values()) == {MemoryTier.SEMANTIC}


async def test_stopping_a_decay_preview_writes_nothing_and_opens_no_dialog(stale_db, make_app):
    hold = Hold()
    app = make_app(stale_db, engine_factory=held_engine(hold, "preview"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("D")
        await wait_until(pilot, hold.reached.is_set, what="first page read")
        await wait_until(pilot, lambda: "10 / 45" in panel_text(app), what="progress line")
        assert panel_text(app).startswith("Decay preview")
        await pilot.press("ctrl+c")
        hold.release.set()
        await wait_until(pilot, lambda: any("stopped at 20 / 45" in n for n in notices(app)), what="stopped")
        await pilot.pause(0.2)
        assert len(app.screen_stack) == 1 and not app.jobs.jobs
    assert set((await tiers(stale_db)).values()) == {MemoryTier.SEMANTIC}
    assert await audit(stale_db, "archive") == [] and await audit(stale_db, "decay_run") == []


async def test_ctrl_c_without_a_job_stops_nothing_and_says_how_to_quit(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+c")
        await pilot.pause(0.1)
        assert not any(n.startswith("Stop") for n in notices(app))
        assert app.is_running


def test_job_line_counts_rate_and_eta():
    t = [100.0]
    job = Job("Embedding backlog", clock=lambda: t[0])
    job.update(0, 100_000)
    t[0] += 10
    job.update(1_234, 100_000)
    line = str(job_line(job, "^c"))
    assert line.startswith("Embedding backlog ") and "1,234 / 100,000" in line
    assert "123/s" in line and "ETA 13:20" in line and line.endswith("^c stop")
    assert duration(3723) == "1:02:03" and duration(None) == "—"
    job.cancel()
    assert job.cancelled() and "stopping" in str(job_line(job, "^c"))


# ---- the embedding backlog --------------------------------------------------------------------
BACKLOG = 200


@pytest.fixture
def unembedded_db(tmp_path: Path) -> Path:
    """BACKLOG entries and no vectors: all of them wait for the embedding model."""
    path = tmp_path / "backlog.db"

    async def build() -> None:
        engine = await MemoryEngine.open(path, clock=frozen_clock, actor="user")
        try:
            for n in range(BACKLOG):
                await engine.add(f"fact/{n:03d}", f"fact number {n} about topic {n % 7}")
        finally:
            await engine.close()

    asyncio.run(build())
    return path


def held_embedder():
    """The fake embedder, held inside its second batch until released (a thread event)."""
    from tests.engine.recall.helpers import FakeEmbedder

    class Held(FakeEmbedder):
        def __init__(self, name: str) -> None:
            super().__init__(name)
            self.batches = 0
            self.reached = threading.Event()
            self.release = threading.Event()

        def encode_sync(self, texts, batch_size: int = 64):
            self.batches += 1
            if self.batches == 2:
                self.reached.set()
                self.release.wait(20)
            return super().encode_sync(texts, batch_size)

    return Held("fake")


async def test_stopping_the_embedding_backlog_pauses_it_until_E(unembedded_db, make_app, monkeypatch):
    # one batch at a time, so "the second batch" is the one after the first settled (with
    # two workers the held batch could be the first in the queue and nothing would settle)
    import engine.recall.backfill as backfill_module
    import engine.recall.embedder as embedder_module

    monkeypatch.setattr(embedder_module, "BACKFILL_WORKERS", 1)
    monkeypatch.setattr(backfill_module, "BACKFILL_WORKERS", 1)
    embedder = held_embedder()

    async def factory(path, settings, read_only, clock):
        return await MemoryEngine.open(
            path, settings, read_only=read_only, clock=clock, embedder_factory=lambda name, **kw: embedder
        )

    app = make_app(unembedded_db, recall_settings(), engine_factory=factory, warm_recall=True)
    try:
        async with app.run_test(size=(120, 32)) as pilot:
            await ready(pilot)
            await wait_until(pilot, embedder.reached.is_set, what="second batch started")
            await wait_until(pilot, lambda: f"32 / {BACKLOG}" in panel_text(app), what="backlog line")
            assert panel_text(app).startswith("Embedding backlog")
            assert "cancel_job" in footer_keys(app)
            await pilot.press("ctrl+c")
            await wait_until(pilot, lambda: any("Embedding paused" in n for n in notices(app)), what="paused")
            left = BACKLOG - 32
            assert any(f"{left:,} entries have no vector" in n and "E resumes" in n for n in notices(app))
            embedder.release.set()  # the batches already running finish and are saved
            await wait_until(pilot, lambda: not app.jobs.jobs, what="job line gone")
            backfill = app.engine.recall_service.backfill
            await wait_until(pilot, lambda: backfill.task is None or backfill.task.done(), what="batches saved")
            pending = app.engine.recall_status().pending
            await wait_until(
                pilot, lambda: app.status.model == f"embedding {BACKLOG - pending} / {BACKLOG} paused", what="status says paused"
            )
            await pilot.pause(0.6)  # nothing picks the backlog up again
            assert 0 < app.engine.recall_status().pending == pending
            await pilot.press("E")
            await wait_until(pilot, lambda: app.engine.recall_status().pending == 0, what="backlog embedded")
            await wait_until(pilot, lambda: app.status.model == "embeddings ready", what="ready")
            assert not app.jobs.jobs
    finally:
        embedder.release.set()


# ---- consolidation ----------------------------------------------------------------------------
async def test_stopping_consolidation_finishes_the_session_in_hand_and_leaves_the_rest(demo_db, make_app):
    from echo_memory_tui.screens.dialogs import TextScreen

    async def add_sessions() -> None:
        engine = await MemoryEngine.open(demo_db, clock=frozen_clock, actor="user")
        try:
            for key, text in (("s-editor", "I switched my editor to helix."), ("s-shell", "My shell is fish now.")):
                await engine.open_session(key)
                await engine.add_message(key, "user", text)
        finally:
            await engine.close()

    await add_sessions()
    hold = Hold()

    async def factory(path, settings, read_only, clock):
        engine = await MemoryEngine.open(path, settings, read_only=read_only, clock=clock)
        consolidate = engine.consolidation.consolidate

        async def held(key=None, trigger="manual"):
            await hold.wait()
            return await consolidate(key, trigger)

        engine.consolidation.consolidate = held
        return engine

    app = make_app(demo_db, engine_factory=factory)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        pending = await app.engine.consolidation.sessions_to_consolidate()
        assert len(pending) == 3
        await pilot.press("C")
        await wait_until(pilot, hold.reached.is_set, what="second session started")
        await wait_until(pilot, lambda: "1 / 3" in panel_text(app), what="progress line")
        assert panel_text(app).startswith("Consolidation (sessions)")
        await pilot.press("ctrl+c")
        hold.release.set()
        # the report's title mounts a frame after the screen becomes current (NoMatches under load)
        await wait_until(
            pilot, lambda: isinstance(app.screen, TextScreen) and bool(app.screen.query(".title")), timeout=30, what="run report"
        )
        assert any("stopped after 2 of 3 sessions" in n for n in notices(app))
        assert "2 run(s)" in str(app.screen.query_one(".title").render())
        assert not app.jobs.jobs
        assert await app.engine.consolidation.sessions_to_consolidate() == pending[2:]


# ---- snapshots: the job line and the dialogs around long work, at the three sizes ------------
SIZES = [(80, 24), (120, 32), (160, 48)]


async def quiet(pilot, *running: str) -> None:
    """Every worker has finished (but those of the named groups): the picture is complete."""
    app = pilot.app
    await wait_until(
        pilot, lambda: not [w for w in app.workers if not w.is_finished and w.group not in running], what="workers done"
    )
    app.clear_notifications()
    await pilot.pause(0.1)


def frozen_job(job: Job) -> None:
    """Rate and ETA from a fixed clock: 1 entry/s since the first report, so the picture is stable."""
    job.clock = lambda: 1000.0
    job.started, job.start_done = 1000.0 - job.done, 0


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_decay_apply_job_line(demo_db, make_app, snap_compare, size):
    """The demo store a year on (its clock moved, so entries have decayed), its decay
    apply held after the first batch of 10."""
    from .test_snapshots import settle

    hold = Hold()
    app = make_app(demo_db, engine_factory=held_engine(hold, "apply"), clock=lambda: NOW + timedelta(days=365))

    async def run_before(pilot):
        await ready(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "DecayPreviewScreen", what="preview")
        app.screen.query_one("#yes").press()  # Archive N
        await wait_until(pilot, hold.reached.is_set, timeout=30, what="first batch archived")
        frozen_job(app.jobs.newest())
        app.jobs.refresh()  # drawn from the frozen clock now, not at the panel's next 0.25 s tick
        await quiet(pilot, "write", "watch")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("dialog", ["help", "decay-preview", "undo-list"])
def test_snapshot_dialog_at_size(demo_db, make_app, snap_compare, dialog, size):
    from .test_snapshots import settle

    key, screen = {
        "help": ("question_mark", "HelpScreen"),
        "decay-preview": ("D", "DecayPreviewScreen"),
        "undo-list": ("U", "TextScreen"),
    }[dialog]
    app = make_app(demo_db)

    async def run_before(pilot):
        await ready(pilot)
        if dialog == "undo-list":  # something to list: a pin and an unpin
            for n in (1, 2):
                await pilot.press("p")
                await wait_until(pilot, lambda: len(app.undo_list) == n, what=f"write {n} on the undo list")
        await quiet(pilot, "watch")  # (toasts cleared before the dialog covers them)
        await pilot.press(key)
        await wait_until(pilot, lambda: type(app.screen).__name__ == screen, what=dialog)
        app.clear_notifications()
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
