"""The status line says loudly when the write scanner's learned layer is off (a
missing or corrupt artifact): only the rules run then, and the person curating
the memory must know before trusting what passes."""

from __future__ import annotations

import pytest

from engine.scanner import reload_learned
from engine.scanner.learned import META_FILE, MODEL_DIR, WEIGHTS_FILE

from .conftest import ready, wait_until


@pytest.fixture
def shipped_model_after():
    yield
    reload_learned(MODEL_DIR)


def status_line(app) -> str:
    return app.status.render().plain


@pytest.mark.parametrize("damage", ["corrupt", "missing"])
async def test_status_line_says_the_learned_layer_is_off(demo_db, make_app, tmp_path, shipped_model_after, damage):
    folder = tmp_path / "model"
    folder.mkdir()
    if damage == "corrupt":
        (folder / WEIGHTS_FILE).write_bytes(b"\x93NUMPY not really")
        (folder / META_FILE).write_text((MODEL_DIR / META_FILE).read_text(encoding="utf-8"), encoding="utf-8")
    assert not reload_learned(folder).enabled
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: "learned scanner OFF" in status_line(app), what="scanner off shown")
        assert status_line(app).startswith(" learned scanner OFF: rules only ")  # first: nothing cuts it off at 80 columns
        notes = [n.message for n in app._notifications]
        assert any("learned scanner layer OFF" in m and ("corrupt" if damage == "corrupt" else "missing") in m for m in notes)


async def test_status_line_is_quiet_while_the_learned_layer_is_on(demo_db, make_app):
    assert reload_learned(MODEL_DIR).enabled
    app = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: not any(w.group == "scanner-status" for w in app.workers), what="scanner checked")
        assert "scanner" not in status_line(app)
        assert not any("scanner" in n.message for n in app._notifications)
