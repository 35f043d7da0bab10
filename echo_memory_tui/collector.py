"""The app process's policy for Python's cyclic garbage collector (issue 14: the UI loop
never stalls). A full (generation-2) collection walks every tracked object that is not
frozen, holding the GIL, whichever thread runs it: with the recall indexes and the
widgets of a 100k-entry store that was 30-60 ms of CPU a pass on the loop thread during
an outside import, and ~50 ms over the imported modules before the first frame.

- freeze_start_up() (run_app, before the first frame): what the imports made lives as
  long as the process; it leaves the collector's walk at once.
- freeze(): gc.freeze() and a reset of the size the collector paces its full passes by.
- freeze_after_full_passes(): right after each full collection its survivors are frozen
  (gc.freeze in the collector's own "stop" callback). The pass has just freed every
  unreachable cycle, so nothing it could find is kept by freezing then; each later full
  pass walks only what was made since the one before, not the whole heap again.

The price: an object frozen this way that later becomes part of an unreachable cycle is
not collected by the passes (closed dialogs' widgets, Textual's render caches: ~10k
objects in a six-minute bench session). release_frozen_garbage() collects them: one full
pass over the whole heap, which the app runs only once the user has left it idle (see
EchoMemoryApp._release_when_idle). Objects dropped without a cycle (lists, dicts,
strings, arrays, rows) are freed by reference counting at once, frozen or not.
The app's other freezes (after the first rows, after the recall warm-up, app.py and
app_background.freeze_heap) do the same for the big loads the app knows of.
"""

from __future__ import annotations

import gc


def freeze() -> None:
    """gc.freeze(), then a full pass over what is left unfrozen (nothing: it costs nothing).
    The collector waits for the long-lived objects to grow by a quarter of what its last
    full pass saw before it runs the next one; left at the size before a freeze, that next
    pass waits for, and walks in one go, a quarter of the old heap: in a test process late
    in a full run (a few million objects) one pass over the app's objects held the loop
    ~0.5 s. The empty pass resets that size, so full passes keep their usual pace and each
    walks only what is new (the stall guard's windows: one 46-50 ms pass each, alone)."""
    gc.freeze()
    gc.collect()


def freeze_start_up() -> None:
    """Everything made so far (modules, settings, the app object) out of the collector's walk."""
    freeze()


def _freeze_survivors(phase: str, info: dict) -> None:
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


def freeze_after_full_passes() -> None:
    """Install the callback that freezes a full collection's survivors (idempotent)."""
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)


def freezing_after_full_passes() -> bool:
    return _freeze_survivors in gc.callbacks


def release_frozen_garbage() -> int:
    """Collect the cycles the freezes kept: unfreeze, one full pass over the whole heap,
    then freeze what survived. That pass walks everything (hundreds of ms at 100k
    entries), so it is for a moment nobody is typing. Returns the objects it freed."""
    gc.unfreeze()
    found = gc.collect()
    freeze()
    return found


def stop_freezing_after_full_passes() -> None:
    if _freeze_survivors in gc.callbacks:
        gc.callbacks.remove(_freeze_survivors)
