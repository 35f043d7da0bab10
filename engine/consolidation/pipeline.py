"""One consolidation run over one session: the spec's four steps.

1. Episode creation: the unconsolidated messages become an Episode (summary,
   message range, entities, importance), stored together with the candidate facts
   extracted from them and the session's WORKING notes.
2. Fact extraction: each candidate is written as a SEMANTIC, `consolidated` entry
   through the write gate, one transaction per fact that also records the
   candidate's outcome (written, unchanged, or refused by the scanner or guard).
3. Contradiction detection: the new facts against the live entries, pre-filtered,
   verified, recorded, and resolved automatically where the policy allows.
4. Decay pass over the whole store.

Crash safety: every step checks what is already done before doing it. An episode
whose messages are not yet marked consolidated is resumed, not re-summarised; a
candidate is applied only while its status is 'new', in the same transaction that
changes it; a known pair is never recorded twice; decay is idempotent. The
session's progress moves forward only after its episode's last step, so a run
killed anywhere re-runs to the same result."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Awaitable, Callable, Optional, TypeVar

from ..gate import WriteRejected, scan_texts
from ..models import (
    Episode,
    InvalidValue,
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    from_iso,
    new_id,
    to_iso,
)
from ..store import EPISODE_COLUMNS, row_to_episode
from .detect import candidate_pairs, cosines, known_pairs, live_entries
from .extract import find_projects
from .llm import ExtractionContext, LanguageModel, ModelError
from .offline import OfflineModel
from .records import CandidateFact, Message, RunRecord
from .resolve import ContradictionBook, stated_time
from .sessions import SessionLog

T = TypeVar("T")
_NAME_IN_FACT = re.compile(r"\bname is ([A-Z][\w'-]+)")


class Pipeline:
    def __init__(self, engine, model: LanguageModel, offline: OfflineModel, book: ContradictionBook, sessions: SessionLog):
        self.engine = engine
        self.model = model
        self.offline = offline
        self.book = book
        self.sessions = sessions
        self.made: list[str] = []  # ids of the runs this process recorded, oldest first

    async def run(self, session_key: str, trigger: str, job_id: Optional[str] = None) -> RunRecord:
        run = RunRecord(
            id=new_id(),
            session_key=session_key,
            trigger=trigger,
            status="running",
            started_at=self.engine.clock(),
            job_id=job_id,
            detail={"episodes": [], "refused": [], "contradictions": [], "resolutions": []},
        )
        await self._save(run, insert=True)
        self.made.append(run.id)
        try:
            await self.sessions.get(session_key)
            while (episode := await self._episode(run, session_key)) is not None:
                await self._apply_facts(run, episode)
                await self._detect(run, episode)
                await self._advance(session_key, episode)
            run.counts["archived_by_decay"] = len(await self.engine.decay(dry_run=False, actor="consolidation"))
            run.counts["episodes_demoted"] = len(await self.engine.retain_episodes(dry_run=False, actor="consolidation"))
            await self._close_session(session_key)
            run.status = "ok"
        except Exception as exc:
            run.status = "failed"
            run.errors.append(f"{type(exc).__name__}: {exc}")
            raise
        finally:
            run.ended_at = self.engine.clock()
            await self._save(run)
        return run

    # ---- step 1: episode ---------------------------------------------------------------
    async def _episode(self, run: RunRecord, key: str) -> Optional[Episode]:
        session = await self.sessions.get(key)
        row = await self.engine.store.fetchone(
            f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE session_key=? AND message_range_start>? "
            "ORDER BY message_range_start LIMIT 1",
            (key, session.consolidated_through),
        )
        if row is not None:
            self._count(run, "episodes_resumed")
            run.detail["episodes"].append(row[0])
            return row_to_episode(row)
        messages = await self.sessions.messages(key, after=session.consolidated_through)
        if not messages:
            return None
        context = await self._context()
        episode = await self._summarise(run, key, messages, context)
        facts = await self._extract(run, messages, await self.engine.working_entries(key), context)
        async with self.engine.store.transaction() as conn:
            async with conn.execute(
                f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE session_key=? AND message_range_start=? AND message_range_end=?",
                (key, episode.message_range_start, episode.message_range_end),
            ) as cur:
                existing = await cur.fetchone()
            if existing is not None:  # another process made it meanwhile
                return row_to_episode(existing)
            await self.engine.gate.write_episode_in(conn, episode, "consolidation")
            for ordinal, fact in enumerate(facts):
                await conn.execute(
                    "INSERT INTO fact_candidates(episode_id, ordinal, key, content, type, tags, importance, "
                    "produced_by, status, detail) VALUES (?,?,?,?,?,?,?,?, 'new', ?)",
                    (
                        episode.id,
                        ordinal,
                        fact.key,
                        fact.content,
                        fact.type.value,
                        json.dumps(fact.tags),
                        fact.importance,
                        fact.produced_by,
                        json.dumps(_origin(fact.source, fact.stated_at or messages[-1].at)),
                    ),
                )
        self._count(run, "episodes")
        self._count(run, "messages", len(messages))
        self._count(run, "candidates", len(facts))
        run.detail["episodes"].append(episode.id)
        return episode

    async def _extract(
        self, run: RunRecord, messages: list[Message], notes: list[MemoryEntry], context: ExtractionContext
    ) -> list[CandidateFact]:
        """Candidate facts, each capped at the provenance of what it came from.

        The user's own statements in the transcript justify `consolidated` (the spec's
        level for facts the pipeline extracts; extractors take only what the user
        stated). A WORKING note carries its writer's provenance, so a fact that only a
        weaker note supports gets that note's level: a model_inferred note can never
        come back as a consolidated fact. The extractor is asked again with each weaker
        level of notes added; what appears only then came from those notes."""
        strong = [n.content for n in notes if n.source.value >= ProvenanceLevel.CONSOLIDATED.value]
        facts = await self._ask(run, "extractor", lambda m: m.extract_facts(messages, strong, context))
        weak_levels = sorted(
            {n.source for n in notes if n.source.value < ProvenanceLevel.CONSOLIDATED.value}, key=lambda level: -level.value
        )
        for level in weak_levels:  # model_inferred notes first, then legacy ones
            given = strong + [n.content for n in notes if level.value <= n.source.value < ProvenanceLevel.CONSOLIDATED.value]
            answer = await self._ask(run, "extractor", lambda m: m.extract_facts(messages, given, context))
            keys = {f.key for f in facts}
            facts += [replace(f, source=level) for f in answer if f.key not in keys]
        return facts

    async def _summarise(self, run: RunRecord, key: str, messages: list[Message], context: ExtractionContext) -> Episode:
        """The episode, with a summary the write scanner accepts.

        A refused summary never blocks the session: the model's summary falls back to
        the offline extractive one (which leaves out any sentence whose joining would
        be refused), and, should even that be refused, to a plain note that says so.
        The run's errors say which summary was stored."""
        summary = await self._ask(run, "summariser", lambda m: m.summarise(messages, context))
        episode = Episode(
            session_key=key,
            summary=summary.text or f"{len(messages)} messages with no statements to summarise.",
            message_range_start=messages[0].idx,
            message_range_end=messages[-1].idx,
            entity_ids=[e for e in summary.entities if not scan_texts(e).blocked],
            importance=summary.importance,
            created_at=self.engine.clock(),
            produced_by=summary.produced_by,
        )
        verdict = scan_texts(episode.summary)
        if not verdict.blocked:
            return episode
        refused_by = summary.produced_by
        if summary.produced_by != self.offline.name:
            fallback = await self.offline.summarise(messages, context)
            if fallback.text and not scan_texts(fallback.text).blocked:
                run.errors.append(
                    f"the episode summary by {refused_by} was refused by the write scanner "
                    f"({verdict.reason}); the offline extractive summary ({fallback.produced_by}) "
                    "was stored instead"
                )
                return replace(episode, summary=fallback.text, produced_by=fallback.produced_by)
        run.errors.append(
            f"the episode summary by {refused_by} was refused by the write scanner ({verdict.reason}); "
            "the episode was stored with a note in place of its summary"
        )
        return replace(
            episode,
            summary=f"{len(messages)} messages; the summary was withheld because the write "
            f"scanner refused it ({verdict.reason}).",
            produced_by="withheld",
        )

    async def _context(self) -> ExtractionContext:
        rows = await self.engine.store.fetchall(
            "SELECT key, content, tags FROM entries WHERE superseded_by IS NULL AND tier='semantic'"
        )
        name = ""
        projects: list[str] = []
        for key, content, tags in rows:
            if key == "user/name" and (m := _NAME_IN_FACT.search(content)):
                name = m.group(1)
            projects += find_projects(" ".join(json.loads(tags)))
        return ExtractionContext(name, tuple(sorted(set(projects))))

    # ---- step 2: facts through the gate -------------------------------------------------
    async def _apply_facts(self, run: RunRecord, episode: Episode) -> None:
        for fact in await self.candidates(episode.id, status="new"):
            now = self.engine.clock()
            entry = MemoryEntry(
                key=fact.key,
                content=fact.content,
                type=fact.type,
                tier=MemoryTier.SEMANTIC,
                tags=fact.tags,
                source_session=episode.session_key,
                created_at=now,
                updated_at=now,
                last_accessed=now,
                importance=fact.importance,
                source=fact.source,
                episode_id=episode.id,
            )
            actor = f"consolidation:{fact.produced_by}"
            async with self.engine.store.transaction() as conn:
                async with conn.execute(
                    "SELECT status FROM fact_candidates WHERE episode_id=? AND ordinal=?", (episode.id, fact.ordinal)
                ) as cur:
                    if (await cur.fetchone())[0] != "new":
                        continue
                entry_id, detail = None, {}
                try:
                    await _refuse_if_older(conn, self.engine.store, entry, fact.stated_at)
                    outcome = await self.engine.gate.write_in(conn, entry, actor, f"fact from episode {episode.id}")
                    status, entry_id = ("unchanged" if outcome.action == "unchanged" else "written"), outcome.entry.id
                    detail = {"action": outcome.action, "replaced": outcome.replaced.id if outcome.replaced else None}
                except WriteRejected as exc:
                    await self.engine.gate.audit_refusal_in(conn, exc, entry, actor)
                    status, detail = "refused", exc.to_dict()
                except InvalidValue as exc:
                    status, detail = "refused", {"reason": "invalid", "message": str(exc)}
                await conn.execute(
                    "UPDATE fact_candidates SET status=?, entry_id=?, run_id=?, detail=? WHERE episode_id=? AND ordinal=?",
                    (
                        status,
                        entry_id,
                        run.id,
                        json.dumps(detail | _origin(fact.source, fact.stated_at), default=str),
                        episode.id,
                        fact.ordinal,
                    ),
                )
            self._count(run, status)
            if status == "refused":
                run.detail["refused"].append(
                    {
                        "key": fact.key,
                        "reason": detail.get("reason"),
                        "message": detail.get("message"),
                        "produced_by": fact.produced_by,
                    }
                )

    async def candidates(self, episode_id: str, status: Optional[str] = None) -> list[CandidateFact]:
        sql = (
            "SELECT episode_id, ordinal, key, content, type, tags, importance, produced_by, status, entry_id, detail "
            "FROM fact_candidates WHERE episode_id=?"
        )
        params: list = [episode_id]
        if status is not None:
            sql += " AND status=?"
            params.append(status)
        rows = await self.engine.store.fetchall(sql + " ORDER BY ordinal", params)
        out = []
        for r in rows:
            detail = json.loads(r[10])
            out.append(
                CandidateFact(
                    episode_id=r[0],
                    ordinal=r[1],
                    key=r[2],
                    content=r[3],
                    type=MemoryType(r[4]),
                    tags=json.loads(r[5]),
                    importance=r[6],
                    produced_by=r[7],
                    status=r[8],
                    entry_id=r[9],
                    detail=detail,
                    source=ProvenanceLevel(detail.get("source", ProvenanceLevel.CONSOLIDATED.value)),
                    stated_at=from_iso(detail.get("stated_at")),
                )
            )
        return out

    # ---- step 3: contradictions -----------------------------------------------------------
    async def _detect(self, run: RunRecord, episode: Episode) -> None:
        fact_ids = {c.entry_id for c in await self.candidates(episode.id) if c.status in ("written", "unchanged")}
        live = await live_entries(self.engine.store)
        new = [e for e in live if e.id in fact_ids]
        budget = int(self.engine.settings.get("memory.contradictionMaxPairs")) - run.counts.get("pairs", 0)
        if not new or budget <= 0:
            return
        store = self.engine.store
        pairs = candidate_pairs(
            new, live, budget, await known_pairs(store), await cosines(store, [e.id for e in new], [e.id for e in live])
        )
        for a, b, signals in pairs:
            verdict = await self._ask(run, "verifier", lambda m: m.verify(a, b, signals))
            self._count(run, "pairs")
            if not verdict.contradicts or verdict.confidence <= 0:
                continue
            record, resolution = await self.book.record(a, b, verdict, signals, run.id, f"consolidation:{verdict.produced_by}")
            if record is None:
                continue
            self._count(run, "contradictions")
            run.detail["contradictions"].append(record.id)
            if resolution is not None:
                self._count(run, "auto_resolved")
                run.detail["resolutions"].append(resolution.resolution_id)
            else:
                self._count(run, "pending")

    # ---- progress ---------------------------------------------------------------------------
    async def _advance(self, key: str, episode: Episode) -> None:
        async with self.engine.store.transaction() as conn:
            await conn.execute(
                "UPDATE sessions SET consolidated_through=max(consolidated_through, ?) WHERE key=?",
                (episode.message_range_end, key),
            )

    async def _close_session(self, key: str) -> None:
        """An ended session with every message consolidated: its WORKING notes are
        consumed (their facts are in SEMANTIC now) and it is marked consolidated."""
        session = await self.sessions.get(key)
        if session.status != "ended" or session.unconsolidated > 0:
            return
        await self.engine.clear_working(key, actor="consolidation")
        async with self.engine.store.transaction() as conn:
            await conn.execute("UPDATE sessions SET status='consolidated' WHERE key=? AND status='ended'", (key,))

    # ---- helpers ------------------------------------------------------------------------------
    async def _ask(self, run: RunRecord, role: str, call: Callable[[LanguageModel], Awaitable[T]]) -> T:
        """Ask the configured model; if it fails, record why and ask the offline rules."""
        try:
            result, used = await call(self.model), self.model.name
        except ModelError as exc:
            if self.model is self.offline:
                raise
            run.errors.append(f"{role}: {self.model.name} failed ({exc}); the offline rules were used")
            result, used = await call(self.offline), self.offline.name
        names = [n for n in getattr(run, role).split(", ") if n]
        if used not in names:
            setattr(run, role, ", ".join(names + [used]))
        return result

    @staticmethod
    def _count(run: RunRecord, name: str, n: int = 1) -> None:
        run.counts[name] = run.counts.get(name, 0) + n

    async def _save(self, run: RunRecord, insert: bool = False) -> None:
        values = (
            run.session_key,
            run.trigger,
            run.status,
            to_iso(run.started_at),
            to_iso(run.ended_at),
            run.summariser,
            run.extractor,
            run.verifier,
            json.dumps(run.counts),
            json.dumps(run.errors),
            json.dumps(run.detail),
            run.job_id,
        )
        async with self.engine.store.transaction() as conn:
            if insert:
                await conn.execute(
                    "INSERT INTO consolidation_runs(session_key, trigger, status, started_at, ended_at, summariser, "
                    "extractor, verifier, counts, errors, detail, job_id, id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    values + (run.id,),
                )
            else:
                await conn.execute(
                    "UPDATE consolidation_runs SET session_key=?, trigger=?, status=?, started_at=?, ended_at=?, "
                    "summariser=?, extractor=?, verifier=?, counts=?, errors=?, detail=?, job_id=? WHERE id=?",
                    values + (run.id,),
                )


def _origin(source: ProvenanceLevel, stated_at) -> dict:
    """What a candidate's detail keeps of where it came from."""
    return {"source": source.value, "stated_at": to_iso(stated_at)}


async def _refuse_if_older(conn, store, entry: MemoryEntry, stated_at) -> None:
    """Equal provenance: the more recently *stated* fact wins, whatever order the
    sessions were consolidated in. A fact older than the key's current value (at the
    same level) is not written over it."""
    current = await store.current_for_key(conn, entry.type, entry.key)
    if current is None or current.source != entry.source or current.content == entry.content or stated_at is None:
        return
    current_at = await stated_time(conn, current)
    if current_at > stated_at:
        raise WriteRejected(
            "older_statement",
            f"{entry.key!r} already holds a statement made later ({to_iso(current_at)}) than this one ({to_iso(stated_at)})",
            existing_id=current.id,
        )
