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

Stores are generated once (through the engine's gated batch import) and cached.
Prints and writes JSON with medians and p95.

    python -m benchmarks.tui_bench [--sizes 1000,100000] [--presses 40] [--out bench-tui.json]
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import os
import platform
import pty
import random
import select
import signal
import statistics
import struct
import sys
import termios
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Optional

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


def synthetic_entries(n: int, seed: int = 7):
    from engine import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel

    rng = random.Random(seed)
    sources = list(ProvenanceLevel)
    for i in range(n):
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


def ensure_store(folder: Path, n: int) -> Path:
    path = folder / f"bench-{n}.db"
    if not path.exists():
        tmp = folder / f"bench-{n}.tmp.db"
        for suffix in ("", "-wal", "-shm"):
            Path(str(tmp) + suffix).unlink(missing_ok=True)
        started = time.perf_counter()
        asyncio.run(build_store(tmp, n))
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
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "COLUMNS": str(COLS),
        "LINES": str(ROWS),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TEXTUAL_ANIMATIONS": "none",
        "ECHO_MEMORY_STARTUP_LOG": str(log),
    }
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


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3, help="app starts per size (first-frame medians over these)")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "echo-memory-bench")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-tui.json")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    args.cache.mkdir(parents=True, exist_ok=True)
    report: dict[str, object] = {
        "what": "echo-memory app in a pty, 140x44; times from process start; keys after the first rows are up",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "sizes": {},
    }
    for n in [int(s) for s in args.sizes.split(",") if s.strip()]:
        print(f"store of {n:,} entries", file=sys.stderr)
        db = ensure_store(args.cache, n)
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
        merged = {
            "entries": n,
            "first_frame_ms": stats([r["first_frame_ms"] for r in runs]),
            "first_rows_ms": stats([r["first_rows_ms"] for r in runs]),
        }
        for name in sorted({k for r in runs for k in r if k.startswith(("run_app_to", "process_start"))}):
            merged[name] = stats([r[name] for r in runs if name in r])
        for name in ("key_j_to_frame_ms", "key_j_to_settled_ms", "key_G_g_to_frame_ms", "key_G_g_to_settled_ms"):
            merged[name] = runs[0][name]
        report["sizes"][str(n)] = merged
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
