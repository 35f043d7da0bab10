"""Who is writing. Every write names an Actor; its kind decides the highest
provenance it may store and whether it may take a person-only action.

    person         the user at the app or the CLI: anything, up to user_stated
    agent          a model or program using the API: at most model_inferred, and
                   never pin, unpin, restore, resolve, merge, undo, purge or vouch
                   for an import's provenance
    consolidation  the sleep-time pipeline: at most consolidated
    import         a file being imported: legacy (the spec's "migrated, unverified"),
                   unless a person vouches for it (Actor.importer(trusted=True))

Only a person, or an import a person vouched for, stores a pin: a pin puts an entry
in every prompt and exempts it from decay and automatic resolution. An unnamed API
caller is an agent: a person's powers are never the default. A plain name is
trusted as said (in-process callers); a server for agents must build
Actor.agent(...) itself and never pass on a name its client chose."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional, Union

from .fields import MAX_ACTOR_CHARS, validate_name
from .models import InvalidValue, ProvenanceLevel


class ActorKind(enum.Enum):
    PERSON = "person"
    AGENT = "agent"
    CONSOLIDATION = "consolidation"
    IMPORT = "import"


_CAPS = {
    ActorKind.PERSON: ProvenanceLevel.USER_STATED,
    ActorKind.AGENT: ProvenanceLevel.MODEL_INFERRED,
    ActorKind.CONSOLIDATION: ProvenanceLevel.CONSOLIDATED,
    ActorKind.IMPORT: ProvenanceLevel.LEGACY,
}

# The names existing callers pass as plain strings (and the audit log has always shown).
_PERSON_NAMES = {"user", "person", "cli", "app", "demo"}
_CONSOLIDATION_NAMES = {"consolidation", "engine"}


@dataclass(frozen=True)
class Actor:
    kind: ActorKind
    name: str
    max_source: ProvenanceLevel

    def __post_init__(self) -> None:
        """The name lands in every audit record: one bounded printable line."""
        validate_name(self.name, "actor name", MAX_ACTOR_CHARS)

    @classmethod
    def person(cls, name: str = "user") -> "Actor":
        return cls(ActorKind.PERSON, name, _CAPS[ActorKind.PERSON])

    @classmethod
    def agent(cls, name: str = "agent") -> "Actor":
        return cls(ActorKind.AGENT, name, _CAPS[ActorKind.AGENT])

    @classmethod
    def mcp_client(cls, client: str, max_source: ProvenanceLevel) -> "Actor":
        """An MCP client, named by the server as mcp:<client>: an agent that may relay
        what the user said explicitly, up to max_source (memory.mcp.maxProvenance),
        but never takes a person's powers (pin, restore, resolve, merge, purge)."""
        if max_source.value > ProvenanceLevel.USER_STATED.value or max_source is ProvenanceLevel.CONSOLIDATED:
            raise InvalidValue(f"an MCP client may claim at most user_stated, never consolidated; got {max_source.label}")
        return cls(ActorKind.AGENT, f"mcp:{client}", max_source)

    @classmethod
    def consolidation(cls, name: str = "consolidation") -> "Actor":
        return cls(ActorKind.CONSOLIDATION, name, _CAPS[ActorKind.CONSOLIDATION])

    @classmethod
    def importer(cls, name: str = "import", trusted: bool = False) -> "Actor":
        """trusted: a person restoring their own export keeps its provenance (audited as such)."""
        return cls(ActorKind.IMPORT, name, ProvenanceLevel.USER_STATED if trusted else _CAPS[ActorKind.IMPORT])

    @classmethod
    def parse(cls, value: Union["Actor", str, None], default: Optional["Actor"] = None) -> "Actor":
        """An Actor, or the plain name older callers pass: user/person/cli/app/demo are
        the person, consolidation/engine the pipeline, import… an untrusted import,
        anything else an agent."""
        if isinstance(value, Actor):
            return value
        if value is None:
            return default if default is not None else cls.agent("api")
        if not isinstance(value, str) or not value.strip():
            raise InvalidValue(f"actor must be an Actor or a name, got {value!r}")
        head = value.split(":", 1)[0]
        if value in _PERSON_NAMES or head == "person":
            return cls.person(value)
        if value in _CONSOLIDATION_NAMES or head == "consolidation":
            return cls.consolidation(value)
        if head == "import":
            return cls.importer(value)
        return cls.agent(value)

    @property
    def is_person(self) -> bool:
        return self.kind is ActorKind.PERSON

    @property
    def may_pin(self) -> bool:
        """A person, or an import a person vouched for; never an agent, whatever it may state."""
        return self.max_source is ProvenanceLevel.USER_STATED and self.kind in (ActorKind.PERSON, ActorKind.IMPORT)

    def cap(self, source: ProvenanceLevel) -> ProvenanceLevel:
        """The provenance this actor may actually store for a claimed one."""
        return source if source.value <= self.max_source.value else self.max_source

    def __str__(self) -> str:
        """The audit log's name; it parses back to the same kind (person:alice, not alice)."""
        return self.name if Actor.parse(self.name).kind is self.kind else f"{self.kind.value}:{self.name}"


AnyActor = Union[Actor, str, None]
