"""Why is this memory in my prompts? A recall an agent makes over MCP is logged under
the client's name, so `show` (and the app's detail pane) say which agent asked what."""

from __future__ import annotations

from .conftest import cli, stdio_session, text_of
from .test_mcp_server import BACKGROUND


async def test_an_mcp_recall_is_logged_under_the_client(db_path, config_path):
    facts = {**BACKGROUND, "city": "The user lives in Berlin"}
    async with stdio_session(db_path, config_path, "Claude Code") as s:
        for key, text in facts.items():
            await s.call_tool("memory", {"action": "add", "key": key, "content": text})
        recall = await s.call_tool("recall", {"query": "does the user live in Berlin", "limit": 3})
    assert not recall.is_error, text_of(recall)
    top = recall.structured_content["results"][0]
    shown = cli(db_path, "show", top["id"])
    assert shown["recalls"]["total"] == 1
    [record] = shown["recalls"]["recent"]
    assert (record["query"], record["rank"]) == ("does the user live in Berlin", 1)
    assert record["actor"].startswith("mcp:") and "claude" in record["actor"].lower()
