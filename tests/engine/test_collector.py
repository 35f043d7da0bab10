"""Bulk work pauses the cyclic collector without leaving it off (engine/collector.py)."""

from __future__ import annotations

import gc

from engine.collector import collector_paused


def test_overlapping_pauses_end_with_the_last_of_them(collector_on):
    """An import that starts during a first open and ends before it must not turn the
    collector back on under the open, nor leave it off after both."""
    first, second = collector_paused(), collector_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_collector_turned_off_elsewhere_stays_off(collector_on):
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
