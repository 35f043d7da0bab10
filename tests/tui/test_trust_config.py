"""ctrl+s saves the knobs only to the config the app was started with: a missing
--config is created there, an unreadable one is left byte for byte, and nothing
lands in the platform's default config folder (issue 9, defect 3)."""

from __future__ import annotations

import pytest

from echo_memory_tui import cli as app_cli
from engine import Settings

from .conftest import wait_until
from .test_playground import make_recall_app, open_playground


@pytest.fixture
def default_config_home(tmp_path, monkeypatch):
    """The platform default config folder, pointed at an empty tmp folder."""
    home = tmp_path / "xdg"
    home.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def settings_from_cli(monkeypatch, config, db) -> tuple[Settings, str | None]:
    """What `echo-memory --config X --db D` hands the app."""
    seen = {}

    def fake_open_app(args, settings, error):
        seen.update(settings=settings, error=error)
        return 0

    monkeypatch.setattr(app_cli, "open_app", fake_open_app)
    assert app_cli.main(["--config", str(config), "--db", str(db)]) == 0
    return seen["settings"], seen["error"]


async def save_rrf_k(app, pilot, value: int) -> None:
    view = await open_playground(pilot)
    view.set_knob("memory.rrfK", value)
    await pilot.pause(0.1)
    await pilot.press("ctrl+s")
    await pilot.pause(0.2)


def files_under(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


async def test_ctrl_s_creates_the_missing_config_it_was_started_with(
    demo_db, make_app, tmp_path, monkeypatch, default_config_home
):
    config = tmp_path / "mine" / "echo.toml"
    settings, error = settings_from_cli(monkeypatch, config, demo_db)
    assert "does not exist" in error
    app = make_recall_app(make_app, demo_db, settings.override({"memory.rerankEnabled": False}), config_error=error)
    async with app.run_test(size=(140, 44)) as pilot:
        await save_rrf_k(app, pilot, 45)
        await wait_until(pilot, config.exists, what="config created")
    assert Settings.load(config).get("memory.rrfK") == 45
    assert files_under(default_config_home) == []


@pytest.mark.parametrize("body", [b"[memory\nrrfK = 30\n", b'# keep me\n[memory]\nrrfK = "60"\n'])
async def test_ctrl_s_never_writes_over_a_config_it_could_not_read(
    demo_db, make_app, tmp_path, monkeypatch, default_config_home, body
):
    config = tmp_path / "mine" / "echo.toml"
    config.parent.mkdir()
    config.write_bytes(body)
    settings, error = settings_from_cli(monkeypatch, config, demo_db)
    assert error
    app = make_recall_app(make_app, demo_db, settings, config_error=error)
    async with app.run_test(size=(140, 44)) as pilot:
        await save_rrf_k(app, pilot, 45)
        await pilot.pause(0.3)
        shown = " ".join(str(n.message) for n in app._notifications)
        assert "not saved" in shown
    assert config.read_bytes() == body
    assert files_under(config.parent) == ["echo.toml"]
    assert files_under(default_config_home) == []


async def test_ctrl_s_keeps_comments_keys_and_ui(demo_db, make_app, tmp_path, monkeypatch, default_config_home):
    config = tmp_path / "echo.toml"
    config.write_text('# agent box\n[memory]\nrrfK = 30  # tuned\n\n[keys]\n"app.help" = "f1"\n\n[ui]\ntheme = "textual-light"\n')
    settings, error = settings_from_cli(monkeypatch, config, demo_db)
    assert error is None
    app = make_recall_app(make_app, demo_db, settings)
    async with app.run_test(size=(140, 44)) as pilot:
        await save_rrf_k(app, pilot, 45)
        await wait_until(pilot, lambda: "rrfK = 45" in config.read_text(), what="saved")
    text = config.read_text()
    assert "# agent box" in text and "# tuned" in text
    assert '"app.help" = "f1"' in text and 'theme = "textual-light"' in text
