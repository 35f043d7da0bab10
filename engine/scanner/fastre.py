"""Rule regexes compiled so that a search skips the places no match can start.

A search runs the whole pattern at every position of the text unless the compiled
pattern says which characters a match can start with; the standard compiler works
that out only when the pattern starts with a literal or a character class. Rule
patterns mostly start with an assertion (``\\b``, ``(?<!did\\syou\\s)``) in front of
their first word, so the search tried every position: on the injection lines, over
three quarters of the rules' regex time went into positions where no word of theirs
starts.

:func:`compile` reads the pattern the way the standard compiler does (``re._parser``)
and works out the set of characters a match's first consumed character belongs to,
looking through those leading assertions (they consume nothing), groups,
alternatives and optional parts. It then builds the same program the standard
compiler builds, with that set in the program's header (the "charset" the standard
compiler writes for a pattern starting with ``[abc]``): the regex engine's search
then jumps from one such character to the next and runs the pattern only there.
Nothing else in the program changes, so a match is the same match: same span, same
groups. Where the set is unknown (a pattern that can match the empty string, starts
with ``.`` or a negated class, folds case, ...), or the interpreter's compiler
internals are not the ones read here, the pattern is compiled by :func:`re.compile`
as before. ``tests/engine/test_scanner_fastre.py`` checks both on every rule.

Compiling the rules (parsing ~600 long patterns in pure Python) took ~0.6 s of every
process start that imports ``engine``: the app's first frame, each one-shot CLI command.
So the programs are kept in ``regex-programs.marshal`` beside this file, each with the
words its matches need (``required.py``, read off the same parse, for the gate index),
written by ``make install`` (:func:`write_programs`) and read on import: a pattern found
there is handed to the regex engine's own constructor, which checks the program, without
being parsed. The gate groups the per-language tables build at import (:func:`gate_group`,
~160 more parses, ~0.1 s) are kept there too. The file is keyed by the interpreter's
version and the sources of this module and ``required.py``; a pattern not in it (a rule
edited since) is compiled as above, and a file that is missing, foreign or damaged is
ignored.
"""

from __future__ import annotations

import hashlib
import importlib
import marshal
import re
import sys
from pathlib import Path
from typing import Any, Optional

from ..files import atomic_write
from . import required

try:  # CPython's own regex compiler, which re.compile runs (typeshed does not describe it)
    _sre: Any = importlib.import_module("_sre")
    _compiler: Any = importlib.import_module("re._compiler")
    _parser: Any = importlib.import_module("re._parser")
    _c: Any = importlib.import_module("re._constants")
    _INTERNALS = all(
        hasattr(_compiler, name) for name in ("_code", "_compile", "_compile_info", "_compile_charset", "_optimize_charset")
    ) and hasattr(_sre, "compile")
except ImportError:  # pragma: no cover - an interpreter without CPython's regex internals
    _INTERNALS = False

_Chars = list[tuple[Any, Any]]  # charset items as the parser writes them: (LITERAL, code), (RANGE, ...), (CATEGORY, ...)

_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


PROGRAMS = Path(__file__).with_name("regex-programs.marshal")
# the arguments of _sre.compile after the pattern: flags, code, groups, groupindex, indexgroup
_Program = tuple[int, list[int], int, dict[str, int], tuple[Optional[str], ...]]
# pattern -> its program and the words its matches contain, way by way (required.words_of),
# both read off one parse
_Entry = tuple[_Program, required.Ways]
# (pattern -> entry, gate pattern -> its gate group), read from PROGRAMS on first use
_stored: Optional[tuple[dict[str, _Entry], dict[str, str]]] = None
_made: dict[str, _Entry] = {}  # every entry this process compiled or read, for write_programs
_made_gates: dict[str, str] = {}  # every gate group this process worked out or read, likewise
parsed_here = 0  # patterns this process parsed because PROGRAMS did not have them


def compile(pattern: str) -> re.Pattern[str]:  # noqa: A001 - the module is used as fastre.compile
    """``re.compile(pattern)``, searching faster where the first character of a match is known."""
    global parsed_here
    if _INTERNALS:
        entry = _stored_tables()[0].get(pattern)
        if entry is not None:
            try:
                compiled = _sre.compile(pattern, *entry[0])
            except Exception:  # noqa: BLE001 - a program the engine refuses: parse the pattern instead
                compiled = None
            if compiled is not None:
                _made[pattern] = entry
                return compiled
        parsed_here += 1
        try:
            entry = _entry(pattern)
            compiled = _sre.compile(pattern, *entry[0])
        except Exception:  # noqa: BLE001 - unfamiliar internals: the standard compiler, never a failure
            return re.compile(pattern)
        flags, _, groups, _, _ = entry[0]
        if (compiled.pattern, compiled.flags, compiled.groups) == (pattern, flags, groups):
            _made[pattern] = entry
            return compiled
    return re.compile(pattern)


def required_words(pattern: str) -> required.Ways:
    """The groups of words each way of matching ``pattern`` contains (engine/scanner/required.py),
    from PROGRAMS or this process's compile when they have the pattern, else parsed here."""
    entry = _made.get(pattern) or _stored_tables()[0].get(pattern)
    if entry is not None:
        return entry[1]
    return required.words_of(_parser.parse(pattern, 0))


def _header() -> tuple[str, str, str]:
    """What the stored tables depend on: the interpreter, this module and required.py."""
    this, words = (hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in (__file__, required.__file__ or ""))
    return sys.version, this, words


