"""EPISODIC tier search: semantic search over episode summaries via embeddings,
optionally filtered by entity and time range (the spec's "Retrieval" for
episodes). Vectors live in `episode_vectors`, stamped like memory vectors; an
episode without a current vector is embedded on first search. When the
embedding model is unavailable the search falls back to BM25 over the summaries
and says so."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Optional, Protocol

import numpy as np

from ..models import Episode, to_iso
from ..store import EPISODE_COLUMNS, row_to_episode
from .embedder import Embedder, EmbeddingTimeout
from .lexical import LexicalIndex
from .pipeline import prepare_query
from .results import Notice, RecallInputError
from .tokenize import index_tokens
from .topk import stable_top_k
from .vectors import decode_rows, encode_vector


class EpisodeHost(Protocol):
    """What episode search needs of the recall service (named here so this module
    does not import the service back)."""

    embedder: Embedder
    settings: Any


def _hash(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()


@dataclass
class EpisodeHit:
    episode: Episode
    score: float
    rank: int

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "score": self.score, "episode": self.episode.to_dict()}


@dataclass
class EpisodeSearchResult:
    hits: list[EpisodeHit] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    mode: str = "vector"  # vector | lexical_only | empty
    filters: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "results": [h.to_dict() for h in self.hits],
            "notices": [n.to_dict() for n in self.notices],
            "timings_ms": dict(self.timings_ms),
            "mode": self.mode,
            "filters": dict(self.filters),
        }


def _aware(value: Optional[datetime]) -> Optional[datetime]:
    if value is None:
        return None
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value


class EpisodeIndex:
    def __init__(self, store, service: EpisodeHost):
        self.store = store
        self.service = service
        self._vectors: dict[str, tuple[bytes, np.ndarray]] = {}  # id -> (summary hash, unit vector)
        self._model_id: Optional[str] = None

    async def _load_stored(self, ids: list[str], hashes: dict[str, bytes]) -> None:
        embedder = self.service.embedder
        model_id, dim = embedder.model_id, embedder.dim
        if self._model_id != model_id:
            self._vectors.clear()
            self._model_id = model_id
        missing = [i for i in ids if i not in self._vectors]
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            rows = await self.store.fetchall(
                f"SELECT episode_id, model_id, dim, vector FROM episode_vectors WHERE episode_id IN "
                f"({','.join('?' * len(chunk))})",
                chunk,
            )
            good, matrix, _ = decode_rows(rows, model_id, dim)
            for j, eid in enumerate(good):
                self._vectors[eid] = (hashes[eid], matrix[j])

    async def _embed_missing(self, episodes: list[Episode]) -> None:
        embedder = self.service.embedder
        todo = [e for e in episodes if e.id not in self._vectors or self._vectors[e.id][0] != _hash(e.summary)]
        if not todo:
            return
        matrix = await embedder.embed([e.summary for e in todo])
        for e, vec in zip(todo, matrix):
            self._vectors[e.id] = (_hash(e.summary), vec)
        if not self.store.read_only:
            async with self.store.transaction() as conn:
                await conn.executemany(
                    "INSERT OR REPLACE INTO episode_vectors(episode_id, model_id, dim, vector) "
                    "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM episodes WHERE id=?)",
                    [(e.id, embedder.model_id, embedder.dim, encode_vector(v), e.id) for e, v in zip(todo, matrix)],
                )

    async def search(
        self,
        query: str,
        entity: Optional[str] = None,
        since: Optional[datetime] = None,
        until: Optional[datetime] = None,
        limit: int = 10,
    ) -> EpisodeSearchResult:
        t0 = time.perf_counter()
        if not isinstance(limit, int) or limit < 1:
            raise RecallInputError(f"limit must be a positive integer, got {limit!r}")
        prepared = prepare_query(query)
        since, until = _aware(since), _aware(until)
        if since and until and since > until:
            raise RecallInputError("since is after until: the time range is empty")
        out = EpisodeSearchResult(
            notices=list(prepared.notices),
            filters={"entity": entity, "since": to_iso(since), "until": to_iso(until), "limit": limit},
        )
        rows = await self.store.fetchall(f"SELECT {EPISODE_COLUMNS} FROM episodes ORDER BY created_at")
        episodes = [row_to_episode(r) for r in rows]
        if entity is not None:
            episodes = [e for e in episodes if entity in e.entity_ids]
        if since is not None:
            episodes = [e for e in episodes if e.created_at >= since]
        if until is not None:
            episodes = [e for e in episodes if e.created_at <= until]
        out.timings_ms["filter"] = round((time.perf_counter() - t0) * 1000, 3)
        if not episodes:
            out.mode = "empty"
            out.notices.append(Notice("no_episodes", "no episode matches the filters"))
            return out
        embedder = self.service.embedder
        settings = self.service.settings
        timeout = float(settings.get("memory.embeddingTimeoutSeconds"))
        reason = ""
        try:
            try:
                await embedder.ensure_loaded(float(settings.get("memory.embeddingLoadTimeoutSeconds")))
            except EmbeddingTimeout as exc:
                raise EmbeddingTimeout(f"{exc} (memory.embeddingLoadTimeoutSeconds)") from None
            t = time.perf_counter()
            await self._load_stored([e.id for e in episodes], {e.id: _hash(e.summary) for e in episodes})
            await self._embed_missing(episodes)
            out.timings_ms["embed_episodes"] = round((time.perf_counter() - t) * 1000, 3)
            t = time.perf_counter()
            qv = await embedder.embed_query(prepared.text, timeout)
            out.timings_ms["embed"] = round((time.perf_counter() - t) * 1000, 3)
        except EmbeddingTimeout as exc:
            key = "" if "memory.embedding" in str(exc) else " (memory.embeddingTimeoutSeconds)"
            qv, reason = None, f"{exc}{key}"
        except Exception as exc:
            qv, reason = None, str(exc)
        t = time.perf_counter()
        if qv is not None:
            matrix = np.stack([self._vectors[e.id][1] for e in episodes])
            scores = matrix @ qv
            order, _ = stable_top_k(np.arange(len(scores)), scores, limit)
            out.hits = [EpisodeHit(episodes[i], float(scores[i]), r) for r, i in enumerate(order.tolist(), 1)]
        else:
            out.mode = "lexical_only"
            out.notices.append(Notice("lexical_only", f"lexical-only episode search: {reason}"))
            index = LexicalIndex.from_tokens([e.id for e in episodes], [index_tokens(e.summary) for e in episodes])
            hits = index.search(prepared.content, limit)
            by_id = {e.id: e for e in episodes}
            out.hits = [EpisodeHit(by_id[i], float(s), r) for r, (i, s) in enumerate(zip(hits.ids, hits.scores.tolist()), 1)]
        out.timings_ms["search"] = round((time.perf_counter() - t) * 1000, 3)
        out.timings_ms["total"] = round((time.perf_counter() - t0) * 1000, 3)
        return out
