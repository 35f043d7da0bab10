"""Several agents on one store at once: two over stdio (a server process each) and
two over HTTP (one server, two sessions), 50 calls each, all in flight together."""

from __future__ import annotations

import asyncio
import contextlib

from .conftest import cli, http_server, http_session, stdio_session, text_of

CALLS = 50
SHARED = 5  # keys every client writes new versions of


async def _client_run(session, client: str) -> list[tuple[str, dict]]:
    """50 writes: half to the client's own keys, half new versions of shared keys."""
    acknowledged = []
    for n in range(CALLS):
        key = f"shared_{n % SHARED}" if n % 2 else f"{client}_{n}"
        content = f"Fact {n} from {client} about {key}"
        result = await session.call_tool("memory", {"action": "add", "key": key, "content": content})
        assert not result.is_error, f"{client} call {n}: {text_of(result)}"
        acknowledged.append((content, result.structured_content["entry"]))
    return acknowledged


async def test_four_clients_fifty_calls_each_lose_nothing(db_path, config_path):
    with http_server(db_path, config_path) as url:
        async with contextlib.AsyncExitStack() as stack:
            sessions = {
                "stdio-a": await stack.enter_async_context(stdio_session(db_path, config_path, "stdio-a")),
                "stdio-b": await stack.enter_async_context(stdio_session(db_path, config_path, "stdio-b")),
                "http-a": await stack.enter_async_context(http_session(url, "http-a")),
                "http-b": await stack.enter_async_context(http_session(url, "http-b")),
            }
            runs = await asyncio.gather(*(_client_run(s, name) for name, s in sessions.items()))
    stored = {e["id"]: e for e in cli(db_path, "list")}
    for content, entry in (item for run in runs for item in run):
        assert stored[entry["id"]]["content"] == content  # every acknowledged write is there
    for k in range(SHARED):
        chain = sorted((e for e in stored.values() if e["key"] == f"shared_{k}"), key=lambda e: e["version"])
        assert [e["version"] for e in chain] == list(range(1, 4 * CALLS // 2 // SHARED + 1))
        assert [e["superseded_by"] for e in chain] == [e["id"] for e in chain[1:]] + [None]
        assert [e["tier"] for e in chain] == ["archival"] * (len(chain) - 1) + ["semantic"]
    assert len(stored) == 4 * CALLS
