"""Review of issue 8 items 12 and 16 on the CLI: counts are whole numbers of at
least 1 everywhere, refused as usage errors that name the option."""

from __future__ import annotations

import pytest

from engine.cli import main


@pytest.mark.parametrize(
    "argv",
    [
        ["list", "--limit", "-5"],
        ["list", "--limit", "0"],
        ["audit", "--limit", "-1"],
        ["eval", "--longmemeval", "q.json", "--limit", "-1"],
    ],
)
def test_a_count_below_one_is_a_usage_error(tmp_path, capsys, argv):
    db = str(tmp_path / "m.db")
    assert main(["--db", db, "--create", "add", "--key", "k", "--content", "kept"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(["--db", db, *argv])
    assert info.value.code == 2
    assert "--limit" in capsys.readouterr().err
