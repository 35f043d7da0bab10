"""View 2, Recall playground: search as you type, every candidate's scores
(BM25, vector, RRF, gate, rerank, decay, final), what each stage dropped, the
per-stage timings, and a knob panel whose changes recompute at once. A
baseline pin shows how each candidate's rank moved. Recall here is always dry:
no access is recorded. The one thing written here is a relevance judgment (v / x /
backspace on a candidate), and the metrics strip measures every judged query
for the knobs beside the saved settings, in a worker, after each change.

Why so long: one view whose parts (query, candidate table, knob panel, metrics
strip, baseline) share one recompute cycle; the table and knobs already live
in their own widgets."""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from engine import ConfigError

from .. import keys
from ..failures import ENGINE_FAILURES
from ..format import TIER_COLOURS, bar
from .knobs import KnobPanel
from .metrics import MetricsStrip

DEBOUNCE_S = 0.15
LIMIT = 20

# final sits next to the key so a narrow terminal cuts the stage columns, not the answer
# the rank cell carries the candidate's relevance judgment for the query (✓ / ✗)
COLUMNS = (
    ("rank", "#", 3),
    ("delta", "Δ", 3),
    ("key", "key", 20),
    ("final", "final", 6),
    ("bm25", "bm25", 9),
    ("vector", "vector", 10),
    ("rrf", "rrf", 6),
    ("gate", "gate", 4),
    ("rerank", "rerank", 9),
    ("decay", "decay", 10),
)


def as_dict(result: Any) -> dict[str, Any]:
    """engine.recall's RecallResult as the CLI's JSON contract, plus its mode."""
    return {**result.to_dict(), "mode": result.mode}


def _num(value: Any, digits: int = 3) -> str:
    return "—" if value is None else f"{float(value):.{digits}f}"


def path_cell(path: Optional[dict[str, Any]], digits: int = 3) -> Text:
    if path and path.get("pending"):
        return Text("pending", style="dim yellow")  # no vector yet: only BM25 can find it
    if not path or path.get("score") is None:
        return Text("—", style="dim")
    out = Text(_num(path["score"], digits))
    if path.get("rank") is not None:
        out.append(f" #{path['rank']}", style="dim")
    return out


def rrf_cell(hit: dict[str, Any]) -> Text:
    """The fused score; a `+` marks a session boost added to it before decay (the
    candidate's detail line gives the amount)."""
    rrf = float(hit.get("rrf") or 0)
    out = Text(f"{rrf:.4f}"[1:] if rrf < 1 else f"{rrf:.3f}")
    if hit.get("session_boost"):
        out.append("+", style="bold yellow")
    return out


# rerank statuses (engine/recall/rerank.py) in the column's 9 cells; the candidate's
# detail line below the table gives the status in full with the engine's reason.
RERANK_LABELS = {"outside_top_k": "beyond k", "not_loaded": "not ready", "filtered_min_score": "filtered", "disabled": "off"}


def rerank_cell(rerank: Optional[dict[str, Any]]) -> Text:
    if not rerank:
        return Text("—", style="dim")
    status = rerank.get("status") or ""
    if rerank.get("score") is not None:
        out = Text(_num(rerank["score"], 2))
        if rerank.get("rank") is not None:
            out.append(f" #{rerank['rank']}", style="dim")
        return out
    style = "yellow" if status in ("timeout", "failed", "not_loaded") else "dim"
    return Text(RERANK_LABELS.get(status, status) or "—", style=style)


def rank_cell(rank: Any, grade: Optional[int]) -> Text:
    """The rank, then the candidate's judgment for this query: ✓ relevant (a higher
    grade shows its number), ✗ not relevant, nothing when unjudged."""
    out = Text(str(rank), style="bold")
    if grade == 0:
        out.append("✗", style="bold red")
    elif grade is not None:
        out.append("✓" if grade == 1 else str(min(grade, 9)), style="bold green")
    return out


def delta_cell(rank: int, baseline: Optional[dict[str, int]], entry_id: str) -> Text:
    if baseline is None:
        return Text("")
    before = baseline.get(entry_id)
    if before is None:
        return Text("new", style="bold cyan")
    moved = before - rank
    if moved > 0:
        return Text(f"▲{moved}", style="bold green")
    if moved < 0:
        return Text(f"▼{-moved}", style="bold red")
    return Text("=", style="dim")


