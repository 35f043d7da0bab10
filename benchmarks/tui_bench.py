"""The app's responsiveness, measured the way a user feels it: the real
`echo-memory` command in a pseudo-terminal (140x44), on stores of 1k and 100k
entries.

  time to first frame   process start -> the first full screen is written
  time to first rows    process start -> the browser's first page is on screen
  key-to-frame          a key written to the terminal -> the first byte of the
                        frame that answers it (j: cursor down; G: jump to the
                        last of 100k rows, which needs a page from the store)
  key-to-settled        the same key -> the last byte before the screen is quiet
                        (includes the detail pane's debounced load)
  engine reads          the browser's reads for G, a drag to the middle, a sort and a
                        filter, timed in-process beside the LIMIT/OFFSET reads they replace
  rows settled          G, g, a sort change (o) and a filter (tier:archival, pasted) -> the
                        browser has every visible row drawn (it notes that moment in
                        ECHO_MEMORY_LAG_LOG after the repaint), not a placeholder frame;
                        G and g again after a pause, while the recall warm-up loads (_warming)
  loop stalls           a loop-lag probe in the app (echo_memory_tui/lagprobe.py): max and
                        p95 lateness of a 10 ms timer per scenario (scrolling; a decay
                        preview and apply; a burst of 1,000 writes from another process;
                        an import of 20,000 entries in another process), and the loop
                        thread's own CPU between ticks ("busy": lateness minus the time
                        the OS did not run the process, which a loaded machine adds)

Stores are generated once and cached in --cache (outside the repo): through the engine's
gated batch import, or at 1M through the gate's fixture path as engine/recall/bench.py
does. The stall scenarios run on a copy (the decay pass and the writers change it).
Writes benchmarks/results/tui.json (the run block of benchmarks/results_io.py: revision,
date, machine, load) with medians and p95; benchmarks/readme_tables.py renders the
README's app and loop-stall tables from it.

    python -m benchmarks.tui_bench [--sizes 1000,100000] [--presses 40] [--no-lag] [--stacks]
    python -m benchmarks.tui_bench --entries 1000000 --runs 1 --no-lag     # tui-1m.json
    python -m benchmarks.tui_bench --entries 100000 --scenarios burst,import --stacks   # printed only
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import itertools
import json
import os
import pty
import random
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import termios
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Optional

from benchmarks import results_io

ROOT = Path(__file__).resolve().parent.parent
COLS, ROWS = 140, 44
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)

PROJECTS = ["atlas-api", "orbit-web", "ledger-cli", "helix-ml", "nova-docs", "quartz-etl", "ember-ios", "tundra-ops"]
TOPICS = [
    "db",
    "python-version",
    "ci",
    "deploy",
    "auth",
    "ports",
    "queue",
    "cache",
    "lint",
    "tests",
    "release",
    "bundler",
    "node-version",
    "metrics",
    "logging",
    "secrets",
    "cron",
    "storage",
    "api-base",
    "docs",
]
FACTS = [
    "{p} uses {t} configured in the repository root.",
    "{p} keeps its {t} settings in config/{t}.toml, reviewed every sprint.",
    "The team moved {p} {t} to the new cluster last quarter.",
    "{p} {t} is owned by the platform group; changes need a review.",
    "For {p}, the {t} step runs before the integration tests.",
    "{p} documents {t} in docs/{t}.md with examples.",
]


def synthetic_entries(n: int, seed: int = 7, start: int = 0):
    from engine import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel

    rng = random.Random(seed)
    sources = list(ProvenanceLevel)
    for i in range(start, start + n):
        p, t = rng.choice(PROJECTS), rng.choice(TOPICS)
        created = NOW - timedelta(days=rng.uniform(2, 720))
        accessed = created + (NOW - created) * rng.random()
        yield (
            {"n": i},
            MemoryEntry(
                key=f"{p}/{t}/{i}",
                content=rng.choice(FACTS).format(p=p, t=t) + f" (note {i})",
                type=MemoryType.USER if rng.random() < 0.15 else MemoryType.ENVIRONMENT,
                tier=MemoryTier.ARCHIVAL if rng.random() < 0.2 else MemoryTier.SEMANTIC,
                tags=[p, t],
                created_at=created,
                updated_at=created,
                last_accessed=accessed,
                importance=round(rng.uniform(0.1, 0.95), 2),
                access_count=rng.randint(0, 12),
                source=rng.choice(sources),
                pinned=rng.random() < 0.01,
            ),
        )


async def build_store(path: Path, n: int) -> None:
    from engine import Actor, MemoryEngine
    from engine.demo import build_demo

    # The person building their own bench store vouches for its synthetic provenances and pins.
    engine = await MemoryEngine.open(path, clock=lambda: NOW, actor=Actor.person("bench"))
    try:
        await build_demo(engine, now=NOW)
        have = await engine.count_entries()
        if n > have:
            await engine.import_entries(
                list(synthetic_entries(n - have)), actor="bench", verbatim=True, batch=2000, trust_provenance=True
            )
    finally:
        await engine.close()


async def write_from_outside(path: Path, mode: str, count: int) -> None:
    """Another process writing while the app watches: `burst`, one gated add per
    transaction; `import`, a gated batch import (keys past any the store has)."""
    from engine import Actor, MemoryEngine

    engine = await MemoryEngine.open(path, clock=lambda: NOW, actor=Actor.person("bench"))
    try:
        if mode == "burst":
            for i in range(count):
                await engine.add(f"burst/{i}", f"outside write {i}: the deploy moved to the new cluster", actor="cli")
        else:
            start = 10_000_000
            await engine.import_entries(
                list(synthetic_entries(count, seed=11, start=start)), actor="bench", verbatim=True, batch=2000
            )
    finally:
        await engine.close()


async def build_fixture_store(path: Path, n: int) -> None:
    """n synthetic entries through the gate's fixture path (gate_bulk.load_fixture, as
    engine/recall/bench.py builds its 1M store: set-based, no scanner), and one entry
    keyed task/blocker, the newest, that the bench waits for as the first row. The gated
    import would take most of an hour at 1M here and measure the gate, not the browser."""
    from engine import MemoryEntry
    from engine.gate_bulk import load_fixture
    from engine.store import Store

    marker = MemoryEntry(key="task/blocker", content="The release waits on the flaky integration test.", updated_at=NOW)
    store = await Store.open(path)
    try:
        entries = (e for _, e in synthetic_entries(n - 1))
        await load_fixture(store, itertools.chain(entries, [marker]), "bench", "TUI benchmark corpus")
    finally:
        await store.close()


FIXTURE_FROM = 1_000_000  # stores this large are built through the fixture path


def ensure_store(folder: Path, n: int) -> Path:
    """The cached store of n entries (built once, in the cache folder, outside the repo)."""
    path = folder / f"bench-{n}.db"
    if not path.exists():
        tmp = folder / f"bench-{n}.tmp.db"
        for suffix in ("", "-wal", "-shm"):
            Path(str(tmp) + suffix).unlink(missing_ok=True)
        started = time.perf_counter()
        asyncio.run(build_fixture_store(tmp, n) if n >= FIXTURE_FROM else build_store(tmp, n))
        os.replace(tmp, path)
        print(f"  built {path.name} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return path


class Terminal:
    """The app in a pseudo-terminal; everything it writes is collected with arrival times."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # child
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.buffer = bytearray()

    def read(self, timeout: float) -> Optional[tuple[float, bytes]]:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return None
        now = time.perf_counter()
        self.buffer += data
        return now, data

    def wait_for(self, needle: bytes, timeout: float = 30.0, since: int = 0) -> float:
        """Seconds since start at which needle first appeared."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if needle in self.buffer[since:]:
                return time.perf_counter() - self.started
            self.read(0.05)
        raise TimeoutError(f"{needle!r} did not appear within {timeout}s")

    def wait_any(self, needles: list[bytes], timeout: float = 30.0, since: int = 0) -> float:
        """Seconds since start at which the first of needles appeared."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if any(needle in self.buffer[since:] for needle in needles):
                return time.perf_counter() - self.started
            self.read(0.05)
        raise TimeoutError(f"none of {needles!r} appeared within {timeout}s")

    def quiet(self, gap: float = 0.25, limit: float = 10.0) -> float:
        """Read until nothing arrives for `gap`; returns the time of the last byte."""
        last = time.perf_counter()
        deadline = last + limit
        while time.perf_counter() < deadline:
            got = self.read(gap)
            if got is None:
                return last
            last = got[0]
        return last

    def key(self, data: bytes) -> tuple[float, float]:
        """(ms to the first byte of the answer, ms to the last byte before quiet)."""
        self.quiet(0.2)
        sent = time.perf_counter()
        os.write(self.fd, data)
        first = None
        while first is None and time.perf_counter() - sent < 10:
            got = self.read(5.0)
            if got is not None:
                first = got[0]
        last = self.quiet(0.2)
        return (first - sent) * 1000 if first else float("nan"), (last - sent) * 1000

    def close(self) -> None:
        try:
            os.write(self.fd, b"q")
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline:
                done, _ = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    break
                self.read(0.05)
            else:
                os.kill(self.pid, signal.SIGTERM)
                os.waitpid(self.pid, 0)
        except (OSError, ChildProcessError):
            pass
        os.close(self.fd)


