"""Snapshots of every view at 80x24, 120x32 and 160x48 on the demo store (time
frozen, cursor blink off): the small terminals keep what each view exists to show.
Update with `--snapshot-update` and look at the SVGs before accepting them."""

from __future__ import annotations

import pytest

from .conftest import ready, recall_settings, wait_until
from .test_snapshots import embed_all, settle, steady
from .test_trust_keys import burst, settled_on

SIZES = [(80, 24), (120, 32), (160, 48)]


async def show(pilot, view_id: str) -> None:
    app = pilot.app
    await ready(pilot)
    key = "123456"[("memory", "recall", "review", "working", "episodes", "quarantine").index(view_id)]
    await burst(pilot, key)
    await settled_on(pilot, view_id)
    view = app._view_widget(view_id)
    if view_id == "recall":
        await embed_all(app)
        view.query_one("#query").value = "atlas-api python version"
        await wait_until(pilot, lambda: view.result and view.result.get("results"), timeout=20, what="results")
        await wait_until(pilot, lambda: app.recall_state == "ready", what="embeddings ready")
    elif view_id == "review":
        await wait_until(pilot, lambda: view.loaded and view.current_pair() is not None, what="queue")
    elif view_id == "working":
        await wait_until(pilot, lambda: view.data is not None, what="working")
    elif view_id == "episodes":
        await wait_until(pilot, lambda: view.data is not None and view.data.episodes, what="episodes")
    elif view_id == "quarantine":
        await wait_until(pilot, lambda: view.records, what="blocked writes")
    await pilot.pause(0.2)
    app.clear_notifications()
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("view_id", ["memory", "recall", "review", "working", "episodes", "quarantine"])
def test_view_at_size(demo_db, make_app, snap_compare, view_id, size):
    app = make_app(demo_db, recall_settings(), engine_factory=steady)

    async def run_before(pilot):
        await show(pilot, view_id)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
