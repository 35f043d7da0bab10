"""History of decisions in the Review view: h lists resolved and dismissed
contradictions with who decided (a person or consolidation's policy), when and
what; u undoes the decision on screen, asking first when the policy made it."""

from __future__ import annotations

import io
import sqlite3

import pytest
from rich.console import Console
from textual.widgets import Static

from echo_memory_tui.screens.dialogs import ConfirmScreen
from echo_memory_tui.widgets.review import ReviewView
from engine import MemoryTier

from .conftest import SIZE, ready, wait_until


def resolutions(db) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT contradiction_id, action, actor, undone_at FROM resolutions ORDER BY id").fetchall()


def tier(db, entry_id) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT tier FROM entries WHERE id=?", (entry_id,)).fetchone()[0]


def audit_tail(db, n: int) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT action, actor FROM audit ORDER BY id DESC LIMIT ?", (n,)).fetchall()[::-1]


def shown(review: ReviewView) -> str:
    """The decision pane as text (rendered wide, so nothing is cut)."""
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(review.query_one("#rv-decision-text", Static).content)
    return console.export_text()


async def open_review(pilot) -> ReviewView:
    await ready(pilot)
    await pilot.press("3")
    review = pilot.app.query_one(ReviewView)
    await wait_until(pilot, lambda: review.loaded and review.current_pair() is not None, what="queue loaded")
    return review


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_history_names_who_decided_and_undoes_a_persons_decision(demo_db, make_app, size):
    app = make_app(demo_db)
    async with app.run_test(size=size) as pilot:
        review = await open_review(pilot)
        pair = review.current_pair()
        automatic = len(resolutions(demo_db))
        await pilot.press("a", "h")  # keep A, then straight into the history
        await wait_until(pilot, lambda: len(review.decisions) == automatic + 1, what="the decision listed")
        assert review.has_class("-history")
        assert review.query_one("#rv-decision").region.height > 0  # visible at this size
        text = shown(review)
        assert "kept A" in text and "user: a person" in text and pair.a.key in text and "u undoes it" in text
        assert review.query_one("#rv-queue-box").border_title == f"History ({automatic + 1})"
        # the policy's decisions are listed too, named as automatic
        await pilot.press("j")
        assert "automatic (consolidation's policy)" in shown(review)
        await pilot.press("k", "u")  # back to the person's decision and undo it: no question asked
        await wait_until(pilot, lambda: resolutions(demo_db)[-1][3] is not None, what="undone")
        assert tier(demo_db, pair.b.id) == MemoryTier.SEMANTIC.value
        assert audit_tail(demo_db, 1)[0] == ("undo_resolve", "user")
        await wait_until(pilot, lambda: "undone" in shown(review), what="shown as undone")
        # u on an undone decision writes nothing
        writes = len(audit_tail(demo_db, 10_000))
        await pilot.press("u")
        await pilot.pause(0.2)
        assert len(audit_tail(demo_db, 10_000)) == writes


async def test_undoing_an_automatic_decision_asks_first(demo_db, make_app):
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        review = await open_review(pilot)
        await pilot.press("h")
        await wait_until(pilot, lambda: review.current_decision() is not None, what="history")
        decision = review.current_decision()
        assert not decision.by_person and not decision.undone_at
        before = resolutions(demo_db)
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asks first")
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "automatically" in text and decision.actor in text and "reopen" in text
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert resolutions(demo_db) == before  # nothing reopened
        await pilot.press("u", "y")
        await wait_until(pilot, lambda: resolutions(demo_db)[-1][3] is not None, what="reopened")
        await wait_until(pilot, lambda: "undone" in shown(review), what="shown as undone")


async def test_resolve_keys_do_nothing_while_the_history_is_shown(demo_db, make_app):
    """The pending pair is hidden behind the history: a, b, o, m must not resolve it."""
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        review = await open_review(pilot)
        before = resolutions(demo_db)
        await pilot.press("h", "a", "b", "o", "m")
        await pilot.pause(0.3)
        assert resolutions(demo_db) == before and not isinstance(app.screen, ConfirmScreen)
        await pilot.press("h")
        assert not review.has_class("-history") and review.current_pair() is not None
