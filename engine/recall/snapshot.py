"""The recall snapshot: `<db>.recall.npz`, a cache of the lexical index that makes
reopening a large store fast.

It records the change_log position it reflects and that row's fingerprint
(entry_id, at); the caller replays anything after from change_log, and any
mismatch, unreadable file or other format means a rebuild from `entries`.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Optional

import numpy as np

from .lexical import LexicalIndex

log = logging.getLogger(__name__)

SNAPSHOT_FORMAT = 1


def snapshot_path(db_path: os.PathLike | str) -> Path:
    p = Path(db_path)
    return p.with_name(p.name + ".recall.npz")


def read_snapshot(path: Path) -> Optional[tuple[dict, LexicalIndex, dict[str, int]]]:
    """(meta, lexical index, text hash by id), or None (logged) if the file cannot be used."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(bytes(data["meta"]).decode())
            if meta.get("format") != SNAPSHOT_FORMAT:
                raise ValueError("snapshot format differs")
            lexical = LexicalIndex.from_arrays(data)
            hashes = dict(zip(lexical.ids(), data["text_hash"].tolist()))
    except Exception as exc:  # a cache: any problem means rebuild
        log.info("ignoring recall snapshot %s: %s", path, exc)
        return None
    return meta, lexical, hashes


def snapshot_arrays(lexical: LexicalIndex, hashes: dict[str, int]) -> dict[str, np.ndarray]:
    """What a snapshot holds of the index (compacts it first: call under the index lock)."""
    arrays = lexical.to_arrays()
    ids = lexical.ids()
    arrays["text_hash"] = np.fromiter((hashes.get(i, 0) for i in ids), np.uint64, len(ids))
    return arrays


def write_snapshot(path: Path, arrays: dict[str, Any], seq: int, fingerprint: list) -> Optional[Path]:
    """Write the snapshot atomically (a temporary file, then rename); None (logged) on failure."""
    meta = {"format": SNAPSHOT_FORMAT, "seq": seq, "fingerprint": fingerprint}
    arrays = {**arrays, "meta": np.frombuffer(json.dumps(meta).encode(), np.uint8)}
    tmp = path.with_name(path.name + ".tmp.npz")
    try:
        np.savez(tmp, **arrays)
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("could not write recall snapshot %s: %s", path, exc)
        return None
    return path
