"""The knowledge base of the spec: documents (project notes, READMEs) embedded
into a separate `.npz` sidecar next to the store (`<db>.kb.npz`), physically apart
from memory vectors and never searched by memory recall. The CLI reaches it as
`echo-memory kb build PATH...`, `kb recall QUERY` and `kb info` (kb_cli.py).

    kb = KnowledgeBase.open(db_path, model_id="all-MiniLM-L6-v2:384", dim=384)
    kb.add(["doc1#0"], vectors, texts=["..."]); kb.save()
    kb.search(query_vector, k=5) -> [KnowledgeHit(id, score, text), ...]
    kb.remove(["doc1#0"]); kb.save()

`build`, `recall` and `info` below are what the commands run: a document is cut
into passages of at most MAX_PASSAGE_CHARS (paragraphs packed together), each
embedded with memory.embeddingModel; rebuilding a document replaces its passages.
A sidecar written under another model is refused on open (its vectors live in
another semantic space); `KnowledgeBase.open(..., reset_on_model_change=True)`
(`kb build --reset`) starts empty instead. Saving is atomic (engine/files.py)."""

from __future__ import annotations

import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import InvalidValue, RecallError
from ..files import atomic_write
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


def _load(path: Path, *names: str) -> list[Any]:
    """The named arrays of a sidecar (vectors as float32, the rest JSON-decoded)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return [np.asarray(data[n], np.float32) if n == "vectors" else json.loads(bytes(data[n]).decode()) for n in names]
    except (OSError, ValueError, KeyError) as exc:
        raise KnowledgeBaseError(f"{path} is not a readable knowledge-base sidecar: {exc}") from exc


def document_of(passage_id: str) -> str:
    """A passage id is DOCUMENT#N."""
    return passage_id.rpartition("#")[0] or passage_id


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
    def open(cls, db_path: os.PathLike | str, model_id: str, dim: int, reset_on_model_change: bool = False) -> "KnowledgeBase":
        kb = cls(sidecar_path(db_path), model_id, dim)
        if not kb.path.exists():
            return kb
        meta, ids, texts, matrix = _load(kb.path, "meta", "ids", "texts", "vectors")
        if meta.get("model_id") != model_id or matrix.shape[1:] != (dim,):
            if reset_on_model_change:
                kb.dirty = True
                return kb
            raise KnowledgeBaseError(
                f"{kb.path} holds vectors from {meta.get('model_id')!r} ({matrix.shape[1] if matrix.ndim == 2 else '?'} "
                f"dimensions); the active model is {model_id!r}: rebuild it with `echo-memory kb build --reset PATH...`"
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
        buffer = io.BytesIO()
        np.savez(
            buffer,
            meta=np.frombuffer(json.dumps(meta).encode(), np.uint8),
            ids=np.frombuffer(json.dumps(self._ids, ensure_ascii=False).encode(), np.uint8),
            texts=np.frombuffer(json.dumps(self._texts, ensure_ascii=False).encode(), np.uint8),
            vectors=self._m,
        )
        atomic_write(self.path, buffer.getvalue(), backup=False)
        self.dirty = False
        return self.path


# ---- what the kb commands run ----------------------------------------------------------
MAX_PASSAGE_CHARS = 1200
TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".rst")  # what `kb build DIR` reads


def passages(text: str, limit: int = MAX_PASSAGE_CHARS) -> list[str]:
    """Paragraphs packed into passages of at most `limit` characters; a longer
    paragraph is cut at whitespace."""
    out: list[str] = []
    current = ""
    for para in (p.strip() for p in re.split(r"\n\s*\n", text)):
        while len(para) > limit:
            cut = para.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            out.extend(x for x in (current, para[:cut].strip()) if x)
            current, para = "", para[cut:].strip()
        if not para:
            continue
        if current and len(current) + 2 + len(para) > limit:
            out.append(current)
            current = ""
        current = f"{current}\n\n{para}" if current else para
    if current:
        out.append(current)
    return out


def read_documents(paths: Sequence[str]) -> list[tuple[str, str]]:
    """(document name, text) for each file named and each text file under each
    folder named (TEXT_SUFFIXES, sorted). A missing path or a named file that is
    not UTF-8 text is refused before anything is embedded."""
    docs: list[tuple[str, str]] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            files = sorted(f for f in path.rglob("*") if f.is_file() and f.suffix.lower() in TEXT_SUFFIXES)
        elif path.is_file():
            files = [path]
        else:
            raise InvalidValue(f"kb build: {raw}: no such file or folder")
        for f in files:
            try:
                docs.append((f.resolve().as_posix(), f.read_text(encoding="utf-8-sig")))
            except UnicodeDecodeError:
                raise InvalidValue(f"kb build: {f}: not UTF-8 text; name text files or folders of them") from None
    return docs


async def build(db_path: os.PathLike | str, embedder: Any, paths: Sequence[str], reset: bool = False) -> dict:
    """Embed the documents at paths into the sidecar (a rebuilt document replaces
    its passages); the sidecar is written once, after every passage is embedded."""
    docs = read_documents(paths)
    if not docs:
        raise InvalidValue(f"kb build: no text files ({', '.join(TEXT_SUFFIXES)}) under {', '.join(paths)}")
    await embedder.ensure_loaded()
    kb = KnowledgeBase.open(db_path, embedder.model_id, embedder.dim, reset_on_model_change=reset)
    if reset:
        kb.remove(kb.ids())
    added = 0
    for name, text in docs:
        parts = passages(text)
        kb.remove([i for i in kb.ids() if document_of(i) == name])
        if parts:
            kb.add([f"{name}#{n}" for n in range(len(parts))], await embedder.embed(parts), parts)
            added += len(parts)
    kb.save()
    return {"path": str(kb.path), "documents": len(docs), "passages": added, "total_passages": len(kb), "model_id": kb.model_id}


async def recall(db_path: os.PathLike | str, embedder: Any, query: str, limit: int = 5) -> list[KnowledgeHit]:
    """The passages nearest to query (cosine), best first."""
    from .stages import prepare_query  # validates and truncates like memory recall

    prepared = prepare_query(query)
    if not sidecar_path(db_path).exists():
        raise KnowledgeBaseError(f"no knowledge base at {sidecar_path(db_path)}: run `echo-memory kb build PATH`")
    await embedder.ensure_loaded()
    kb = KnowledgeBase.open(db_path, embedder.model_id, embedder.dim)
    return kb.search(await embedder.embed_query(prepared.text), limit)


def info(db_path: os.PathLike | str) -> dict:
    """What the sidecar holds, read without loading a model."""
    path = sidecar_path(db_path)
    out: dict[str, Any] = {"path": str(path), "exists": path.exists()}
    if not path.exists():
        return out
    meta, ids = _load(path, "meta", "ids")
    out.update(
        model_id=meta.get("model_id"),
        dim=meta.get("dim"),
        passages=len(ids),
        documents=len({document_of(i) for i in ids}),
        bytes=path.stat().st_size,
    )
    return out
