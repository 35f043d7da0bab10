"""Typed messages: workers post these with what they fetched from the engine;
widgets and the app turn them into reactive state. No message carries a
coroutine or touches the engine itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from textual.message import Message


class EngineReady(Message):
    """The store is open (in a worker); the app can start fetching."""

    def __init__(self, engine: Any) -> None:
        super().__init__()
        self.engine = engine


class EngineFailed(Message):
    """The store could not be opened: shown in place, the app keeps running."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class StatsLoaded(Message):
    def __init__(self, stats: dict[str, Any]) -> None:
        super().__init__()
        self.stats = stats


class RecallState(Message):
    """The embedding model's load state changed (loading / ready / failed / unavailable)."""

    def __init__(self, state: str, detail: str = "") -> None:
        super().__init__()
        self.state = state
        self.detail = detail


class StoreChanged(Message):
    """Another process committed. Bursts coalesce: a queued StoreChanged is
    replaced by the next one, which carries the union of both."""

    def __init__(self, entry_ids: list[str], ops: list[str], count: int = 1) -> None:
        super().__init__()
        self.entry_ids = list(entry_ids)
        self.ops = list(ops)
        self.count = count

    def can_replace(self, message: Message) -> bool:
        # Textual asks the message at the head of the queue whether the next one
        # may supersede it; fold this one into the newer before it is dropped.
        if isinstance(message, StoreChanged):
            message.entry_ids = sorted(set(self.entry_ids) | set(message.entry_ids))
            message.ops = sorted(set(self.ops) | set(message.ops))
            message.count += self.count
            return True
        return False


class DataChanged(Message):
    """The app itself wrote (or a live change arrived): panes refresh in place."""

    def __init__(self, entry_ids: list[str] | None = None, source: str = "app") -> None:
        super().__init__()
        self.entry_ids = entry_ids
        self.source = source


class EntryHighlighted(Message):
    """The browser's cursor rests on an entry (or on nothing)."""

    def __init__(self, entry_id: Optional[str]) -> None:
        super().__init__()
        self.entry_id = entry_id


class TierSelected(Message):
    """The pyramid asks the browser to filter by a tier (None: all)."""

    def __init__(self, tier: Optional[str]) -> None:
        super().__init__()
        self.tier = tier


@dataclass
class DetailData:
    entry: Any
    decay: dict[str, Any]
    curve: list[tuple[int, float]]
    audit: list[Any]
    history: dict[str, Any]
    episode: Any = None
    notices: list[str] = field(default_factory=list)
    vector: dict[str, Any] = field(default_factory=dict)  # engine.vector_state
    recalls: Any = None  # engine.recent_recalls: the recall log's lines for this entry


class DetailLoaded(Message):
    def __init__(self, entry_id: str, data: Optional[DetailData], error: str = "") -> None:
        super().__init__()
        self.entry_id = entry_id
        self.data = data
        self.error = error


class WriteDone(Message):
    """A write through the engine succeeded."""

    def __init__(self, what: str, entry_ids: list[str], note: str = "", select: Optional[str] = None, undo: Any = None) -> None:
        super().__init__()
        self.what = what
        self.entry_ids = entry_ids
        self.note = note
        self.select = select
        self.undo = undo  # an engine UndoStep that takes this write back, or None


class WriteFailed(Message):
    """The engine refused or failed a write; detail is the refusal's dict."""

    def __init__(
        self, what: str, message: str, detail: Optional[dict[str, Any]] = None, retry: Any = None, busy: bool = False
    ) -> None:
        super().__init__()
        self.what = what
        self.message = message
        self.detail = detail or {}
        self.retry = retry
        self.busy = busy  # the store stayed locked by another process: not a refusal
