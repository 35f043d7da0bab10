"""The knob panel: every recall setting, editable in place. A value is checked
with the engine's own rules (Knob.coerce) as it is typed; an invalid one is
shown in place (red, with what is allowed) and never used — the last valid
value stays in force until it is fixed."""

from __future__ import annotations

from typing import Any, Optional

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Input, Label, Static, Switch

from engine import KNOBS, RECALL_KEYS, ConfigError, Settings

# The engine's recall knobs, less the model names: changing a model is a reload
# (set in the config file), not a per-recall override.
RECALL_KNOBS = tuple(k for k in RECALL_KEYS if KNOBS[k].kind is not str)


def knob_id(key: str) -> str:
    return "knob-" + key.replace("memory.", "").replace(".", "-")


def fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return f"{value:.1f}"
    return str(value)


class KnobPanel(VerticalScroll):
    """Editable recall knobs; posts Changed with the overrides that are valid."""

    DEFAULT_CSS = """
    KnobPanel { padding: 0 1; }
    KnobPanel .knob { height: auto; margin-bottom: 0; }
    KnobPanel .knob > Horizontal { height: 1; }
    KnobPanel .knob Label { width: 1fr; padding: 0 0; content-align-vertical: middle; height: 1; }
    KnobPanel .knob.-modified Label { color: $text-warning; text-style: bold; }
    KnobPanel .knob Input { width: 10; height: 1; border: none; padding: 0 1; background: $boost; }
    KnobPanel .knob Input:focus { background: $primary-background; }
    KnobPanel .knob Input.-invalid { background: $error 40%; }
    KnobPanel .knob Switch { width: 10; height: 1; border: none; padding: 0; }
    KnobPanel .knob-error { color: $text-error; height: auto; display: none; }
    KnobPanel .knob-error.-shown { display: block; }
    KnobPanel .knob-doc { color: $text-muted; height: auto; display: none; }
    KnobPanel:focus-within .knob:focus-within .knob-doc { display: block; }
    """

    class Changed(Message):
        def __init__(self, overrides: dict[str, Any], invalid: dict[str, str]) -> None:
            super().__init__()
            self.overrides = overrides
            self.invalid = invalid

    def __init__(self, settings: Settings, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.base = settings
        self.values: dict[str, Any] = {k: settings.get(k) for k in RECALL_KNOBS}
        self.invalid: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        for key in RECALL_KNOBS:
            knob = KNOBS[key]
            with Vertical(classes="knob", id=knob_id(key) + "-row"):
                with Horizontal():
                    yield Label(key.replace("memory.", ""))
                    if knob.kind is bool:
                        yield Switch(bool(self.values[key]), id=knob_id(key), animate=False)
                    else:
                        yield Input(fmt(self.values[key]), id=knob_id(key), select_on_focus=False)
                yield Static("", classes="knob-error")
                yield Static(Text(f"{knob.doc} ({knob.allowed()}; default {fmt(knob.default)})"), classes="knob-doc")

    # ---- editing ---------------------------------------------------------------------
    def overrides(self) -> dict[str, Any]:
        """Valid values that differ from the base settings."""
        return {k: v for k, v in self.values.items() if v != self.base.get(k)}

    def _key_for(self, widget_id: Optional[str]) -> Optional[str]:
        for key in RECALL_KNOBS:
            if knob_id(key) == widget_id:
                return key
        return None

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        key = self._key_for(event.input.id)
        if key is None:
            return
        event.stop()
        self._set(key, event.value, event.input)

    @on(Switch.Changed)
    def _switched(self, event: Switch.Changed) -> None:
        key = self._key_for(event.switch.id)
        if key is None:
            return
        event.stop()
        self._set(key, event.value, event.switch)

    def _set(self, key: str, raw: Any, widget: Any) -> None:
        row = self.query_one(f"#{knob_id(key)}-row")
        error = row.query_one(".knob-error", Static)
        try:
            value = KNOBS[key].coerce(raw)
        except ConfigError as exc:
            self.invalid[key] = str(exc)
            widget.add_class("-invalid")
            error.update(Text(f"{exc} — still using {fmt(self.values[key])}"))
            error.add_class("-shown")
        else:
            self.invalid.pop(key, None)
            widget.remove_class("-invalid")
            error.remove_class("-shown")
            error.update("")
            if value == self.values[key]:
                self._mark(key)
                return
            self.values[key] = value
        self._mark(key)
        self.post_message(self.Changed(self.overrides(), dict(self.invalid)))

    def _mark(self, key: str) -> None:
        row = self.query_one(f"#{knob_id(key)}-row")
        row.set_class(self.values[key] != self.base.get(key), "-modified")

    def set_value(self, key: str, value: Any) -> None:
        """Programmatic change (palette, tests): goes through the same checks."""
        widget = self.query_one(f"#{knob_id(key)}")
        if isinstance(widget, Switch):
            widget.value = bool(KNOBS[key].coerce(value))
        else:
            widget.value = fmt(value) if not isinstance(value, str) else value

    def reset(self, settings: Optional[Settings] = None) -> None:
        if settings is not None:
            self.base = settings
        self.invalid.clear()
        for key in RECALL_KNOBS:
            self.values[key] = self.base.get(key)
            widget = self.query_one(f"#{knob_id(key)}")
            with widget.prevent(Input.Changed, Switch.Changed):
                if isinstance(widget, Switch):
                    widget.value = bool(self.values[key])
                else:
                    widget.value = fmt(self.values[key])
            widget.remove_class("-invalid")
            row = self.query_one(f"#{knob_id(key)}-row")
            row.query_one(".knob-error", Static).remove_class("-shown")
            self._mark(key)
        self.post_message(self.Changed(self.overrides(), {}))
