"""Issue 10: the app owns its config sections. [keys] and [ui] are checked by
echo_memory_tui (registered on import), not by the engine, and every entry point
of the console script refuses a malformed one with a usage error naming it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from echo_memory_tui.cli import main
from engine import ConfigError, Settings


@pytest.mark.parametrize(
    "body, needle",
    [
        ("[ui]\ntheme = 3\n", "[ui] theme"),
        ('[keys]\n"app.quit" = 5\n', "[keys] app.quit"),
        ('[keys]\n"app.quit" = "  "\n', "[keys] app.quit"),
    ],
)
def test_the_app_refuses_its_own_malformed_sections(tmp_path, body, needle):
    path = tmp_path / "c.toml"
    path.write_text(body)
    with pytest.raises(ConfigError) as caught:
        Settings.load(path)
    assert needle in str(caught.value)


def test_the_console_script_refuses_a_wrong_ui_type_with_a_usage_error(tmp_path, capsys):
    path = tmp_path / "c.toml"
    path.write_text("[ui]\ntheme = 3\n")
    assert main(["--config", str(path), "--db", str(tmp_path / "s.db"), "stats"]) == 2
    err = capsys.readouterr().err
    assert "[ui] theme" in err and "Traceback" not in err


def test_the_engine_alone_keeps_app_sections_opaque(tmp_path):
    """Without the app, the engine neither knows nor checks [ui]: it loads the file
    and keeps the section as written."""
    path = tmp_path / "c.toml"
    path.write_text("[memory]\nrrfK = 30\n[ui]\ntheme = 3\n[plugin.x]\nlevel = [1, 2]\n")
    code = (
        "import sys; from engine import Settings; s = Settings.load(sys.argv[1]); "
        "print(s.get('memory.rrfK'), dict(s.extra['ui']), 'echo_memory_tui' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["30", "{'theme':", "3}", "False"]
