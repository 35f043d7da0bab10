"""`echo-memory mcp`: the store as live memory for agents that speak the Model
Context Protocol (Claude Code and Desktop, Cursor, hermes-agent, Echo-Agent).

The server names each client itself, `mcp:<client name from initialize>`, as an
agent that may relay what the user said (`source: user_stated`) up to
memory.mcp.maxProvenance, and never takes a person's powers. Every write goes
through the gate; a refusal reaches the model as a tool error carrying the reason
(and the scanner's family and offset), with nothing stored. Calls run one at a
time on the engine's one connection, and a "database is locked" from another
process is retried with backoff here, never returned to a client."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
import sqlite3
from typing import Annotated, Any, Awaitable, Callable, Literal, Optional, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from ..actors import Actor
from ..config import Settings
from ..consolidation.records import ROLES
from ..errors import ConfigError, ConsolidationError, EchoMemoryError, InvalidValue, NotFound, WriteRejected
from ..fields import MAX_KEY_CHARS, MAX_SESSION_KEY_CHARS
from ..memory import EntryFilter, MemoryEngine
from ..models import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel

T = TypeVar("T")

BUSY_RETRY_SECONDS = 30.0  # how long a call waits out other writers before it gives up
MAX_LIST = 100
_CLIENT_CHARS = re.compile(r"[^a-z0-9._@+-]+")

INSTRUCTIONS = """\
echo-memory is this user's long-term memory, curated by them in an app.
Read `memory://core` at the start of a conversation: it is what the user wants in every prompt.
Use `recall` to find memories relevant to the task (ranked, best first).
Use `memory` to add, replace or remove one fact (`target` user for facts about the user,
environment for facts about projects, tools and the machine). Pass `source: user_stated`
only when the user said the fact explicitly; your own inferences are model_inferred.
A refused write returns an error with the reason; nothing was stored. Do not retry an
injection refusal with the same text. Feed the conversation to `session_append` and call
`session_end` when it ends: the memory consolidates it in the background."""


def client_label(name: Optional[str]) -> str:
    """The client's initialize name as a short audit label (claude-code); the server
    builds the actor from it, so no name a client picks can make it a person."""
    label = _CLIENT_CHARS.sub("-", (name or "").strip().lower()).strip("-")[:64]
    return label or "unknown"


def derived_key(content: str) -> str:
    """A key for an `add` that names none (Echo-Agent's tool sends only content): the
    first words, plus a short hash so two different facts never share a key."""
    words = re.findall(r"\w+", content.lower())[:6]
    digest = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return ("_".join(words)[: MAX_KEY_CHARS - 10] or "note") + "-" + digest


def entry_view(entry: MemoryEntry) -> dict[str, Any]:
    """What a model needs of an entry: no embedding ids or decay bookkeeping."""
    return {
        "id": entry.id,
        "key": entry.key,
        "content": entry.content,
        "target": entry.type.label,
        "tier": entry.tier.label,
        "provenance": entry.source.label,
        "importance": entry.importance,
        "tags": list(entry.tags),
        "pinned": entry.pinned,
        "version": entry.version,
        "updated_at": entry.updated_at.isoformat(),
    }


def refusal_text(exc: WriteRejected) -> str:
    """The tool error a model reads: what was refused and why, then the details as JSON
    (reason, and for the scanner its family, code point and offset)."""
    detail: dict[str, Any] = {"reason": exc.reason}
    if exc.scan is not None:
        detail.update({k: v for k, v in exc.scan.to_dict().items() if v not in (None, "") and k != "blocked"})
    detail.update({k: v for k, v in exc.detail.items() if isinstance(v, (str, int, float))})
    return f"refused, nothing stored: {exc.message}\n{json.dumps(detail, ensure_ascii=False)}"


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class MemoryBridge:
    """The tools' behaviour over one open engine, one call at a time."""

    def __init__(self, engine: MemoryEngine, settings: Settings):
        self.engine = engine
        self.max_source = ProvenanceLevel.parse(settings.get("memory.mcp.maxProvenance"))
        self._lock = asyncio.Lock()

    def actor(self, ctx: Optional[Context]) -> Actor:
        params = ctx.session.client_params if ctx is not None else None
        name = params.client_info.name if params is not None and params.client_info is not None else None
        return Actor.mcp_client(client_label(name), self.max_source)

    async def call(self, make: Callable[[], Awaitable[T]]) -> T:
        """Run one engine operation: serialised, retried while another process holds the
        write lock (each attempt is one transaction, rolled back whole on failure), and
        every refusal or bad value turned into a tool error the model can read."""
        loop = asyncio.get_running_loop()
        deadline, delay = loop.time() + BUSY_RETRY_SECONDS, 0.02
        while True:
            try:
                async with self._lock:
                    return await make()
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc):
                    raise
                if loop.time() > deadline:
                    raise ToolError(
                        f"the memory store stayed busy for {BUSY_RETRY_SECONDS:.0f} s (other writers); "
                        "nothing was stored, try again"
                    ) from None
            except WriteRejected as exc:
                raise ToolError(refusal_text(exc)) from None
            except (InvalidValue, ConfigError) as exc:
                raise ToolError(f"invalid value, nothing stored: {exc}") from None
            except EchoMemoryError as exc:  # not found, consolidation, store: the message says why
                raise ToolError(str(exc)) from None
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.5)

    # ---- memory ----------------------------------------------------------------------
    async def memory(
        self,
        actor: Actor,
        action: str,
        target: Optional[str],
        key: Optional[str],
        content: Optional[str],
        old_text: Optional[str],
        query: Optional[str],
        tags: Optional[str],
        importance: Optional[float],
        source: str,
        limit: int,
    ) -> dict[str, Any]:
        """One action of the `memory` tool; without a target, list/search/replace/remove
        look at both kinds and add stores an environment memory."""
        kind = MemoryType.parse(target) if target is not None else None
        if action in ("list", "search"):
            text = _required(query, "query", action) if action == "search" else None
            found = await self.call(
                lambda: self.engine.list_entries(
                    EntryFilter(tier=MemoryTier.SEMANTIC, type=kind, text=text), order_by="importance", limit=limit
                )
            )
            return {"action": action, "target": target, "entries": [entry_view(e) for e in found]}
        if action == "add":
            text = _required(content, "content", action)
            outcome = await self.call(
                lambda: self.engine.add(
                    key or derived_key(text),
                    text,
                    kind or MemoryType.ENVIRONMENT,
                    source,
                    _split_tags(tags),
                    0.5 if importance is None else importance,
                    actor=actor,
                    reason="mcp memory add",
                )
            )
            return {"action": outcome.action, "entry": entry_view(outcome.entry)}
        current = await self._pick(kind, key, old_text, action)
        if action == "replace":
            text = _required(content, "content", action)
            outcome = await self.call(
                lambda: self.engine.add(
                    current.key,
                    text,
                    current.type,
                    source,
                    current.tags if tags is None else _split_tags(tags),
                    current.importance if importance is None else importance,
                    actor=actor,
                    reason="mcp memory replace",
                )
            )
            return {"action": outcome.action, "entry": entry_view(outcome.entry), "replaced_id": current.id}
        outcome = await self.call(lambda: self.engine.archive(current.id, actor=actor))
        return {"action": "archived", "entry": entry_view(outcome.entry)}

    async def _pick(self, kind: Optional[MemoryType], key: Optional[str], old_text: Optional[str], action: str) -> MemoryEntry:
        """The one live entry that key names or old_text occurs in (case-sensitive)."""
        if key is None and old_text is None:
            raise ToolError(f"{action} needs `key` or `old_text` to pick the memory to {action}")
        live = await self.call(lambda: self.engine.list_entries(EntryFilter(tier=MemoryTier.SEMANTIC, type=kind, text=old_text)))
        matches = [e for e in live if (key is None or e.key == key) and (old_text is None or old_text in e.content)]
        label = kind.label if kind is not None else "user or environment"
        what = " and ".join(
            part for part in (key is not None and f"key {key!r}", old_text is not None and f"text {old_text!r}") if part
        )
        if not matches:
            raise ToolError(f"no current {label} memory matches {what}; use action list or search to find it")
        if len(matches) > 1:
            listed = "; ".join(f"{e.key} ({e.id[:8]}): {e.content[:60]!r}" for e in matches[:10])
            raise ToolError(
                f"{len(matches)} {label} memories match {what}: {listed}. Give `key`, or a longer "
                "`old_text` that occurs in only one"
            )
        return matches[0]

    # ---- recall, sessions, prompt resources ------------------------------------------
    async def recall(self, query: str, limit: int, actor: Optional[Actor] = None) -> dict[str, Any]:
        """A real recall: the recall log names the client (mcp:<client>) that asked."""
        result = await self.call(lambda: self.engine.recall(query, limit=limit, dry=False, actor=actor))
        hits = [
            {
                "id": h.id,
                "key": h.key,
                "content": h.content,
                "tier": h.tier,
                "target": h.type,
                "provenance": h.entry.source.label if h.entry is not None else None,
                "score": round(h.final, 6),
                "found_by": [path for path, score in (("bm25", h.bm25), ("vector", h.vector)) if score.rank is not None],
                "pinned": h.pinned,
            }
            for h in result.results
        ]
        return {"query": query, "mode": result.mode, "results": hits, "notices": [n.message for n in result.notices]}

    async def session_append(self, session: str, role: str, content: str) -> dict[str, Any]:
        async def append():
            try:
                return await self.engine.add_message(session, role, content)
            except (NotFound, ConsolidationError):
                await self.engine.open_session(session)  # new, or ended: (re)open it
                return await self.engine.add_message(session, role, content)

        message = await self.call(append)
        return {"session": message.session_key, "index": message.idx, "role": message.role}

    async def session_end(self, session: str) -> dict[str, Any]:
        job = await self.call(lambda: self.engine.end_session(session))
        return {
            "session": session,
            "job_id": job.id,
            "status": job.status,
            "note": "consolidation runs in the background; episodes and facts appear when it finishes",
        }

    async def working(self, session: str) -> str:
        return (await self.call(lambda: self.engine.render_working(session))).markdown

    async def core(self) -> str:
        return (await self.call(self.engine.core_snapshot)).markdown


