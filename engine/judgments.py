"""Relevance judgments: (query, entry, grade) rows a person records to measure recall.

Judgments are annotations, not memory: no model ever reads them, so they do not pass
the write gate's scanner or provenance guard. Each change is still audited (action
`judge` or `unjudge`, with who and the query) and refused on a read-only store. A
judgment outlives its entry: after a purge it stays, listed as "entry purged", and
the metrics skip it (engine/recall/judgments.py).

A query is stored with its whitespace collapsed, so "atlas  python " and "atlas
python" are one query. Grades are whole numbers: 0 not relevant, 1 relevant, higher
for graded sets such as BEIR qrels (up to MAX_GRADE)."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional

from .errors import ReadOnlyStore
from .fields import validate_id, validate_name
from .models import InvalidValue, from_iso, to_iso
from .store import Store

if TYPE_CHECKING:
    from .actors import Actor

MAX_GRADE = 10
MAX_QUERY_CHARS = 2000  # the recall pipeline's own limit (engine/recall/pipeline.py)
SHOW_UNKNOWN = 5  # unknown ids named in a message; the rest are counted


def normalize_query(query: Any) -> str:
    """The stored form of a query: whitespace collapsed, one printable line."""
    if not isinstance(query, str):
        raise InvalidValue(f"query must be text, got {type(query).__name__}")
    return validate_name(" ".join(query.split()), "query", MAX_QUERY_CHARS)


def validate_grade(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or not 0 <= value <= MAX_GRADE:
        raise InvalidValue(f"grade must be a whole number in [0, {MAX_GRADE}] (0 not relevant, 1 relevant), got {value!r}")
    return int(value)


@dataclass(frozen=True)
class Judgment:
    query: str
    entry_id: str
    grade: int
    judged_by: str
    judged_at: datetime
    key: str = ""  # the entry's key, as listed
    purged: bool = False  # the entry is gone; the judgment stays, and metrics skip it

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "entry_id": self.entry_id,
            "grade": self.grade,
            "judged_by": self.judged_by,
            "judged_at": to_iso(self.judged_at),
            "key": self.key,
            "status": "entry purged" if self.purged else "ok",
        }

    def to_record(self) -> dict[str, Any]:
        """The export line (engine/importers/jsonl.py reads it back)."""
        return {
            "record": "judgment",
            "query": self.query,
            "entry_id": self.entry_id,
            "grade": self.grade,
            "judged_by": self.judged_by,
            "judged_at": to_iso(self.judged_at),
        }

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> "Judgment":
        """A judgment line of an export, every field checked (the message names it)."""
        when = data.get("judged_at")
        try:
            judged_at = from_iso(when) if isinstance(when, str) else None
        except ValueError:
            judged_at = None
        if judged_at is None:
            raise InvalidValue(f"field 'judged_at' must be an ISO date and time, got {when!r}")
        return cls(
            query=normalize_query(data.get("query")),
            entry_id=str(validate_id(data.get("entry_id"), "field 'entry_id'")),
            grade=validate_grade(data.get("grade")),
            judged_by=validate_name(data.get("judged_by"), "field 'judged_by'", 256),
            judged_at=judged_at,
        )


@dataclass
class JudgmentImport:
    """What an import of judgments did, with the ids it could not place."""

    landed: int = 0
    unchanged: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    unknown_corpus_ids: list[str] = field(default_factory=list)
    unknown_query_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "landed": self.landed,
            "unchanged": self.unchanged,
            "refused": self.refused,
            "unknown_corpus_ids": {"count": len(self.unknown_corpus_ids), "first": self.unknown_corpus_ids[:SHOW_UNKNOWN]},
            "unknown_query_ids": {"count": len(self.unknown_query_ids), "first": self.unknown_query_ids[:SHOW_UNKNOWN]},
        }

    def messages(self) -> list[str]:
        """One line per kind of id that could not be placed: the count and the first few."""
        out = []
        for what, ids in (("corpus id", self.unknown_corpus_ids), ("query id", self.unknown_query_ids)):
            if ids:
                more = f" and {len(ids) - SHOW_UNKNOWN} more" if len(ids) > SHOW_UNKNOWN else ""
                out.append(
                    f"{len(ids)} unknown {what}{'s' if len(ids) != 1 else ''} skipped: {', '.join(ids[:SHOW_UNKNOWN])}{more}"
                )
        return out


# ---- the store -----------------------------------------------------------------------
def _refuse_read_only(store: Store, what: str) -> None:
    if store.read_only:
        raise ReadOnlyStore(f"cannot {what}: {store.path} is open read-only; nothing was written")


async def judge(store: Store, query: str, entry_id: str, grade: int, actor: "Actor", at: datetime) -> Judgment:
    """Record (or change) one judgment of a stored entry, audited."""
    query, grade = normalize_query(query), validate_grade(grade)
    _refuse_read_only(store, "record a judgment")
    entry = await store.get_entry(entry_id)
    if entry is None:
        from .errors import EntryNotFound

        raise EntryNotFound(entry_id)
    judgment = Judgment(query, entry_id, grade, actor.name, at, entry.key)
    async with store.transaction() as conn:
        await _upsert(conn, judgment, actor.name, "judged in place")
    return judgment


async def unjudge(store: Store, query: str, entry_id: str, actor: "Actor", at: datetime) -> bool:
    """Clear one judgment; False if there was none."""
    query = normalize_query(query)
    _refuse_read_only(store, "clear a judgment")
    async with store.transaction() as conn:
        cur = await conn.execute("DELETE FROM judgments WHERE query=? AND entry_id=?", (query, entry_id))
        if cur.rowcount:
            await Store.audit(conn, "unjudge", actor.name, entry_id, "judgment cleared", {"query": query}, at)
    return bool(cur.rowcount)


async def _upsert(conn, judgment: Judgment, actor: str, reason: str) -> str:
    """Insert or change one judgment; "landed", or "unchanged" when it was stored as it is."""
    async with conn.execute(
        "SELECT grade FROM judgments WHERE query=? AND entry_id=?", (judgment.query, judgment.entry_id)
    ) as cur:
        row = await cur.fetchone()
    if row is not None and row[0] == judgment.grade:
        return "unchanged"
    await conn.execute(
        "INSERT INTO judgments(query, entry_id, grade, judged_by, judged_at) VALUES (?,?,?,?,?) "
        "ON CONFLICT(query, entry_id) DO UPDATE SET grade=excluded.grade, judged_by=excluded.judged_by, "
        "judged_at=excluded.judged_at",
        (judgment.query, judgment.entry_id, judgment.grade, judgment.judged_by, to_iso(judgment.judged_at)),
    )
    await Store.audit(
        conn,
        "judge",
        actor,
        judgment.entry_id,
        reason,
        {"query": judgment.query, "grade": judgment.grade, "was": None if row is None else row[0]},
        judgment.judged_at,
    )
    return "landed"


async def store_judgments(
    store: Store, judgments: Iterable[Judgment], actor: str, reason: str, report: JudgmentImport
) -> JudgmentImport:
    """Land many judgments in one transaction (an import), each audited."""
    items = list(judgments)
    if not items:
        return report
    _refuse_read_only(store, "import judgments")
    async with store.transaction() as conn:
        for judgment in items:
            if await _upsert(conn, judgment, actor, reason) == "landed":
                report.landed += 1
            else:
                report.unchanged += 1
    return report


async def list_judgments(store: Store, query: Optional[str] = None) -> list[Judgment]:
    """Every judgment (or one query's), with the entry's key, or marked purged."""
    sql = (
        "SELECT j.query, j.entry_id, j.grade, j.judged_by, j.judged_at, e.key FROM judgments j "
        "LEFT JOIN entries e ON e.id = j.entry_id"
    )
    params: list[Any] = []
    if query is not None:
        sql += " WHERE j.query=?"
        params.append(normalize_query(query))
    rows = await store.fetchall(sql + " ORDER BY j.query, j.entry_id", params)
    return [Judgment(r[0], r[1], r[2], r[3], from_iso(r[4]) or datetime.min, r[5] or "", r[5] is None) for r in rows]


# ---- placing outside ids on entries ------------------------------------------------------
async def entries_by_corpus_id(store: Store, corpus_ids: Iterable[str]) -> dict[str, list[str]]:
    """corpus id -> the entries that carry it: as their id, their key, or one of their
    tags (the way an import or an agent labels where a memory came from). Superseded
    versions are left out: the live version carries the judgment."""
    wanted = sorted(set(corpus_ids))
    found: dict[str, set[str]] = {}
    for start in range(0, len(wanted), 400):
        chunk = wanted[start : start + 400]
        marks = ",".join("?" * len(chunk))
        rows = await store.fetchall(
            f"SELECT id, id FROM entries WHERE id IN ({marks}) AND superseded_by IS NULL "
            f"UNION SELECT key, id FROM entries WHERE key IN ({marks}) AND superseded_by IS NULL "
            f"UNION SELECT t.value, e.id FROM entries e, json_each(e.tags) t "
            f"WHERE t.value IN ({marks}) AND e.superseded_by IS NULL",
            chunk * 3,
        )
        for corpus_id, entry_id in rows:
            found.setdefault(corpus_id, set()).add(entry_id)
    return {c: sorted(ids) for c, ids in found.items()}


def read_qrels(path: Path) -> Iterator[tuple[int, str, str, int]]:
    """(line, query id, corpus id, grade) of a BEIR qrels TSV (header line optional)."""
    try:
        fh = open(path, encoding="utf-8", newline="")
    except OSError as exc:
        raise InvalidValue(f"cannot read {path}: {exc.strerror}") from None
    with fh:
        try:
            for n, row in enumerate(csv.reader(fh, delimiter="\t"), start=1):
                if not row or (n == 1 and row[0] in ("query-id", "query_id")):
                    continue
                if len(row) < 3:
                    raise InvalidValue(f"{path}: line {n}: expected query-id, corpus-id and score separated by tabs")
                try:
                    grade = validate_grade(float(row[2]))
                except ValueError as exc:
                    raise InvalidValue(f"{path}: line {n}: score {row[2]!r}: {exc}") from None
                yield n, row[0].strip(), row[1].strip(), grade
        except UnicodeDecodeError as exc:
            raise InvalidValue(f"{path} is not UTF-8 text (byte {exc.start})") from None


def read_beir_queries(path: Path) -> dict[str, str]:
    """query id -> text from a BEIR queries.jsonl; a bad line names its number."""
    if not path.is_file():
        raise InvalidValue(f"no queries file {path}: give the BEIR queries.jsonl with --queries")
    out = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidValue(f"{path}: line {n}: not JSON ({exc.msg})") from None
            if not isinstance(obj, dict) or "_id" not in obj or not isinstance(obj.get("text"), str):
                raise InvalidValue(f"{path}: line {n}: expected an object with an _id and a text")
            out[str(obj["_id"])] = obj["text"]
    return out


def read_longmemeval(path: Path) -> list[tuple[str, str, list[str]]]:
    """(question id, question, answer session ids) of a LongMemEval file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidValue(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, list):
        raise InvalidValue(f"{path} is not a LongMemEval file (expected a JSON list of questions)")
    out = []
    for i, q in enumerate(data):
        if not (isinstance(q, dict) and isinstance(q.get("question"), str) and isinstance(q.get("answer_session_ids"), list)):
            raise InvalidValue(f"{path}: question {i}: expected question and answer_session_ids")
        out.append((str(q.get("question_id", i)), q["question"], [str(s) for s in q["answer_session_ids"]]))
    return out


async def place_judgments(
    store: Store, rows: list[tuple[str, str, str, int]], actor: str, at: datetime, report: JudgmentImport
) -> list[Judgment]:
    """(query id, query text, corpus id, grade) -> judgments on the entries carrying each
    corpus id; ids no entry carries are listed in the report, the rest carry on."""
    placed = await entries_by_corpus_id(store, (r[2] for r in rows))
    unknown: dict[str, None] = {}
    out: dict[tuple[str, str], Judgment] = {}
    for qid, text, corpus_id, grade in rows:
        if corpus_id not in placed:
            unknown[corpus_id] = None
            continue
        try:
            query = normalize_query(text)
        except InvalidValue as exc:
            report.refused.append({"query_id": qid, "reason": "invalid", "message": str(exc)})
            continue
        for entry_id in placed[corpus_id]:
            previous = out.get((query, entry_id))
            if previous is None or grade > previous.grade:
                out[(query, entry_id)] = Judgment(query, entry_id, grade, actor, at)
    report.unknown_corpus_ids.extend(unknown)
    return list(out.values())


async def import_qrels(store: Store, qrels: Path, queries: Optional[Path], actor: str, at: datetime) -> JudgmentImport:
    """A BEIR qrels file as judgments: each query's text from queries.jsonl (by default
    the one two folders up, as BEIR lays them out), each corpus id placed on the
    entries that carry it (entries_by_corpus_id)."""
    qrels = Path(qrels)
    if not qrels.is_file():
        raise InvalidValue(f"no such qrels file: {qrels}")
    texts = read_beir_queries(Path(queries) if queries else qrels.parent.parent / "queries.jsonl")
    report = JudgmentImport()
    rows: list[tuple[str, str, str, int]] = []
    unknown_queries: dict[str, None] = {}
    for _n, qid, corpus_id, grade in read_qrels(qrels):
        if qid not in texts:
            unknown_queries[qid] = None
            continue
        rows.append((qid, texts[qid], corpus_id, grade))
    report.unknown_query_ids.extend(unknown_queries)
    placed = await place_judgments(store, rows, actor, at, report)
    return await store_judgments(store, placed, actor, f"import: BEIR qrels {qrels.name}", report)


async def import_longmemeval(store: Store, path: Path, actor: str, at: datetime) -> JudgmentImport:
    """A LongMemEval file as judgments: each question judges the entries carrying one
    of its answer_session_ids relevant (grade 1); abstention questions have none."""
    report = JudgmentImport()
    rows = [(qid, text, sid, 1) for qid, text, sids in read_longmemeval(Path(path)) for sid in sids]
    placed = await place_judgments(store, rows, actor, at, report)
    return await store_judgments(store, placed, actor, f"import: LongMemEval {Path(path).name}", report)
