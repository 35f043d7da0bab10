"""Export and import: every entry to a JSON-lines file written atomically, and
converted entries (an export, another agent's files) landed through the gate's
bulk path in batches, version chains whole or not at all."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from ..actors import Actor
from ..collector import collector_paused
from ..errors import StoreError
from ..files import atomic_write
from ..gate import ScanAhead, WriteRejected, scan_ahead, submit_ahead, warm_scanner
from ..models import InvalidValue, MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel
from .core import EngineCore

# Entries per import transaction (the gate's bulk path): large enough that set-based
# reads and executemany pay off, small enough that a kill or a full disk loses little.
# Ids are random, so a batch dirties index pages all over the store and each commit
# writes them to the WAL: at 100k entries 10,000 a batch costs SQLite ~40% less CPU
# than 2,000 (benchmarks/import_bench.py).
IMPORT_BATCH = 10_000
# The first batches are smaller (this many entries, then doubling up to IMPORT_BATCH):
# nothing is written until the first batch is checked (the scanner), so a small one
# starts the pipeline and the progress bar sooner, while the store is small and a
# commit still cheap.
FIRST_BATCH = 2000
# An import this large has a first batch big enough for the scanner's worker processes
# (engine.scanner.scan_many): they start while the file is read (an export of at least
# WARM_SCANNER_BYTES, about 1,700 lines of a typical one) or the chains are grouped.
WARM_SCANNER_BYTES = 1 << 20
WARM_SCANNER_ENTRIES = FIRST_BATCH
# Such a file's entries go to the scanner's processes this many at a time while it is
# read (ScanAhead): a chunk is scanned in about half a second on one core.
AHEAD_CHUNK = 5000


@dataclass
class ImportReport:
    landed: int = 0
    unchanged: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    trusted_provenance: bool = False
    judgments: Optional[dict[str, Any]] = None  # the export's judgment lines: landed, unchanged, refused

    def to_dict(self) -> dict[str, Any]:
        out = {
            "landed": self.landed,
            "unchanged": self.unchanged,
            "refused": self.refused,
            "provenance": "declared (trusted)" if self.trusted_provenance else "capped at legacy",
        }
        if self.judgments is not None:
            out["judgments"] = self.judgments
        return out

    @property
    def all_refused(self) -> bool:
        """Something was offered and none of it is in the store."""
        judged = self.judgments or {}
        return bool(self.refused) and not (self.landed or self.unchanged or judged.get("landed") or judged.get("unchanged"))

    def refuse(self, where: dict, entry: Optional[MemoryEntry], reason: str, message: str) -> None:
        self.refused.append({**where, **({"key": entry.key} if entry else {}), "reason": reason, "message": message})

    def record_chain(self, members: list[tuple[dict, MemoryEntry]], outcomes: list) -> None:
        """Count one chain's gate results; a member held back names the line that sank it."""
        culprit = next(
            (
                where
                for (where, _), o in zip(members, outcomes)
                if isinstance(o, Exception) and getattr(o, "reason", "") != "chain_refused"
            ),
            None,
        )
        for (where, entry), outcome in zip(members, outcomes):
            if isinstance(outcome, WriteRejected):
                info = outcome.to_dict()
                info.pop("rejected", None)
                if outcome.reason == "chain_refused" and culprit is not None:
                    info["message"] = f"not written: {import_place(culprit)} of its version chain was refused"
                self.refused.append({**where, "key": entry.key, **info})
            elif isinstance(outcome, InvalidValue):
                self.refuse(where, entry, "invalid", str(outcome))
            elif outcome.action == "unchanged":
                self.unchanged += 1
            else:
                self.landed += 1


def import_place(where: dict) -> str:
    """Where an imported entry came from, for messages: "line 7" or "user_memory.json entry 3"."""
    if "line" in where:
        return f"line {where['line']}"
    return " ".join(str(where[k]) if k == "file" else f"entry {where[k]}" for k in ("file", "index") if k in where)


