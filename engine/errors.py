"""Every error the engine raises on purpose has one base, EchoMemoryError, so a
caller (the CLI, the app, the MCP server) can tell "the engine refused, here is
why" from a bug. Each class keeps the builtin base it had (ValueError,
LookupError), so older `except ValueError` clauses still mean the same."""

from __future__ import annotations

from typing import Any, Optional, Protocol


class Reported(Protocol):
    """What a refusal carries to explain itself (the scanner's ScanResult): the errors
    sit below the models, so they name the shape, not the class."""

    def to_dict(self) -> dict[str, Any]: ...


class EchoMemoryError(Exception):
    """Base of every error the engine raises on purpose; the message says why."""


class InvalidValue(EchoMemoryError, ValueError):
    """A value from outside (CLI, file, config, a filter typed in the app) that the model cannot accept."""


class ConfigError(EchoMemoryError, ValueError):
    """A config value (file, --set, app knob) that cannot be used."""


class WriteRejected(EchoMemoryError):
    """A write the gate refused: scanner, provenance guard, or a state rule."""

    def __init__(self, reason: str, message: str, scan: Optional[Reported] = None, **detail: Any):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.scan = scan
        self.detail = detail

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rejected": True, "reason": self.reason, "message": self.message}
        if self.scan is not None:
            out["scan"] = self.scan.to_dict()
        out.update(self.detail)
        return out


class NotFound(EchoMemoryError, LookupError):
    """No entry, session, contradiction or resolution with that id."""


class EntryNotFound(NotFound):
    def __init__(self, entry_id: str):
        super().__init__(f"no entry with id {entry_id!r}")
        self.entry_id = entry_id


class StoreError(EchoMemoryError):
    """The database cannot be used as asked; the message says why."""


class ReadOnlyStore(StoreError):
    """A write was attempted on a store opened read-only."""


class ConsolidationError(EchoMemoryError):
    """A consolidation request that cannot be carried out; the message says why."""


class RecallError(EchoMemoryError):
    """Recall cannot use an index or the knowledge-base sidecar as asked (wrong
    vector dimensions, an unreadable or foreign file); the message says which."""


class ModelError(EchoMemoryError):
    """A model call failed (unreachable, timed out, HTTP error) after its retries."""


class ModelReplyError(ModelError):
    """The model answered, but not in a shape we can use (malformed, truncated, wrong types)."""
