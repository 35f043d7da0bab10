"""The version lattice of an entry: every version of its fact, newest first,
drawn as a graph (merges join lanes, like `git log --graph`), with a cursor
and restore of any version."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Optional

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from engine import ProvenanceLevel

from .. import keys
from ..diff import counts, marked, word_diff
from ..format import PROVENANCE, TIER_COLOURS


@dataclass
class Node:
    id: str
    version: int
    key: str
    content: str
    source: int
    tier: str
    created_at: Optional[datetime]
    current: bool = False
    label: str = ""  # e.g. "merged", "restored"
    parents: list[str] = field(default_factory=list)  # older nodes this one replaced


def normalise_history(history: dict[str, Any]) -> list[Node]:
    """engine.consolidation.lattice(id).to_dict() ({"nodes": [...], "edges":
    [{"from", "to", "kind"}]}) as nodes newest first with their parents filled in."""
    nodes: dict[str, Node] = {}
    for raw in history["nodes"]:
        created = raw.get("created_at")
        try:
            created = datetime.fromisoformat(created) if created else None
        except ValueError:
            created = None
        tier = raw.get("tier", "")
        nodes[raw["id"]] = Node(
            id=raw["id"],
            version=int(raw.get("version") or 1),
            key=raw.get("key") or "",
            content=raw.get("content") or "",
            source=ProvenanceLevel.parse(raw.get("source") or 0).value,
            tier=tier,
            created_at=created,
            current=raw.get("superseded_by") is None and tier != "archival",
        )
    for edge in history["edges"]:
        old, new = edge["from"], edge["to"]
        if old in nodes and new in nodes and old not in nodes[new].parents:
            nodes[new].parents.append(old)
            kind = edge.get("kind")
            if kind == "merge":
                nodes[new].label = "merge"
            elif kind == "supersede" and nodes[old].key != nodes[new].key and not nodes[old].label:
                nodes[old].label = f"lost to {nodes[new].key}"  # a contradiction resolution across keys
    for node in nodes.values():
        # the same key's previous version continues the lane; other keys branch off
        node.parents.sort(key=lambda p: (nodes[p].key != node.key, -(nodes[p].version)))
    return topological(list(nodes.values()))


def topological(nodes: list[Node]) -> list[Node]:
    """Newest first, but every node before the versions it replaced (its parents),
    so lanes only ever run downwards; ties go to the most recent."""

    def recency(n: Node) -> tuple:
        return (n.created_at.timestamp() if n.created_at else 0.0, n.version, n.id)

    by_id = {n.id: n for n in nodes}
    children: dict[str, int] = {n.id: 0 for n in nodes}  # how many newer nodes replaced each one
    for n in nodes:
        for parent in n.parents:
            if parent in children:
                children[parent] += 1
    ready = sorted((n for n in nodes if children[n.id] == 0), key=recency, reverse=True)
    out: list[Node] = []
    seen: set[str] = set()
    while ready:
        node = ready.pop(0)
        if node.id in seen:
            continue
        seen.add(node.id)
        out.append(node)
        for parent in node.parents:
            if parent in children:
                children[parent] -= 1
                if children[parent] == 0:
                    ready.append(by_id[parent])
        ready.sort(key=recency, reverse=True)
    out += sorted((n for n in nodes if n.id not in seen), key=recency, reverse=True)  # cycles, if any
    return out


def graph_rows(nodes: list[Node]) -> list[tuple[str, Optional[Node]]]:
    """Lane drawing: (graph prefix, node or None for a connector line)."""
    rows: list[tuple[str, Optional[Node]]] = []
    lanes: list[Optional[str]] = []
    for node in nodes:
        if node.id in lanes:
            col = lanes.index(node.id)
        elif None in lanes:
            col = lanes.index(None)
            lanes[col] = node.id
        else:
            lanes.append(node.id)
            col = len(lanes) - 1
        joining = [i for i, lane in enumerate(lanes) if lane == node.id and i != col]
        prefix = "".join(("●" if node.current else "○") if i == col else ("│" if lane else " ") for i, lane in enumerate(lanes))
        rows.append((prefix, node))
        for i in joining:
            lanes[i] = None
        if joining:
            rows.append(
                (
                    "".join("┘" if i in joining else ("│" if lane else " ") for i, lane in enumerate(lanes)).replace("│┘", "├┘"),
                    None,
                )
            )
        parents = node.parents
        lanes[col] = parents[0] if parents else None
        branched = []
        for parent in parents[1:]:
            if parent in lanes:
                continue
            if None in lanes:
                slot = lanes.index(None)
                lanes[slot] = parent
            else:
                lanes.append(parent)
                slot = len(lanes) - 1
            branched.append(slot)
        if branched:
            rows.append(("".join("┐" if i in branched else ("│" if lane else " ") for i, lane in enumerate(lanes)), None))
        while lanes and lanes[-1] is None:
            lanes.pop()
    return rows


class VersionLattice(Widget, can_focus=True):
    BINDINGS = keys.bindings("lattice")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> Optional[bool]:
        return keys.key_allowed("lattice", action, self.app)

    DEFAULT_CSS = """
    VersionLattice { height: auto; padding: 0 0; text-wrap: nowrap; text-overflow: ellipsis; }
    VersionLattice:focus { background: $boost; }
    """

    nodes: reactive[list[Node]] = reactive(list, init=False, always_update=True)
    cursor: reactive[int] = reactive(0, init=False)

    _focus_id: Optional[str] = None
    diff_base: Optional[str] = None  # the version space marked: d diffs against it

    class RestoreRequested(Message):
        def __init__(self, node: Node) -> None:
            super().__init__()
            self.node = node

    def show(self, nodes: list[Node], focus_id: Optional[str] = None) -> None:
        """The cursor stays on its version while the same entry is shown; a new
        entry (a restore or edit made a new head) puts it on that entry."""
        previous = self.selected.id if self.selected else None
        same_entry, self._focus_id = focus_id == self._focus_id, focus_id
        if not same_entry or self.diff_base not in {n.id for n in nodes}:
            self.diff_base = None
        wanted = previous if same_entry and previous in {n.id for n in nodes} else focus_id
        cursor = next((i for i, n in enumerate(nodes) if n.id == wanted), 0)
        if same_entry and nodes == self.nodes and cursor == self.cursor:
            return  # the same history reloaded (a live reload does after every outside commit): no new layout
        self.nodes, self.cursor = nodes, cursor
        self.refresh(layout=True)

    @property
    def selected(self) -> Optional[Node]:
        return self.nodes[self.cursor] if 0 <= self.cursor < len(self.nodes) else None

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        if not self.nodes:
            out.append("no versions", style="dim")
            return out
        width = max(20, self.size.width - 2)
        index = {n.id: i for i, n in enumerate(self.nodes)}
        for prefix, node in graph_rows(self.nodes):
            if node is None:
                out.append(" " + prefix + "\n", style="dim")
                continue
            selected = self.has_focus and index[node.id] == self.cursor
            mark = "▶" if index[node.id] == self.cursor else " "
            head = Text()
            head.append(mark, style="bold")
            head.append(prefix, style="bold green" if node.current else "dim")
            head.append(f" v{node.version} ", style="bold")
            head.append(node.id[:8], style="dim")
            label, short, style = PROVENANCE.get(node.source, ("?", "?", ""))
            head.append(" ")
            head.append(short, style=style)
            head.append(" ")
            head.append(node.tier[:4].upper(), style=TIER_COLOURS.get(node.tier, ""))
            if node.created_at:
                head.append(f" {node.created_at:%Y-%m-%d}", style="dim")
            if node.current:
                head.append(" current", style="bold green")
            if node.label:
                head.append(f" {node.label}", style="italic")
            if node.id == self.diff_base:
                head.append(" [diff base]", style="bold magenta")
            if selected:
                head.stylize("bold underline")
            out.append_text(head)
            out.append("\n")
            below = "│" if node.parents else " "
            cont = "".join(below if c in "●○" else c for c in prefix)
            snippet = " ".join(node.content.split())
            room = max(10, width - len(cont) - 3)
            if len(snippet) > room:
                snippet = snippet[: room - 1] + "…"
            out.append(" " + cont, style="dim")
            out.append("  " + snippet + "\n", style="" if node.current else "dim")
        out.rstrip()
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(1, len(graph_rows(self.nodes)) + len(self.nodes)) if self.nodes else 1

    def watch_cursor(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        if self.nodes:
            self.cursor = (self.cursor + step) % len(self.nodes)

    def action_restore_version(self) -> None:
        node = self.selected
        if node is None:
            return
        if node.current:
            self.app.notify(f"v{node.version} is already the current version", title="Nothing to restore")
            return
        self.post_message(self.RestoreRequested(node))

    def action_mark_version(self) -> None:
        """space: this version becomes the one d compares against (again: unmark)."""
        node = self.selected
        if node is not None:
            self.diff_base = None if self.diff_base == node.id else node.id
            self.refresh()

    def diff_pair(self) -> Optional[tuple[Node, Node]]:
        """(older, newer): the selected version against the marked one, else against
        the version it replaced (its first parent)."""
        node = self.selected
        if node is None:
            return None
        by_id = {n.id: n for n in self.nodes}
        other = by_id.get(self.diff_base or "") if self.diff_base != node.id else None
        if other is None:
            other = by_id.get(node.parents[0]) if node.parents else None
        if other is None:
            return None
        older, newer = sorted((other, node), key=lambda n: (n.created_at.timestamp() if n.created_at else 0.0, n.version))
        return older, newer

    def action_diff(self) -> None:
        from ..screens.dialogs import TextScreen

        pair = self.diff_pair()
        if pair is None:
            node = self.selected
            self.app.notify(
                f"v{node.version} replaced no earlier version: mark another with space, then press d here."
                if node
                else "No versions.",
                title="Diff",
            )
            return
        old, new = pair
        chunks = word_diff(old.content, new.content)
        removed, added = counts(chunks)
        body = Text()
        body.append(f"v{old.version} {old.id[:8]} {old.key}  →  v{new.version} {new.id[:8]} {new.key}\n", style="bold")
        body.append(f"{removed} word{'s' * (removed != 1)} removed [-like this-], {added} added {{+like this+}}\n\n", style="dim")
        body.append_text(marked(chunks) if removed or added else Text("The two versions say the same thing.", style="italic"))
        self.app.push_screen(TextScreen(f"Diff v{old.version} → v{new.version}", body))

    def on_click(self, event: events.Click) -> None:
        line = 0
        for prefix, node in graph_rows(self.nodes):
            height = 1 if node is None else 2
            if node is not None and line <= event.y < line + height:
                self.cursor = self.nodes.index(node)
                return
            line += height
