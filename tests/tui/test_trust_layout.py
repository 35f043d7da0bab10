"""Every view is usable at 80x24 (issue 9, defect 4): at least 5 candidate rows in the
playground, both statements in review, the browser's content column at least half the
width; the hidden side panels come back with their keys, any pane can be maximised."""

from __future__ import annotations

import html
import re

import pytest
from textual.widgets import DataTable

from .conftest import ready, wait_until
from .test_playground import make_recall_app
from .test_trust_keys import burst, settled_on


def screen_text(app) -> str:
    """The screen as plain text lines (from the SVG export)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    svg = app.export_screenshot()
    for m in re.finditer(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(m.group(2)), []).append((float(m.group(1)), html.unescape(m.group(3))))
    lines = []
    for _, parts in sorted(rows.items()):
        line = ""
        for x, text in sorted(parts):
            line = line.ljust(round(x / 12.2)) + text  # 12.2 px per cell in Textual's SVG
        lines.append(line)
    return "\n".join(lines).replace("\xa0", " ")


@pytest.mark.parametrize("size", [(80, 24), (120, 32)])
async def test_playground_shows_five_candidate_rows(demo_db, make_app, size):
    app = make_recall_app(make_app, demo_db)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await burst(pilot, "2", *"atlas python")
        # the playground mounts lazily: ask for it on every poll, not once right after the burst
        await wait_until(
            pilot, lambda: len(app._view_widget("recall").result.get("results", [])) >= 5, timeout=30, what="results"
        )
        view = app._view_widget("recall")
        await pilot.pause(0.2)
        table = view.query_one("#pg-results", DataTable)
        assert table.scrollable_content_region.height - 1 >= 5  # the header row, then the candidates
        text = screen_text(app)
        first = [r["key"] for r in view.result["results"][:5]]
        assert all(key in text for key in first), text
        assert "final" in text  # the answer column is never the one cut


@pytest.mark.parametrize("size", [(80, 24), (120, 32)])
async def test_review_shows_both_statements(demo_db, make_app, size):
    app = make_app(demo_db)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await burst(pilot, "3")
        await settled_on(pilot, "review")
        view = app._view_widget("review")
        await wait_until(pilot, lambda: view.pairs and view.selected_id, what="pairs")
        await pilot.pause(0.2)
        pair = next(p for p in view.pairs if p.record.id == view.selected_id)
        shown = set(screen_text(app).replace("│", " ").split())
        for entry in (pair.a, pair.b):  # the statement's words (it wraps in its box)
            assert set(entry.content.split()[:6]) <= shown, f"{entry.content!r} not on screen:\n{screen_text(app)}"


async def test_memory_browser_content_column_is_half_the_width(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        browser = app.memory_view.browser
        width = browser.scrollable_content_region.width
        content = next(w for column, _x, w in browser._layout(width) if column.name == "content")
        assert content >= width // 2
        entry = browser.current_entry()
        assert " ".join(entry.content.split())[: width // 3] in screen_text(app)
        # the hidden pyramid comes back with y (and goes again)
        await burst(pilot, "y")
        await wait_until(pilot, lambda: app.focused is app.query_one("#pyramid") and app._held_keys is None, what="pyramid shown")
        assert app.query_one("#pyramid-box").display
        assert "ARCHIVAL" in screen_text(app)


async def test_any_pane_can_be_maximised(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("M")
        assert app.screen.maximized is not None
        await pilot.press("M")
        assert app.screen.maximized is None