def gate_group(pattern: str) -> str:
    """:func:`required.gate_group` of ``pattern`` (the rule tables build gates with it at
    import), from PROGRAMS or this process's earlier call when they have it, else parsed here."""
    global parsed_here
    group = _made_gates.get(pattern) or _stored_tables()[1].get(pattern)
    if group is None:
        parsed_here += 1
        group = required.gate_group(_parser.parse(pattern, 0), pattern)
    _made_gates[pattern] = group
    return group


def _stored_tables() -> tuple[dict[str, _Entry], dict[str, str]]:
    global _stored
    if _stored is None:
        _stored = ({}, {})
        try:
            header, table, gates = marshal.loads(PROGRAMS.read_bytes())
            if header == _header() and isinstance(table, dict) and isinstance(gates, dict):
                _stored = (table, gates)
        except (OSError, EOFError, ValueError, TypeError):  # missing, damaged or another layout
            pass
    return _stored


def write_programs() -> int:
    """Write every program and gate group this process has compiled or worked out (import
    ``engine.scanner`` first) to PROGRAMS (engine.files.atomic_write: a kill leaves the old
    file or the new). Returns how many programs."""
    table = dict(sorted(_made.items()))
    atomic_write(PROGRAMS, marshal.dumps((_header(), table, dict(sorted(_made_gates.items())))), backup=False)
    return len(table)


def _entry(pattern: str) -> _Entry:
    """The program of ``pattern`` and the words its matches need, from one parse."""
    parsed = _parser.parse(pattern, 0)
    return _program(parsed), required.words_of(parsed)


def _program(parsed: Any) -> _Program:
    """The program for a parsed pattern: with its first characters in the header where they
    are known (:func:`_fast_program`), else the standard compiler's."""
    program = _fast_program(parsed)
    if program is None:
        flags = parsed.state.flags
        program = (flags, _compiler._code(parsed, flags), *_groups(parsed))
    flags, code, groups, groupindex, indexgroup = program
    return flags, [int(op) for op in code], groups, dict(groupindex), indexgroup


def _groups(parsed: Any) -> tuple[int, dict[str, int], tuple[Optional[str], ...]]:
    groupindex = parsed.state.groupdict
    indexgroup: list[Optional[str]] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return parsed.state.groups - 1, groupindex, tuple(indexgroup)


def first_chars(pattern: str) -> Optional[_Chars]:
    """The charset items one of which every match's first character is, or None if unknown."""
    parsed = _parser.parse(pattern, 0)
    return _first_of_pattern(parsed)


def _first_of_pattern(parsed: Any) -> Optional[_Chars]:
    if parsed.state.flags & (re.IGNORECASE | re.LOCALE) or not (parsed.state.flags & re.UNICODE):
        return None  # case folding matches other letters too; bytes patterns are not rules
    data = list(parsed)
    if data and data[0][0] is _c.AT and data[0][1] in (_c.AT_BEGINNING, _c.AT_BEGINNING_STRING):
        return None  # the engine already tries such a pattern at the start only
    first = _first(data)
    if first is None:
        return None
    chars, nullable = first
    return None if nullable or not chars else chars


def _first(items: list) -> Optional[tuple[_Chars, bool]]:
    """(first characters, can match empty) of a concatenation; None if unknown."""
    chars: _Chars = []
    for op, av in items:
        found = _first_node(op, av)
        if found is None:
            return None
        node_chars, nullable = found
        chars += node_chars
        if not nullable:
            return chars, False
    return chars, True


def _first_node(op: Any, av: Any) -> Optional[tuple[_Chars, bool]]:  # noqa: PLR0911 - one case per opcode
    if op is _c.LITERAL:
        return [(_c.LITERAL, av)], False
    if op is _c.IN:
        if any(item_op is _c.NEGATE for item_op, _ in av):
            return None  # nearly every character: no use, and a union with it is not a list
        return list(av), False
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return [], True  # zero width: the first character is the next node's
    if op is _c.SUBPATTERN:
        _, add_flags, del_flags, sub = av
        if (add_flags | del_flags) & (re.IGNORECASE | re.LOCALE):
            return None
        return _first(list(sub))
    if op is _c.BRANCH:
        chars: _Chars = []
        nullable = False
        for alternative in av[1]:
            found = _first(list(alternative))
            if found is None:
                return None
            chars += found[0]
            nullable = nullable or found[1]
        return chars, nullable
    if op in tuple(getattr(_c, name, None) for name in _REPEATS):
        low, high, sub = av
        if high == 0:
            return [], True
        found = _first(list(sub))
        if found is None:
            return None
        return found[0], found[1] or low == 0
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return _first(list(av))
    return None  # any character, a negated literal, a back-reference, a conditional...


def _fast_program(parsed: Any) -> Optional[_Program]:
    """The standard compiler's program with the first characters in its header; None when
    they are unknown or the standard header already has a prefix."""
    flags = parsed.state.flags
    chars = _first_of_pattern(parsed)
    if chars is None:
        return None
    standard: list[int] = []
    _compiler._compile_info(standard, parsed, flags)
    # [INFO, skip, mask, min width, max width, ...]: a mask of 0 means no prefix or charset
    if standard[0] != _c.INFO or standard[2] != 0 or standard[3] == 0:
        return None
    charset, hascased = _compiler._optimize_charset(chars)
    if hascased:
        return None
    code = [_c.INFO, 0, _c.SRE_INFO_CHARSET, standard[3], standard[4]]
    _compiler._compile_charset(charset, flags, code)
    code[1] = len(code) - 1
    _compiler._compile(code, parsed.data, flags)
    code.append(_c.SUCCESS)
    return (flags, code, *_groups(parsed))
