"""The app beside a live agent (issue 12): where each entry came from (browser column
when it fits, detail pane always), the sources line (MCP writers seen lately, --sync
folders and their state; in the status line on a short screen), `--sync FORMAT:DIR`
syncing a folder while the app is open, and an MCP client writing through the real
server while the cursor stays where the person left it."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from echo_memory_tui import cli as app_cli
from echo_memory_tui.widgets.browser import EntryBrowser
from echo_memory_tui.widgets.detail import EntryDetail
from echo_memory_tui.widgets.sources import SourcesBar
from engine import Actor, MemoryEngine, ProvenanceLevel

from ..bridge.conftest import CONFIG, stdio_session
from .conftest import ready, select_key, wait_until
from .test_trust_layout import screen_text

FROM_LINE = re.compile(r"from\s+mcp:claude-code")  # the detail pane's line (the audit trail names actors too)


def real_clock() -> datetime:
    return datetime.now(timezone.utc)


async def mcp_write(db: Path, key: str, content: str, client: str = "claude-code") -> None:
    """What the MCP server does for a client's add: a gated write as mcp:<client>."""
    engine = await MemoryEngine.open(db)
    try:
        await engine.add(key, content, actor=Actor.mcp_client(client, ProvenanceLevel.USER_STATED))
    finally:
        await engine.close()


def rows(browser: EntryBrowser) -> list:
    return [browser.row_at(i) for i in range(max(0, browser.total)) if browser.row_at(i) is not None]


def sources_line(app) -> str:
    return app.query_one(SourcesBar).text.plain


async def test_a_wide_browser_and_the_detail_show_where_an_entry_came_from(demo_db, make_app):
    await mcp_write(demo_db, "orbit/deploy-day", "orbit deploys on Thursdays.")
    app = make_app(demo_db)
    async with app.run_test(size=(220, 44)) as pilot:
        await ready(pilot)
        await select_key(pilot, "orbit/deploy-day")
        browser = app.query_one(EntryBrowser)
        assert "origin" in [c.name for c, _x, _w in browser._layout(browser.scrollable_content_region.width)]
        text = screen_text(app)
        line = next(row for row in text.splitlines() if "orbit deploys on Thursdays" in row)
        assert "mcp:claude-code" in line  # the browser's from column
        assert FROM_LINE.search(text), text  # and the detail's from line


async def test_at_80x24_the_origin_is_in_the_detail_and_content_keeps_half(demo_db, make_app):
    await mcp_write(demo_db, "orbit/deploy-day", "orbit deploys on Thursdays.")
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await select_key(pilot, "orbit/deploy-day")
        browser = app.query_one(EntryBrowser)
        width = browser.scrollable_content_region.width
        content = next(w for column, _x, w in browser._layout(width) if column.name == "content")
        assert content >= width // 2
        detail = app.query_one(EntryDetail)
        assert detail.data.entry.key == "orbit/deploy-day"
        assert FROM_LINE.search(screen_text(app)), screen_text(app)


async def test_source_filter_in_the_browser(demo_db, make_app):
    await mcp_write(demo_db, "orbit/deploy-day", "orbit deploys on Thursdays.")
    await mcp_write(demo_db, "orbit/ci-host", "orbit CI runs on buildkite.", client="cursor")
    app = make_app(demo_db)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(pilot)
        view = app.memory_view
        view.action_filter()
        view.query_one("#filter").value = "source:mcp"
        view._apply_filter("source:mcp")
        browser = app.query_one(EntryBrowser)
        await wait_until(pilot, lambda: browser.total == 2 and len(rows(browser)) == 2, what="two mcp entries")
        assert {r.origin for r in rows(browser)} == {"mcp:claude-code", "mcp:cursor"}
        assert "from=mcp" in str(browser.parent.border_title)


async def test_the_sources_line_names_mcp_writers_and_folds_into_the_status_line_when_short(demo_db, make_app):
    await mcp_write(demo_db, "orbit/deploy-day", "orbit deploys on Thursdays.")
    app = make_app(demo_db, clock=real_clock)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: "mcp:claude-code" in sources_line(app), what="sources line")
        bar = app.query_one(SourcesBar)
        assert bar.region.height == 1 and "mcp:claude-code" in screen_text(app).splitlines()[1]
        assert "mcp:claude-code" not in app.status.render().plain
    app = make_app(demo_db, clock=real_clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: "mcp:claude-code" in app.status.render().plain, what="in the status line")
        assert app.query_one(SourcesBar).region.height == 0  # no row taken from the views


