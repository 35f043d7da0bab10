"""Hybrid recall (BM25 + vectors + RRF + token gate + cross-encoder rerank +
forgetting curve) and episode search. Importing this package never imports
torch or sentence-transformers: models load lazily, in threads."""

import os

# Models load only from installed packages or local paths: a hub name must fail at
# once, not retry the network for a minute; and no download bar may draw over the app.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

from .embedder import Embedder, EmbeddingModelError
from .episodes import EpisodeHit, EpisodeSearchResult
from .knowledge import KnowledgeBase, KnowledgeBaseError, KnowledgeHit
from .lexical import LexicalIndex
from .rerank import Reranker
from .results import Dropped, Notice, RecallHit, RecallInputError, RecallResult
from .service import ModelStatus, OpenReport, RecallService
from .tokenize import tokenize
from .vectors import VectorDimensionError, VectorIndex

__all__ = [
    "Dropped", "Embedder", "EmbeddingModelError", "EpisodeHit", "EpisodeSearchResult", "KnowledgeBase",
    "KnowledgeBaseError", "KnowledgeHit", "LexicalIndex", "ModelStatus", "Notice", "OpenReport",
    "RecallHit", "RecallInputError", "RecallResult", "RecallService", "Reranker", "VectorDimensionError",
    "VectorIndex", "tokenize",
]
