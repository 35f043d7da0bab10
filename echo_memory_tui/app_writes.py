"""Every write the app makes: the one worker that runs them (busy retries,
refusals, the undo list), and the flows that lead to one (edit, add, purge,
bulk actions, tags, decay, consolidation). Mixed into EchoMemoryApp (app.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, Optional

from rich.text import Text
from textual import work

from engine import (
    EntryNotFound,
    InvalidValue,
    MemoryEngine,
    MemoryEntry,
    MemoryTier,
    ReadOnlyStore,
    StoreError,
    UndoStep,
    WriteRejected,
)

from .busy import is_busy, retry_busy
from .failures import ENGINE_FAILURES
from .messages import (
    WriteDone,
    WriteFailed,
)
from .widgets.progress import Job
from .widgets.status import StatusBar


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


class Writes:
    """EchoMemoryApp's writes and the flows that lead to them."""

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
        except ENGINE_FAILURES as exc:
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

        run = await self._job(
            "Decay preview",
            "Decay preview failed",
            lambda job: self.retry_busy(lambda: self.engine.decay_preview(job.update, job.cancelled)),
        )
        if run is None:
            return
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

    async def _job(self, title: str, failed: str, call: Callable[[Job], Awaitable[Any]]) -> Any:
        """call(job) with a job line (progress, stop) while it runs; None when the engine
        failed, said in a notice titled `failed`."""
        job = self.start_job(title)
        try:
            return await call(job)
        except ENGINE_FAILURES as exc:
            self.notify(f"{type(exc).__name__}: {exc}", title=failed, severity="error")
            return None
        finally:
            self.end_job(job)

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

        run = await self._job(
            "Consolidation (sessions)",
            "Consolidation failed",
            lambda job: self.engine.consolidate_sessions(job.update, job.cancelled),
        )
        if run is None:
            return
        if run.cancelled:
            self.notify(
                f"Consolidation stopped after {run.done} of {run.total} sessions; the others keep their "
                "messages for the next run.",
                title="Consolidation",
            )
        self._view_widget("review").post_message(ReviewView.Consolidated(run.items))