def _required(value: Optional[str], name: str, action: str) -> str:
    if value is None or not value.strip():
        raise ToolError(f"action {action} needs `{name}`")
    return value


def _split_tags(tags: Optional[str]) -> list[str]:
    return [t.strip() for t in (tags or "").split(",") if t.strip()]


# ---- the tools as a model sees them ---------------------------------------------------
Target = Annotated[
    Optional[Literal["user", "environment"]],
    Field(
        description="user: facts about the user (preferences, identity, habits); environment: facts about "
        "projects, tools, machines and conventions. add defaults to environment; list, search, replace "
        "and remove look at both when it is absent"
    ),
]
Key = Annotated[
    Optional[str],
    Field(
        description=f"short stable label naming the fact, e.g. 'editor_theme' (max {MAX_KEY_CHARS} chars). "
        "add: optional (derived from the content when absent); a second add with the same key makes a new "
        "version. replace/remove: picks the memory by key",
        max_length=MAX_KEY_CHARS,
    ),
]
Content = Annotated[Optional[str], Field(description="the fact, one self-contained sentence or short paragraph (add, replace)")]
OldText = Annotated[
    Optional[str],
    Field(
        description="replace/remove: an exact, case-sensitive substring of the memory to change; must match exactly one memory"
    ),
]
Query = Annotated[Optional[str], Field(description="search: text to look for in keys and contents (case-insensitive substring)")]
Tags = Annotated[Optional[str], Field(description="comma-separated tags, e.g. 'editor,ui' (add, replace)")]
Importance = Annotated[
    Optional[float], Field(ge=0.0, le=1.0, description="0 to 1: how much this matters (default 0.5); low-importance facts fade")
]
Source = Annotated[
    Literal["model_inferred", "user_stated"],
    Field(
        description="user_stated only when the user said this explicitly in the conversation; otherwise "
        "model_inferred. A model_inferred write cannot replace a user_stated memory"
    ),
]
Session = Annotated[
    str,
    Field(
        min_length=1, max_length=MAX_SESSION_KEY_CHARS, description="a stable id for this conversation, e.g. 'chat-2026-11-30-1'"
    ),
]
Role = Annotated[Literal[ROLES], Field(description="who said it")]  # type: ignore[valid-type]
Limit = Annotated[int, Field(ge=1, le=MAX_LIST, description=f"most entries to return (1-{MAX_LIST})")]

