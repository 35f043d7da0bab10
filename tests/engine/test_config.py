"""Config keys under their spec names, refused loudly when invalid."""

from __future__ import annotations

import pytest

from engine import KNOBS, ConfigError, Settings


def test_spec_defaults():
    s = Settings.defaults()
    assert s.get("memory.rerankEnabled") is True
    assert s.get("memory.rerankTopK") == 10
    assert s.get("memory.rerankTimeoutSeconds") == 5
    assert s.get("memory.rerankMinScore") == 0
    assert s.get("memory.importanceDecayDays") == 30
    assert s.get("memory.rrfK") == 60
    assert s.get("memory.workingMaxEntries") == 20


def test_toml_file_is_read_nested(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[memory]\nrrfK = 30\nrerankEnabled = false\n[keys]\nquit = 'x'\n")
    s = Settings.load(path)
    assert s.get("memory.rrfK") == 30 and s.get("memory.rerankEnabled") is False
    assert s.extra["keys"] == {"quit": "x"}


@pytest.mark.parametrize("body, needle", [
    ("[memory]\nrrfK = 0\n", "memory.rrfK: 0 is not allowed; expected an integer in [1, 10000]"),
    ("[memory]\nrerankEnabled = 'maybe'\n", "memory.rerankEnabled"),
    ("[memory]\narchiveThreshold = 2.0\n", "memory.archiveThreshold"),
    ("[memory]\nnoSuchKnob = 1\n", "unknown key 'memory.noSuchKnob'"),
    ("[memory\n", "not valid TOML"),
])
def test_invalid_values_name_the_key(tmp_path, body, needle):
    path = tmp_path / "c.toml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=needle.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        Settings.load(path)


def test_override_parses_strings_and_refuses_bad_ones():
    s = Settings.defaults().override({"memory.rrfK": "25", "memory.rerankEnabled": "off"})
    assert s.get("memory.rrfK") == 25 and s.get("memory.rerankEnabled") is False
    with pytest.raises(ConfigError, match="memory.rerankTopK"):
        s.override({"memory.rerankTopK": "-1"})


def test_half_life_clamped_at_one_day():
    assert Settings.defaults().override({"memory.importanceDecayDays": 1}).half_life_days == 1


def test_save_round_trip_writes_only_changes(tmp_path):
    path = tmp_path / "sub" / "c.toml"
    s = Settings.defaults().override({"memory.rrfK": 42})
    s.extra["keys"] = {"quit": "x"}
    s.save(path)
    text = path.read_text()
    assert "rrfK = 42" in text and "rerankTopK" not in text
    assert Settings.load(path).get("memory.rrfK") == 42


def test_every_knob_default_is_valid():
    for knob in KNOBS.values():
        assert knob.coerce(knob.default) == knob.default
