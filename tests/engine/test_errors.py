"""One error base: a caller can catch EchoMemoryError for anything the engine
refuses on purpose, the old import homes still name the same classes, and the
CLI maps them to the README's exit codes in one place."""

from __future__ import annotations

import engine
from engine import cli, errors
from engine.consolidation import llm, records
from engine.gate import EntryNotFound as GateEntryNotFound
from engine.models import InvalidValue as ModelsInvalidValue
from engine.store import StoreError as StoreStoreError


def test_every_engine_error_shares_one_base():
    for name in (
        "InvalidValue",
        "ConfigError",
        "WriteRejected",
        "NotFound",
        "EntryNotFound",
        "StoreError",
        "ReadOnlyStore",
        "ConsolidationError",
        "ModelError",
    ):
        assert issubclass(getattr(engine, name), engine.EchoMemoryError), name
    assert issubclass(engine.EntryNotFound, engine.NotFound)
    assert issubclass(engine.InvalidValue, ValueError)  # older `except ValueError` still catch it


def test_old_homes_name_the_same_classes():
    assert GateEntryNotFound is errors.EntryNotFound
    assert ModelsInvalidValue is errors.InvalidValue
    assert StoreStoreError is errors.StoreError
    assert records.NotFound is errors.NotFound and records.ConsolidationError is errors.ConsolidationError
    assert llm.ModelReplyError.__mro__[1] is errors.ModelError


def test_exit_codes_follow_the_readme_table():
    assert cli.exit_code(errors.WriteRejected("scanner", "no")) == cli.EXIT_REFUSED
    assert cli.exit_code(errors.InvalidValue("bad")) == cli.EXIT_USAGE
    assert cli.exit_code(errors.ConfigError("bad")) == cli.EXIT_USAGE
    assert cli.exit_code(errors.NotFound("none")) == cli.EXIT_FAIL
    assert cli.exit_code(errors.ConsolidationError("no")) == cli.EXIT_FAIL
    assert cli.exit_code(cli.CliError("usage", cli.EXIT_USAGE)) == cli.EXIT_USAGE


def test_an_unknown_contradiction_is_a_plain_error(tmp_path, capsys):
    assert cli.main(["--db", str(tmp_path / "m.db"), "--create", "contradiction", "show", "nope"]) == cli.EXIT_FAIL
    assert capsys.readouterr().err.startswith("error: ")
