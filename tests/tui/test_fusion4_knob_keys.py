"""The playground's knob panel shows every recall knob the engine reports in
`recall --json` settings except the model names (a model change is a reload,
set in the config file); both come from the engine's one list."""

from __future__ import annotations

from echo_memory_tui.widgets.knobs import RECALL_KNOBS
from engine import KNOBS, RECALL_KEYS


def test_the_panel_lists_the_engines_recall_knobs_in_order():
    shown = [k for k in RECALL_KEYS if KNOBS[k].kind is not str]
    assert list(RECALL_KNOBS) == shown
    # the two model names (a reload) and the exact-search switch (a choice of two words):
    # set in the config file, shown in `recall --json` settings
    assert {k for k in RECALL_KEYS if k not in RECALL_KNOBS} == {
        "memory.rerankModel",
        "memory.embeddingModel",
        "memory.vectorSearch",
    }
