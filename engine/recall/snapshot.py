"""The recall snapshot `<db>.recall.snap`: a cache of the recall indexes that makes
reopening a large store fast, read back memory-mapped.

Layout: named arrays, each at a page-aligned offset, then a JSON footer (names,
dtypes, shapes, offsets and the caller's meta), its length (8 bytes) and a magic
tag. Arrays are written one after another (a large one in chunks, so writing one
never needs it whole in memory) and read back as read-only `np.memmap`s: opening
costs a footer parse, pages load as the scans touch them, and an accidental write
into a mapped array raises instead of changing the file. Large chunks are written
past the page cache where the file system allows (`_DirectWrites`): the vectors a
first open streams in are not read back during the open.

It is a cache: `read_snapshot` refuses (SnapshotError, which the caller logs before
rebuilding) a file that is truncated, has another magic or format, a footer that
does not parse, an array that would reach past the end of the file, or a small
array whose CRC-32 (kept per array in the footer) does not match its bytes. The
large arrays (the vectors, ~2.3 GB at a million memories) are checked by
`verify` instead, which the caller runs in the background after open: reading
them whole would cost the open most of its budget. The write goes to a
temporary file of this process (`<snap>.<pid>.<random>.tmp`) renamed into place,
so a crash leaves the old snapshot or none, never half of one; a later write
removes temporary files whose process is gone.
"""

from __future__ import annotations

import errno
import json
import mmap
import os
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any, Iterable, Optional

import numpy as np

from ..errors import RecallError

MAGIC = b"ECHORSNP"
SNAPSHOT_FORMAT = 3  # 3: a CRC-32 per array; 2: one file of page-aligned arrays
_ALIGN = 4096
_TAIL = struct.Struct("<Q8s")  # footer length, magic
LAZY_CHECK_BYTES = 256 << 20  # arrays larger than this (the vectors at ~200k+) are checked by verify()
_READ = 16 << 20  # bytes per read when checking a large array


class SnapshotError(RecallError, ValueError):
    """A snapshot file that cannot be used (the caller rebuilds)."""


def snapshot_path(db_path: os.PathLike | str) -> Path:
    p = Path(db_path)
    return p.with_name(p.name + ".recall.snap")


