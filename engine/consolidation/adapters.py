"""Which language model consolidation uses: an OpenAI-compatible endpoint when
memory.llm.baseUrl is set, the offline rules otherwise. Kept apart from llm.py,
the interface both implementations import, so no import runs in a circle."""

from __future__ import annotations

from ..config import Settings
from .llm import LanguageModel
from .offline import OfflineModel
from .openai_compat import OpenAICompatModel


def build_model(settings: Settings) -> LanguageModel:
    if not str(settings.get("memory.llm.baseUrl")).strip():
        return OfflineModel()
    return OpenAICompatModel.from_settings(settings)
