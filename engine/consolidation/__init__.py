"""Sessions, the sleep-time consolidation pipeline, contradiction detection and
resolution, and the version lattice. Reach it as `engine.consolidation` on an
open MemoryEngine; the names below are what the app and the CLI use."""

from .adapters import build_model
from .llm import ExtractionContext, LanguageModel, ModelError, ModelReplyError
from .offline import OfflineModel
from .openai_compat import OpenAICompatModel
from .records import (
    CandidateFact,
    ConsolidationError,
    ContradictionRecord,
    JobRecord,
    Lattice,
    Message,
    NotFound,
    ResolutionResult,
    RunRecord,
    SessionInfo,
    Signals,
    Summary,
    Verdict,
)
from .scheduler import Durability, TaskScheduler
from .service import ConsolidationService

__all__ = [
    "CandidateFact",
    "ConsolidationError",
    "ConsolidationService",
    "ContradictionRecord",
    "Durability",
    "ExtractionContext",
    "JobRecord",
    "LanguageModel",
    "Lattice",
    "Message",
    "ModelError",
    "ModelReplyError",
    "NotFound",
    "OfflineModel",
    "OpenAICompatModel",
    "ResolutionResult",
    "RunRecord",
    "SessionInfo",
    "Signals",
    "Summary",
    "TaskScheduler",
    "Verdict",
    "build_model",
]
