"""The spec's forgetting-curve formulas, exactly."""

from __future__ import annotations

import math
from datetime import timedelta

from engine.decay import days_until_threshold, decay_factor, effective_importance, half_life_days
from engine.models import MemoryEntry, MemoryType
from tests.conftest import FROZEN_NOW


def entry(days: float, access: int = 0, importance: float = 0.8, **kw) -> MemoryEntry:
    return MemoryEntry(
        key="k", content="c", importance=importance, access_count=access, last_accessed=FROZEN_NOW - timedelta(days=days), **kw
    )


def test_formula_matches_spec():
    e = entry(45, access=3)
    half_life = 30 * (1 + math.log2(1 + 3))
    assert half_life_days(3, 30) == half_life
    assert effective_importance(e, FROZEN_NOW, 30) == 0.8 * 0.5 ** (45 / half_life)


def test_days_are_whole_days_like_the_spec():
    assert decay_factor(entry(0.9), FROZEN_NOW, 30) == 1.0
    assert decay_factor(entry(1.5), FROZEN_NOW, 30) == 0.5 ** (1 / 30)


def test_base_half_life_clamped_to_one_day():
    assert half_life_days(0, 0.1) == 1.0


def test_user_and_pinned_are_exempt():
    assert decay_factor(entry(900, type=MemoryType.USER), FROZEN_NOW, 30) == 1.0
    assert decay_factor(entry(900, pinned=True), FROZEN_NOW, 30) == 1.0


def test_days_until_threshold_lands_on_threshold():
    e = entry(10)
    days = days_until_threshold(e, FROZEN_NOW, 30, 0.05)
    later = FROZEN_NOW + timedelta(days=days)
    assert effective_importance(e, later, 30) < 0.05 <= effective_importance(e, later - timedelta(days=1), 30)
    assert days_until_threshold(entry(1, type=MemoryType.USER), FROZEN_NOW, 30, 0.05) is None