def log_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:  # a line still being written
            pass
    return out


def settled_key(term: Terminal, data: bytes, log: Path, accept, timeout: float = 60.0) -> float:
    """ms from writing `data` to the browser's next rows_settled note that `accept`s."""
    term.quiet(0.3)
    sent = time.perf_counter()
    os.write(term.fd, data)
    deadline = sent + timeout
    while time.perf_counter() < deadline:
        term.read(0.01)
        for event in log_lines(log):
            if event.get("event") == "rows_settled" and event["t"] > sent and accept(event):
                return (event["t"] - sent) * 1000
    return float("nan")


def app_env(log: Path, lag: Optional[Path] = None, stacks: bool = False) -> dict[str, str]:
    """The app's environment in the pty: offline, no animations, its startup (and, if
    asked, loop-lag) log where the bench reads it; with stacks, the loop thread's stack
    sampled too (lagprobe.StackSampler). The code measured is this checkout's (ROOT first on
    PYTHONPATH): the console script alone imports whichever checkout the venv was installed
    from, and a worktree's bench would time another tree's app."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "TERM": "xterm-256color",
        "COLUMNS": str(COLS),
        "LINES": str(ROWS),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TEXTUAL_ANIMATIONS": "none",
        "ECHO_MEMORY_STARTUP_LOG": str(log),
    }
    if lag is not None:
        env["ECHO_MEMORY_LAG_LOG"] = str(lag)
    if stacks:
        env["ECHO_MEMORY_LAG_STACKS"] = "1"
    return env


# the status line once the recall warm-up has settled (app_background._recall_state)
WARM_SETTLED = [b"embedding ", b"embeddings ready", b"embeddings failed"]
STALL_S = 0.05  # a tick this late (or a loop this busy) is a stall worth naming the cause of


def frame_label(stack: str) -> str:
    """A sampled stack in a few words: the innermost frame of this project's code, then the
    innermost frame of all (where the time went); `idle` when the thread waits in select."""
    frames = stack.split(";")
    if not frames or frames == [""]:
        return "?"
    if "selectors.py:select" in frames[-1]:
        return "idle (select)"
    ours = [f for f in frames if f.startswith(str(ROOT))]
    leaf = frames[-1].rsplit("/", 1)[-1]
    if not ours:
        return leaf
    mine = ours[-1].removeprefix(str(ROOT) + "/")
    return mine if ours[-1] == frames[-1] else f"{mine} → {leaf}"


def stall_causes(lag_log: list[dict], start: float, end: float, top: int = 6) -> dict[str, object]:
    """Where the loop thread was during one window's stalls (ticks late or busy by STALL_S
    or more), and which other threads ran meanwhile: sample counts by frame_label."""
    from collections import Counter

    probe = next((e for e in reversed(lag_log) if "samples" in e), None)
    sampled = next((e for e in reversed(lag_log) if "stack_samples" in e), None)
    if probe is None or sampled is None:
        return {}
    names = sampled["stacks"]
    ticks = [(at, late) for at, late, busy in probe["samples"] if start <= at <= end and max(late, busy) >= STALL_S]
    stalls = [(at - late - probe["interval"], at) for at, late in ticks]
    loop: Counter[str] = Counter()
    others: Counter[str] = Counter()
    for t, stack, busy_others in sampled["stack_samples"]:
        if any(lo <= t <= hi for lo, hi in stalls):
            loop[frame_label(names[stack]) if stack >= 0 else "?"] += 1
            others.update(frame_label(names[o]) for o in busy_others)
    collected = [c for c in sampled.get("collections", []) if any(lo <= c[0] <= hi for lo, hi in stalls)]
    every = [c for c in sampled.get("collections", []) if start <= c[0] <= end]
    return {
        "stalls": len(stalls),
        "loop_thread": dict(loop.most_common(top)),
        "other_threads": dict(others.most_common(top)),
        "gc_in_stalls_ms": gc_summary(collected),
        "gc_in_window_ms": gc_summary(every),
    }


def gc_summary(collections: list[list[float]]) -> dict[str, object]:
    """GC passes (lagprobe.StackSampler.collections): how many, the longest in wall time and in
    the CPU of the thread that ran it, and the longest full (generation 2) pass."""
    longest_cpu = max((c[3] for c in collections if len(c) > 3), default=0.0)
    full = [c[1] for c in collections if c[2] == 2]
    return {
        "passes": len(collections),
        "longest": round(max((c[1] for c in collections), default=0) * 1000, 1),
        "longest_cpu": round(longest_cpu * 1000, 1),
        "full_passes": len(full),
        "longest_full": round(max(full, default=0) * 1000, 1),
    }


def settle_times(db: Path, cache: Path, rounds: int) -> dict[str, object]:
    """G, g, a sort change and a filter, each timed to the rows being on screen; then G and
    g again once the recall warm-up has started (G_warming, g_warming)."""
    from echo_memory_tui.app_background import WARM_IDLE_SECONDS

    log, lag = cache / "startup.jsonl", cache / "lag.jsonl"
    log.unlink(missing_ok=True)
    lag.unlink(missing_ok=True)
    cli = Path(sys.executable).with_name("echo-memory")
    term = Terminal([str(cli), "--db", str(db)], app_env(log, lag))
    times: dict[str, list[float]] = {k: [] for k in ("G", "g", "sort", "filter", "clear_filter", "G_warming", "g_warming")}
    try:
        term.wait_for(b"task/blocker", 60)
        term.quiet(1.0)
        total = max(e["total"] for e in log_lines(lag) if e.get("event") == "rows_settled")
        for _ in range(rounds):
            times["G"].append(settled_key(term, b"G", lag, lambda e: e["top"] > 0))
            times["g"].append(settled_key(term, b"g", lag, lambda e: e["top"] == 0))
            times["sort"].append(settled_key(term, b"o", lag, lambda e: True))
        for _ in range(rounds):
            os.write(term.fd, b"/")
            term.quiet(0.3)
            # pasted and submitted at once: the filter's own cost, not one re-render per typed key
            paste = b"\x1b[200~tier:archival\x1b[201~\r"
            times["filter"].append(settled_key(term, paste, lag, lambda e: e["total"] < total))
            times["clear_filter"].append(settled_key(term, b"\x1b", lag, lambda e: e["total"] == total))
        # the recall warm-up waits for a pause in the keys (WARM_IDLE_SECONDS), then holds the
        # GIL for stretches in its thread: G and g pressed while the status line says it loads
        since = len(term.buffer)
        try:
            term.wait_for(b"embeddings loading", WARM_IDLE_SECONDS + 30, since)
        except TimeoutError:  # no model to load here (or it failed at once): nothing to time
            rounds = 0
        for _ in range(rounds):
            times["G_warming"].append(settled_key(term, b"G", lag, lambda e: e["top"] > 0))
            times["g_warming"].append(settled_key(term, b"g", lag, lambda e: e["top"] == 0))
    finally:
        term.close()
    return {f"{k}_settled_ms": stats(v) for k, v in times.items()}


SCENARIOS = ("startup", "scroll", "decay-preview", "decay-apply", "burst", "import")


def stall_scenarios(db: Path, cache: Path, stacks: bool = False, only: Optional[set[str]] = None) -> dict[str, object]:
    """The app on a copy of the store with the lag probe on; each scenario's window of
    probe ticks is summarised (max and p95 lateness; the loop thread's busy time; with
    stacks, where the loop thread was during the stalls: stall_causes). With only (names
    from SCENARIOS), the others are skipped: the startup window is always there (the app
    has to start), and a decay apply runs its preview first (it applies what that lists)."""
    wanted = set(SCENARIOS) if only is None else set(only) | {"startup"}
    if "decay-apply" in wanted:
        wanted.add("decay-preview")
    from echo_memory_tui.lagprobe import summary

    copy = cache / f"stall-{db.name}"
    for suffix in ("", "-wal", "-shm", ".recall.snap"):
        Path(str(copy) + suffix).unlink(missing_ok=True)
    shutil.copy(db, copy)
    if Path(str(db) + ".recall.snap").exists():  # the recall snapshot a user's store has beside it
        shutil.copy(str(db) + ".recall.snap", str(copy) + ".recall.snap")
    log, lag = cache / "startup.jsonl", cache / "lag.jsonl"
    log.unlink(missing_ok=True)
    lag.unlink(missing_ok=True)
    cli = Path(sys.executable).with_name("echo-memory")
    windows: dict[str, tuple[float, float]] = {}
    term = Terminal([str(cli), "--db", str(copy)], app_env(log, lag, stacks))

    def outside(mode: str, count: int) -> None:
        code = (
            "import asyncio, pathlib; from benchmarks.tui_bench import write_from_outside as w; "
            f"asyncio.run(w(pathlib.Path({str(copy)!r}), {mode!r}, {count}))"
        )
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
        while proc.poll() is None:
            term.read(0.05)
        term.quiet(1.0, limit=60)

    try:
        term.wait_for(b"task/blocker", 60)
        term.quiet(2.0, limit=60)
        # the recall warm-up starts after a pause in the keys and holds the collector off until
        # it settles (app_background._warm_recall): the window lasts until the status line says
        # it has, so no later scenario runs with the collector off by chance
        term.wait_any(WARM_SETTLED, 240)
        term.quiet(1.0, limit=30)
        windows["startup (first rows, model warm-up)"] = (term.started, time.perf_counter())
        if "scroll" in wanted:
            t0 = time.perf_counter()
            for key in [b"\x1b[6~"] * 20 + [b"G", b"g"] + [b"j"] * 20 + [b"o", b"G", b"O"]:
                os.write(term.fd, key)
                term.read(0.02)
            term.quiet(1.0)
            windows["scroll (page down x20, G, g, j x20, sort, G)"] = (t0, time.perf_counter())
        if "decay-preview" in wanted:
            t0 = time.perf_counter()
            since = len(term.buffer)
            os.write(term.fd, b"D")
            term.wait_for(b"Decay pass:", 300, since)
            term.quiet(1.0)
            windows["decay preview"] = (t0, time.perf_counter())
            t0 = time.perf_counter()
            since = len(term.buffer)
            if "decay-apply" in wanted:
                os.write(term.fd, b"\t\r")
                term.wait_for(b"archived", 600, since)
                term.quiet(1.0, limit=60)
                windows["decay apply"] = (t0, time.perf_counter())
            else:
                os.write(term.fd, b"\x1b")  # the preview's dialog closed, nothing applied
                term.quiet(1.0)
        if "burst" in wanted:
            t0 = time.perf_counter()
            outside("burst", 1000)
            windows["live reload: 1,000 writes from another process"] = (t0, time.perf_counter())
        if "import" in wanted:
            t0 = time.perf_counter()
            outside("import", 20000)
            windows["import of 20,000 entries in another process"] = (t0, time.perf_counter())
    finally:
        term.close()
        for suffix in ("", "-wal", "-shm", ".recall.snap"):
            Path(str(copy) + suffix).unlink(missing_ok=True)
    lag_log = log_lines(lag)
    samples = next((e["samples"] for e in reversed(lag_log) if "samples" in e), [])
    out: dict[str, dict[str, object]] = {}
    for name, (start, end) in windows.items():
        inside = [s for s in samples if start <= s[0] <= end]
        late = summary([s[1] for s in inside])
        busy = summary([s[2] for s in inside])
        out[name] = {**late, "busy_max_ms": busy["max_ms"], "busy_p95_ms": busy["p95_ms"], "seconds": round(end - start, 1)}
        if stacks:
            out[name]["causes"] = stall_causes(lag_log, start, end)
    return out


async def engine_reads(db: Path, repeats: int) -> dict[str, object]:
    """What the browser's reads cost in the engine, without the UI: each jump as the
    browser now does it (keyset) beside the LIMIT/OFFSET read it replaced, same store,
    same run. ms per read (count included where the browser counts)."""
    from engine import EntryFilter, MemoryEngine, MemoryTier, ladder_step

    engine = await MemoryEngine.open(db, clock=lambda: NOW, read_only=True)
    size = 100
    archival = EntryFilter(tier=MemoryTier.ARCHIVAL)

    async def timed(fn) -> list[float]:
        out = []
        for _ in range(repeats):
            t = time.perf_counter()
            await fn()
            out.append((time.perf_counter() - t) * 1000)
        return out

    try:
        total = await engine.count_entries()
        middle, step = total // 2, ladder_step(total)  # the browser's step

        async def last_keyset() -> None:
            await engine.page_entries(None, "updated_at", True, size, backward=True, matching=total)

        async def last_offset() -> None:
            await engine.list_entries(None, "updated_at", True, limit=size, offset=total - size)

        async def middle_keyset() -> None:  # a dragged scrollbar: the ladder, then one seek
            ladder = await engine.key_ladder(None, "updated_at", True, step, matching=total)
            rung = middle // step
            anchor = ladder[rung - 1] if rung else None  # a store smaller than a ladder step seeks from the start
            await engine.page_entries(None, "updated_at", True, size, anchor=anchor, skip=middle - rung * step)

        async def middle_offset() -> None:
            await engine.list_entries(None, "updated_at", True, limit=size, offset=middle)

        async def sort_keyset() -> None:
            await engine.page_entries(None, "importance", False, size, matching=total)

        async def filter_keyset() -> None:
            n = await engine.count_entries(archival)
            await engine.page_entries(archival, "updated_at", True, size, matching=n)

        async def filter_last_keyset() -> None:
            n = await engine.count_entries(archival)
            await engine.page_entries(archival, "updated_at", True, size, backward=True, matching=n)

        async def filter_last_offset() -> None:
            n = await engine.count_entries(archival)
            await engine.list_entries(archival, "updated_at", True, limit=size, offset=max(0, n - size))

        cases = {
            "G_last_page_keyset": last_keyset,
            "G_last_page_offset_baseline": last_offset,
            "drag_to_middle_ladder_and_seek": middle_keyset,
            "drag_to_middle_offset_baseline": middle_offset,
            "sort_first_page_keyset": sort_keyset,
            "filter_count_and_first_page": filter_keyset,
            "filter_then_G_keyset": filter_last_keyset,
            "filter_then_G_offset_baseline": filter_last_offset,
        }
        return {name: stats(await timed(fn)) for name, fn in cases.items()}
    finally:
        await engine.close()


def stats(values: list[float]) -> dict[str, float]:
    values = sorted(v for v in values if v == v)
    if not values:
        return {}
    p95 = values[min(len(values) - 1, max(0, round(0.95 * len(values)) - 1))]
    return {
        "median": round(statistics.median(values), 1),
        "p95": round(p95, 1),
        "min": round(values[0], 1),
        "max": round(values[-1], 1),
        "n": len(values),
    }


def run_once(db: Path, presses: int, first_key: bytes, log: Path) -> dict[str, object]:
    log.unlink(missing_ok=True)
    env = app_env(log)
    cli = Path(sys.executable).with_name("echo-memory")
    term = Terminal([str(cli), "--db", str(db)], env)
    try:
        first_frame = term.wait_for(b"Entries", 30)
        first_rows = term.wait_for(first_key, 60)
        term.quiet(0.5)
        # the app's own milestones (same monotonic clock): what the app costs after Python and imports
        marks = {}
        if log.exists():
            for line in log.read_text().splitlines():
                item = json.loads(line)
                marks[item["event"]] = item["t"]
        inside = {}
        if "run_app" in marks:
            base = marks["run_app"]
            inside = {
                f"run_app_to_{k}_ms": round((v - base) * 1000, 1)
                for k, v in marks.items()
                if k not in ("run_app", "module_imported")
            }
            inside["process_start_to_run_app_ms"] = round((base - term.started) * 1000, 1)
        down = [term.key(b"j") for _ in range(presses)]
        up = [term.key(b"k") for _ in range(max(4, presses // 4))]
        jumps = []
        for _ in range(5):
            jumps.append(term.key(b"G"))
            jumps.append(term.key(b"g"))
        return {
            **inside,
            "first_frame_ms": round(first_frame * 1000, 1),
            "first_rows_ms": round(first_rows * 1000, 1),
            "key_j_to_frame_ms": stats([d[0] for d in down + up]),
            "key_j_to_settled_ms": stats([d[1] for d in down + up]),
            "key_G_g_to_frame_ms": stats([j[0] for j in jumps]),
            "key_G_g_to_settled_ms": stats([j[1] for j in jumps]),
        }
    finally:
        term.close()


def measure_size(n: int, args: argparse.Namespace) -> dict[str, object]:
    """Everything the bench measures on the store of n entries."""
    print(f"store of {n:,} entries", file=sys.stderr)
    db = ensure_store(args.cache, n)
    if args.scenarios is not None:  # the stall scenarios asked for, nothing else
        stalls = stall_scenarios(db, args.cache, args.stacks, args.scenarios)
        print(f"  loop stalls: {json.dumps(stalls)}", file=sys.stderr)
        return {"entries": n, "loop_stalls": stalls, "load_average_after": [round(x, 2) for x in os.getloadavg()]}
    runs = []
    for i in range(args.runs):
        result = run_once(
            db, args.presses if i == 0 else max(8, args.presses // 4), b"task/blocker", args.cache / "startup.jsonl"
        )
        runs.append(result)
        print(
            f"  run {i + 1}: first frame {result['first_frame_ms']} ms, first rows {result['first_rows_ms']} ms, "
            f"j median {result['key_j_to_frame_ms'].get('median')} ms",
            file=sys.stderr,
        )
    merged: dict[str, object] = {
        "entries": n,
        "first_frame_ms": stats([r["first_frame_ms"] for r in runs]),
        "first_rows_ms": stats([r["first_rows_ms"] for r in runs]),
        "first_rows_after_first_frame_ms": stats([r["first_rows_ms"] - r["first_frame_ms"] for r in runs]),
    }
    for name in sorted({k for r in runs for k in r if k.startswith(("run_app_to", "process_start"))}):
        merged[name] = stats([r[name] for r in runs if name in r])
    for name in ("key_j_to_frame_ms", "key_j_to_settled_ms", "key_G_g_to_frame_ms", "key_G_g_to_settled_ms"):
        merged[name] = runs[0][name]
    merged["engine_reads_ms"] = asyncio.run(engine_reads(db, 7))
    print(f"  engine reads: {merged['engine_reads_ms']}", file=sys.stderr)
    merged["rows_settled"] = settle_times(db, args.cache, args.settle_rounds)
    print(f"  rows settled: {merged['rows_settled']}", file=sys.stderr)
    if not args.no_lag:
        merged["loop_stalls"] = stall_scenarios(db, args.cache, args.stacks)
        print(f"  loop stalls: {json.dumps(merged['loop_stalls'])}", file=sys.stderr)
    merged["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return merged


def scenario_names(text: str) -> set[str]:
    """--scenarios: names from SCENARIOS, comma-separated."""
    names = {name.strip() for name in text.split(",") if name.strip()}
    unknown = sorted(names - set(SCENARIOS))
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown scenario {', '.join(unknown) or '(none)'}: choose from {', '.join(SCENARIOS)}")
    return names


def main(argv: Optional[list[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--entries", type=int, help="one store size alone, written to tui-<size>.json (1000000: tui-1m.json)")
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3, help="app starts per size (first-frame medians over these)")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "echo-memory-bench")
    parser.add_argument("--out", type=Path, help="default: benchmarks/results/tui.json (or tui-<size>.json with --entries)")
    parser.add_argument("--settle-rounds", type=int, default=5, help="G/g/sort/filter rounds timed to rows settled")
    parser.add_argument("--no-lag", action="store_true", help="skip the loop-stall scenarios (they change a copy)")
    parser.add_argument(
        "--stacks", action="store_true", help="sample the loop thread's stack: each stall scenario names its causes"
    )
    parser.add_argument(
        "--scenarios",
        type=scenario_names,
        help=f"only these loop-stall scenarios, comma-separated ({', '.join(SCENARIOS)}), and nothing else "
        "the bench measures; the document is printed, and saved only with --out",
    )
    args = parser.parse_args(argv)
    if args.scenarios is not None and args.no_lag:
        parser.error("--scenarios and --no-lag exclude each other")
    sys.path.insert(0, str(ROOT))
    args.cache.mkdir(parents=True, exist_ok=True)
    sizes = [args.entries] if args.entries else [int(s) for s in args.sizes.split(",") if s.strip()]
    tag = "" if not args.entries else f"-{args.entries // 1_000_000}m" if args.entries % 1_000_000 == 0 else f"-{args.entries}"
    out = args.out or results_io.result_path("tui" + tag)

    def measure() -> dict[str, object]:
        results: dict[str, object] = {
            "what": "echo-memory app in a pty, 140x44; times from process start; keys after the first rows"
        }
        for n in sizes:
            results[str(n)] = measure_size(n, args)
        return results

    document = results_io.measure(measure, results_io.command_line("benchmarks.tui_bench", argv))
    print(json.dumps(document, indent=2))
    if args.scenarios is None or args.out:
        results_io.save(document, out)
        print(f"tui: {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
