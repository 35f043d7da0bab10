"""Safe opening (issue 9): a store path with nothing there asks before anything is
created, declining creates nothing, and --create opens it without asking."""

from __future__ import annotations

from echo_memory_tui import cli as app_cli
from echo_memory_tui.screens.dialogs import ConfirmScreen

from .conftest import wait_until


async def test_a_missing_store_asks_and_declining_creates_nothing(tmp_path, make_app):
    typo = tmp_path / "memroy.db"
    app = make_app(typo)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        assert f"Create a new empty store at {typo}?" in str(app.screen.body)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.is_running, what="app closed")
    assert app.return_code == 2
    assert list(tmp_path.iterdir()) == []


async def test_keys_typed_at_the_question_do_not_create_the_store(tmp_path, make_app):
    typo = tmp_path / "memroy.db"
    app = make_app(typo)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("2", "a", "p", "enter")  # enter presses the focused button: Cancel
        await wait_until(pilot, lambda: not app.is_running, what="app closed")
    assert list(tmp_path.iterdir()) == []


async def test_accepting_creates_an_empty_store_and_opens_it(tmp_path, make_app):
    path = tmp_path / "new" / "memory.db"
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_until(pilot, lambda: app.engine is not None, what="store open")
        assert path.exists()
        assert (await app.engine.stats())["tiers"]["semantic"] == 0


async def test_create_flag_opens_without_asking(tmp_path, monkeypatch):
    seen = {}
    monkeypatch.setattr("echo_memory_tui.app.run_app", lambda db, settings, **kw: seen.update(db=db, **kw) or 0)
    assert app_cli.main(["--db", str(tmp_path / "m.db"), "--create"]) == 0
    assert seen["create"] is True
    assert app_cli.main(["--db", str(tmp_path / "m.db")]) == 0
    assert seen["create"] is False
    assert list(tmp_path.iterdir()) == []  # the app, not the CLI, decides (and asks)