WRITE_ACTIONS_DOC = """Read and change the user's long-term memory, one fact at a time.
- add: store `content` (with optional `key`, `tags`, `importance`, `source`).
- replace: give `content` a new version of the memory picked by `key` or `old_text`.
- remove: archive the memory picked by `key` or `old_text` (a person can restore it).
- search: memories whose key or content contains `query`.
- list: current memories of `target`, most important first.
Writes are checked for prompt injection and provenance; a refusal is returned as an error with its reason,
and nothing is stored."""

READ_ACTIONS_DOC = """Read the user's long-term memory (this server is read-only).
- search: memories whose key or content contains `query`.
- list: current memories of `target`, most important first."""


READING = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def build_server(bridge: MemoryBridge, read_only: bool) -> MCPServer:
    """The MCP server: with read_only, no tool that writes is listed."""
    server = MCPServer("echo-memory", instructions=INSTRUCTIONS, log_level="WARNING")
    if read_only:
        _add_memory_read_tool(server, bridge)
    else:
        _add_memory_tool(server, bridge)
    _add_recall_tool(server, bridge)
    if not read_only:
        _add_session_tools(server, bridge)
    _add_resources(server, bridge)
    return server


def _add_memory_read_tool(server: MCPServer, bridge: MemoryBridge) -> None:
    """`memory` limited to search and list, for a read-only store."""

    async def memory_read(
        action: Annotated[Literal["search", "list"], Field(description="what to do")],
        target: Target = None,
        query: Query = None,
        limit: Limit = 20,
        ctx: Context = None,
    ) -> dict[str, Any]:
        return await bridge.memory(
            bridge.actor(ctx), action, target, None, None, None, query, None, None, "model_inferred", limit
        )

    server.add_tool(memory_read, name="memory", description=READ_ACTIONS_DOC, annotations=READING)


