"""Conversation sessions and their transcripts, and the episodes consolidation
made of them. A session is opened by key, collects messages in order, and is
ended; what has been consolidated is tracked as a message index, so a session
consolidated while idle and again at its end is never summarised twice."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from ..fields import validate_message, validate_session_key
from ..models import Episode, InvalidValue, from_iso, to_iso
from ..store import EPISODE_COLUMNS, Store, row_to_episode
from .records import ROLES, ConsolidationError, Message, NotFound, SessionInfo

_SESSION_COLUMNS = (
    "s.key, s.status, s.started_at, s.ended_at, s.last_activity_at, s.consolidated_through, "
    "(SELECT count(*) FROM messages m WHERE m.session_key=s.key), "
    "(SELECT count(*) FROM episodes e WHERE e.session_key=s.key)"
)


def _session(row) -> SessionInfo:
    return SessionInfo(
        key=row[0],
        status=row[1],
        started_at=from_iso(row[2]),
        ended_at=from_iso(row[3]),
        last_activity_at=from_iso(row[4]),
        consolidated_through=row[5],
        messages=row[6],
        episodes=row[7],
    )


class SessionLog:
    def __init__(self, store: Store):
        self.store = store

    async def open(self, key: str, now: datetime) -> SessionInfo:
        """Open a session, or reopen an ended one so it can take more messages."""
        key = validate_session_key(key)
        async with self.store.transaction() as conn:
            await conn.execute(
                "INSERT INTO sessions(key, started_at, status, last_activity_at) VALUES (?,?, 'open', ?) "
                "ON CONFLICT(key) DO UPDATE SET status='open', ended_at=NULL, last_activity_at=excluded.last_activity_at",
                (key, to_iso(now), to_iso(now)),
            )
        return await self.get(key)

    async def add_message(self, key: str, role: str, content: str, now: datetime) -> Message:
        """Every path (the facade, the CLI, an agent server) gets the same checks: the
        message's size first, then the session key's grammar."""
        validate_message(content)
        key = validate_session_key(key)
        if role not in ROLES:
            raise InvalidValue(f"unknown role {role!r} (expected one of: {', '.join(ROLES)})")
        async with self.store.transaction() as conn:
            status = await _status(conn, key)
            if status != "open":
                raise ConsolidationError(f"session {key!r} has ended; open it again to add messages")
            async with conn.execute("SELECT coalesce(max(idx), -1) + 1 FROM messages WHERE session_key=?", (key,)) as cur:
                idx = (await cur.fetchone())[0]
            await conn.execute(
                "INSERT INTO messages(session_key, idx, role, content, at) VALUES (?,?,?,?,?)",
                (key, idx, role, content, to_iso(now)),
            )
            await conn.execute("UPDATE sessions SET last_activity_at=? WHERE key=?", (to_iso(now), key))
        return Message(key, idx, role, content, now)

    async def end(self, conn, key: str, now: datetime) -> None:
        """Mark a session ended inside the caller's transaction (which also queues its job)."""
        status = await _status(conn, key)
        if status == "open":
            await conn.execute(
                "UPDATE sessions SET status='ended', ended_at=?, last_activity_at=? WHERE key=?", (to_iso(now), to_iso(now), key)
            )

    async def get(self, key: str) -> SessionInfo:
        row = await self.store.fetchone(f"SELECT {_SESSION_COLUMNS} FROM sessions s WHERE s.key=?", (key,))
        if row is None:
            raise NotFound(f"no session {key!r}")
        return _session(row)

    async def all(self, status: Optional[str] = None) -> list[SessionInfo]:
        sql = f"SELECT {_SESSION_COLUMNS} FROM sessions s"
        params: tuple = ()
        if status is not None:
            sql += " WHERE s.status=?"
            params = (status,)
        return [_session(r) for r in await self.store.fetchall(sql + " ORDER BY s.started_at DESC, s.key", params)]

    async def messages(self, key: str, after: int = -1, through: Optional[int] = None) -> list[Message]:
        sql = "SELECT session_key, idx, role, content, at FROM messages WHERE session_key=? AND idx>?"
        params: list = [key, after]
        if through is not None:
            sql += " AND idx<=?"
            params.append(through)
        rows = await self.store.fetchall(sql + " ORDER BY idx", params)
        return [Message(r[0], r[1], r[2], r[3], from_iso(r[4])) for r in rows]

    async def episodes(
        self,
        session: Optional[str] = None,
        entity: Optional[str] = None,
        since: Optional[datetime] = None,
        until: Optional[datetime] = None,
        query: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> list[Episode]:
        """Episodes, newest first; query is a plain case-insensitive text match on the summary."""
        where: list[str] = []
        params: list[Any] = []
        if session is not None:
            where.append("session_key=?")
            params.append(session)
        if entity:
            where.append("EXISTS (SELECT 1 FROM json_each(episodes.entity_ids) WHERE lower(value)=?)")
            params.append(entity.lower())
        if since is not None:
            where.append("created_at>=?")
            params.append(to_iso(since))
        if until is not None:
            where.append("created_at<=?")
            params.append(to_iso(until))
        if query:
            where.append("instr(lower(summary), ?) > 0")
            params.append(query.lower())
        sql = f"SELECT {EPISODE_COLUMNS} FROM episodes"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY created_at DESC, id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [row_to_episode(r) for r in await self.store.fetchall(sql, params)]

    async def idle(self, cutoff: datetime) -> list[SessionInfo]:
        """Open sessions quiet since before cutoff that still hold unconsolidated messages."""
        return [
            s
            for s in await self.all("open")
            if s.last_activity_at is not None and s.last_activity_at < cutoff and s.unconsolidated > 0
        ]


async def _status(conn, key: str) -> str:
    async with conn.execute("SELECT status FROM sessions WHERE key=?", (key,)) as cur:
        row = await cur.fetchone()
    if row is None:
        raise NotFound(f"no session {key!r}")
    return row[0]