async def test_nothing_to_report_takes_no_row(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(pilot)
        await pilot.pause(0.2)
        assert app.query_one(SourcesBar).region.height == 0 and sources_line(app) == ""


def write_hermes(folder: Path, entries: list[str]) -> None:
    (folder / "MEMORY.md").write_text("\n§\n".join(entries) + "\n", encoding="utf-8")


async def test_sync_brings_a_folder_change_into_the_open_app(demo_db, make_app, tmp_path):
    folder = tmp_path / "hermes"
    folder.mkdir()
    write_hermes(folder, ["The staging host is atlas-2"])
    app = make_app(demo_db, clock=real_clock, live=True, syncs=[("hermes", str(folder))])
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(pilot)
        browser = app.query_one(EntryBrowser)

        def shown(text: str) -> bool:
            return any(r.entry.content == text for r in rows(browser))

        await wait_until(pilot, lambda: shown("The staging host is atlas-2"), timeout=30, what="first sync")
        await wait_until(pilot, lambda: "watching" in sources_line(app), what="sync state")
        assert f"hermes:{folder}" in sources_line(app)
        write_hermes(folder, ["The staging host is atlas-2", "Deploys need a green CI run"])
        await wait_until(pilot, lambda: shown("Deploys need a green CI run"), timeout=30, what="change synced")
        row = next(r for r in rows(browser) if r.entry.content == "Deploys need a green CI run")
        assert row.origin == "sync:hermes"


async def test_a_sync_folder_that_disappears_is_an_error_on_the_line_not_a_crash(demo_db, make_app, tmp_path):
    folder = tmp_path / "hermes"
    folder.mkdir()
    write_hermes(folder, ["The staging host is atlas-2"])
    app = make_app(demo_db, clock=real_clock, live=True, syncs=[("hermes", str(folder))])
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: "watching" in sources_line(app), timeout=30, what="watching")
        (folder / "MEMORY.md").unlink()
        folder.rmdir()
        await wait_until(pilot, lambda: "error" in sources_line(app), timeout=30, what="error shown")
        assert "is not a folder" in sources_line(app)
        assert app.is_running
        await pilot.press("j")  # still answering keys


async def test_an_mcp_client_writes_while_the_app_is_open_and_the_cursor_stays(demo_db, make_app, tmp_path):
    """The real `echo-memory mcp` over stdio, driven by the SDK's ClientSession."""
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    app = make_app(demo_db, clock=real_clock, live=True)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: app.status.live == "live", what="watching")
        browser = app.query_one(EntryBrowser)
        for _ in range(3):
            await pilot.press("j")
        selected, total = browser.current_entry(), browser.total
        async with stdio_session(demo_db, config, "claude-code") as session:
            result = await session.call_tool(
                "memory",
                {
                    "action": "add",
                    "target": "environment",
                    "key": "orbit/release-train",
                    "content": "orbit releases every second Tuesday.",
                },
            )
            assert not result.is_error
        await wait_until(pilot, lambda: browser.total == total + 1, timeout=30, what="the new entry counted")
        await wait_until(pilot, lambda: any(r.entry.key == "orbit/release-train" for r in rows(browser)), what="the new row")
        assert browser.current_entry().id == selected.id  # the person's row is still selected
        await wait_until(pilot, lambda: "mcp:claude-code" in sources_line(app), what="the writer on the line")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--sync", "nope:/tmp"], "FORMAT:DIR with FORMAT one of hermes, echo-agent"),
        (["--sync", "hermes"], "FORMAT:DIR"),
        (["--sync", "hermes:/no/such/folder"], "/no/such/folder is not a folder"),
        (["--sync-write-back"], "--sync-write-back needs at least one --sync"),
    ],
)
def test_bad_sync_options_are_named_with_exit_code_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        app_cli.main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_sync_with_a_command_points_to_the_sync_command(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        app_cli.main(["--sync", f"hermes:{tmp_path}", "--db", str(tmp_path / "m.db"), "list"])
    assert exit_.value.code == 2 and "echo-memory sync --from FORMAT DIR --watch" in capsys.readouterr().err


def test_sync_options_reach_the_app(tmp_path, monkeypatch):
    seen = {}

    def fake_open_app(args, settings, error, syncs=(), sync_write_back=False):
        seen.update(syncs=syncs, write_back=sync_write_back, db=args.db)
        return 0

    monkeypatch.setattr(app_cli, "open_app", fake_open_app)
    (tmp_path / "h").mkdir()
    (tmp_path / "e").mkdir()
    argv = [
        "--db",
        str(tmp_path / "m.db"),
        "--sync",
        f"hermes:{tmp_path / 'h'}",
        "--sync",
        f"echo-agent:{tmp_path / 'e'}",
        "--sync-write-back",
    ]
    assert app_cli.main(argv) == 0
    assert seen == {
        "syncs": [("hermes", str(tmp_path / "h")), ("echo-agent", str(tmp_path / "e"))],
        "write_back": True,
        "db": tmp_path / "m.db",
    }
