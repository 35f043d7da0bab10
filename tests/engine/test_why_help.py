"""Help that teaches (issue 9): every option of every command, the extension commands
included, says what it takes, lists its allowed values and states its default."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.cli import build_parser


def every_parser() -> dict[str, argparse.ArgumentParser]:
    """The top-level parser and every subcommand's, by name."""
    top = build_parser()
    found = {"echo-memory": top}
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def options(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        yield "/".join(action.option_strings) or action.dest, action


def test_every_command_has_a_one_line_summary():
    top = build_parser()
    [sub] = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    summaries = {choice.dest: choice.help for choice in sub._choices_actions}
    assert set(summaries) == set(sub.choices)
    assert all(summaries.values()), [name for name, text in summaries.items() if not text]


def test_every_option_and_argument_has_help():
    missing = [
        f"{name} {option}"
        for name, parser in every_parser().items()
        for option, action in options(parser)
        if not (action.help or "").strip()
    ]
    assert not missing, "no help: " + ", ".join(missing)


def test_every_option_with_choices_lists_them():
    unlisted = [
        f"{name} {option}: {choice}"
        for name, parser in every_parser().items()
        for option, action in options(parser)
        for choice in (action.choices or ())
        if str(choice) not in (action.help or "")
    ]
    assert not unlisted, "choices missing from the help: " + ", ".join(unlisted)


def states_default(text: str, default) -> bool:
    forms = {str(default)} | ({f"{default:,}"} if isinstance(default, int) else set())
    return "default" in text and any(form in text for form in forms)


def test_every_default_is_stated():
    """A value the command uses when the option is not given is named in its help."""
    unstated = [
        f"{name} {option} (default {action.default!r}): {action.help!r}"
        for name, parser in every_parser().items()
        for option, action in options(parser)
        if action.default not in (None, False, [], "", argparse.SUPPRESS)
        and not isinstance(action.default, Path)
        and not states_default(action.help or "", action.default)
    ]
    assert not unstated, "defaults not stated: " + "; ".join(unstated)


def test_the_help_output_of_each_extension_command_teaches():
    """What a person reads: `echo-memory recall --help` names the dry-run rule and the log."""
    parsers = every_parser()
    recall = parsers["recall"].format_help()
    assert "--dry" in recall and "recall log" in recall
    assert "--create" in parsers["echo-memory"].format_help()


def test_the_root_help_names_the_options_only_the_app_takes(capsys):
    """`echo-memory --help` shows --sync and --sync-write-back, which the app's entry
    point parses before the headless CLI sees the rest."""
    from echo_memory_tui.cli import main

    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--create" in out and "--sync FORMAT:DIR" in out and "--sync-write-back" in out


def test_a_limit_of_zero_or_less_is_refused_by_every_list_command(tmp_path, capsys):
    """`contradictions`, `episodes` and `runs` took --limit 0 and -3 silently."""
    import pytest

    from engine.cli import main

    db = str(tmp_path / "m.db")
    assert main(["--db", db, "--create", "stats"]) == 0
    for command in (["contradictions"], ["episodes"], ["runs"]):
        for bad in ("0", "-3"):
            with pytest.raises(SystemExit) as exit_:
                main(["--db", db, *command, "--limit", bad])
            assert exit_.value.code == 2
            assert "--limit" in capsys.readouterr().err
