"""`echo-memory sync`: two-way sync with agents that keep their memory in files.

hermes-agent keeps MEMORY.md (environment) and USER.md (the user), entries
separated by a line holding only `§`; Echo-Agent keeps user_memory.json and
env_memory.json, JSON arrays of its MemoryEntry dicts.

In: every entry that changed in a file since the last sync enters through the gate
as `sync:<format>` (an agent: model_inferred at most); unchanged entries are
recognised by content hash and not rewritten; an entry gone from a file is archived.
A file that cannot be read is reported and left alone: nothing of it is archived.

Back (--write-back): the store's current entries, in the agent's own format, written
as temp file + fsync + rename with the previous file kept as NAME.bak, and only
after our own parser reads the new bytes back. A file that changed since the last
sync is read in first, so an edit on either side is never written over: where the
file and the store both changed one entry, the file's text becomes a new version,
or, when the guard keeps a person's version, a sibling entry tagged sync-conflict.

What was synced (per key: content hash and file) is kept beside the store.

Why so long: one sync state machine (read in, conflicts, write back, watch) shared
by both formats; the formats themselves are small codecs at the top.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..actors import Actor
from ..facade.filter import EntryFilter
from ..files import atomic_write
from ..gate import WriteRejected
from ..importers import echo_agent as echo_agent_format
from ..importers import read_capped
from ..importers.hermes import slug, split_entries
from ..models import InvalidValue, MemoryEntry, MemoryTier, MemoryType

if TYPE_CHECKING:
    from ..memory import MemoryEngine

# hermes-agent's own character limits for its two files; a longer file is cut, least
# important entries first.
HERMES_LIMITS = {"MEMORY.md": 2200, "USER.md": 1375}
HERMES_SEPARATOR = "\n§\n"
EDIT_SIMILARITY = 0.5  # how alike a new hermes entry must be to a vanished one to count as its edit
CONFLICT_TAG = "sync-conflict"
EXCERPT = 2000  # characters of each entry kept in the sync state, to recognise an edit
UNVERIFIED_CONFIDENCE = 0.5  # a sync conflict the offline verifier cannot name (under the 0.6 default: pending)


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class FileItem:
    """One entry as a file holds it."""

    key: Optional[str]  # None: the format has no key (hermes); found from the sync state
    content: str
    type: MemoryType
    tags: list[str] = field(default_factory=list)
    importance: Optional[float] = None
    archived: bool = False


class HermesFormat:
    name = "hermes"
    lock_suffix = ""
    files = {"MEMORY.md": MemoryType.ENVIRONMENT, "USER.md": MemoryType.USER}

    def parse(self, file: str, data: bytes) -> list[FileItem]:
        text = _utf8(file, data)
        return [FileItem(None, body, self.files[file]) for body in split_entries(text)]

    def render(self, file: str, entries: list[MemoryEntry]) -> tuple[bytes, list[MemoryEntry]]:
        """Entries in priority order that fit the file's limit and survive hermes' own
        split (a body holding a lone `§` line would become two entries)."""
        kept: list[MemoryEntry] = []
        size = 0
        for entry in entries:
            body = entry.content.strip()
            extra = len(body) + (len(HERMES_SEPARATOR) if kept else 0)
            if split_entries(body) != [body] or size + extra > HERMES_LIMITS[file]:
                continue
            kept.append(entry)
            size += extra
        text = HERMES_SEPARATOR.join(e.content.strip() for e in kept)
        return (text + "\n" if text else "").encode("utf-8"), kept


class EchoAgentFormat:
    name = "echo-agent"
    lock_suffix = ".lock"  # Echo-Agent flocks NAME.lock around every read-modify-write of NAME
    files = {"user_memory.json": MemoryType.USER, "env_memory.json": MemoryType.ENVIRONMENT}

    def parse(self, file: str, data: bytes) -> list[FileItem]:
        try:
            items = json.loads(_utf8(file, data))
        except ValueError as exc:
            raise InvalidValue(f"{file} is not valid JSON: {exc}") from None
        if not isinstance(items, list):
            raise InvalidValue(f"{file} must hold a JSON array of entries, as Echo-Agent writes it")
        out = []
        for index, raw in enumerate(items):
            if not isinstance(raw, dict):
                raise InvalidValue(f"{file} entry {index} is not a JSON object")
            try:
                entry = echo_agent_format.convert(raw, self.files[file])
            except (ValueError, TypeError, OverflowError) as exc:
                raise InvalidValue(f"{file} entry {index}: {exc}") from None
            if entry.superseded_by:
                continue  # an old version Echo-Agent keeps; its head carries the fact
            out.append(
                FileItem(
                    entry.key or f"echo-agent/{entry.id}",
                    entry.content,
                    self.files[file],
                    list(entry.tags),
                    entry.importance,
                    entry.tier is MemoryTier.ARCHIVAL,
                )
            )
        return out

    def render(self, file: str, entries: list[MemoryEntry]) -> tuple[bytes, list[MemoryEntry]]:
        """Echo-Agent's own layout (store.py _save_type): its 17 fields, naive local
        timestamps, "" for empty links, sorted by creation, indented JSON."""
        rows = [
            {
                "id": e.id,
                "type": e.type.value,
                "tier": e.tier.value,
                "key": e.key,
                "content": e.content,
                "tags": list(e.tags),
                "source_session": e.source_session,
                "created_at": _local(e.created_at),
                "updated_at": _local(e.updated_at),
                "importance": e.importance,
                "access_count": e.access_count,
                "last_accessed": _local(e.last_accessed),
                "embedding_id": "",
                "episode_id": e.episode_id or "",
                "version": e.version,
                "superseded_by": "",
                "source": e.source.label,
            }
            for e in entries
        ]
        rows.sort(key=lambda r: (r["created_at"], r["updated_at"], r["id"]))
        return json.dumps(rows, ensure_ascii=False, indent=2).encode("utf-8"), entries


FORMATS = {f.name: f for f in (HermesFormat(), EchoAgentFormat())}


def _utf8(file: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidValue(f"{file} is not UTF-8 (byte {exc.start})") from None


def _local(value: Optional[datetime]) -> str:
    return value.astimezone().replace(tzinfo=None).isoformat() if value else ""


def replace_if_unchanged(path: Path, data: bytes, expected: Optional[str], lock: Optional[Path]) -> bool:
    """Write data over path unless the file changed since it was read (its sha256 is
    no longer expected; None: it did not exist), holding the agent's own lock file
    if it has one. Temp files an earlier killed write left behind are removed."""
    with contextlib.ExitStack() as stack:
        if lock is not None:
            handle = stack.enter_context(open(lock, "a+"))
            fcntl.flock(handle, fcntl.LOCK_EX)
        current = path.read_bytes() if path.exists() else None
        if (None if current is None else hashlib.sha256(current).hexdigest()) != expected:
            return False
        for stale in path.parent.glob(f".{path.name}.*.tmp"):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
        if current != data:
            atomic_write(path, data)
        return True


@dataclass
class SyncReport:
    landed: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    conflicts: list[dict[str, str]] = field(default_factory=list)
    refused: list[dict[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # files that could not be read (left alone)
    written: dict[str, int] = field(default_factory=dict)  # file -> entries written back
    left_out: list[str] = field(default_factory=list)  # keys a file's limit or format could not hold
    unreadable: set[str] = field(default_factory=set)  # files not written back this pass

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("landed", "archived", "conflicts", "refused", "errors", "written", "left_out")}


class FolderSync:
    """One agent folder synced with one store."""

    def __init__(self, engine: MemoryEngine, fmt: str, folder: Path, state_path: Optional[Path] = None):
        self.engine = engine
        self.format = FORMATS[fmt]
        self.folder = Path(folder)
        self.actor = Actor.agent(f"sync:{fmt}")
        digest = hashlib.sha256(str(self.folder.resolve()).encode()).hexdigest()[:12]
        self.state_path = state_path or engine.path.with_name(f"{engine.path.name}.sync-{fmt}-{digest}.json")
        self.state = self._load_state()

    # ---- state -------------------------------------------------------------------
    def _load_state(self) -> dict[str, Any]:
        try:
            state = json.loads(self.state_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {"files": {}, "entries": {}}
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidValue(
                f"sync state {self.state_path} is unreadable ({exc}); move it away to start a "
                "fresh sync (entries already in the store are kept)"
            ) from None
        return state

    def _save_state(self) -> None:
        atomic_write(self.state_path, json.dumps(self.state, ensure_ascii=False, indent=1).encode(), backup=False)

    def _read(self, file: str) -> Optional[bytes]:
        path = self.folder / file
        return read_capped(path) if path.exists() else None

    # ---- one pass ----------------------------------------------------------------
    async def run(self, write_back: bool) -> SyncReport:
        if not self.folder.is_dir():
            raise InvalidValue(f"{self.folder} is not a folder (it may have been moved or deleted)")
        report = SyncReport()
        for file in self.format.files:
            data = self._read(file)
            await self._sync_in(file, data, report)
            if write_back and file not in report.unreadable:
                await self._write_back(file, report)
        self._save_state()
        return report

    async def _sync_in(self, file: str, data: Optional[bytes], report: SyncReport) -> None:
        if data is None:
            return
        digest = hashlib.sha256(data).hexdigest()
        if self.state["files"].get(file) == digest:
            return  # unchanged since the last sync: nothing to read
        try:
            items = self.format.parse(file, data)
        except InvalidValue as exc:
            report.errors.append(str(exc))
            report.unreadable.add(file)
            return
        known = {k: v for k, v in self.state["entries"].items() if v["file"] == file}
        keys = [i.key for i in items] if all(i.key for i in items) else self._hermes_keys(items, known)
        seen: set[str] = set()
        for key, item in zip(keys, items):
            seen.add(key)
            h = content_hash(item.content)
            record = known.get(key)
            if record is not None and record["hash"] == h and record.get("archived", False) == item.archived:
                continue
            await self._land(file, key, item, record, report)
        for key in set(known) - seen:
            await self._archive(key, known[key], report)
            self.state["entries"].pop(key, None)
        self.state["files"][file] = digest

    @staticmethod
    def _hermes_keys(items: list[FileItem], known: dict[str, dict]) -> list[str]:
        """hermes entries have no key. An entry keeps the key last synced with its text;
        an entry with new text takes the key of the most similar entry whose text is
        gone from the file (an edit, if at least half alike); the rest get a new
        hermes/<first words> key."""
        keys: list[Optional[str]] = [None] * len(items)
        free = dict(known)
        for n, item in enumerate(items):
            h = content_hash(item.content)
            match = next((k for k, r in free.items() if r["hash"] == h), None)
            if match is not None:
                keys[n] = match
                del free[match]
        pairs = sorted(
            (
                (SequenceMatcher(None, r.get("text", ""), items[n].content).ratio(), n, k)
                for n in range(len(items))
                if keys[n] is None
                for k, r in free.items()
            ),
            reverse=True,
        )
        for ratio, n, k in pairs:
            if ratio >= EDIT_SIMILARITY and keys[n] is None and k in free:
                keys[n] = k
                del free[k]
        taken = set(known) | {k for k in keys if k}
        for n, item in enumerate(items):
            if keys[n] is None:
                key, count = f"hermes/{slug(item.content)}", 1
                while key in taken:
                    count += 1
                    key = f"hermes/{slug(item.content)}-{count}"
                keys[n] = key
                taken.add(key)
        return keys

    async def _land(self, file: str, key: str, item: FileItem, record: Optional[dict], report: SyncReport) -> None:
        record_state: dict[str, Any] = {
            "hash": content_hash(item.content),
            "file": file,
            "text": item.content[:EXCERPT],
            "archived": item.archived,
        }
        current = await self._current(item.type, key)
        if item.archived:
            if current is not None and current.tier is MemoryTier.SEMANTIC:
                await self._archive(key, record_state, report)
            self.state["entries"][key] = record_state
            return
        store_changed = record is not None and current is not None and content_hash(current.content) != record["hash"]
        importance = item.importance if item.importance is not None else current.importance if current else 0.5
        if store_changed and current is not None and current.content == item.content:
            self.state["entries"][key] = record_state  # both sides hold the same text (a write-back cut short)
            return
        if store_changed and current is not None and current.pinned:
            # A pinned fact is never replaced automatically (the resolution rules): keep
            # the file's text beside it, and the disagreement waits for a person.
            await self._keep_beside(file, key, item, importance, current, record_state, report, "the entry is pinned")
            return
        try:
            outcome = await self.engine.add(
                key,
                item.content,
                item.type,
                "model_inferred",
                item.tags,
                importance,
                actor=self.actor,
                reason=f"sync from {self.folder / file}",
            )
        except WriteRejected as exc:
            if exc.reason != "provenance_guard" or current is None:
                report.refused.append({"file": file, "key": key, "reason": exc.reason, "message": exc.message})
                self.state["entries"][key] = record_state  # not retried until the file changes again
                return
            # The store holds a version the agent may not overwrite (a person's): keep the
            # file's text beside it, so neither side's edit is lost.
            await self._keep_beside(file, key, item, importance, current, record_state, report, exc.message)
            return
        if store_changed and outcome.action != "unchanged":
            report.conflicts.append(
                {"file": file, "key": key, "kept_as": "new version (the store's text is the previous version)"}
            )
        if outcome.action != "unchanged":
            report.landed.append(key)
        self.state["entries"][key] = record_state

    async def _keep_beside(
        self,
        file: str,
        key: str,
        item: FileItem,
        importance: float,
        current: MemoryEntry,
        record_state: dict[str, Any],
        report: SyncReport,
        why: str,
    ) -> None:
        """The file's text as a sibling entry tagged sync-conflict, and the disagreement
        as a contradiction the resolution rules settle or leave pending."""
        sibling = f"{key}~{Path(file).stem.lower()}-{record_state['hash'][:8]}"
        outcome = await self.engine.add(
            sibling,
            item.content,
            item.type,
            "model_inferred",
            [*item.tags, CONFLICT_TAG],
            importance,
            actor=self.actor,
            reason=f"sync conflict with {key!r} ({why})",
        )
        conflict = {"file": file, "key": key, "kept_as": sibling}
        record = await self._record_conflict(current, outcome.entry, file)
        if record is not None:
            conflict.update(contradiction=record.id, status=record.status.value)
        report.conflicts.append(conflict)
        self.state["entries"][sibling] = record_state
        self.state["entries"].pop(key, None)

    async def _record_conflict(self, current: MemoryEntry, sibling: MemoryEntry, file: str):
        """Both sides changed one fact: a contradiction between the store's version and
        the file's. The offline verifier names the conflict when it can (the two speak
        of one subject: the sibling is scored under the original key); one it cannot
        name gets a confidence under the default memory.contradictionMinConfidence, so
        it waits for a person. The rules (engine/consolidation/policy.py) then resolve
        it (higher provenance, then recency) or leave it pending (a pinned loser)."""
        from ..consolidation.detect import signals
        from ..consolidation.records import Verdict
        from ..consolidation.resolve import ContradictionBook
        from ..consolidation.verify import verify_offline

        pair = signals(current, replace(sibling, key=current.key, tags=list(current.tags)))
        verdict = verify_offline(current, sibling, pair)
        where = f"{self.format.name} {file}"
        if verdict.contradicts:
            verdict = replace(verdict, description=f"sync conflict on {current.key!r} ({where}): {verdict.description}")
        else:
            why = (
                f"both the store and {where} changed {current.key!r} since the last sync; the verifier "
                f"found no incompatible value ({verdict.explanation}), so a person decides"
            )
            verdict = Verdict(
                True,
                UNVERIFIED_CONFIDENCE,
                "other",
                f"both sides changed {current.key!r} ({where})",
                why,
                f"sync:{self.format.name}",
            )
        record, _resolution = await ContradictionBook(self.engine).record(
            current, sibling, verdict, pair, f"sync:{self.format.name}", str(self.actor)
        )
        return record

    async def _archive(self, key: str, record: dict, report: SyncReport) -> None:
        current = await self._current(self.format.files[record["file"]], key)
        if current is None or current.tier is not MemoryTier.SEMANTIC:
            return
        try:
            await self.engine.archive(current.id, actor=self.actor)
            report.archived.append(key)
        except WriteRejected as exc:
            report.refused.append(
                {"file": record["file"], "key": key, "reason": exc.reason, "message": f"not archived: {exc.message}"}
            )

    async def _current(self, type_: MemoryType, key: str) -> Optional[MemoryEntry]:
        found = [
            e
            for e in await self.engine.list_entries(EntryFilter(type=type_, text=key))
            if e.key == key and e.superseded_by is None and e.tier in (MemoryTier.SEMANTIC, MemoryTier.ARCHIVAL)
        ]
        return max(found, key=lambda e: e.version) if found else None

    # ---- write-back ----------------------------------------------------------------
    async def _write_back(self, file: str, report: SyncReport) -> None:
        type_ = self.format.files[file]
        live = await self.engine.list_entries(EntryFilter(tier=MemoryTier.SEMANTIC, type=type_))
        live.sort(key=lambda e: (not e.pinned, -e.importance, e.key))
        if isinstance(self.format, EchoAgentFormat):
            removed = [
                e
                for e in await self.engine.list_entries(EntryFilter(tier=MemoryTier.ARCHIVAL, type=type_))
                if e.superseded_by is None and e.key in self.state["entries"]
            ]
            live += removed  # Echo-Agent keeps archived entries, marked by tier
        data, kept = self.format.render(file, live)
        report.left_out += [e.key for e in live if e not in kept]
        self.format.parse(file, data)  # the agent's parser must read what we write
        lock = self.folder / (file + self.format.lock_suffix) if self.format.lock_suffix else None
        if not await asyncio.to_thread(replace_if_unchanged, self.folder / file, data, self.state["files"].get(file), lock):
            report.errors.append(f"{file} changed since it was read; not written back this time (the next pass reads it first)")
            report.unreadable.add(file)
            return
        report.written[file] = len(kept)
        self.state["files"][file] = hashlib.sha256(data).hexdigest()
        for key in [k for k, v in self.state["entries"].items() if v["file"] == file]:
            del self.state["entries"][key]
        for e in kept:
            self.state["entries"][e.key] = {
                "hash": content_hash(e.content),
                "file": file,
                "text": e.content[:EXCERPT],
                "archived": e.tier is MemoryTier.ARCHIVAL,
            }


async def watch(
    sync: FolderSync, write_back: bool, on_report: Callable[[SyncReport], None], stop_event: Optional[asyncio.Event] = None
) -> None:
    """Sync now, then again on every change to the folder's files, and (with
    write_back) on every commit another process makes to the store."""
    from watchfiles import awatch

    wake = asyncio.Event()

    async def folder_changes() -> None:
        names = set(sync.format.files)
        async for _ in awatch(
            sync.folder, stop_event=stop_event, debounce=200, step=50, watch_filter=lambda _c, p: Path(p).name in names
        ):
            wake.set()
        wake.set()

    async def store_changes() -> None:
        async for _ in sync.engine.watch_changes(stop_event):
            wake.set()

    tasks = [asyncio.create_task(folder_changes())]
    if write_back:
        tasks.append(asyncio.create_task(store_changes()))
    try:
        on_report(await sync.run(write_back))
        while not (stop_event and stop_event.is_set()):
            await wake.wait()
            wake.clear()
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()
            if stop_event and stop_event.is_set():
                break
            on_report(await sync.run(write_back))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
