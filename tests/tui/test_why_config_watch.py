"""A config that changes under the app (issue 9): a config file edited while the app is
open is reloaded when valid, reported and ignored when not, and never overwrites the
knobs the person edited in the playground and has not saved."""

from __future__ import annotations

from engine import Settings

from .conftest import ready, wait_until
from .test_playground import make_recall_app, open_playground


def notices(app, title: str) -> list[str]:
    return [str(n.message) for n in app._notifications if n.title == title]


def write_config(path, body: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(body)
    tmp.replace(path)  # as editors save: a new file renamed over the old


async def test_a_config_changed_on_disk_is_reloaded_or_reported(demo_db, make_app, tmp_path):
    config = tmp_path / "echo.toml"
    config.write_text("# mine\n[memory]\nrrfK = 60\n")
    app = make_app(demo_db, Settings.load(config), live=True)
    async with app.run_test(size=(120, 32)) as pilot:
        await ready(pilot)
        write_config(config, "# mine\n[memory]\nrrfK = 30\narchiveThreshold = 0.1\n")
        await wait_until(pilot, lambda: app.settings.get("memory.rrfK") == 30, what="reloaded")
        await wait_until(pilot, lambda: app.engine.settings.get("memory.rrfK") == 30, what="engine adopted it")
        [shown] = notices(app, "Config reloaded")
        assert "rrfK 60 → 30" in shown and "archiveThreshold 0.05 → 0.1" in shown
        write_config(config, '[memory]\nrrfK = "twenty"\n')
        await wait_until(pilot, lambda: notices(app, "Config not reloaded"), what="refusal shown")
        [refused] = notices(app, "Config not reloaded")
        assert "memory.rrfK" in refused and "stay as they were" in refused
        assert app.settings.get("memory.rrfK") == 30 and app.engine.settings.get("memory.rrfK") == 30
        config.unlink()
        await pilot.pause(0.5)
        assert app.settings.get("memory.rrfK") == 30
    assert not config.exists()  # nothing wrote the file back


async def test_a_config_change_keeps_the_unsaved_knob_edits(demo_db, make_app, tmp_path):
    config = tmp_path / "echo.toml"
    config.write_text("[memory]\nrerankEnabled = false\n")
    app = make_recall_app(make_app, demo_db, Settings.load(config), live=True)
    async with app.run_test(size=(140, 44)) as pilot:
        view = await open_playground(pilot)
        view.set_knob("memory.poolSize", 20)  # edited, not saved
        await wait_until(pilot, lambda: view.query_one("KnobPanel").values["memory.poolSize"] == 20, what="edit")
        write_config(config, "[memory]\nrerankEnabled = false\nrrfK = 25\npoolSize = 80\n")
        await wait_until(pilot, lambda: app.settings.get("memory.rrfK") == 25, what="reloaded")
        panel = view.query_one("KnobPanel")
        await wait_until(pilot, lambda: panel.values["memory.rrfK"] == 25, what="file value shown")
        await pilot.pause(0.2)
        assert panel.values["memory.poolSize"] == 20  # the person's edit, kept over the file's 80
        assert panel.base.get("memory.poolSize") == 80
        [shown] = notices(app, "Config reloaded")
        assert "unsaved playground edits (poolSize) are kept" in shown
    assert "poolSize = 80" in config.read_text()  # and nothing was written