class SnapshotWriter:
    """Write arrays to a new snapshot; `finish(meta)` makes it visible atomically.

    with SnapshotWriter(path) as w:
        w.add("lex_dptr", dptr)
        w.add_chunks("vec_f32", np.float32, (dim,), chunks)
        w.finish({"seq": 12})
    """

    def __init__(self, path: Path):
        self.path = path
        fd, tmp = tempfile.mkstemp(prefix=f"{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
        self.tmp = Path(tmp)
        self._f = os.fdopen(fd, "wb")
        self._entries: dict[str, dict[str, Any]] = {}
        self._done = False
        self._open: dict[str, Any] = {}
        self._direct: Optional[_DirectWrites] = _DirectWrites.open(self.tmp)

    def __enter__(self) -> "SnapshotWriter":
        return self

    def __exit__(self, *exc) -> None:
        self._close_direct()
        if not self._f.closed:
            self._f.close()
        if not self._done:
            self.tmp.unlink(missing_ok=True)

    def _close_direct(self) -> None:
        if self._direct is not None:
            self._direct.close()
            self._direct = None

    def _pad(self) -> int:
        pos = self._f.tell()
        gap = -pos % _ALIGN
        if gap:
            self._f.write(b"\0" * gap)
        return pos + gap

    def add(self, name: str, array: np.ndarray) -> None:
        array = np.ascontiguousarray(array)
        self.add_chunks(name, array.dtype, array.shape[1:], [array])

    def add_chunks(self, name: str, dtype, row_shape: tuple, chunks: Iterable[np.ndarray], cached: bool = True) -> None:
        """One array written as consecutive row blocks (none of them kept)."""
        self.begin(name, dtype, row_shape, cached)
        for chunk in chunks:
            self.write(chunk)
        self.end()

    def begin(self, name: str, dtype, row_shape: tuple, cached: bool = True) -> None:
        """Start an array whose row blocks follow through write(); end() closes it.
        cached=False: an array read back a few rows at a time (the float32 vectors), whose
        large blocks go past the page cache where the file system allows (_DirectWrites);
        the arrays an open from the snapshot reads whole stay cached for it."""
        self._open = {"name": name, "dtype": np.dtype(dtype), "row_shape": tuple(row_shape), "rows": 0, "crc": 0}
        self._open["direct"] = not cached
        self._open["offset"] = self._pad()

    def write(self, chunk: np.ndarray) -> None:
        spec = self._open
        chunk = np.ascontiguousarray(chunk, spec["dtype"])
        if chunk.shape[1:] != spec["row_shape"]:
            raise ValueError(f"snapshot array {spec['name']}: rows of shape {chunk.shape[1:]}, expected {spec['row_shape']}")
        if chunk.size:
            data = chunk.data.cast("B")
            self._append(data, spec["direct"])
            spec["crc"] = zlib.crc32(data, spec["crc"])
        spec["rows"] += len(chunk)

    def _append(self, data: memoryview, direct: bool) -> None:
        """Write data at the end of the file; with direct, its whole pages past the page
        cache when it is large and the file system allows (_DirectWrites), the rest buffered."""
        if not direct or self._direct is None or len(data) < _DIRECT_MIN:
            self._f.write(data)
            return
        pos = self._f.tell()
        head = min(-pos % _ALIGN, len(data))
        body = (len(data) - head) // _ALIGN * _ALIGN
        self._f.write(data[:head])
        self._f.flush()
        if not self._direct.write(data[head : head + body], pos + head):
            self._close_direct()  # the file system refuses O_DIRECT: buffered from here on
            self._f.write(data[head:])
            return
        self._f.seek(pos + head + body)
        self._f.write(data[head + body :])

    def end(self) -> None:
        spec = self._open
        self._entries[spec["name"]] = {
            "dtype": spec["dtype"].str,
            "shape": [spec["rows"], *spec["row_shape"]],
            "offset": spec["offset"],
            "crc32": spec["crc"],
        }

    def mapped(self, name: str) -> np.ndarray:
        """An array already written, memory-mapped read-only from the temporary file (the
        map stays valid after the rename, and after an unlink until it is dropped)."""
        self._f.flush()
        spec = self._entries[name]
        if 0 in spec["shape"]:
            return np.zeros(tuple(spec["shape"]), spec["dtype"])
        return _map(self.tmp, np.dtype(spec["dtype"]), spec["offset"], tuple(spec["shape"]))

    def finish(self, meta: dict[str, Any]) -> Path:
        footer = json.dumps({"format": SNAPSHOT_FORMAT, "meta": meta, "arrays": self._entries}).encode()
        self._f.write(footer)
        self._f.write(_TAIL.pack(len(footer), MAGIC))
        self._f.flush()
        os.fsync(self._f.fileno())
        self._close_direct()
        self._f.close()
        os.replace(self.tmp, self.path)
        self._done = True
        dir_fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)  # the rename itself survives a power cut
        finally:
            os.close(dir_fd)
        _remove_orphans(self.path)
        return self.path


_DIRECT_MIN = 1 << 20
"""Writes at least this large go past the page cache; smaller ones are not worth a staging copy."""
_STAGE_BYTES = 32 << 20
"""The staging map: a larger write goes through it in pieces (its size is resident memory)."""


