"""MCP test harness: the SDK's own client driving the real `echo-memory mcp` command,
over stdio (the server is a child process) and over streamable HTTP on loopback.

Recall runs lexical-only here (memory.embeddingModel names a folder that does not
exist, so no model loads); the real-model path is covered by tests/engine/recall."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import AsyncIterator, Optional

import mcp_types as types
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from ..conftest import REPO

CONFIG = """\
[memory]
rerankEnabled = false
embeddingModel = "./no-such-model"
"""


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def server_env() -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONPATH": str(REPO)}


def mcp_command(db: Path, config: Path, *extra: str) -> list[str]:
    """The server on db, made if missing (--create: tests start from an empty folder)."""
    return [sys.executable, "-m", "engine.cli", "mcp", "--db", str(db), "--create", "--config", str(config), *extra]


@contextlib.asynccontextmanager
async def stdio_session(
    db: Path, config: Path, client: str = "claude-code", *extra: str, initialize: bool = True
) -> AsyncIterator[ClientSession]:
    """A ClientSession over stdio to a freshly launched `echo-memory mcp`."""
    command = mcp_command(db, config, *extra)
    params = StdioServerParameters(command=command[0], args=command[1:], env=server_env(), cwd=str(REPO))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, client_info=types.Implementation(name=client, version="1.0")) as s:
            if initialize:
                await s.initialize()
            yield s


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def http_server(db: Path, config: Path, *extra: str):
    """`echo-memory mcp --transport http` on an ephemeral loopback port; yields its URL.
    Its log goes to a file, not a pipe: an unread pipe fills and blocks the server."""
    port = free_port()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        mcp_command(db, config, "--transport", "http", "--port", str(port), *extra),
        env=server_env(),
        cwd=str(REPO),
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"the HTTP server exited: {log.read().decode()[-2000:]}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("the HTTP server did not start within 60 s")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@contextlib.asynccontextmanager
async def http_session(url: str, client: str = "cursor") -> AsyncIterator[ClientSession]:
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write, client_info=types.Implementation(name=client, version="1.0")) as s:
            await s.initialize()
            yield s


def cli(db: Path, *args: str, config: Optional[Path] = None) -> object:
    """Run `echo-memory --db DB ARGS --json` and return its parsed output."""
    head = [sys.executable, "-m", "engine.cli", "--db", str(db)] + (["--config", str(config)] if config else [])
    proc = subprocess.run([*head, *args, "--json"], capture_output=True, text=True, env=server_env(), cwd=str(REPO), timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "text", None))