def _add_memory_tool(server: MCPServer, bridge: MemoryBridge) -> None:
    """`memory` with every action: add, replace, remove, search, list."""

    async def memory(
        action: Annotated[Literal["add", "replace", "remove", "search", "list"], Field(description="what to do")],
        target: Target = None,
        key: Key = None,
        content: Content = None,
        old_text: OldText = None,
        query: Query = None,
        tags: Tags = None,
        importance: Importance = None,
        source: Source = "model_inferred",
        limit: Limit = 20,
        ctx: Context = None,
    ) -> dict[str, Any]:
        return await bridge.memory(
            bridge.actor(ctx), action, target, key, content, old_text, query, tags, importance, source, limit
        )

    server.add_tool(
        memory,
        name="memory",
        description=WRITE_ACTIONS_DOC,
        annotations=ToolAnnotations(destructive_hint=False, idempotent_hint=False, open_world_hint=False),
    )


def _add_recall_tool(server: MCPServer, bridge: MemoryBridge) -> None:
    async def recall(
        query: Annotated[str, Field(min_length=1, description="what you need to remember, in words")],
        limit: Annotated[int, Field(ge=1, le=50, description="most results (1-50)")] = 10,
        ctx: Context = None,
    ) -> dict[str, Any]:
        return await bridge.recall(query, limit, bridge.actor(ctx))

    server.add_tool(
        recall,
        name="recall",
        annotations=READING,
        description=(
            "Find the memories most relevant to a query (hybrid keyword + meaning search, reranked, weighted by "
            "decay), best first: id, key, content, tier, provenance, score and which search paths found each. "
            "Recalling a memory counts as using it, which keeps it from fading."
        ),
    )


def _add_session_tools(server: MCPServer, bridge: MemoryBridge) -> None:
    """session_append and session_end: the conversation consolidation distils."""

    async def session_append(
        session: Session,
        role: Role,
        content: Annotated[str, Field(min_length=1, description="the message text")],
    ) -> dict[str, Any]:
        return await bridge.session_append(session, role, content)

    async def session_end(session: Session) -> dict[str, Any]:
        return await bridge.session_end(session)

    server.add_tool(
        session_append,
        name="session_append",
        description=(
            "Append one message of the current conversation to its session (opened on first use). At "
            "session_end the memory distils the conversation into an episode and durable facts."
        ),
    )
    server.add_tool(
        session_end,
        name="session_end",
        description=("End the conversation's session and schedule its consolidation; returns at once with the job id."),
    )


def _add_resources(server: MCPServer, bridge: MemoryBridge) -> None:
    """The prompt markdown a client can read: the core snapshot and a session's WORKING notes."""

    @server.resource(
        "memory://core",
        name="core",
        mime_type="text/markdown",
        description="Pinned and user memories: what every prompt should start with (markdown).",
    )
    async def core() -> str:
        return await bridge.core()

    @server.resource(
        "memory://working/{session}",
        name="working",
        mime_type="text/markdown",
        description="A session's WORKING memory notes as prompt markdown.",
    )
    async def working(session: str) -> str:
        return await bridge.working(session)


async def serve(db, settings: Settings, read_only: bool, transport: str, host: str, port: int) -> None:
    """Open the store, start background consolidation (unless read-only) and serve
    until the client (stdio) or the process (http) ends."""
    engine = await MemoryEngine.open(db, settings, read_only=read_only, actor=Actor.agent("mcp"))
    try:
        bridge = MemoryBridge(engine, settings)
        server = build_server(bridge, read_only or engine.read_only)
        if not engine.read_only:
            await engine.consolidation.start(watch_idle=True)
        if transport == "stdio":
            await server.run_stdio_async()
        else:
            await server.run_streamable_http_async(host=host, port=port)
    finally:
        await engine.close()