class TransferMixin(EngineCore):
    """Export and gated import."""

    # ---- export / import -----------------------------------------------------------
    async def export_jsonl(self, path: str | os.PathLike) -> int:
        """Every entry, oldest version first, one JSON object a line, then the relevance
        judgments (purged entries' too); written atomically
        through a private (0600) temp file beside the target, removed on any failure."""
        target = Path(path)
        if target.is_dir():
            raise InvalidValue(f"{target} is a folder; export needs a file path such as {target / 'memory.jsonl'}")
        if not target.parent.is_dir():
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(target.parent))
        from ..judgments import list_judgments

        entries = await self.list_entries(order_by="created_at", descending=False)
        entries.sort(key=lambda e: (e.key, e.version, e.created_at))
        lines = [json.dumps(entry.to_dict(), ensure_ascii=False) + "\n" for entry in entries]
        lines += [json.dumps(j.to_record(), ensure_ascii=False) + "\n" for j in await list_judgments(self.store)]
        # a 0600 temp file in the target's folder (mkstemp), renamed over it
        await asyncio.to_thread(atomic_write, target, "".join(lines).encode("utf-8"), False)
        return len(entries)

    async def import_jsonl(
        self,
        path: str | os.PathLike,
        actor: str = "import",
        trust_provenance: bool = False,
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> ImportReport:
        """Land an export: every line through the gate; bad lines are reported, the rest land."""
        from ..importers.jsonl import read_jsonl_export

        ahead: Optional[ScanAhead] = None
        with contextlib.suppress(OSError):  # an unreadable file is the reader's to report
            if os.stat(path).st_size >= WARM_SCANNER_BYTES:
                ahead = scan_ahead()  # the scanner's processes start on the texts while the file is read
        on_entries = functools.partial(submit_ahead, ahead) if ahead is not None else None
        try:
            with collector_paused():
                # seconds at 100k lines
                entries, judgments = await asyncio.to_thread(read_jsonl_export, Path(path), on_entries, AHEAD_CHUNK)
                items = [({"line": n}, entry if error is None else error) for n, entry, error in entries]
                report = await self.import_entries(
                    items, actor, verbatim=True, trust_provenance=trust_provenance, progress=progress, ahead=ahead
                )
        finally:
            if ahead is not None:
                ahead.close()
        await self._import_export_judgments(Path(path), judgments, actor, report)
        return report

    async def _import_export_judgments(self, path: Path, found: list, actor: str, report: ImportReport) -> None:
        """An export's judgment lines, after its entries (a judgment of an entry that is not
        in the store lands as "entry purged", as it was exported); bad lines are reported."""
        from ..judgments import JudgmentImport, store_judgments

        if not found:
            return
        result = JudgmentImport()
        for line, _judgment, error in found:
            if error is not None:
                result.refused.append({"line": line, "reason": "invalid", "message": f"judgment: {error}"})
        await store_judgments(self.store, [j for _, j, _ in found if j is not None], actor, f"import: {path.name}", result)
        report.judgments = {"landed": result.landed, "unchanged": result.unchanged, "refused": len(result.refused)}
        report.refused.extend(result.refused)

    async def import_entries(
        self,
        entries: Iterable[tuple[dict, MemoryEntry | str]],
        actor: str,
        verbatim: bool,
        batch: Optional[int] = None,
        trust_provenance: bool = False,
        progress: Optional[Callable[[int, int], None]] = None,
        ahead: Optional[ScanAhead] = None,
    ) -> ImportReport:
        """Land converted entries: (where, entry-or-error) pairs, gated in batches.

        A file's declared provenance cannot be verified, so entries land as LEGACY (the
        spec's "migrated, unverified") and unpinned unless trust_provenance says a person
        is restoring their own export (this engine must act for a person); the audit
        records which. Only SEMANTIC and ARCHIVAL
        entries are imported: a WORKING note belongs to a live session's prompt. verbatim
        keeps ids, versions and chains (formats that have them); a chain lands whole or
        not at all. Each batch (IMPORT_BATCH entries) is one transaction of the gate's
        bulk path; progress(done, total) follows the batches. A full disk rolls back the
        batch it hit and raises StoreError naming its lines: the batches before it stay,
        and running the same import again resumes (what is stored counts as unchanged).
        Verdicts for texts the caller gave ``ahead`` while reading come from there."""
        if trust_provenance:
            await self.gate.refuse_unless_person(self.actor, "import keeping the declared provenance")
        with collector_paused():
            report = ImportReport()
            importer = Actor.importer(str(actor), trusted=trust_provenance)
            items: list[tuple[dict, MemoryEntry]] = []
            entries = list(entries)
            if ahead is None and len(entries) >= WARM_SCANNER_ENTRIES:
                warm_scanner()  # while the chains are grouped and checked against the store
            for where, entry in entries:
                if isinstance(entry, str):
                    report.refuse(where, None, "invalid", entry)
                elif entry.tier not in (MemoryTier.SEMANTIC, MemoryTier.ARCHIVAL):
                    report.refuse(
                        where,
                        entry,
                        "invalid",
                        f"tier {entry.tier.label} is not imported: only semantic "
                        "and archival entries are (a working note belongs to a live session)",
                    )
                else:
                    items.append((where, entry))  # the gate caps provenance and pin at what the importer may store
            chains = await self._import_chains(items, report, trust_provenance) if verbatim else [[item] for item in items]
            reason = "import, declared provenance trusted" if trust_provenance else "import, provenance capped at legacy"
            batches = _batches(chains, batch or IMPORT_BATCH)
            done = len(entries) - sum(map(len, chains))  # lines refused before the gate
            checking: Optional[asyncio.Future] = None
            try:
                for k, pending in enumerate(batches):
                    checked = await (checking or self.gate.check_chains([[e for _, e in c] for c in pending], importer, ahead))
                    # The next batch's checks (the scanner: CPU, in threads and worker
                    # processes) run while this batch is written, so both cores stay busy.
                    checking = (
                        asyncio.ensure_future(
                            self.gate.check_chains([[e for _, e in c] for c in batches[k + 1]], importer, ahead)
                        )
                        if k + 1 < len(batches)
                        else None
                    )
                    results = await self._write_batch(checked, pending, importer, reason, verbatim, report)
                    for members, outcomes in zip(pending, results):
                        report.record_chain(members, outcomes)
                    done += sum(map(len, pending))
                    if progress:
                        progress(done, len(entries))
            finally:
                if checking is not None:
                    checking.cancel()
            report.trusted_provenance = trust_provenance
            report.refused.sort(key=lambda r: (str(r.get("file", "")), r.get("line", r.get("index", -1))))
            return report

    async def _write_batch(
        self, checked: list, pending: list, importer: Actor, reason: str, verbatim: bool, report: ImportReport
    ) -> list[list]:
        """One import batch through the gate, in one transaction; a full disk rolls it back
        and is reported with the batch's lines."""
        try:
            return await self.gate.write_checked(checked, importer, reason, verbatim)
        except sqlite3.OperationalError as exc:
            if "full" not in str(exc):
                raise
            raise StoreError(
                f"the disk holding the store is full ({exc}): the batch from {import_place(pending[0][0][0])} "
                f"to {import_place(pending[-1][-1][0])} was rolled back; {report.landed} entries landed "
                "before it and stay. Free some space and run the same import again: it resumes, counting "
                "what is stored as unchanged"
            ) from exc

    async def _import_chains(
        self, items: list[tuple[dict, MemoryEntry]], report: ImportReport, trusted: bool
    ) -> list[list[tuple[dict, MemoryEntry]]]:
        """Group verbatim entries into version chains (linked by superseded_by), refusing
        with its place every line that would break one: a repeated id, an id taken by a
        different stored entry, a link to an entry not in the file, a superseded entry
        outside ARCHIVAL, a loop; a chain with a refused line is refused whole. Entries
        already stored as they are (a re-run import) count as unchanged; a trusted import
        of an entry stored with a lower provenance is refused, saying why (it never
        rewrites a stored entry)."""
        by_id: dict[str, tuple[dict, MemoryEntry]] = {}
        for where, entry in items:
            if entry.id in by_id:
                report.refuse(where, entry, "invalid", f"id {entry.id} already appears at {import_place(by_id[entry.id][0])}")
            else:
                by_id[entry.id] = (where, entry)
        checks = _ChainChecks()
        checks.against_store(by_id, await self._stored_identities(list(by_id)), trusted)
        chains = []
        for members in _version_groups(by_id):
            chain = checks.settle(members, by_id, report)
            if chain:
                chains.append(chain)
        return chains

    async def _stored_identities(self, ids: list[str]) -> dict[str, tuple[MemoryType, str, str, ProvenanceLevel]]:
        """(type, key, content, source) of the stored entries among ids."""
        found = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await self.store.fetchall(
                f"SELECT id, type, key, content, source FROM entries WHERE id IN ({','.join('?' * len(chunk))})", chunk
            )
            found.update({r[0]: (MemoryType(r[1]), r[2], r[3], ProvenanceLevel(r[4])) for r in rows})
        return found


@dataclass
class _ChainChecks:
    """What a verbatim import found wrong with each entry id before any write: a
    problem's message (and reason, when it is not an invalid line), and the ids
    already stored exactly as the file has them."""

    problems: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)

    def against_store(
        self,
        by_id: dict[str, tuple[dict, MemoryEntry]],
        stored: dict[str, tuple[MemoryType, str, str, ProvenanceLevel]],
        trusted: bool,
    ) -> None:
        """Each entry against what is stored under its id, and its link to a newer version."""
        for entry_id, (_, entry) in by_id.items():
            if entry_id in stored:
                same = stored[entry_id][:3] == (entry.type, entry.key, entry.content)
                source = stored[entry_id][3]
                if same and trusted and source.value < entry.source.value:
                    self.reasons[entry_id] = "already_stored"
                    self.problems[entry_id] = (
                        f"id {entry_id} is already stored as {source.label}; a trusted import "
                        "does not raise a stored entry's provenance (import into an empty store "
                        "to keep the file's provenance and pins)"
                    )
                elif same:
                    self.present.add(entry_id)
                else:
                    self.problems[entry_id] = (
                        f"id {entry_id} is already taken by a different stored entry ({stored[entry_id][1]!r})"
                    )
            elif entry.superseded_by is not None:
                if entry.superseded_by == entry_id:
                    self.problems[entry_id] = "superseded_by names the entry itself"
                elif entry.superseded_by not in by_id:
                    self.problems[entry_id] = (
                        f"superseded_by names {entry.superseded_by}, which is not among this import's valid entries"
                    )
                elif entry.tier is not MemoryTier.ARCHIVAL:
                    self.problems[entry_id] = f"a superseded entry must be archival, not {entry.tier.label}"

    def settle(
        self, members: list[str], by_id: dict[str, tuple[dict, MemoryEntry]], report: ImportReport
    ) -> list[tuple[dict, MemoryEntry]]:
        """One version chain: what is left to write (superseded versions first, heads last:
        a head may meet a live entry for its key), or nothing when a member is refused,
        then every member is refused naming the line that sank the chain."""
        ids = set(members)
        if not any(by_id[m][1].superseded_by not in ids for m in members):
            for m in members:
                self.problems.setdefault(m, "its version chain loops (every version is superseded by another)")
        bad = [m for m in members if m in self.problems]
        if not bad:
            report.unchanged += len(ids & self.present)
            return sorted((by_id[m] for m in members if m not in self.present), key=lambda item: item[1].superseded_by is None)
        first = by_id[bad[0]]
        for m in members:
            where, entry = by_id[m]
            if m in self.problems:
                report.refuse(where, entry, self.reasons.get(m, "invalid"), self.problems[m])
            elif m in self.present:
                report.unchanged += 1
            else:
                report.refuse(
                    where,
                    entry,
                    "chain_refused",
                    f"not written: {import_place(first[0])} of its version chain was refused ({self.problems[bad[0]]})",
                )
        return []


