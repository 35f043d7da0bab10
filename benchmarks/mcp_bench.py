"""MCP latency at 10k entries: the `memory` tool's add and the `recall` tool, called by
the SDK's own client over stdio on the real `echo-memory mcp` server, beside the same
calls made through the Python API in the same run (the baseline: what the protocol,
the JSON encoding and the second process add).

Both sides start from copies of one 10k-entry store and use the same settings:
lexical recall without an embedding model or reranker (a model's ~10 ms per query
would add the same to both sides). Warm-up calls are left out of the percentiles."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.engine_bench import WORDS, percentiles, synthetic_entries
from engine import Actor, MemoryEngine, MemoryType, ProvenanceLevel, Settings

CONFIG = """\
[memory]
rerankEnabled = false
embeddingModel = "./no-such-model"
"""
REPO = Path(__file__).resolve().parents[1]
WARM_UP = 5


def workload(n_add: int, n_recall: int, seed: int = 7) -> tuple[list[tuple[str, str]], list[str]]:
    rng = random.Random(seed)
    adds = [(f"mcp-bench/{i}", " ".join(rng.choices(WORDS, k=rng.randint(8, 24)))) for i in range(n_add + WARM_UP)]
    queries = [" ".join(rng.sample(WORDS, 3)) for _ in range(n_recall + WARM_UP)]
    return adds, queries


async def build_store(path: Path, entries: int) -> None:
    source = path.with_suffix(".jsonl")
    with open(source, "w", encoding="utf-8") as fh:
        for entry in synthetic_entries(entries, seed=3):
            fh.write(json.dumps(entry.to_dict()) + "\n")
    engine = await MemoryEngine.open(path, actor=Actor.person("bench"))
    try:
        report = await engine.import_jsonl(source)
        assert report.landed == entries, report.refused[:3]
    finally:
        await engine.close()


async def timed(calls) -> list[float]:
    """Milliseconds per call, the warm-up calls left out."""
    samples = []
    for call in calls:
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples[WARM_UP:]


async def bench_python(db: Path, settings: Settings, adds, queries) -> dict:
    engine = await MemoryEngine.open(db, settings)
    actor = Actor.mcp_client("bench", ProvenanceLevel.USER_STATED)
    try:
        add = await timed([lambda k=k, c=c: engine.add(k, c, MemoryType.ENVIRONMENT, actor=actor) for k, c in adds])
        recall = await timed([lambda q=q: engine.recall(q, limit=10) for q in queries])
    finally:
        await engine.close()
    return {"memory_add_ms": percentiles(add), "recall_ms": percentiles(recall)}


async def bench_stdio(db: Path, config: Path, adds, queries) -> dict:
    import mcp_types as types
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONPATH": str(REPO)}
    params = StdioServerParameters(
        command=sys.executable,
        env=env,
        cwd=str(REPO),
        args=["-m", "engine.cli", "mcp", "--db", str(db), "--config", str(config)],
    )

    async def call(session: ClientSession, tool: str, arguments: dict) -> None:
        result = await session.call_tool(tool, arguments)
        if result.is_error:
            raise RuntimeError(f"{tool} failed: {result.content}")

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, client_info=types.Implementation(name="bench", version="1")) as s:
            await s.initialize()
            add = await timed([lambda k=k, c=c: call(s, "memory", {"action": "add", "key": k, "content": c}) for k, c in adds])
            recall = await timed([lambda q=q: call(s, "recall", {"query": q, "limit": 10}) for q in queries])
    return {"memory_add_ms": percentiles(add), "recall_ms": percentiles(recall)}


async def run(entries: int = 10_000, n_add: int = 200, n_recall: int = 100) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = folder / "config.toml"
        config.write_text(CONFIG, encoding="utf-8")
        settings = Settings.load(config)
        template = folder / "template.db"
        await build_store(template, entries)
        for name in ("python.db", "stdio.db"):
            shutil.copy(template, folder / name)
        adds, queries = workload(n_add, n_recall)
        python = await bench_python(folder / "python.db", settings, adds, queries)
        stdio = await bench_stdio(folder / "stdio.db", config, adds, queries)
    return {
        "entries": entries,
        "adds": n_add,
        "recalls": n_recall,
        "recall": "lexical only (no model, no reranker)",
        "stdio": stdio,
        "python_api": python,
        "ratio_p50": {
            "memory_add": round(stdio["memory_add_ms"]["p50"] / python["memory_add_ms"]["p50"], 2),
            "recall": round(stdio["recall_ms"]["p50"] / python["recall_ms"]["p50"], 2),
        },
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(run()), indent=2))
