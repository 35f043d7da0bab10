"""A snapshot's large arrays are written past the page cache (O_DIRECT) and read back
byte for byte. At a million memories the float32 vectors are ~1.5 GB: written buffered,
each page took a fresh page of the page cache during the first open, seconds of CPU on
this machine, for pages nobody reads then."""

from __future__ import annotations

import ctypes
import errno
import mmap
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.recall import snapshot
from engine.recall.quantized import quantize, snapshot_codes, write_codes
from engine.recall.snapshot import SnapshotWriter, read_snapshot, verify

_LIBC = ctypes.CDLL(None, use_errno=True)


def resident_share(path, offset: int, nbytes: int) -> float:
    """The share of a file range's pages in the page cache: mincore(2) on a map of it
    (mapping alone reads nothing in)."""
    page = mmap.PAGESIZE
    start = offset // page * page
    length = offset + nbytes - start
    pages = -(-length // page)
    vec = (ctypes.c_ubyte * pages)()
    with open(path, "rb") as f, mmap.mmap(f.fileno(), length, prot=mmap.PROT_READ, offset=start) as m:
        address = np.frombuffer(m, np.uint8).ctypes.data  # ctypes takes no buffer of a read-only map
        if _LIBC.mincore(ctypes.c_void_p(address), ctypes.c_size_t(length), vec) != 0:
            raise OSError(ctypes.get_errno(), "mincore failed")
    return sum(b & 1 for b in vec) / pages


def write_arrays(path, arrays: dict[str, list[np.ndarray]], uncached: tuple[str, ...] = ("vec_f32", "big")) -> None:
    with SnapshotWriter(path) as w:
        for name, chunks in arrays.items():
            w.add_chunks(name, chunks[0].dtype, chunks[0].shape[1:], chunks, cached=name not in uncached)
        w.finish({"seq": 1})


def test_the_vectors_of_a_large_snapshot_do_not_stay_in_the_page_cache(tmp_path):
    """64 MB of float32 rows in 2 MB chunks: read back equal, checked by verify, and
    (almost) none of their pages resident after the write (written buffered, all were).
    The arrays an open from the snapshot reads whole (the int8 codes, the lexical index)
    stay cached for it."""
    rows = np.random.default_rng(0).standard_normal((43_690, 384)).astype(np.float32)
    codes = np.ones((8192, 384), np.int8)  # 3 MB, written in one block
    path = tmp_path / "s.recall.snap"
    write_arrays(path, {"vec_f32": np.array_split(rows, 32), "codes": [codes]})
    codes_at = -(-rows.nbytes // 4096) * 4096  # each array starts on a page; the first at 0
    assert resident_share(path, 0, rows.nbytes) < 0.05  # before anything reads it
    assert resident_share(path, codes_at, codes.nbytes) > 0.9
    snap = read_snapshot(path)
    verify(snap)
    assert np.array_equal(snap["vec_f32"], rows)
    assert np.array_equal(snap["codes"], codes)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lead=st.integers(0, 5000),
    sizes=st.lists(st.integers(1, 3000), min_size=1, max_size=4),
    width=st.sampled_from([1, 3, 384]),
)
def test_chunks_of_any_size_and_offset_read_back_byte_for_byte(tmp_path, lead, sizes, width):
    """Chunks that start and end inside a page (a small array before, rows whose size
    does not divide a page) are split into buffered heads and tails around direct
    pages: the file holds exactly the bytes given."""
    rng = np.random.default_rng(lead)
    chunks = [rng.standard_normal((n * 1024 // width + 1, width)).astype(np.float32) for n in sizes]
    path = tmp_path / f"{lead}-{width}-{len(sizes)}.snap"
    write_arrays(path, {"lead": [np.ones(lead, np.uint8)], "big": chunks, "after": [np.arange(7, dtype=np.int32)]})
    snap = read_snapshot(path)
    verify(snap)
    assert np.array_equal(snap["big"], np.concatenate(chunks))
    assert np.array_equal(snap["after"], np.arange(7))
    assert snap["lead"].sum() == lead


def test_a_file_system_that_refuses_direct_writes_gets_a_buffered_snapshot(tmp_path, monkeypatch):
    """EINVAL from an O_DIRECT write (tmpfs on older kernels): the rest is written
    buffered, and the snapshot is whole."""
    real = os.pwrite
    calls = []

    def refuse(fd, data, offset):
        calls.append(offset)
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(snapshot.os, "pwrite", refuse)
    rows = np.random.default_rng(1).standard_normal((3000, 384)).astype(np.float32)
    path = tmp_path / "s.snap"
    write_arrays(path, {"vec_f32": [rows[:1000], rows[1000:]]})
    monkeypatch.setattr(snapshot.os, "pwrite", real)
    assert len(calls) == 1  # tried once, then buffered for good
    snap = read_snapshot(path)
    verify(snap)
    assert np.array_equal(snap["vec_f32"], rows)


def test_a_full_disk_during_a_direct_write_fails_the_snapshot_and_leaves_no_file(tmp_path, monkeypatch):
    """ENOSPC is not a refusal: the write fails as a buffered one would, and the
    temporary file is removed (the caller logs it and rebuilds next time)."""

    def full(fd, data, offset):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(snapshot.os, "pwrite", full)
    rows = np.zeros((2000, 384), np.float32)
    with pytest.raises(OSError, match="No space"):
        write_arrays(tmp_path / "s.snap", {"vec_f32": [rows]})
    assert list(tmp_path.iterdir()) == []


def test_opening_a_snapshot_reads_only_the_vector_rows_it_checks(tmp_path, monkeypatch):
    """An open from the snapshot checks the int8 codes against a sample of 256 float32
    rows. It reads those rows, not whole folios around them: indexing the map pulled
    in most of the vectors (1.1 s more for an open at 1M with them out of the cache).
    The size above which an array's checksum waits for verify() (1.5 GB of vectors at
    1M) is scaled down to this test's 64 MB."""
    monkeypatch.setattr(snapshot, "LAZY_CHECK_BYTES", 1 << 20)
    rows = np.random.default_rng(2).standard_normal((43_690, 384)).astype(np.float32)
    path = tmp_path / "s.recall.snap"
    with SnapshotWriter(path) as w:
        w.add_chunks("vec_f32", np.float32, (384,), np.array_split(rows, 16), cached=False)
        write_codes(w, [quantize(rows)], 384)
        w.finish({"seq": 1})
    snap = read_snapshot(path)
    codes = snapshot_codes(snap)
    assert codes is not None and np.array_equal(codes.codes, quantize(rows).codes)
    assert resident_share(path, int(snap.specs["vec_f32"]["offset"]), rows.nbytes) < 0.1