class _DirectWrites:
    """Whole pages written to the file with O_DIRECT, so they never occupy the page cache.

    Why: a first open of a million memories streams ~1.5 GB of float32 vectors into the
    snapshot. Written buffered, each page of it took a page of the page cache that the
    kernel had to find and, on this VM, back with fresh host memory: ~4 s of CPU for the
    1.5 GB in a microbenchmark, 0.3 s when the pages had been used just before. Nothing
    reads those pages back during the open (the rescoring reads ~100 rows per query with
    pread). O_DIRECT needs page-aligned memory, offsets and lengths: the bytes are copied
    into one reused anonymous map (page-aligned by construction) and written from it.
    """

    def __init__(self, fd: int):
        self._fd = fd
        self._stage = mmap.mmap(-1, _STAGE_BYTES)  # touched only as far as writes fill it
        self._wrote = False  # a refusal (EINVAL) comes at the first write, before anything is written

    @classmethod
    def open(cls, path: Path) -> Optional["_DirectWrites"]:
        flag = getattr(os, "O_DIRECT", 0)
        if not flag:
            return None  # not Linux: buffered
        try:
            return cls(os.open(path, os.O_WRONLY | flag))
        except OSError:
            return None

    def write(self, data: memoryview, offset: int) -> bool:
        """Write data (a whole number of pages) at offset (page-aligned), through the
        stage a piece at a time. False, with nothing written, when the file system
        refuses O_DIRECT (EINVAL at the first write: tmpfs on older kernels, some
        network file systems); other errors (a full disk) raise."""
        for at in range(0, len(data), len(self._stage)):
            piece = data[at : at + len(self._stage)]
            self._stage[: len(piece)] = piece
            if not self._write_staged(len(piece), offset + at):
                return False
        return True

    def _write_staged(self, n: int, offset: int) -> bool:
        stage = memoryview(self._stage)
        done = 0
        while done < n:
            try:
                done += os.pwrite(self._fd, stage[done:n], offset + done)
            except OSError as exc:
                if exc.errno == errno.EINVAL and not self._wrote:
                    return False
                raise
            self._wrote = True
        return True

    def close(self) -> None:
        os.close(self._fd)


def _remove_orphans(path: Path) -> None:
    """Delete temporary files of this snapshot left by processes that no longer run."""
    for tmp in path.parent.glob(f"{path.name}.*.tmp"):
        pid = tmp.name[len(path.name) + 1 :].split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass  # alive under another user: not ours to judge


class Snapshot:
    """A snapshot's meta and its arrays, memory-mapped read-only."""

    def __init__(self, path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray], specs: dict[str, Any]):
        self.path, self.meta, self.arrays, self.specs = path, meta, arrays, specs

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    def __contains__(self, name: str) -> bool:
        return name in self.arrays


