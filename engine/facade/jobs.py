"""Long work with progress and stop, for the app's progress screens and the CLI:
decay preview and apply, and consolidating every session with new messages."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Optional

from ..actors import AnyActor
from ..decay import CancelFn, ProgressFn, below_threshold, report, stop_requested
from ..gate import DecayChange
from ..store import ENTRY_COLUMNS, row_to_entry
from .core import EngineCore

DECAY_PAGE = 2000  # entries a decay preview reads between progress reports
DECAY_BATCH = 500  # entries a decay apply archives per transaction


def _decay_candidates(rows: list, now: datetime, base: float, threshold: float) -> list[DecayChange]:
    """A page of the decay preview, scored (CPU work: run in a thread, off the caller's loop)."""
    entries = [row_to_entry(r) for r in rows]
    return [DecayChange(e, eff, "archive") for e, eff in below_threshold(entries, now, base, threshold)]


@dataclass
class JobRun:
    """Long work with progress and stop: what it found or made (decay changes, consolidation
    runs), how many of total it went through, and whether the caller stopped it."""

    items: list[Any] = field(default_factory=list)
    done: int = 0
    total: int = 0
    cancelled: bool = False


class JobsMixin(EngineCore):
    """Long work a caller can follow and stop."""

    # ---- long work with progress and cancel: decay preview and apply (issue 9) -------------
    async def decay_preview(
        self, progress: Optional[ProgressFn] = None, cancelled: Optional[CancelFn] = None, page: int = DECAY_PAGE
    ) -> "JobRun":
        """What a decay pass would archive, read a page at a time so the caller can show
        counts and stop between pages (a cancelled preview returns what it had found)."""
        threshold = float(self.settings.get("memory.archiveThreshold"))
        now, base = self.clock(), self.settings.half_life_days
        live = "tier='semantic' AND superseded_by IS NULL"
        total = (await self.store.fetchone(f"SELECT count(*) FROM entries WHERE {live}"))[0]
        run = JobRun(total=total)
        report(progress, 0, total)
        last = ""
        while not stop_requested(cancelled):
            rows = await self.store.fetchall(
                f"SELECT {ENTRY_COLUMNS} FROM entries WHERE {live} AND id > ? ORDER BY id LIMIT ?", (last, page)
            )
            if not rows:
                return run
            last = rows[-1][0]
            run.items += await asyncio.to_thread(_decay_candidates, rows, now, base, threshold)  # the loop keeps drawing
            run.done = min(total, run.done + len(rows))
            report(progress, run.done, total)
            await asyncio.sleep(0)  # a page at a time: the caller's event loop keeps drawing
        run.cancelled = True
        return run

    async def decay_apply(
        self,
        changes: list[DecayChange],
        progress: Optional[ProgressFn] = None,
        cancelled: Optional[CancelFn] = None,
        batch: int = DECAY_BATCH,
        actor: AnyActor = None,
    ) -> "JobRun":
        """Archive previewed changes in batches of `batch`, one transaction each: a batch
        lands whole or not at all. A cancel stops between batches; the batches done stay
        archived (each entry audited), the rest are untouched, and one `decay_run` audit
        record says how many were archived of how many and whether it was cancelled."""
        who = self.who(actor)
        run = JobRun(total=len(changes))
        report(progress, 0, run.total)
        for start in range(0, len(changes), batch):
            if stop_requested(cancelled):
                run.cancelled = True
                break
            chunk = changes[start : start + batch]
            run.items += await self.gate.archive_decayed(chunk, who)
            run.done += len(chunk)
            report(progress, run.done, run.total)
        await self.gate.archive_decayed(
            [],
            who,
            summary={"candidates": run.total, "checked": run.done, "archived": len(run.items), "cancelled": run.cancelled},
        )
        return run

    async def consolidate_sessions(self, progress: Optional[ProgressFn] = None, cancelled: Optional[CancelFn] = None) -> "JobRun":
        """Consolidate every session with new messages, oldest first, one at a time, with
        sessions done as progress; a stop waits for the session in hand (each lands whole)
        and leaves the rest for the next run. items: the runs made."""
        service = self.consolidation
        keys = await service.sessions_to_consolidate()
        run = JobRun(total=len(keys))
        report(progress, 0, run.total)
        if not keys:  # still resumes a job a closed process left
            run.items = await service.consolidate(None)
        for key in keys:
            if stop_requested(cancelled):
                run.cancelled = True
                break
            run.items += await service.consolidate(key)
            run.done += 1
            report(progress, run.done, run.total)
        return run
