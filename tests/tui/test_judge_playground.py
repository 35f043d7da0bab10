"""Relevance judgments in the recall playground: v / x / backspace mark the selected
candidate, each row shows its mark, and the metrics strip (recall@5/@10, MRR,
nDCG@10 over every judged query, the knobs beside the saved settings) recomputes
in a worker when a knob changes, with the numbers a headless run gives."""

from __future__ import annotations

import asyncio
import json

from textual.widgets import DataTable, Input

from echo_memory_tui.widgets.metrics import MetricsStrip
from engine import MemoryEngine, Settings
from engine.cli import main
from engine.models import utcnow

from .conftest import SIZE, recall_settings, wait_until
from .test_playground import make_recall_app, open_playground

SHOWN = ("recall@5", "recall@10", "mrr", "ndcg@10")


async def stored(engine) -> tuple:
    """Everything a judgment must not touch: entries (access counts, dates) and the audit log but its judge rows."""
    entries = await engine.store.fetchall("SELECT * FROM entries ORDER BY id")
    audit = await engine.store.fetchall("SELECT action, entry_id FROM audit WHERE action NOT IN ('judge','unjudge') ORDER BY id")
    return entries, audit


def strip_numbers(view) -> dict:
    return view.query_one(MetricsStrip).values()


def picked(report: dict) -> dict:
    return {k: float(report["metrics"][k]) for k in SHOWN}


async def search(pilot, view, query: str) -> None:
    seen = view.searches
    view.query_one("#query", Input).value = query
    await wait_until(pilot, lambda: view.searches > seen and view.shown_query == query, timeout=60, what=f"results for {query}")


async def select_row(pilot, view, row: int) -> str:
    table = view.query_one("#pg-results", DataTable)
    table.focus()
    table.move_cursor(row=row)
    await pilot.pause()
    return view.linked_entry()


async def test_judge_three_candidates_then_a_knob_changes_the_strip(demo_db, make_app):
    # the scenario's ranks were set with every BM25 match earning RRF credit (no BM25 floor)
    app = make_recall_app(make_app, demo_db, recall_settings().override({"memory.bm25MinRelativeScore": 0.0}))
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        before = await stored(app.engine)
        await search(pilot, view, "atlas python")
        ranked = [r["key"] for r in view.result["results"]]
        # the best hit and a low-ranked one are relevant, the second is not
        low = ranked.index("atlas/staging-url")
        assert low >= 5, ranked  # below the top five as shipped: recall@5 is 0.5
        marks = {}
        for row, key in ((0, "v"), (1, "x"), (low, "v")):
            entry_id = await select_row(pilot, view, row)
            runs = view.metrics_runs
            await pilot.press(key)
            await wait_until(pilot, lambda: view.metrics_runs > runs, timeout=60, what="metrics after a judgment")
            marks[entry_id] = 1 if key == "v" else 0
        assert view.marks == marks
        table = view.query_one("#pg-results", DataTable)
        ranks = view.ranks()
        shown = {entry_id: str(table.get_cell(entry_id, "rank")) for entry_id in marks}
        assert shown == {entry_id: f"{ranks[entry_id]}{'✓' if grade else '✗'}" for entry_id, grade in marks.items()}
        headless = await app.engine.evaluate_judgments()
        assert strip_numbers(view) == {"knobs": picked(headless), "saved": picked(headless)}
        assert headless["metrics"]["recall@5"] == 0.5
        # knobs: archived entries weigh in full and importance no longer counts, so the
        # low-ranked relevant (archived) entry climbs into the top five
        changed = {"memory.archivalWeight": 1.0, "memory.importanceBlend": 0.0}
        for knob, value in changed.items():
            runs = view.metrics_runs
            view.set_knob(knob, value)
            await wait_until(pilot, lambda: view.metrics_runs > runs, timeout=60, what=f"metrics after {knob}")
        tried = await app.engine.evaluate_judgments(changed)
        numbers = strip_numbers(view)
        assert numbers == {"knobs": picked(tried), "saved": picked(headless)}
        assert numbers["knobs"] != numbers["saved"] and numbers["knobs"]["recall@5"] == 1.0
        text = str(view.query_one(MetricsStrip).render())
        assert "knobs  R@5 1.000" in text and "saved  R@5 0.500" in text
        # backspace clears a judgment; nothing else stored has moved
        await select_row(pilot, view, 1)
        runs = view.metrics_runs
        await pilot.press("backspace")
        await wait_until(pilot, lambda: view.metrics_runs > runs, timeout=60, what="metrics after clearing")
        assert str(table.get_cell(view.linked_entry(), "rank")) == "2"
        assert len(await app.engine.judgments("atlas python")) == 2
        assert await stored(app.engine) == before
        judged = await app.engine.audit(action="judge")
        assert [r.actor for r in judged] == ["app"] * 3 and len(await app.engine.audit(action="unjudge")) == 1


async def test_progress_shows_while_the_strip_computes(demo_db, make_app):
    async with await MemoryEngine.open(demo_db, actor="user") as engine:
        ids = [e.id for e in await engine.list_entries(limit=12)]
        for n, entry_id in enumerate(ids):
            await engine.judge(f"query number {n}", entry_id, 1)
    app = make_recall_app(make_app, demo_db)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        seen: list[str] = []
        strip = view.query_one(MetricsStrip)
        original = strip.show_progress

        def spy(text: str) -> None:
            seen.append(text)
            original(text)

        strip.show_progress = spy
        runs = view.metrics_runs
        view.set_knob("memory.rrfK", 30)
        await wait_until(pilot, lambda: view.metrics_runs > runs, timeout=60, what="metrics")
        assert "judging 12/12 queries" in seen and "saved: judging 12/12 queries" in seen
        assert strip.values()["knobs"] is not None and "12 q" in str(strip.render())


async def test_strip_equals_eval_judgments_headless(demo_db, make_app, tmp_path, capsys):
    """The real models and the same config file on both sides: the app's strip and
    `echo-memory eval --judgments` print the same four numbers."""
    config = tmp_path / "config.toml"
    config.write_text("[memory]\nrerankEnabled = false\n")
    async with await MemoryEngine.open(demo_db, actor="user") as engine:
        by_key = {e.key: e.id for e in await engine.list_entries() if e.superseded_by is None}
        await engine.judge("editor preference", by_key["user/editor"], 1)
        await engine.judge("which database does atlas use", by_key["atlas/db"], 1)
        await engine.judge("which database does atlas use", by_key["atlas-api/database"], 2)
    app = make_app(demo_db, Settings.load(config), clock=utcnow)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        await wait_until(pilot, lambda: strip_numbers(view)["knobs"] is not None, timeout=120, what="strip")
        shown = strip_numbers(view)
    code = await asyncio.to_thread(main, ["--db", str(demo_db), "--config", str(config), "eval", "--judgments", "--json"])
    assert code == 0
    headless = json.loads(capsys.readouterr().out)
    assert headless["metrics"]["queries"] == 2 and headless["embedding"] == "ready"
    assert shown == {"knobs": picked(headless), "saved": picked(headless)}


async def test_read_only_store_offers_no_judging(demo_db, make_app):
    app = make_recall_app(make_app, demo_db, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_playground(pilot)
        await search(pilot, view, "atlas python")
        await select_row(pilot, view, 0)
        assert view.check_action("judge", (1,)) is False
        await pilot.press("v")
        await pilot.pause(0.3)
        assert view.marks == {} and await app.engine.judgments() == []
