"""The app's own sections of the config file: [keys] remaps bindings, [ui] holds
the theme. The engine keeps them opaque; the app checks their shape on every load
(registered when the app package is imported, so the console script's headless
commands refuse a malformed file just as the app would). Unknown binding ids are
not an error here: the app reports them when it opens (keys.keymap_from_config)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from engine import ConfigError, register_section


def leaves(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted key -> value (a TOML key like "app.quit" may arrive nested)."""
    out: dict[str, Any] = {}
    for name, value in table.items():
        if isinstance(value, Mapping):
            out.update(leaves(value, f"{prefix}{name}."))
        else:
            out[f"{prefix}{name}"] = value
    return out


def check_keys(path: Path, section: Mapping[str, Any]) -> None:
    """[keys]: binding id = "key" (or a list of keys)."""
    for key, value in leaves(section).items():
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            continue
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f'{path}: [keys] {key}: expected a key name such as "ctrl+x", got {value!r}')


def check_ui(path: Path, section: Mapping[str, Any]) -> None:
    """[ui]: strings only (the theme name)."""
    for key, value in section.items():
        if not isinstance(value, str):
            raise ConfigError(f"{path}: [ui] {key}: expected a string, got {value!r}")


def register() -> None:
    register_section("keys", check_keys)
    register_section("ui", check_ui)
