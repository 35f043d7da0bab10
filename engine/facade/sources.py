"""Where entries came from and who is writing: each entry's origin and last touch
from the audit log, the agents seen writing lately, commits by other processes
(live reload), and the folder sync of an agent's own memory files."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import AsyncIterator, Iterable, Optional

from ..actors import _CONSOLIDATION_NAMES, _PERSON_NAMES, Actor, ActorKind
from ..models import AuditRecord, InvalidValue, from_iso, to_iso
from .core import EngineCore


# ---- where an entry came from (issue 12) ------------------------------------------------
# An entry's origin is the actor of its first audit row (the write that created this
# version), as people read it: "person" for the person at the app or CLI,
# "consolidation" for the sleep-time pipeline, else the actor's own name
# (mcp:claude-code, sync:hermes, import:hermes). The SQL below and origin_label()
# read the actor names alike (engine/actors.py's sets).
def _sql_names(names: Iterable[str]) -> str:
    return ",".join("'" + n.replace("'", "''") + "'" for n in sorted(names))


ORIGIN_CASE = (
    f"CASE WHEN {{a}}.actor IN ({_sql_names(_PERSON_NAMES)}) OR {{a}}.actor LIKE 'person:%' THEN 'person' "
    f"WHEN {{a}}.actor IN ({_sql_names(_CONSOLIDATION_NAMES)}) OR {{a}}.actor LIKE 'consolidation:%' "
    "THEN 'consolidation' ELSE {a}.actor END"
)
FIRST_ORIGIN_SQL = (
    f"(SELECT {ORIGIN_CASE.format(a='o')} FROM audit o WHERE o.entry_id=entries.id "
    "AND o.action != 'reject' ORDER BY o.id LIMIT 1)"
)


def origin_label(actor: str) -> str:
    """How the app names an audit actor (see ORIGIN_CASE)."""
    try:
        kind = Actor.parse(actor).kind
    except InvalidValue:
        return actor
    return {ActorKind.PERSON: "person", ActorKind.CONSOLIDATION: "consolidation"}.get(kind, actor)


@dataclass(frozen=True)
class EntryOrigin:
    """Who created an entry's version (origin) and who touched it last, and how."""

    origin: str
    last: str
    last_action: str
    last_at: Optional[datetime]

    @classmethod
    def from_audit(cls, records: list[AuditRecord]) -> Optional["EntryOrigin"]:
        """The same, from an entry's audit records as engine.audit() lists them (newest first)."""
        rows = [r for r in records if r.action != "reject"]
        if not rows:
            return None
        return cls(origin_label(rows[-1].actor), origin_label(rows[0].actor), rows[0].action, rows[0].at)


@dataclass(frozen=True)
class WriterSeen:
    """An agent that wrote (or tried to) in the last minutes, from the audit log."""

    actor: str
    writes: int
    last_at: Optional[datetime]


@dataclass(frozen=True)
class StoreChange:
    """Another process committed: which entries it touched and how."""

    entry_ids: list[str]
    ops: list[str]


class SourcesMixin(EngineCore):
    """Origins, recent writers and live changes, for the browser and the status line."""

    # ---- live changes from other processes -----------------------------------------
    async def watch_changes(self, stop_event: Optional[asyncio.Event] = None) -> AsyncIterator[StoreChange]:
        """Yield a StoreChange each time another connection commits to this store.

        watchfiles wakes us on the db and -wal files; PRAGMA data_version tells a
        foreign commit from our own writes (which do not change it), so the app's
        own edits do not echo back. A commit becomes visible only when its writer
        updates the wal-index in -shm, after the -wal write whose event woke us, and
        -shm gives no reliable event: so data_version is also read once a second
        without an event (a cheap pragma), and such a commit is never missed."""
        from watchfiles import awatch

        names = {self.path.name, self.path.name + "-wal"}
        last_version = await self.store.data_version()
        last_seq = await self.last_change_seq()
        async for _events in awatch(
            self.path.parent,
            stop_event=stop_event,
            debounce=100,
            step=50,
            rust_timeout=1000,
            yield_on_timeout=True,
            watch_filter=lambda _c, p: Path(p).name in names,
        ):
            version = await self.store.data_version()
            if version == last_version:
                continue
            last_version = version
            rows = await self.store.fetchall("SELECT seq, entry_id, op FROM change_log WHERE seq > ? ORDER BY seq", (last_seq,))
            if rows:
                last_seq = rows[-1][0]
            yield StoreChange(entry_ids=sorted({r[1] for r in rows}), ops=sorted({r[2] for r in rows}))

    async def last_change_seq(self) -> int:
        row = await self.store.fetchone("SELECT coalesce(max(seq), 0) FROM change_log")
        return row[0]

    # ---- where entries came from, and live agent sources (issue 12) --------------------------
    async def entry_origins(self, entry_ids: Iterable[str]) -> dict[str, EntryOrigin]:
        """Origin and last touch of many entries in one query (a browser page, not a row at a time)."""
        ids = list(dict.fromkeys(entry_ids))
        found: dict[str, EntryOrigin] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await self.store.fetchall(
                "SELECT g.entry_id, f.actor, l.actor, l.action, l.at FROM (SELECT entry_id, min(id) AS first, "
                f"max(id) AS last FROM audit WHERE entry_id IN ({','.join('?' * len(chunk))}) AND action != 'reject' "
                "GROUP BY entry_id) g JOIN audit f ON f.id = g.first JOIN audit l ON l.id = g.last",
                chunk,
            )
            found.update({r[0]: EntryOrigin(origin_label(r[1]), origin_label(r[2]), r[3], from_iso(r[4])) for r in rows})
        return found

    async def recent_writers(self, since: datetime, prefixes: tuple[str, ...] = ("mcp:", "sync:")) -> list[WriterSeen]:
        """Writers whose audit name starts with one of prefixes (MCP clients and folder
        syncs by default) seen in the audit log since a time, most recent first."""
        rows = await self.store.fetchall(
            "SELECT actor, count(*), max(at) FROM audit WHERE at >= ? GROUP BY actor ORDER BY max(at) DESC", (to_iso(since),)
        )
        return [WriterSeen(actor, n, from_iso(at)) for actor, n, at in rows if actor.startswith(prefixes)]
