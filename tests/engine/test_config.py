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


@pytest.mark.parametrize(
    "body, needle",
    [
        ("[memory]\nrrfK = 0\n", "memory.rrfK: 0 is not allowed; expected an integer in [1, 10000]"),
        ("[memory]\nrerankEnabled = 'maybe'\n", "memory.rerankEnabled"),
        ("[memory]\narchiveThreshold = 2.0\n", "memory.archiveThreshold"),
        ("[memory]\nnoSuchKnob = 1\n", "unknown key 'memory.noSuchKnob'"),
        ("[memory\n", "not valid TOML"),
    ],
)
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
    s = Settings(Settings.defaults().override({"memory.rrfK": 42}).as_dict(), {"keys": {"quit": "x"}})
    s.save(path)
    text = path.read_text()
    assert "rrfK = 42" in text and "rerankTopK" not in text
    assert Settings.load(path).get("memory.rrfK") == 42


def test_every_knob_default_is_valid():
    for knob in KNOBS.values():
        assert knob.coerce(knob.default) == knob.default


# ---- issue 8/9: values of the wrong type, non-finite numbers, BOM, [ui]/[keys] ----------------
@pytest.mark.parametrize(
    "body, needle",
    [
        ("[memory]\nrrfK = inf\n", "memory.rrfK"),
        ("[memory]\nrrfK = nan\n", "memory.rrfK"),
        ("[memory]\nimportanceDecayDays = inf\n", "memory.importanceDecayDays"),
        ('[memory]\nrrfK = "60"\n', "memory.rrfK: '60' is not allowed"),
        ('[memory]\nrerankEnabled = "yes"\n', "memory.rerankEnabled: 'yes' is not allowed"),
        ("[memory]\nrerankModel = 3\n", "memory.rerankModel"),
        ("ui = 3\n", "[ui] must be a table"),
    ],
)
def test_wrong_types_and_non_finite_values_are_refused(tmp_path, body, needle):
    path = tmp_path / "c.toml"
    path.write_text(body)
    with pytest.raises(ConfigError) as caught:
        Settings.load(path)
    assert needle in str(caught.value)


def test_set_strings_stay_accepted_where_a_file_is_strict():
    s = Settings.defaults().override({"memory.rrfK": "60", "memory.rerankEnabled": "yes"})
    assert s.get("memory.rrfK") == 60 and s.get("memory.rerankEnabled") is True
    with pytest.raises(ConfigError, match="memory.rrfK"):
        Settings.defaults().override({"memory.rrfK": "inf"})


def test_a_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes("\ufeff[memory]\nrrfK = 30\n".encode("utf-8"))
    assert Settings.load(path).get("memory.rrfK") == 30


def test_save_keeps_comments_order_and_app_sections(tmp_path):
    path = tmp_path / "c.toml"
    original = (
        "# my settings\n[memory]\n# fusion constant\nrrfK = 30   # tuned by hand\npoolSize = 40\n\n"
        '[keys]\n"app.quit" = "ctrl+q"  # muscle memory\n\n[ui]\ntheme = "textual-light"\n'
    )
    path.write_text(original)
    s = Settings.load(path).override({"memory.rrfK": 45, "memory.rerankTopK": 7})
    s.save()
    text = path.read_text()
    assert "# my settings" in text and "# fusion constant" in text and "# muscle memory" in text
    assert "rrfK = 45" in text and "rerankTopK = 7" in text and "poolSize = 40" in text
    assert text.index("rrfK") < text.index("poolSize") < text.index("[keys]") < text.index("[ui]")
    again = Settings.load(path)
    assert again.get("memory.rrfK") == 45 and again.extra["ui"] == {"theme": "textual-light"}
    assert again.extra["keys"] == {"app.quit": "ctrl+q"}


@pytest.mark.parametrize("body", ["[memory\n", '[memory]\nrrfK = "60"\n', "\xff\xfe garbage"])
def test_save_never_writes_over_a_file_it_could_not_read(tmp_path, body):
    path = tmp_path / "c.toml"
    path.write_bytes(body.encode("latin-1"))
    before = path.read_bytes()
    with pytest.raises(ConfigError, match="not saved"):
        Settings.defaults(path=path).override({"memory.rrfK": 45}).save()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml"]


def test_save_creates_the_missing_file_it_was_started_with(tmp_path):
    path = tmp_path / "new" / "c.toml"
    Settings.defaults(path=path).override({"memory.rrfK": 45}).save()
    assert Settings.load(path).get("memory.rrfK") == 45