def _batches(chains: list[list[tuple[dict, MemoryEntry]]], size: int) -> list[list[list[tuple[dict, MemoryEntry]]]]:
    """Whole chains, in order, grouped so a batch holds at most size entries (a longer
    chain alone); from FIRST_BATCH entries, doubling, when size is larger."""
    batches: list[list[list[tuple[dict, MemoryEntry]]]] = []
    held, limit = 0, min(size, FIRST_BATCH)
    for chain in chains:
        if not batches or held + len(chain) > limit:
            if batches:
                limit = min(size, limit * 2)
            batches.append([])
            held = 0
        batches[-1].append(chain)
        held += len(chain)
    return batches


def _version_groups(by_id: dict[str, tuple[dict, MemoryEntry]]) -> list[list[str]]:
    """The ids linked by superseded_by, one list per chain (union-find), in file order."""
    parent = {entry_id: entry_id for entry_id in by_id}

    def root(entry_id: str) -> str:
        while parent[entry_id] != entry_id:
            parent[entry_id] = parent[parent[entry_id]]
            entry_id = parent[entry_id]
        return entry_id

    for entry_id, (_, entry) in by_id.items():
        if entry.superseded_by in by_id:
            parent[root(entry_id)] = root(entry.superseded_by)
    groups: dict[str, list[str]] = {}
    for entry_id in by_id:
        groups.setdefault(root(entry_id), []).append(entry_id)
    return list(groups.values())