def read_snapshot(path: Path) -> Optional[Snapshot]:
    """The snapshot at path (None if there is none); SnapshotError if it is unusable."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    if size < _TAIL.size:
        raise SnapshotError(f"truncated ({size} bytes)")
    with open(path, "rb") as f:
        f.seek(size - _TAIL.size)
        length, magic = _TAIL.unpack(f.read(_TAIL.size))
        if magic != MAGIC:
            raise SnapshotError("not a recall snapshot (or truncated)")
        if length > size - _TAIL.size:
            raise SnapshotError("footer length past the start of the file")
        f.seek(size - _TAIL.size - length)
        try:
            footer = json.loads(f.read(length))
        except ValueError as exc:
            raise SnapshotError(f"footer does not parse: {exc}") from None
    if footer.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError(f"format {footer.get('format')!r}, expected {SNAPSHOT_FORMAT}")
    end = size - _TAIL.size - length
    arrays: dict[str, np.ndarray] = {}
    for name, spec in footer["arrays"].items():
        dtype, shape, offset = np.dtype(spec["dtype"]), tuple(spec["shape"]), int(spec["offset"])
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if offset < 0 or offset + nbytes > end:
            raise SnapshotError(f"array {name} reaches past the end of the file")
        if nbytes == 0:
            arrays[name] = np.zeros(shape, dtype)
        else:
            arrays[name] = _map(path, dtype, offset, shape)
        if 0 < nbytes <= LAZY_CHECK_BYTES and zlib.crc32(arrays[name].data.cast("B")) != spec["crc32"]:
            raise SnapshotError(f"array {name} does not match its checksum")
    return Snapshot(path, footer.get("meta", {}), arrays, footer["arrays"])


def verify(snap: Snapshot) -> None:
    """Check the large arrays read_snapshot left unchecked against their CRC-32, reading
    the file (pread: nothing becomes resident in this process); SnapshotError if one
    differs. Seconds at a million memories: run it off the loop, after open."""
    fd = os.open(snap.path, os.O_RDONLY)
    try:
        for name, spec in snap.specs.items():
            nbytes = snap[name].nbytes
            if nbytes <= LAZY_CHECK_BYTES:
                continue
            crc, offset, left = 0, int(spec["offset"]), nbytes
            while left:
                block = os.pread(fd, min(_READ, left), offset)
                if not block:
                    raise SnapshotError(f"{snap.path}: short read in array {name}")
                crc = zlib.crc32(block, crc)
                offset, left = offset + len(block), left - len(block)
            if crc != spec["crc32"]:
                raise SnapshotError(f"array {name} does not match its checksum")
    finally:
        os.close(fd)


def _identity(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


def _map(path: Path, dtype, offset: int, shape: tuple) -> np.ndarray:
    """A read-only map of one array, marked with the file it maps (gather_rows reads
    that file by path only while the path still names it)."""
    array = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape)
    array.identity = _identity(os.stat(path))  # type: ignore[attr-defined]
    return array


_WILLNEED = getattr(os, "POSIX_FADV_WILLNEED", None) if hasattr(os, "posix_fadvise") else None


def gather_rows(array: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """array[rows], read from the file (pread) when array is a mapped 2-D array: the
    rows land in a private buffer and nothing else of the file becomes resident. A
    fancy index on the map itself faulted in whole page-cache folios here (114
    scattered float32 rows of 100k made 117 of its 146 MB resident)."""
    filename = getattr(array, "filename", None)
    if not isinstance(array, np.memmap) or not isinstance(array.base, mmap.mmap) or filename is None or array.ndim != 2:
        return array[rows]  # not a whole mapped array as read_snapshot made it
    out = np.empty((len(rows), array.shape[1]), array.dtype)
    size = out.strides[0]
    base = array.offset
    try:
        fd = os.open(filename, os.O_RDONLY)
    except FileNotFoundError:  # renamed or removed since it was mapped: the map still holds it
        return array[rows]
    if _identity(os.fstat(fd)) != getattr(array, "identity", None):  # the path holds a newer file now
        os.close(fd)
        return array[rows]
    try:
        view = memoryview(out).cast("B")
        wanted = np.asarray(rows).tolist()
        if _WILLNEED is not None:
            # rows not in the page cache (a first open writes the vectors past it; a
            # reboot empties it) are read all at once, not one disk wait after another:
            # 114 cold rows of a 1.5 GB file in ~1 ms instead of ~7 ms here
            for r in wanted:
                os.posix_fadvise(fd, base + r * size, size, _WILLNEED)
        for j, r in enumerate(wanted):
            if os.preadv(fd, [view[j * size : (j + 1) * size]], base + r * size) != size:
                raise SnapshotError(f"{filename}: short read")
    finally:
        os.close(fd)
    return out


def release_pages(array: np.ndarray) -> None:
    """Drop a memory-mapped array's pages from this process's resident set (they stay
    in the page cache): after copying a large mapped array through, so the copy does
    not count the whole file as resident. A hint: ignored where unsupported."""
    mm = getattr(array, "_mmap", None)
    if mm is not None and hasattr(mm, "madvise"):
        try:
            mm.madvise(mmap.MADV_DONTNEED)
        except (OSError, ValueError):
            pass
