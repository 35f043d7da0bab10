"""Issue 10: Settings are truly immutable (a snapshot handed to a recall or a
worker cannot change under it), and sections the engine does not own survive a
save untouched."""

from __future__ import annotations

import pytest

from engine import ConfigError, Settings


def test_settings_cannot_be_changed_in_place(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[memory]\nrrfK = 30\n[keys]\n"app.quit" = ["ctrl+q", "f10"]\n[ui]\ntheme = "nord"\n')
    s = Settings.load(path)
    with pytest.raises(TypeError):
        s.extra["keys"] = {}
    with pytest.raises(TypeError):
        s.extra["ui"]["theme"] = "dracula"
    with pytest.raises(AttributeError, match="immutable"):
        s.extra = {}
    with pytest.raises(AttributeError, match="immutable"):
        s.path = None
    with pytest.raises(TypeError):
        s._values["memory.rrfK"] = 1
    assert s.extra["keys"]["app.quit"] == ("ctrl+q", "f10")  # arrays are tuples
    changed = s.override({"memory.rrfK": 45})
    assert (s.get("memory.rrfK"), changed.get("memory.rrfK")) == (30, 45)


def test_a_section_nobody_registered_is_kept_and_saved_back(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[memory]\nrrfK = 30\n\n[plugin]\n# mine\nname = "x"\nlevels = [1, 2]\n')
    Settings.load(path).override({"memory.rrfK": 31}).save()
    text = path.read_text()
    assert "rrfK = 31" in text and "# mine" in text and "levels = [1, 2]" in text
    assert dict(Settings.load(path).extra["plugin"]) == {"name": "x", "levels": (1, 2)}


@pytest.mark.parametrize("name", ["memroy", "Memory"])
def test_a_near_miss_of_a_known_section_is_still_a_typo(tmp_path, name):
    path = tmp_path / "c.toml"
    path.write_text(f"[{name}]\nrrfK = 30\n")
    with pytest.raises(ConfigError, match=rf"unknown section '{name}'; did you mean \[memory\]"):
        Settings.load(path)