class PlaygroundView(Widget):
    BINDINGS = keys.bindings("playground")

    DEFAULT_CSS = """
    PlaygroundView { layout: horizontal; }
    PlaygroundView #pg-main { width: 1fr; }
    PlaygroundView #pg-side { width: 38; border: round $primary-background; border-title-color: $text-accent;
                              border-subtitle-color: $text-muted; }
    PlaygroundView #pg-side:focus-within { border: round $accent; }
    PlaygroundView #query { border: round $primary-background; height: 3; }
    PlaygroundView #query:focus { border: round $accent; }
    PlaygroundView #pg-summary { height: auto; padding: 0 1; color: $text-muted; }
    PlaygroundView #pg-results-box { height: 1fr; border: round $primary-background; border-title-color: $text-accent; }
    PlaygroundView #pg-results-box:focus-within { border: round $accent; }
    PlaygroundView #pg-results { height: 1fr; }
    PlaygroundView #pg-content { height: auto; max-height: 4; padding: 0 1; background: $boost; }
    PlaygroundView #pg-bottom { height: 12; }
    PlaygroundView #pg-dropped { width: 1fr; border: round $primary-background; border-title-color: $text-accent;
                                 padding: 0 1; }
    PlaygroundView #pg-timings { width: 46; border: round $primary-background; border-title-color: $text-accent;
                                 padding: 0 1; }
    PlaygroundView #pg-knob-status { height: auto; padding: 0 1; color: $text-muted; }
    """

    result: reactive[Optional[dict[str, Any]]] = reactive(None, init=False, always_update=True)
    baseline: reactive[Optional[dict[str, int]]] = reactive(None, init=False, always_update=True)

    class Done(Message):
        def __init__(
            self,
            seq: int,
            query: str,
            overrides: dict[str, Any],
            result: Optional[dict[str, Any]],
            error: str = "",
            marks: Optional[dict[str, int]] = None,
        ) -> None:
            super().__init__()
            self.seq = seq
            self.query = query
            self.overrides = overrides
            self.result = result
            self.error = error
            self.marks = marks or {}

    class Judged(Message):
        """A judgment was written (grade) or cleared (None), or refused (error)."""

        def __init__(self, query: str, entry_id: str, grade: Optional[int], error: str = "") -> None:
            super().__init__()
            self.query = query
            self.entry_id = entry_id
            self.grade = grade
            self.error = error

    class MetricsProgress(Message):
        def __init__(self, seq: int, text: str) -> None:
            super().__init__()
            self.seq = seq
            self.text = text

    class MetricsDone(Message):
        def __init__(self, seq: int, knobs: Optional[dict[str, Any]], saved: Optional[dict[str, Any]], error: str = "") -> None:
            super().__init__()
            self.seq = seq
            self.knobs = knobs  # evaluate_judgments' report for the knobs
            self.saved = saved  # ... for the saved settings
            self.error = error

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self._seq = 0
        self.query_text = ""
        self.overrides: dict[str, Any] = {}
        self.baseline_query: Optional[str] = None
        self.baseline_keys: dict[str, str] = {}
        self.searches = 0  # completed, not dropped (for tests and the bench)
        self.marks: dict[str, int] = {}  # entry id -> grade judged for the shown query
        self.shown_query = ""  # the query whose results are shown
        self._metrics_seq = 0
        self.metrics_runs = 0  # completed metrics computations (tests wait on it)
        self.dropped_stale = 0
        self.started = False

    def compose(self) -> ComposeResult:
        with Vertical(id="pg-main"):
            yield Input(placeholder="recall query — results update as you type (dry run: nothing is recorded)", id="query")
            yield Static("", id="pg-summary")
            yield MetricsStrip(id="pg-metrics")
            with Vertical(id="pg-results-box") as box:
                box.border_title = "Candidates"
                yield DataTable(id="pg-results", cursor_type="row", zebra_stripes=True)
                yield Static("", id="pg-content")
            with Horizontal(id="pg-bottom"):
                with VerticalScroll(id="pg-dropped") as box:
                    box.border_title = "Dropped"
                    yield Static(Text("nothing dropped", style="dim"), id="pg-dropped-text")
                with VerticalScroll(id="pg-timings") as box:
                    box.border_title = "Timings"
                    yield Static("", id="pg-timings-text")
        with Vertical(id="pg-side") as side:
            side.border_title = "Knobs"
            side.border_subtitle = "ctrl+s save · ctrl+z reset"
            yield KnobPanel(self.app.settings, id="knobs")
            yield Static("", id="pg-knob-status")

    def on_mount(self) -> None:
        table = self.query_one("#pg-results", DataTable)
        for key, title, width in COLUMNS:
            table.add_column(title, key=key, width=width)

    def start(self) -> None:
        self.started = True
        self.app.warm_now()  # the person is about to recall: no waiting for a pause in the keys
        self._render_empty()
        self.refresh_metrics()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> Optional[bool]:
        return keys.key_allowed("playground", action, self.app)

    def linked_entry(self) -> Optional[str]:
        """ctrl+o: the candidate under the cursor."""
        results = (self.result or {}).get("results", [])
        row = self.query_one("#pg-results", DataTable).cursor_row
        return results[row]["id"] if 0 <= row < len(results) else None

    def focus_default(self) -> None:
        self.query_one("#query", Input).focus()

    def leave_input(self, field: Input) -> None:
        """Esc in the query or a knob: to the candidates, so view keys switch views again."""
        self.query_one("#pg-results", DataTable).focus()

    def refresh_data(self, entry_ids: Optional[list[str]] = None) -> None:
        if self.query_text.strip():
            self.search(debounce=False)
        self.refresh_metrics()

    # ---- searching -----------------------------------------------------------------------
    @on(Input.Changed, "#query")
    def _query_typed(self, event: Input.Changed) -> None:
        event.stop()
        self.query_text = event.value
        self.search()

    @on(Input.Submitted, "#query")
    def _query_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.search(debounce=False)
        self.query_one("#pg-results", DataTable).focus()

    @on(KnobPanel.Changed)
    def _knobs_changed(self, event: KnobPanel.Changed) -> None:
        event.stop()
        changed = event.overrides != self.overrides
        self.overrides = event.overrides
        self._knob_status(event.invalid)
        if changed:  # an invalid value changes nothing: no recompute
            self.search(debounce=False)
            self.refresh_metrics()

    def search(self, debounce: bool = True) -> None:
        self._seq += 1
        query = self.query_text
        if not query.strip():
            self.workers_cancel()
            self.result = None
            self._render_empty()
            return
        self._search(self._seq, query, self.effective_overrides(), DEBOUNCE_S if debounce else 0.0)

    def effective_overrides(self) -> dict[str, Any]:
        """The knob values that differ from the engine's live settings (what the
        recall call must override; the panel's markers compare with the saved file)."""
        engine = self.app.engine
        values = self.query_one(KnobPanel).values
        if engine is None:
            return dict(self.overrides)
        return {k: v for k, v in values.items() if v != engine.settings.get(k)}

    def workers_cancel(self) -> None:
        self.app.workers.cancel_group(self, "recall")

    @work(exclusive=True, group="recall")
    async def _search(self, seq: int, query: str, overrides: dict[str, Any], delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)  # debounce: the next keystroke cancels this worker
        engine = self.app.engine
        if engine is None:
            self.post_message(self.Done(seq, query, overrides, None, "no store is open"))
            return
        try:
            result = await engine.recall(query, limit=LIMIT, dry=True, overrides=overrides)
            data = as_dict(result)
            marks = {j.entry_id: j.grade for j in await engine.judgments(query)}
        except asyncio.CancelledError:
            raise
        except ConfigError as exc:
            self.post_message(self.Done(seq, query, overrides, None, f"invalid knob: {exc}"))
            return
        except ENGINE_FAILURES as exc:  # a failing query is shown in place
            self.post_message(self.Done(seq, query, overrides, None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Done(seq, query, overrides, data, marks=marks))

    def on_playground_view_done(self, message: Done) -> None:
        message.stop()
        if message.seq != self._seq:
            self.dropped_stale += 1
            return  # typed on meanwhile: a newer search is on its way
        if message.result is None:
            self.result = None
            self.query_one("#pg-summary", Static).update(Text(message.error, style="bold red"))
            return
        self.searches += 1
        self.marks = message.marks
        self.shown_query = message.query
        self.result = message.result
        self.app._report_recall_state()  # a recall may have loaded (or failed to load) a model

    # ---- rendering ------------------------------------------------------------------------
    def _render_empty(self) -> None:
        self.query_one("#pg-results", DataTable).clear()
        self.query_one("#pg-summary", Static).update(
            Text("Type a query. Knob changes recompute at once; ctrl+b pins a baseline to compare ranks.", style="dim")
        )
        self.query_one("#pg-content", Static).update("")
        self.query_one("#pg-dropped-text", Static).update(Text("nothing dropped", style="dim"))
        self.query_one("#pg-timings-text", Static).update("")
        self.query_one("#pg-results-box").border_title = "Candidates"

    def ranks(self) -> dict[str, int]:
        """id -> rank of the current results (tests and the baseline read this)."""
        data = self.result or {}
        return {r["id"]: int(r["rank"]) for r in data.get("results", [])}

    def watch_result(self, data: Optional[dict[str, Any]]) -> None:
        if data is None:
            return
        table = self.query_one("#pg-results", DataTable)
        results = data.get("results", [])
        keep = table.cursor_row
        with self.app.batch_update():
            table.clear()
            for r in results:
                decay = r.get("decay") or {}
                gate = r.get("gate") or {}
                decay_text = Text(f"×{float(decay.get('factor', 1)):.2f}")
                if decay.get("archival_weight", 1) not in (1, 1.0, None):
                    decay_text.append(f" a×{float(decay['archival_weight']):.1f}", style="dim")
                else:
                    decay_text.append(f" {float(decay.get('effective_importance', 0)):.2f}", style="dim")
                key = Text(r.get("key", ""), style=f"{TIER_COLOURS.get(r.get('tier', ''), '')}")
                if r.get("superseded_by"):
                    key.stylize("strike")
                table.add_row(
                    rank_cell(r.get("rank", ""), self.marks.get(r["id"])),
                    delta_cell(int(r.get("rank", 0)), self.baseline, r["id"]),
                    key,
                    Text(f"{float(r.get('final') or 0):.4f}", style="bold"),
                    path_cell(r.get("bm25"), 2),
                    path_cell(r.get("vector"), 3),
                    rrf_cell(r),
                    Text("✓", style="green") if gate.get("passed", True) else Text("✗", style="red"),
                    rerank_cell(r.get("rerank")),
                    decay_text,
                    key=r["id"],
                )
        if results:
            table.move_cursor(row=min(max(keep, 0), len(results) - 1))
            self._show_content(min(max(keep, 0), len(results) - 1))
        else:
            self.query_one("#pg-content", Static).update(Text("no results", style="dim"))
        self._summary(data)
        self._dropped(data)
        self._timings(data)

    def _summary(self, data: dict[str, Any]) -> None:
        results = data.get("results", [])
        timings = data.get("timings_ms", {}) or {}
        total = timings.get("total") or sum(v for k, v in timings.items() if isinstance(v, (int, float)))
        out = Text()
        mode = str(data.get("mode", "hybrid")).replace("_", " ")
        out.append(f"{len(results)} result{'s' if len(results) != 1 else ''}", style="bold")
        out.append(f" · {mode} · {total:.1f} ms · dry run")
        if self.overrides:
            out.append(f" · {len(self.overrides)} knob{'s' if len(self.overrides) != 1 else ''} changed", style="yellow")
        if self.baseline is not None:
            out.append(f" · vs baseline “{self.baseline_query}”", style="cyan")
        for notice in data.get("notices", []):
            message = " ".join(str(notice.get("message", "")).split())
            if len(message) > 140:
                message = message[:139] + "…"  # the full text is in the candidate's line below
            out.append("\n⚠ ", style="yellow")
            out.append(f"{notice.get('code', '')}: ", style="bold yellow")
            out.append(message, style="yellow")
        self.query_one("#pg-summary", Static).update(out)
        self.query_one("#pg-results-box").border_title = f"Candidates ({len(results)})"

    def _dropped(self, data: dict[str, Any]) -> None:
        dropped = data.get("dropped", [])
        out = Table.grid(padding=(0, 1))
        out.add_column(style="bold yellow")
        out.add_column(style="bold")
        out.add_column(style="dim")
        for d in dropped:
            out.add_row(
                Text(str(d.get("stage", "?"))), Text(str(d.get("key") or d.get("id", "")[:8])), Text(str(d.get("reason", "")))
            )
        if self.baseline is not None:
            current = set(self.ranks())
            for entry_id, rank in sorted(self.baseline.items(), key=lambda kv: kv[1]):
                if entry_id not in current:
                    out.add_row(
                        "baseline", Text(self.baseline_keys.get(entry_id, entry_id[:8])), f"was #{rank}, no longer in the results"
                    )
        box = self.query_one("#pg-dropped")
        box.border_title = f"Dropped ({len(dropped)})"
        self.query_one("#pg-dropped-text", Static).update(out if out.row_count else Text("nothing dropped", style="dim"))

    def _timings(self, data: dict[str, Any]) -> None:
        timings = {k: v for k, v in (data.get("timings_ms", {}) or {}).items() if isinstance(v, (int, float))}
        if not timings:
            self.query_one("#pg-timings-text", Static).update(Text("no timings", style="dim"))
            return
        stages = {k: v for k, v in timings.items() if k != "total"}
        peak = max(stages.values(), default=0) or 1
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim")
        table.add_column(justify="right")
        table.add_column()
        for name, ms in stages.items():
            table.add_row(name, f"{ms:.1f}", Text(bar(ms / peak, 14), style="cyan"))
        if "total" in timings:
            table.add_row(Text("total", style="bold"), Text(f"{timings['total']:.1f}", style="bold"), "ms")
        self.query_one("#pg-timings-text", Static).update(table)

    @on(DataTable.RowHighlighted, "#pg-results")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_content(event.cursor_row)

    def _show_content(self, row: int) -> None:
        data = self.result or {}
        results = data.get("results", [])
        if not 0 <= row < len(results):
            return
        r = results[row]
        out = Text()
        out.append(f"{r.get('key', '')} ", style="bold")
        out.append(f"[{r.get('tier', '')}/{r.get('type', '')}] ", style="dim")
        out.append(r.get("content", ""))
        gate = r.get("gate") or {}
        if gate.get("reason"):
            out.append(f"\ngate: {gate['reason']}", style="dim")
        if r.get("session_boost"):
            out.append(
                f"\nsession boost: +{float(r['session_boost']):.4f} on rrf from other memories of its source session"
                " (memory.sessionBoost)",
                style="dim",
            )
        rerank = r.get("rerank") or {}
        if rerank.get("reason"):
            out.append(f"\nrerank: {rerank.get('status', '')} — {rerank['reason']}", style="dim")
        self.query_one("#pg-content", Static).update(out)

    # ---- baseline and knobs ------------------------------------------------------------------
    def action_pin_baseline(self) -> None:
        if self.baseline is not None:
            self.baseline = None
            self.baseline_query = None
            self.app.notify("Baseline cleared.")
        else:
            if not self.result:
                self.app.notify("Run a query first; its ranking becomes the baseline.", severity="warning")
                return
            self.baseline = self.ranks()
            self.baseline_keys = {r["id"]: r.get("key", "") for r in self.result.get("results", [])}
            self.baseline_query = self.query_text
            self.app.notify(f"Baseline pinned: {len(self.baseline)} ranks for “{self.query_text}”.")
        if self.result is not None:
            self.result = self.result  # redraw the Δ column

    def action_save_knobs(self) -> None:
        panel = self.query_one(KnobPanel)
        if panel.invalid:
            self.app.notify(
                "Fix the invalid knobs first: " + "; ".join(panel.invalid.values()), title="Not saved", severity="error"
            )
            return
        overrides = panel.overrides()
        try:
            settings = self.app.settings.override(overrides)
            path = settings.save()
        except (ConfigError, OSError) as exc:
            self.app.notify(str(exc), title="Could not save the config", severity="error")
            return
        self.app.apply_settings(settings)
        panel.reset(settings)
        self.app.notify(f"Saved {len(overrides)} knob{'s' if len(overrides) != 1 else ''} to {path}", title="Config saved")

    def action_reset_knobs(self) -> None:
        self.query_one(KnobPanel).reset(self.app.settings)
        self.app.notify("Knobs reset to the saved settings.")

    def action_focus_query(self) -> None:
        self.query_one("#query", Input).focus()

    def action_focus_knobs(self) -> None:
        """In a narrow terminal the knob panel is hidden: ctrl+g shows it, again hides it."""
        side = self.query_one("#pg-side")
        if side.has_class("-shown") and self.app.focused in side.query("Input, Switch"):
            side.remove_class("-shown")
            self.app.focus_and_hold(self.query_one("#pg-results", DataTable))
            return
        side.add_class("-shown")
        self.app.focus_and_hold(self.query_one(KnobPanel).query("Input, Switch").first())

    def action_toggle_stages(self) -> None:
        """The dropped and timings panes, hidden in a short terminal."""
        self.query_one("#pg-bottom").toggle_class("-shown")

    def _knob_status(self, invalid: dict[str, str]) -> None:
        out = Text()
        if self.overrides:
            out.append(
                "changed: " + ", ".join(f"{k.replace('memory.', '')}={v}" for k, v in self.overrides.items()), style="yellow"
            )
        if invalid:
            out.append(("\n" if out else "") + f"{len(invalid)} invalid (not used)", style="bold red")
        self.query_one("#pg-knob-status", Static).update(out)

    def set_knob(self, key: str, value: Any) -> None:
        self.query_one(KnobPanel).set_value(key, value)

    # ---- relevance judgments and the metrics strip ------------------------------------------
    def action_judge(self, grade: int) -> None:
        """v / x: judge the selected candidate relevant (1) or not (0) to the query shown."""
        self._judgment(grade)

    def action_unjudge(self) -> None:
        self._judgment(None)

    def _judgment(self, grade: Optional[int]) -> None:
        entry_id = self.linked_entry()
        query = self.shown_query
        if self.result is None or entry_id is None or not query.strip():
            self.app.notify("Run a query and select a candidate to judge.", severity="warning")
            return
        self._write_judgment(query, entry_id, grade)

    @work(group="judge")
    async def _write_judgment(self, query: str, entry_id: str, grade: Optional[int]) -> None:
        engine = self.app.engine
        if engine is None:
            return
        try:
            if grade is None:
                await engine.unjudge(query, entry_id, actor="app")
            else:
                await engine.judge(query, entry_id, grade, actor="app")
        except ENGINE_FAILURES as exc:  # refused (read-only store, entry gone): said in place
            self.post_message(self.Judged(query, entry_id, grade, str(exc)))
            return
        self.post_message(self.Judged(query, entry_id, grade))

    def on_playground_view_judged(self, message: Judged) -> None:
        message.stop()
        if message.error:
            self.app.notify(message.error, title="Judgment not recorded", severity="error")
            return
        if message.query == self.shown_query:
            if message.grade is None:
                self.marks.pop(message.entry_id, None)
            else:
                self.marks[message.entry_id] = message.grade
            table = self.query_one("#pg-results", DataTable)
            rank = self.ranks().get(message.entry_id)
            if rank is not None and message.entry_id in table.rows:
                table.update_cell(message.entry_id, "rank", rank_cell(rank, self.marks.get(message.entry_id)))
        self.refresh_metrics()

    def refresh_metrics(self) -> None:
        """Recompute the strip for the knobs as they stand and for the saved settings."""
        if not self.started:
            return
        self._metrics_seq += 1
        self._metrics(self._metrics_seq, self.effective_overrides())

    @work(exclusive=True, group="judge-metrics")
    async def _metrics(self, seq: int, overrides: dict[str, Any]) -> None:
        engine = self.app.engine
        if engine is None:
            return

        def progress(label: str):
            return lambda done, total: self.post_message(self.MetricsProgress(seq, f"{label}judging {done}/{total} queries"))

        try:
            knobs = await engine.evaluate_judgments(overrides, progress=progress(""))
            saved = knobs if not overrides else await engine.evaluate_judgments(None, progress=progress("saved: "))
        except asyncio.CancelledError:
            raise
        except ENGINE_FAILURES as exc:  # shown in the strip; recall itself goes on
            self.post_message(self.MetricsDone(seq, None, None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.MetricsDone(seq, knobs, saved))

    def on_playground_view_metrics_progress(self, message: MetricsProgress) -> None:
        message.stop()
        if message.seq == self._metrics_seq:
            self.query_one(MetricsStrip).show_progress(message.text)

    def on_playground_view_metrics_done(self, message: MetricsDone) -> None:
        message.stop()
        if message.seq != self._metrics_seq:
            return  # a newer computation is on its way
        strip = self.query_one(MetricsStrip)
        if message.knobs is None or message.saved is None:
            strip.show_error(message.error)
        elif not message.knobs["judgments"]:
            strip.knobs = strip.saved = None
            strip.show_progress("")
        else:
            strip.show(message.knobs["metrics"], message.saved["metrics"], message.knobs["skipped"])
        self.metrics_runs += 1
