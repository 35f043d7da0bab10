"""Entry detail: every field, provenance as a badge, effective importance now
and the decay curve toward the archive threshold, access, the audit trail, and
the version lattice with restore."""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from engine import Lattice, MemoryEngine, MemoryEntry, MemoryType

from ..failures import ENGINE_FAILURES
from ..format import ago, provenance_badge, tier_text
from ..messages import DetailData, DetailLoaded
from ..plot import decay_plot
from .lattice import VersionLattice, normalise_history
from .sources import origin_text


def decay_curve(engine: MemoryEngine, entry: MemoryEntry, decay: dict[str, Any], samples: int = 96) -> list[tuple[int, float]]:
    """Effective importance from now until past the archive threshold: the curve
    of engine.explain_decay over a horizon fitted to the entry, thinned for the plot."""
    left = decay.get("days_until_archive")
    if left is None:
        horizon = 90
    elif left <= 0:
        horizon = 30
    else:
        horizon = int(min(3650, max(14, left * 1.3)))
    points = [(int(d), float(v)) for d, v in engine.explain_decay(entry, horizon_days=horizon)["curve"]]
    step = max(1, horizon // samples)
    thinned = points[::step]
    if thinned[-1][0] != points[-1][0]:
        thinned.append(points[-1])
    return thinned


async def load_history(app: Any, entry: MemoryEntry) -> dict[str, Any]:
    """The version lattice: consolidation's lattice(id) (every version, the
    contradiction links and merges around the entry)."""
    lattice = await app.consolidation().lattice(entry.id)
    return lattice.to_dict()


async def load_detail(app: Any, engine: Any, entry_id: str) -> DetailData:
    entry = await engine.get(entry_id)
    decay = engine.explain_decay(entry)
    curve = decay_curve(engine, entry, decay)
    audit = await engine.audit(entry_id, limit=100)
    notices = []
    try:
        history = await load_history(app, entry)
    except ENGINE_FAILURES as exc:  # the lattice is optional; say so in place
        history = Lattice.of_entry(entry).to_dict()
        notices.append(f"history unavailable: {exc}")
    try:
        vector = await engine.vector_state(entry_id)
    except ENGINE_FAILURES as exc:
        vector = {"state": "unknown", "error": f"{type(exc).__name__}: {exc}"}
    try:
        recalls = await engine.recent_recalls(entry_id, limit=SHOWN_RECALLS)
    except ENGINE_FAILURES as exc:  # the log only explains; the entry still shows
        recalls, notices = None, notices + [f"recall log unavailable: {exc}"]
    return DetailData(
        entry=entry, decay=decay, curve=curve, audit=audit, history=history, notices=notices, vector=vector, recalls=recalls
    )


SHOWN_RECALLS = 3  # the detail pane's newest recalls of the entry

_DRAWING = Console(width=1000, force_terminal=True, color_system="truecolor", legacy_windows=False)


def _drawn(content: RenderableType) -> str:
    """What ``content`` draws, styles included, as a string: Rich's tables and groups do not
    compare by value, so two renders of the same entry are compared by their output."""
    if isinstance(content, str):
        return content
    with _DRAWING.capture() as captured:
        _DRAWING.print(content)
    return captured.get()


def recalls_text(recalls: Any) -> Text:
    """Why this entry reaches prompts: how many non-dry recalls returned it, and the newest."""
    if recalls is None:
        return Text("unknown", style="dim")
    if not recalls.total:
        return Text("none logged", style="dim")
    out = Text(f"{recalls.total}")
    for n, record in enumerate(recalls.recent):
        query = record.query if len(record.query) <= 40 else record.query[:39] + "…"
        out.append(" · " if n == 0 else "\n")
        out.append(f"{record.at:%Y-%m-%d %H:%M} ", style="dim")
        out.append(f"'{query}' #{record.rank}")
        out.append(f" {record.actor}", style="dim")
    if recalls.total > len(recalls.recent):
        out.append(" …", style="dim")
    return out


def vector_text(vector: dict[str, Any]) -> Text:
    """The entry's vector as the detail pane shows it."""
    state, stamp, active = vector.get("state"), vector.get("model_id"), vector.get("active_model_id")
    if state == "current":
        return Text(f"{stamp} · current")
    if state == "pending":
        return Text("pending: " + (f"text changed since {stamp}" if stamp else "no vector yet"), style="yellow")
    if state == "stale":
        return Text(f"stale: made by {stamp}, the model is {active}", style="yellow")
    if state == "unchecked":
        return Text(f"{stamp} (model not loaded: not checked)", style="dim")
    if state == "none":
        return Text("none", style="dim")
    return Text(f"unknown: {vector.get('error', '')}", style="dim")


class EntryDetail(Horizontal):
    """Two columns: the entry (fields, content, decay) and its history (versions, audit)."""

    DEFAULT_CSS = """
    EntryDetail { height: 1fr; }
    EntryDetail > VerticalScroll { padding: 0 1; }
    EntryDetail #detail-left { width: 5fr; }
    EntryDetail #detail-mid { width: 4fr; border-left: vkey $panel; }
    EntryDetail #detail-right { width: 4fr; border-left: vkey $panel; }
    EntryDetail .section { color: $text-accent; text-style: bold; }
    EntryDetail #detail-content { margin-bottom: 1; }
    EntryDetail #detail-audit-title { margin-top: 1; }
    """

    data: reactive[Optional[DetailData]] = reactive(None, init=False, always_update=True)
    entry_id: reactive[Optional[str]] = reactive(None, init=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: dict[str, str] = {}  # selector -> what its Static draws (_put)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="detail-left"):
            yield Static("Select an entry.", id="detail-head")
            yield Static("", id="detail-content")
            yield Static("", id="detail-fields")
        with VerticalScroll(id="detail-mid"):
            yield Static("Decay", classes="section")
            yield Static("", id="detail-decay")
        with VerticalScroll(id="detail-right"):
            yield Static("Versions", classes="section", id="lattice-title")
            yield VersionLattice(id="lattice")
            yield Static("Audit trail", classes="section", id="detail-audit-title")
            yield Static("", id="detail-audit")

    def show(self, entry_id: Optional[str], delay: float = 0.05) -> None:
        self.entry_id = entry_id
        if entry_id is None:
            self.data = None
            return
        self._load(entry_id, delay)

    def reload(self) -> None:
        if self.entry_id is not None:
            self._load(self.entry_id, 0)

    @work(exclusive=True, group="detail")
    async def _load(self, entry_id: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)  # holding j should not fetch every row's audit
        engine = self.app.engine
        if engine is None:
            return
        try:
            data = await load_detail(self.app, engine, entry_id)
        except ENGINE_FAILURES as exc:
            self.post_message(DetailLoaded(entry_id, None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(DetailLoaded(entry_id, data))

    def on_detail_loaded(self, message: DetailLoaded) -> None:
        message.stop()
        if message.entry_id != self.entry_id:
            return  # the cursor moved on
        if message.data is None:
            self._put("#detail-head", Text(f"Could not load {message.entry_id}: {message.error}", style="bold red"))
            return
        self.data = message.data

    def watch_data(self, data: Optional[DetailData]) -> None:
        if data is None:
            self._put("#detail-head", Text("No entry selected.", style="dim"))
            for name in ("#detail-content", "#detail-fields", "#detail-decay", "#detail-audit"):
                self._put(name, "")
            self.query_one(VersionLattice).show([])
            return
        now = self.app.clock()
        e = data.entry
        self._put("#detail-head", self._head(e))
        self._put("#detail-content", Text(e.content))
        self._put("#detail-fields", self._fields(e, data, now))
        self._put("#detail-decay", self._decay(e, data))
        nodes = normalise_history(data.history)
        self.query_one(VersionLattice).show(nodes, focus_id=e.id)
        self._put("#lattice-title", f"Versions ({len(nodes)})")
        self._put("#detail-audit", self._audit(data, now))

    def _put(self, selector: str, content: RenderableType) -> None:
        """Show content in one of the pane's Statics, unless it already shows just that: a
        live reload loads the detail again after every outside commit, and each update lays
        the whole screen out again, which a burst of writes turned into stalls of the loop."""
        seen = _drawn(content)
        if self._shown.get(selector) != seen:
            self._shown[selector] = seen
            self.query_one(selector, Static).update(content)

    # ---- pieces ----------------------------------------------------------------------
    @staticmethod
    def _head(e: MemoryEntry) -> Text:
        out = Text()
        out.append(e.key, style="bold")
        out.append("  ")
        out.append_text(tier_text(e.tier))
        out.append("  ")
        out.append(
            "USER" if e.type is MemoryType.USER else "ENVIRONMENT", style="bold magenta" if e.type is MemoryType.USER else "bold"
        )
        out.append("  ")
        out.append_text(provenance_badge(e.source))
        if e.pinned:
            out.append("  ● pinned", style="bold #f9a825")
        if e.superseded_by:
            out.append(f"  superseded by {e.superseded_by[:8]}", style="italic dim")
        return out

    def _fields(self, e: MemoryEntry, data: DetailData, now) -> Table:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", justify="right", no_wrap=True)
        table.add_column(overflow="fold")

        def when(value) -> Text:
            return Text.assemble(f"{value:%Y-%m-%d %H:%M}" if value else "—", (f"  {ago(value, now)}", "dim"))

        table.add_row("from", origin_text(data.audit, now))
        table.add_row("id", e.id)
        table.add_row("version", f"v{e.version}" + (f" → {e.superseded_by[:8]}" if e.superseded_by else " (head)"))
        table.add_row("importance", f"{e.importance:.2f}")
        table.add_row("accesses", Text.assemble(str(e.access_count), ("  last ", "dim"), when(e.last_accessed)))
        table.add_row("recalls", recalls_text(data.recalls))
        table.add_row("created", when(e.created_at))
        table.add_row("updated", when(e.updated_at))
        table.add_row("tags", Text(", ".join(e.tags) or "—"))
        table.add_row("session", Text(e.source_session or "—"))
        table.add_row("episode", Text(e.episode_id or "—"))
        table.add_row("vector", vector_text(data.vector))
        return table

    def _decay(self, e: MemoryEntry, data: DetailData) -> Group:
        d = data.decay
        eff = float(d.get("effective_importance", 0.0))
        header = Text()
        header.append("effective importance ")
        header.append(f"{eff:.3f}", style="bold cyan")
        header.append(f" of {e.importance:.2f}\n")
        header.append(f"factor ×{float(d.get('factor', 1)):.3f} · archive below {float(d.get('threshold', 0)):.2f}", style="dim")
        left = d.get("days_until_archive")
        status = Text()
        if e.type is MemoryType.USER:
            status.append("USER memories never decay", style="green")
        elif e.pinned:
            status.append("pinned: exempt from decay", style="green")
        elif left is None:
            status.append("never reaches the threshold", style="green")
        elif left <= 0:
            status.append(
                "below the archive threshold: the next decay pass archives it"
                if e.tier.label == "semantic"
                else "below the archive threshold",
                style="bold red",
            )
        else:
            status.append(f"{left:.0f} days until archive", style="bold yellow" if left < 30 else "bold")
            status.append(" without another access")
        width = max(30, (self.query_one("#detail-mid").size.width or 48) - 3)
        crossing = left if left is not None and left > 0 else None
        plot = decay_plot(
            data.curve,
            float(d.get("threshold", 0.0)),
            width=min(width, 90),
            height=7,
            crossing=crossing,
            y_max=max(e.importance, 0.05),
        )
        return Group(header, status, plot)

    @staticmethod
    def _audit(data: DetailData, now) -> Text:
        if not data.audit and not data.notices:
            return Text("no audit records", style="dim")
        out = Text()
        for note in data.notices:
            out.append(f"note: {note}\n", style="yellow")
        for record in data.audit:
            detail = record.detail or {}
            out.append(f"{record.at:%Y-%m-%d %H:%M} ", style="dim")
            out.append(record.action, style="bold")
            out.append(f"  {record.actor}\n", style="dim")
            extra = []
            if record.reason:
                extra.append(record.reason)
            if detail.get("supersedes"):
                extra.append(f"supersedes {str(detail['supersedes'])[:8]}")
            if detail.get("superseded_by"):
                extra.append(f"→ {str(detail['superseded_by'])[:8]}")
            if detail.get("contradiction"):
                extra.append(f"contradiction {str(detail['contradiction'])[:8]}")
            if "version" in detail and not detail.get("supersedes"):
                extra.append(f"v{detail['version']}")
            if extra:
                out.append("    " + " · ".join(extra) + "\n", style="italic")
        out.rstrip()
        return out
