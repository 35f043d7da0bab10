"""One list of recall knobs (engine.RECALL_KEYS): every knob a recall reads is
reported in its settings (`recall --json`), so a new knob cannot be used without
being shown; and RecallError, which recall raises, is part of the public API."""

from __future__ import annotations

import inspect
import re

import engine
from engine.config import KNOBS, Settings
from engine.errors import EchoMemoryError
from engine.recall import pipeline


def test_every_knob_recall_reads_is_in_the_reported_settings():
    read = set(re.findall(r"""knob\(\s*["'](memory\.[A-Za-z0-9.]+)["']""", inspect.getsource(pipeline)))
    assert "memory.bm25Weight" in read  # the pattern finds what the stages read
    assert read <= set(engine.RECALL_KEYS)
    reported = pipeline.settings_snapshot(Settings.defaults())
    assert list(reported) == list(engine.RECALL_KEYS)
    assert all(key in KNOBS for key in engine.RECALL_KEYS)


def test_recall_error_is_exported_with_the_other_engine_errors():
    assert issubclass(engine.RecallError, EchoMemoryError)
    assert "RecallError" in engine.__all__
