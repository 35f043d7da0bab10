"""Dialogs drew over a translucent backdrop (Textual's ModalScreen default, the screen
below at 60%): each frame of a dialog then rendered the whole screen under it and tinted
it segment by segment, on the loop. Opening the decay preview held the app's loop
~150 ms at 1k entries on this host (benchmarks.tui_bench --scenarios decay-preview),
~90 ms with a solid backdrop (issue 14: the UI loop never stalls). Every dialog the app
opens, Textual's command palette included, now has an opaque backdrop, at any size."""

from __future__ import annotations

import pytest
from textual.screen import ModalScreen

from .conftest import ready, wait_until
from .test_progress_bursts import DIALOGS, SMALL
from .test_trust_keys import burst


@pytest.mark.parametrize("size", [SMALL, (140, 44)])
@pytest.mark.parametrize("dialog", list(DIALOGS))
async def test_every_dialog_draws_on_a_solid_backdrop(demo_db, make_app, dialog, size):
    key, screen_name, _ = DIALOGS[dialog]
    app = make_app(demo_db)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await burst(pilot, key)
        await wait_until(pilot, lambda: type(app.screen).__name__ == screen_name, what=f"{dialog} open", timeout=60)
        screen = app.screen
        assert isinstance(screen, ModalScreen)
        background = screen.styles.background
        assert background.a == 1, f"{screen_name} backdrop is {background} (translucent: the screen below is re-rendered)"
        assert type(screen.render()).__name__ != "BackgroundScreen"
