"""View 3, Contradiction review: the pending queue (confidence, detector); the
selected pair side by side with the words that differ highlighted, provenance,
dates and versions; the verifier's explanation and what the automatic policy
would have done. Keys: keep A, keep B, keep both, merge (edit the merged
text), skip, undo; h shows the history of decisions (who decided, when, what)
with undo of any decision still in force. Every resolution goes through
engine.consolidation.

Why so long: the queue and the history share the selection, the side-by-side
pair and the undo path; splitting them would duplicate that state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine import EchoMemoryError

from .. import keys
from ..diff import sides
from ..diff import word_diff as diff_words
from ..failures import ENGINE_FAILURES
from ..format import age, bar, provenance_badge, stamp, tier_text


def word_diff(a: str, b: str) -> tuple[Text, Text]:
    """A and B with the words that differ highlighted (removed in A: red, added in B: green)."""
    return sides(diff_words(a, b, fold=True))


@dataclass
class Pair:
    record: Any
    a: Any
    b: Any


def action_label(action: str) -> str:
    """A resolution's action in words (auto:<rule> is consolidation's policy)."""
    if action.startswith("auto:"):
        return f"policy: {action[5:].replace('_', ' ')}"
    return {"keep_a": "kept A", "keep_b": "kept B", "keep_both": "kept both (dismissed)", "merge": "merged"}.get(action, action)


class ReviewView(Widget):
    BINDINGS = keys.bindings("review")

    DEFAULT_CSS = """
    ReviewView { layout: horizontal; }
    ReviewView #rv-queue-box { width: 38; border: round $primary-background; border-title-color: $text-accent; }
    ReviewView #rv-queue-box:focus-within { border: round $accent; }
    ReviewView #rv-queue { height: 1fr; border: none; scrollbar-gutter: stable; }  /* no re-wrap when a scrollbar appears */
    ReviewView #rv-main { width: 1fr; }
    ReviewView #rv-head { height: auto; border: round $primary-background; border-title-color: $text-accent;
                          padding: 0 1; }
    ReviewView #rv-sides { height: 1fr; min-height: 8; }
    ReviewView .side { width: 1fr; border: round $primary-background; border-title-color: $text-accent;
                       padding: 0 1; }
    ReviewView #rv-why { height: auto; max-height: 12; border: round $primary-background;
                         border-title-color: $text-accent; padding: 0 1; }
    ReviewView #rv-empty { padding: 1 2; color: $text-muted; display: none; }
    ReviewView.-empty #rv-empty { display: block; }
    ReviewView.-empty #rv-head, ReviewView.-empty #rv-sides, ReviewView.-empty #rv-why { display: none; }
    ReviewView #rv-decision { height: 1fr; border: round $primary-background; border-title-color: $text-accent;
                              padding: 0 1; display: none; }
    ReviewView.-history #rv-decision { display: block; }
    ReviewView.-history #rv-head, ReviewView.-history #rv-sides, ReviewView.-history #rv-why,
    ReviewView.-history #rv-empty { display: none; }
    """

    pairs: reactive[list[Pair]] = reactive(list, init=False, always_update=True)

    class Loaded(Message):
        def __init__(
            self, pairs: Optional[list[Pair]], last: Optional[Any], error: str = "", decisions: Optional[list[Any]] = None
        ) -> None:
            super().__init__()
            self.pairs = pairs
            self.last = last
            self.error = error
            self.decisions = decisions or []

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.selected_id: Optional[str] = None
        self.skipped: list[str] = []
        self.last_resolution: Optional[Any] = None  # the newest decision still in force
        self.loaded = False
        self.history_mode = False  # h: the list shows decisions made, not the pending queue
        self.decisions: list[Any] = []  # engine.decisions(), newest first
        self.selected_decision: Optional[str] = None

    def compose(self) -> ComposeResult:
        with Vertical(id="rv-queue-box") as box:
            box.border_title = "Pending"
            yield OptionList(id="rv-queue")
        with Vertical(id="rv-main"):
            yield Static(
                "No pending contradictions. Consolidation (C) finds them; resolved ones can be undone (u).", id="rv-empty"
            )
            yield Static("", id="rv-head")
            with Horizontal(id="rv-sides"):
                with VerticalScroll(id="rv-a", classes="side") as side:
                    side.border_title = "A"
                    yield Static("", id="rv-a-text")
                with VerticalScroll(id="rv-b", classes="side") as side:
                    side.border_title = "B"
                    yield Static("", id="rv-b-text")
            yield Static("", id="rv-why")
            with VerticalScroll(id="rv-decision") as box:
                box.border_title = "Decision"
                yield Static("", id="rv-decision-text")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> Optional[bool]:
        return keys.key_allowed("review", action, self.app)

    def on_mount(self) -> None:
        self.query_one("#rv-head").border_title = "Contradiction"
        self.query_one("#rv-why").border_title = "Why, and what the policy would do"

    def start(self) -> None:
        self.refresh_data()

    def linked_entry(self) -> Optional[str]:
        """ctrl+o: side A of the contradiction on screen (B opens side B)."""
        if self.history_mode:
            decision = self.current_decision()
            return decision.keys[0] if decision is not None else None
        pair = self.current_pair()
        return pair.a.id if pair is not None else None

    def action_open_side(self, side: str) -> None:
        pair = self.current_pair()
        if pair is not None and self.app.view_visible(self):
            self.app.open_entry(getattr(pair, side))

    def focus_default(self) -> None:
        self.query_one(OptionList).focus()

    def refresh_data(self, entry_ids: Optional[list[str]] = None) -> None:
        self._load()

    @work(exclusive=True, group="review")
    async def _load(self) -> None:
        engine = self.app.engine
        if engine is None:
            return
        try:
            service = self.app.consolidation()
            records = await service.contradictions("pending")
            pairs = []
            for record in records:
                try:
                    a, b = await engine.get(record.entry_a_id), await engine.get(record.entry_b_id)
                except EchoMemoryError:
                    continue  # an entry purged meanwhile: nothing to show side by side
                pairs.append(Pair(record, a, b))
            decisions = await engine.decisions()
            last = next((d for d in decisions if not d.undone_at), None)
        except ENGINE_FAILURES as exc:
            self.post_message(self.Loaded(None, None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Loaded(pairs, last, decisions=decisions))

    def on_review_view_loaded(self, message: Loaded) -> None:
        message.stop()
        self.loaded = True
        if message.pairs is None:
            self.query_one("#rv-empty", Static).update(Text(f"Could not load contradictions: {message.error}", style="red"))
            self.add_class("-empty")
            return
        self.last_resolution = message.last
        self.decisions = message.decisions
        order = {cid: i for i, cid in enumerate(self.skipped)}
        # skipped ones go to the back of the queue
        self.pairs = sorted(message.pairs, key=lambda p: (order.get(p.record.id, -1), -p.record.confidence))

    def watch_pairs(self, pairs: list[Pair]) -> None:
        if self.history_mode:
            self._show_history()
            return
        queue = self.query_one(OptionList)
        queue.clear_options()
        for pair in pairs:
            r = pair.record
            label = Text()
            label.append(f"{r.confidence:.2f} ", style="bold yellow" if r.confidence >= 0.6 else "bold")
            label.append(f"{r.kind:<8}", style="cyan")
            label.append(f" {pair.a.key}")
            if pair.b.key != pair.a.key:
                label.append(f" ~ {pair.b.key}")
            label.append(f"\n    by {r.detector or '?'}", style="dim")
            queue.add_option(Option(label, id=r.id))
        self.query_one("#rv-queue-box").border_title = f"Pending ({len(pairs)})"
        self.set_class(not pairs, "-empty")
        if self.last_resolution and not pairs:
            self.query_one("#rv-empty", Static).update(
                Text(
                    f"No pending contradictions. Last resolution: {action_label(self.last_resolution.action)} (u undoes it).",
                    style="dim",
                )
            )
        if not pairs:
            self.selected_id = None
            return
        ids = [p.record.id for p in pairs]
        index = ids.index(self.selected_id) if self.selected_id in ids else 0
        queue.highlighted = index
        self._show(pairs[index])

    @on(OptionList.OptionHighlighted, "#rv-queue")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.history_mode:
            decision = self.current_decision(event.option_id)
            if decision is not None:
                self._show_decision(decision)
            return
        pair = self.current_pair(event.option_id)
        if pair is not None:
            self._show(pair)

    def current_pair(self, cid: Optional[str] = None) -> Optional[Pair]:
        """The pair on screen (none while the history is shown: a key never acts on a hidden pair)."""
        if self.history_mode and cid is None:
            return None
        cid = cid or self.selected_id
        return next((p for p in self.pairs if p.record.id == cid), None)

    def _show(self, pair: Pair) -> None:
        self.selected_id = pair.record.id
        r, a, b = pair.record, pair.a, pair.b
        now = self.app.clock()
        head = Text()
        head.append(str(r.description or "contradiction"), style="bold")
        head.append("\nconfidence ")
        head.append(f"{r.confidence:.2f} ", style="bold yellow")
        head.append(bar(r.confidence, 10), style="yellow")
        head.append(f"  · {r.kind} · detected by {r.detector or '?'} · {age(r.created_at, now)} ago", style="dim")
        self.query_one("#rv-head", Static).update(head)
        text_a, text_b = word_diff(a.content, b.content)
        for side, entry, text, label in (("a", a, text_a, "A"), ("b", b, text_b, "B")):
            body = Table.grid(padding=(0, 1))
            body.add_column(style="dim", justify="right")
            body.add_column()
            badge = Text()
            badge.append_text(provenance_badge(entry.source))
            badge.append(" ")
            badge.append_text(tier_text(entry.tier))
            if entry.pinned:
                badge.append(" ● pinned", style="bold #f9a825")
            body.add_row("key", Text(entry.key, style="bold"))
            body.add_row(label, text)  # the statement first: in a short terminal it must still show
            body.add_row("", "")
            body.add_row("source", badge)
            body.add_row("version", f"v{entry.version}  ({entry.id[:8]})")
            body.add_row("created", f"{stamp(entry.created_at)} ({age(entry.created_at, now)})")
            body.add_row("updated", f"{stamp(entry.updated_at)} ({age(entry.updated_at, now)})")
            body.add_row("accesses", f"{entry.access_count}, last {age(entry.last_accessed, now)} ago")
            self.query_one(f"#rv-{side}-text", Static).update(body)
            self.query_one(f"#rv-{side}").border_title = f"{label} · {entry.source.label}"
        detail = r.detail
        preview = detail.get("preview", {}) or {}
        why = Table.grid(padding=(0, 1))
        why.add_column(style="dim", justify="right")
        why.add_column()
        why.add_row("verifier", Text(str(detail.get("explanation") or r.description or "—")))
        signals = detail.get("signals") or {}
        if signals:
            why.add_row("signals", "  ".join(f"{k.replace('_', ' ')} {v}" for k, v in signals.items() if v is not None))
        if preview:
            policy = Text()
            if preview.get("winner"):
                policy.append(f"keep {preview['winner'].upper()}", style="bold")
                policy.append(f" by {preview.get('rule')}")
                if preview.get("loser"):
                    policy.append(f"; {preview['loser'].upper()} would be archived")
                if preview.get("auto"):
                    policy.append(f" ({preview.get('reason', '')})", style="dim")
                else:
                    policy.append("\nnot applied: ", style="yellow")
                    policy.append(preview.get("reason", ""), style="yellow")
            else:
                policy.append(preview.get("reason", "no rule decides"), style="yellow")
            why.add_row("policy", policy)
        why.add_row("keys", Text("a keep A · b keep B · o keep both · m merge · s skip · u undo", style="dim"))
        self.query_one("#rv-why", Static).update(why)

    # ---- history of decisions ----------------------------------------------------------------
    def action_toggle_history(self) -> None:
        """h: the decisions made so far, newest first; h again: the pending queue."""
        self.history_mode = not self.history_mode
        self.set_class(self.history_mode, "-history")
        self.query_one(OptionList).clear_options()
        self.watch_pairs(self.pairs)

    def current_decision(self, rid: Optional[str] = None) -> Optional[Any]:
        rid = rid or self.selected_decision
        return next((d for d in self.decisions if str(d.resolution_id) == rid), None)

    def _show_history(self) -> None:
        queue = self.query_one(OptionList)
        queue.clear_options()
        for d in self.decisions:
            label = Text()
            label.append(f"{d.at:%m-%d %H:%M} ", style="dim")
            label.append(action_label(d.action), style="strike dim" if d.undone_at else "bold")
            label.append(f"\n    {d.keys[0]}" + (f" ~ {d.keys[1]}" if d.keys[1] != d.keys[0] else ""))
            label.append(f"\n    by {d.actor}" + (" · undone" if d.undone_at else ""), style="dim")
            queue.add_option(Option(label, id=str(d.resolution_id)))
        self.query_one("#rv-queue-box").border_title = f"History ({len(self.decisions)})"
        self.set_class(False, "-empty")
        if not self.decisions:
            self.selected_decision = None
            self.query_one("#rv-decision-text", Static).update(
                Text("No decisions yet: resolved and dismissed contradictions show here. h: back to pending.", style="dim")
            )
            return
        ids = [str(d.resolution_id) for d in self.decisions]
        index = ids.index(self.selected_decision) if self.selected_decision in ids else 0
        queue.highlighted = index
        self._show_decision(self.decisions[index])

    def _show_decision(self, d: Any) -> None:
        self.selected_decision = str(d.resolution_id)
        now = self.app.clock()
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", justify="right")
        table.add_column()
        table.add_row("decision", Text(action_label(d.action), style="bold"))
        table.add_row("who", Text(f"{d.actor}: " + ("a person" if d.by_person else "automatic (consolidation's policy)")))
        table.add_row("when", f"{stamp(d.at)} ({age(d.at, now)} ago)")
        table.add_row("A", Text(d.keys[0]))
        table.add_row("B", Text(d.keys[1]))
        if d.description:
            table.add_row("about", Text(d.description))
        if d.undone_at:
            state = Text(f"undone {stamp(d.undone_at)}; the contradiction was reopened", style="dim")
        else:
            state = Text(
                "in force: u undoes it (reopens the contradiction, brings back what it archived)"
                + ("" if d.by_person else "; it asks first"),
                style="yellow",
            )
        table.add_row("state", state)
        table.add_row("keys", Text("u undo · h pending queue · ctrl+o open A", style="dim"))
        self.query_one("#rv-decision-text", Static).update(table)

    def _undo_decision(self) -> None:
        """u in the history: undo the decision on screen; an automatic one asks first."""
        d = self.current_decision()
        if d is None:
            self.app.notify("No decision selected.", title="Undo", severity="warning")
        elif d.undone_at:
            self.app.notify(f"{action_label(d.action)} was already undone on {stamp(d.undone_at)}.", title="Undo")
        elif d.by_person:
            self._undo_resolution(d.contradiction_id, d.action)
        else:
            self._ask_reopen(d.actor, f"{d.at:%Y-%m-%d %H:%M}", d.action, list(d.keys), d.contradiction_id)

    # ---- actions ---------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        queue = self.query_one(OptionList)
        if queue.option_count:
            queue.highlighted = ((queue.highlighted or 0) + step) % queue.option_count

    def action_skip(self) -> None:
        pair = self.current_pair()
        if pair is None:
            return
        self.skipped = [c for c in self.skipped if c != pair.record.id] + [pair.record.id]
        self.action_move(1)

    def action_resolve(self, choice: str) -> None:
        pair = self.current_pair()
        if pair is None:
            self.app.notify("No contradiction selected.", severity="warning")
            return
        keep = {"keep_a": "a", "keep_b": "b", "keep_both": "both"}[choice]
        cid = pair.record.id
        loser = pair.b if keep == "a" else pair.a
        what = {
            "a": f"kept A; {loser.key} v{loser.version} archived",
            "b": f"kept B; {loser.key} v{loser.version} archived",
            "both": "kept both (dismissed)",
        }[keep]
        self.app.write(what, lambda engine: self.app.consolidation().resolve(cid, keep, actor="user"))

    def action_merge(self, text: Optional[str] = None, note: str = "") -> None:
        pair = self.current_pair()
        if pair is None:
            self.app.notify("No contradiction selected.", severity="warning")
            return
        if not self.app.can_write("merge"):
            return
        from ..screens.dialogs import MergeScreen, RefusalScreen

        cid = pair.record.id

        def merged(new_text: Optional[str]) -> None:
            if not new_text or not new_text.strip():
                return

            def refused(detail: dict[str, Any]) -> None:
                def after(choice: Optional[str]) -> None:
                    if choice == "edit":
                        self.action_merge(new_text, note=f"Refused: {detail.get('message', '')}")

                self.app.push_screen(RefusalScreen("merged text", detail, new_text), after)

            self.app.write(
                f"merged into {pair.a.key}", lambda engine: self.app.consolidation().merge(cid, new_text), on_refused=refused
            )

        self.app.push_screen(MergeScreen(pair.a, pair.b, text, note), merged)

    def action_undo(self) -> None:
        if not self.app.can_write("undo"):
            return
        if self.history_mode:
            self._undo_decision()
        else:
            self._undo()

    @work(exclusive=True, group="review-undo")
    async def _undo(self) -> None:
        """Undo takes back what a person decided; an automatic resolution (consolidation's
        policy) is only reopened after the user has seen who decided it and what comes back."""
        try:
            history = [d for d in await self.app.engine.decisions() if not d.undone_at]
        except ENGINE_FAILURES as exc:
            self.app.notify(f"{type(exc).__name__}: {exc}", title="Undo", severity="error")
            return
        if not history:
            self.app.notify("There is no resolution to undo.", title="Undo")
            return
        mine = next((d for d in history if d.by_person), None)
        if mine is not None:
            self._undo_resolution(mine.contradiction_id, mine.action)
            return
        auto = history[0]
        self._ask_reopen(
            auto.actor,
            f"{auto.at:%Y-%m-%d %H:%M}",
            auto.action,
            list(auto.keys),
            auto.contradiction_id,
            "Nothing you resolved is left to undo.\n\n",
        )

    def _ask_reopen(self, actor: str, at: str, action: str, keys: list[str], cid: str, lead: str = "") -> None:
        """An automatic resolution is reopened only after the user has seen who made it,
        when, and what comes back."""
        from ..screens.dialogs import ConfirmScreen

        body = Text(lead)
        body.append("This resolution was made automatically by ")
        body.append(actor, style="bold")
        body.append(f" on {at}: {action}.\n")
        body.append(
            "Undoing it will reopen the contradiction"
            + (f" between {keys[0]} and {keys[1]}" if keys else "")
            + " and bring back the entry it archived.",
            style="bold",
        )

        def confirmed(yes: Optional[bool]) -> None:
            if yes:
                self._undo_resolution(cid, action)

        self.app.push_screen(ConfirmScreen("Undo an automatic resolution", body, "Reopen"), confirmed)

    def _undo_resolution(self, cid: str, action: str) -> None:
        self.app.write(f"undid {action}", lambda engine: engine.undo_decision(cid, actor="user"))

    # ---- consolidation (C) ----------------------------------------------------------------------
    class Consolidated(Message):
        """Runs the app's consolidation job made (app._consolidate), shown here."""

        def __init__(self, runs: list[Any]) -> None:
            super().__init__()
            self.runs = runs

    def on_review_view_consolidated(self, message: Consolidated) -> None:
        message.stop()
        from ..screens.dialogs import TextScreen

        runs = message.runs
        if not runs:
            self.app.notify("Nothing to consolidate: no session has new messages.", title="Consolidation")
        else:
            table = Table(box=None, expand=True)
            table.add_column("session")
            table.add_column("status")
            table.add_column("counts")
            for run in runs:
                counts = ", ".join(f"{k}={v}" for k, v in (run.counts or {}).items())
                errors = "".join(f"\nerror: {e}" for e in run.errors or [])
                table.add_row(Text(run.session_key), Text(run.status), Text(counts + errors))
            self.app.push_screen(TextScreen(f"Consolidation: {len(runs)} run(s)", table))
        self.app.refresh_all()
