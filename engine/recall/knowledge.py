"""Knowledge-base vectors: a separate `.npz` sidecar next to the store
(`<db>.kb.npz`), physically apart from memory vectors and never searched by
memory recall.

    kb = KnowledgeBase.open(db_path, model_id="all-MiniLM-L6-v2:384", dim=384)
    kb.add(["doc1#0"], vectors, texts=["..."]); kb.save()
    kb.search(query_vector, k=5) -> [KnowledgeHit(id, score, text), ...]
    kb.remove(["doc1#0"]); kb.save()

A sidecar written under another model is refused on open (its vectors live in
another semantic space); `KnowledgeBase.open(..., reset_on_model_change=True)`
starts empty instead. Saving is atomic (temp file + rename)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from ..errors import RecallError
from .topk import stable_top_k
from .vectors import VectorDimensionError


class KnowledgeBaseError(RecallError, ValueError):
    """The knowledge-base sidecar cannot be read or used with the active model."""


@dataclass(frozen=True)
class KnowledgeHit:
    id: str
    score: float
    text: str

    def to_dict(self) -> dict:
        return {"id": self.id, "score": self.score, "text": self.text}


def sidecar_path(db_path: os.PathLike | str) -> Path:
    p = Path(db_path)
    return p.with_name(p.name + ".kb.npz")


class KnowledgeBase:
    def __init__(self, path: Path, model_id: str, dim: int):
        self.path = Path(path)
        self.model_id = model_id
        self.dim = int(dim)
        self._ids: list[str] = []
        self._texts: list[str] = []
        self._m: np.ndarray = np.zeros((0, self.dim), np.float32)
        self.dirty = False

    @classmethod
    def open(cls, db_path: os.PathLike | str, model_id: str, dim: int,
             reset_on_model_change: bool = False) -> "KnowledgeBase":
        kb = cls(sidecar_path(db_path), model_id, dim)
        if not kb.path.exists():
            return kb
        try:
            with np.load(kb.path, allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                ids = json.loads(bytes(data["ids"]).decode())
                texts = json.loads(bytes(data["texts"]).decode())
                matrix = np.asarray(data["vectors"], np.float32)
        except (OSError, ValueError, KeyError) as exc:
            raise KnowledgeBaseError(f"{kb.path} is not a readable knowledge-base sidecar: {exc}") from exc
        if meta.get("model_id") != model_id or matrix.shape[1:] != (dim,):
            if reset_on_model_change:
                kb.dirty = True
                return kb
            raise KnowledgeBaseError(
                f"{kb.path} holds vectors from {meta.get('model_id')!r} ({matrix.shape[1] if matrix.ndim == 2 else '?'} "
                f"dimensions); the active model is {model_id!r}: re-embed the knowledge base"
            )
        if not (len(ids) == len(texts) == len(matrix)):
            raise KnowledgeBaseError(f"{kb.path} is inconsistent (ids/texts/vectors differ in length)")
        kb._ids, kb._texts, kb._m = ids, texts, matrix
        return kb

    def __len__(self) -> int:
        return len(self._ids)

    def ids(self) -> list[str]:
        return list(self._ids)

    def add(self, ids: Sequence[str], vectors: np.ndarray, texts: Optional[Sequence[str]] = None) -> None:
        """Insert or replace documents (vectors are normalised to unit length)."""
        vectors = np.asarray(vectors, np.float32)
        if vectors.ndim == 1:
            vectors = vectors.reshape(1, -1)
        if vectors.shape[1] != self.dim:
            raise VectorDimensionError(
                f"knowledge-base vectors have {vectors.shape[1]} dimensions; {self.model_id} expects {self.dim}"
            )
        if len(ids) != len(vectors) or (texts is not None and len(texts) != len(ids)):
            raise KnowledgeBaseError("ids, vectors and texts must have the same length")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors = vectors / np.where(norms == 0, 1, norms)
        texts = list(texts) if texts is not None else [""] * len(ids)
        self.remove([i for i in ids if i in set(self._ids)])
        self._ids.extend(ids)
        self._texts.extend(texts)
        self._m = np.vstack([self._m, vectors]) if len(self._m) else vectors.copy()
        self.dirty = True

    def remove(self, ids: Sequence[str]) -> int:
        drop = set(ids)
        if not drop:
            return 0
        keep = [i for i, d in enumerate(self._ids) if d not in drop]
        removed = len(self._ids) - len(keep)
        if removed:
            self._ids = [self._ids[i] for i in keep]
            self._texts = [self._texts[i] for i in keep]
            self._m = self._m[keep]
            self.dirty = True
        return removed

    def search(self, query: np.ndarray, k: int = 10) -> list[KnowledgeHit]:
        q = np.asarray(query, np.float32).reshape(-1)
        if q.shape[0] != self.dim:
            raise VectorDimensionError(f"query has {q.shape[0]} dimensions; {self.model_id} expects {self.dim}")
        if not self._ids or k <= 0:
            return []
        norm = np.linalg.norm(q)
        scores = self._m @ (q / norm if norm else q)
        order, _ = stable_top_k(np.arange(len(scores)), scores, k)
        return [KnowledgeHit(self._ids[i], float(scores[i]), self._texts[i]) for i in order.tolist()]

    def save(self) -> Path:
        meta = {"model_id": self.model_id, "dim": self.dim, "format": 1}
        tmp = self.path.with_name(self.path.name + ".tmp.npz")
        np.savez(
            tmp,
            meta=np.frombuffer(json.dumps(meta).encode(), np.uint8),
            ids=np.frombuffer(json.dumps(self._ids, ensure_ascii=False).encode(), np.uint8),
            texts=np.frombuffer(json.dumps(self._texts, ensure_ascii=False).encode(), np.uint8),
            vectors=self._m,
        )
        os.replace(tmp, self.path)
        self.dirty = False
        return self.path
