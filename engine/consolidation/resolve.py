"""Contradiction records and their resolutions: recording what the verifier found
(resolving it at once when the policy allows), the manual choices (keep A, keep
B, keep both, merge) and undo.

Every resolution is one transaction: the loser's supersession and move to
ARCHIVAL (through the gate), the contradiction's new status, the audit record,
and a row in `resolutions` with each changed entry's state before and after, so
undo can put it back exactly. Any failure rolls all of it back, which leaves the
contradiction pending and the resolution retryable."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from typing import Any, Optional

from ..gate import WriteRejected
from ..models import ContradictionStatus, InvalidValue, MemoryEntry, MemoryTier, ProvenanceLevel, from_iso, to_iso
from ..store import CONTRADICTION_COLUMNS, ENTRY_COLUMNS, Store, row_to_entry
from .policy import plan
from .records import ConsolidationError, ContradictionRecord, NotFound, ResolutionResult, Signals, Verdict

KEEP_CHOICES = ("a", "b", "both")


class ContradictionBook:
    def __init__(self, engine):
        self.engine = engine
        self.store: Store = engine.store
        self.gate = engine.gate

    # ---- reads -----------------------------------------------------------------------
    async def query(self, status: Optional[str] = None, limit: Optional[int] = None) -> list[ContradictionRecord]:
        sql, params = f"SELECT {CONTRADICTION_COLUMNS} FROM contradictions", []
        if status is not None:
            sql += " WHERE status=?"
            params.append(ContradictionStatus.parse(status).value)
        sql += " ORDER BY created_at DESC, id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [ContradictionRecord.from_row(r) for r in await self.store.fetchall(sql, params)]

    async def get(self, contradiction_id: str) -> ContradictionRecord:
        """By id, or by a unique prefix of at least four characters."""
        async with self.store.read() as conn:
            return await self._load(conn, contradiction_id)

    async def resolutions(self, contradiction_id: Optional[str] = None) -> list[dict[str, Any]]:
        sql = "SELECT id, contradiction_id, action, actor, at, merged_entry_id, before, after, undone_at FROM resolutions"
        params: list = []
        if contradiction_id is not None:
            sql += " WHERE contradiction_id=?"
            params.append((await self.get(contradiction_id)).id)
        rows = await self.store.fetchall(sql + " ORDER BY id DESC", params)
        return [
            {
                "id": r[0],
                "contradiction_id": r[1],
                "action": r[2],
                "actor": r[3],
                "at": r[4],
                "merged_entry_id": r[5],
                "before": json.loads(r[6]),
                "after": json.loads(r[7]),
                "undone_at": r[8],
            }
            for r in rows
        ]

    async def _load(self, conn, contradiction_id: str) -> ContradictionRecord:
        contradiction_id = (contradiction_id or "").strip()
        if len(contradiction_id) < 4:
            raise NotFound(f"no contradiction {contradiction_id!r} (give the id or at least 4 of its characters)")
        async with conn.execute(
            f"SELECT {CONTRADICTION_COLUMNS} FROM contradictions WHERE id=? OR id LIKE ? ORDER BY id LIMIT 2",
            (contradiction_id, contradiction_id + "%"),
        ) as cur:
            rows = await cur.fetchall()
        exact = [r for r in rows if r[0] == contradiction_id]
        if exact:
            return ContradictionRecord.from_row(exact[0])
        if not rows:
            raise NotFound(f"no contradiction {contradiction_id!r}")
        if len(rows) > 1:
            raise NotFound(f"{contradiction_id!r} matches several contradictions; give more of the id")
        return ContradictionRecord.from_row(rows[0])

    # ---- recording (consolidation) ----------------------------------------------------
    async def record(
        self, a: MemoryEntry, b: MemoryEntry, verdict: Verdict, signals: Signals, run_id: str, actor: str
    ) -> tuple[Optional[ContradictionRecord], Optional[ResolutionResult]]:
        """Store a verified contradiction and apply the automatic resolution when the
        policy allows, in one transaction. Returns (None, None) when the pair is
        already known or either entry stopped being current meanwhile."""
        min_confidence = float(self.engine.settings.get("memory.contradictionMinConfidence"))
        async with self.store.transaction() as conn:
            async with conn.execute(
                "SELECT 1 FROM contradictions WHERE (entry_a_id=? AND entry_b_id=?) OR (entry_a_id=? AND entry_b_id=?)",
                (a.id, b.id, b.id, a.id),
            ) as cur:
                if await cur.fetchone() is not None:
                    return None, None
            a, b = await _entry(conn, a.id), await _entry(conn, b.id)
            if not (_live(a) and _live(b)):
                return None, None
            preview = plan(
                a, b, verdict.confidence, min_confidence, times=(await stated_time(conn, a), await stated_time(conn, b))
            )
            record = ContradictionRecord(
                entry_a_id=a.id,
                entry_b_id=b.id,
                description=verdict.description,
                confidence=verdict.confidence,
                created_at=self.engine.clock(),
                detector=verdict.produced_by,
                detail={
                    "kind": verdict.kind,
                    "explanation": verdict.explanation,
                    "evidence": verdict.evidence,
                    "signals": signals.to_dict(),
                    "preview": preview,
                    "run_id": run_id,
                },
            )
            await conn.execute(
                f"INSERT INTO contradictions({CONTRADICTION_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    record.id,
                    record.entry_a_id,
                    record.entry_b_id,
                    record.description,
                    record.confidence,
                    None,
                    None,
                    to_iso(record.created_at),
                    record.status.value,
                    record.detector,
                    json.dumps(record.detail, ensure_ascii=False, default=str),
                ),
            )
            await Store.audit(
                conn,
                "contradiction",
                actor,
                a.id,
                verdict.kind,
                {"contradiction": record.id, "entry_b": b.id, "confidence": verdict.confidence},
                at=self.engine.clock(),
            )
            if not preview["auto"]:
                return record, None
            result = await self._apply(
                conn, record, f"auto:{preview['rule']}", actor, winner_id=preview["winner_id"], loser_ids=[preview["loser_id"]]
            )
            return result.contradiction, result

    # ---- manual resolution --------------------------------------------------------------
    async def keep(self, contradiction_id: str, which: str, actor: str = "user") -> ResolutionResult:
        """Keep A (B is superseded by A), keep B, or keep both (dismiss)."""
        if which not in KEEP_CHOICES:
            raise InvalidValue(f"keep must be one of {', '.join(KEEP_CHOICES)}, got {which!r}")
        async with self.store.transaction() as conn:
            record = await self._pending(conn, contradiction_id)
            if which == "both":
                return await self._apply(conn, record, "keep_both", actor, winner_id=None, loser_ids=[])
            winner, loser = (record.entry_a_id, record.entry_b_id) if which == "a" else (record.entry_b_id, record.entry_a_id)
            return await self._apply(conn, record, f"keep_{which}", actor, winner_id=winner, loser_ids=[loser])

    async def merge(self, contradiction_id: str, text: str, actor: str = "user") -> ResolutionResult:
        """Replace both entries by one the user states: written through the gate (so the
        scanner sees it) as a new version of A's key, superseding A and B."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidValue("merge text must not be empty")
        merged: Optional[MemoryEntry] = None
        try:
            async with self.store.transaction() as conn:
                record = await self._pending(conn, contradiction_id)
                a, b = await _entry(conn, record.entry_a_id), await _entry(conn, record.entry_b_id)
                for side, entry in (("a", a), ("b", b)):
                    if not _live(entry):
                        raise ConsolidationError(f"entry {side} ({entry.id}) is no longer current; it cannot be merged")
                now = self.engine.clock()
                merged = MemoryEntry(
                    key=a.key,
                    content=text.strip(),
                    type=a.type,
                    tier=MemoryTier.SEMANTIC,
                    tags=list(dict.fromkeys(a.tags + b.tags)),
                    created_at=now,
                    updated_at=now,
                    last_accessed=now,
                    importance=max(a.importance, b.importance),
                    source=ProvenanceLevel.USER_STATED,
                    pinned=a.pinned or b.pinned,
                )
                outcome = await self.gate.write_in(conn, merged, actor, f"merge of contradiction {record.id}")
                if outcome.action == "unchanged":
                    raise ConsolidationError("the merge text is what entry a already says; use keep a instead")
                return await self._apply(
                    conn,
                    record,
                    "merge",
                    actor,
                    winner_id=outcome.entry.id,
                    loser_ids=[b.id],
                    merged=outcome.entry,
                    merged_over=a,
                )
        except WriteRejected as exc:
            if merged is not None and exc.scan is not None:
                await self.gate.audit_refusal(exc, merged, actor)
            raise

    async def _pending(self, conn, contradiction_id: str) -> ContradictionRecord:
        record = await self._load(conn, contradiction_id)
        if record.status is not ContradictionStatus.PENDING:
            raise ConsolidationError(
                f"contradiction {record.id} is already {record.status.label} "
                f"({record.resolution}); undo that first to change the outcome"
            )
        return record

    async def _apply(
        self,
        conn,
        record: ContradictionRecord,
        action: str,
        actor: str,
        winner_id: Optional[str],
        loser_ids: list[str],
        merged: Optional[MemoryEntry] = None,
        merged_over: Optional[MemoryEntry] = None,
    ) -> ResolutionResult:
        now = self.engine.clock()
        before: list[dict] = [_state(merged_over)] if merged_over is not None else []
        changed: list[MemoryEntry] = []
        for loser_id in loser_ids:
            before.append(_state(await _entry(conn, loser_id)))
            changed.append(
                await self.gate.supersede_in(
                    conn, loser_id, winner_id, actor, f"contradiction {record.id}: {action}", {"contradiction": record.id}
                )
            )
        if merged is not None:
            changed = [merged, await _entry(conn, merged_over.id)] + changed
        # Pending contradictions about a just-superseded entry have nothing left to decide
        # (they reopen if this is undone).
        obsolete = await Store.close_contradictions_about(conn, [s["id"] for s in before], now, "obsolete", except_id=record.id)
        status = ContradictionStatus.DISMISSED if action == "keep_both" else ContradictionStatus.RESOLVED
        await conn.execute(
            "UPDATE contradictions SET status=?, resolution=?, resolved_at=? WHERE id=?",
            (status.value, action, to_iso(now), record.id),
        )
        after = [_state(e) for e in changed if merged is None or e.id != merged.id]
        cur = await conn.execute(
            "INSERT INTO resolutions(contradiction_id, action, actor, at, merged_entry_id, before, after) VALUES (?,?,?,?,?,?,?)",
            (
                record.id,
                action,
                actor,
                to_iso(now),
                merged.id if merged else None,
                json.dumps({"entries": before, "obsolete": obsolete}),
                json.dumps({"entries": after}),
            ),
        )
        await Store.audit(
            conn,
            "resolve",
            actor,
            winner_id or record.entry_a_id,
            action,
            {
                "contradiction": record.id,
                "winner": winner_id,
                "losers": loser_ids,
                "merged": merged.id if merged else None,
                "obsolete": obsolete,
            },
            at=now,
        )
        resolved = replace(record, status=status, resolution=action, resolved_at=now)
        return ResolutionResult(resolved, action, changed, cur.lastrowid)

    # ---- undo ----------------------------------------------------------------------------
    async def undo(self, contradiction_id: Optional[str] = None, actor: str = "user") -> ResolutionResult:
        """Revert the most recent resolution not yet undone (of one contradiction, if
        given): entries back to their tier and supersession, the merge entry removed,
        the contradiction (and any it closed as obsolete) pending again. Refused when
        an entry changed since, so undo never overwrites later work."""
        async with self.store.transaction() as conn:
            sql = "SELECT id, contradiction_id, action, merged_entry_id, before, after FROM resolutions WHERE undone_at IS NULL"
            params: tuple = ()
            if contradiction_id is not None:
                sql += " AND contradiction_id=?"
                params = ((await self._load(conn, contradiction_id)).id,)
            async with conn.execute(sql + " ORDER BY id DESC LIMIT 1", params) as cur:
                row = await cur.fetchone()
            if row is None:
                raise NotFound("there is no resolution to undo" + (f" for {contradiction_id}" if contradiction_id else ""))
            resolution_id, cid, action, merged_id = row[0], row[1], row[2], row[3]
            before, after = json.loads(row[4]), json.loads(row[5])
            record = await self._load(conn, cid)
            for state in after["entries"]:
                current = _state(await _entry(conn, state["id"]))
                if current != state:
                    raise ConsolidationError(
                        f"entry {state['id']} changed since this resolution (now {current['tier']}, superseded by "
                        f"{current['superseded_by']}); undo refused so nothing later is overwritten"
                    )
            reason = f"undo of {action} on contradiction {cid}"
            originals = [(s["id"], MemoryTier(s["tier"]), s["superseded_by"]) for s in before["entries"]]
            if merged_id is not None:
                changed = await self.gate.unmerge_in(conn, merged_id, originals, actor, reason)
            else:
                changed = [await self.gate.reinstate_in(conn, *original, actor, reason) for original in originals]
            now = self.engine.clock()
            for other in [cid, *before["obsolete"]]:
                await conn.execute(
                    "UPDATE contradictions SET status='pending', resolution=NULL, resolved_at=NULL WHERE id=?", (other,)
                )
            await conn.execute("UPDATE resolutions SET undone_at=? WHERE id=?", (to_iso(now), resolution_id))
            await Store.audit(
                conn,
                "undo_resolve",
                actor,
                record.entry_a_id,
                action,
                {"contradiction": cid, "resolution": resolution_id, "merged_removed": merged_id, "reopened": before["obsolete"]},
                at=now,
            )
            reopened = replace(record, status=ContradictionStatus.PENDING, resolution=None, resolved_at=None)
            return ResolutionResult(reopened, "undo", changed, resolution_id)


async def stated_time(conn, entry: MemoryEntry) -> datetime:
    """When an entry's statement was made: for a consolidated fact, the latest time a
    session stated it (not when a run happened to write it); otherwise its creation."""
    async with conn.execute(
        "SELECT json_extract(detail, '$.stated_at') FROM fact_candidates WHERE entry_id=? "
        "AND json_extract(detail, '$.stated_at') IS NOT NULL",
        (entry.id,),
    ) as cur:
        times = [from_iso(r[0]) for r in await cur.fetchall()]
    return max(times, default=entry.created_at)


def _live(entry: MemoryEntry) -> bool:
    return entry.superseded_by is None and entry.tier is MemoryTier.SEMANTIC


def _state(entry: MemoryEntry) -> dict[str, Any]:
    return {"id": entry.id, "tier": entry.tier.value, "superseded_by": entry.superseded_by}


async def _entry(conn, entry_id: str) -> MemoryEntry:
    async with conn.execute(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id=?", (entry_id,)) as cur:
        row = await cur.fetchone()
    if row is None:
        raise NotFound(f"entry {entry_id} no longer exists")
    return row_to_entry(row)
