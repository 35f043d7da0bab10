"""Regressions found in review: each once let data be lost or a command crash."""

from __future__ import annotations

import json
import sqlite3

import pytest

from engine import InvalidValue, MemoryEngine, MemoryTier, StoreError
from engine.cli import main


async def test_decay_pass_does_not_undo_a_pin_made_after_its_read(engine, clock, monkeypatch):
    e = (await engine.add("proj/x", "fact", importance=0.5)).entry
    clock.advance(days=300)
    real_fetchall = engine.store.fetchall

    async def fetch_then_pin(sql, params=()):
        rows = await real_fetchall(sql, params)
        if "tier='semantic'" in sql:
            await engine.store.conn.execute("UPDATE entries SET pinned=1 WHERE id=?", (e.id,))
        return rows

    monkeypatch.setattr(engine.store, "fetchall", fetch_then_pin)
    applied = await engine.decay(dry_run=False)
    assert applied == []
    kept = await engine.get(e.id)
    assert kept.pinned and kept.tier is MemoryTier.SEMANTIC


async def test_lone_surrogate_is_a_clear_error(engine):
    with pytest.raises(InvalidValue, match="not valid UTF-8"):
        await engine.add("k", "abc\udcff")
    assert await engine.count_entries() == 0


async def test_foreign_sqlite_file_is_refused_untouched(tmp_path):
    path = tmp_path / "places.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        await MemoryEngine.open(path)
    assert path.read_bytes() == before


async def test_rewrite_with_new_pin_or_importance_is_not_dropped(engine):
    first = (await engine.add("k", "same", importance=0.3)).entry
    out = await engine.add("k", "same", importance=0.9, pinned=True)
    assert out.action == "replaced" and out.entry.importance == 0.9 and out.entry.pinned
    assert (await engine.get(first.id)).superseded_by == out.entry.id


async def test_a_line_with_a_wrongly_typed_field_is_refused_alone(engine, tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(d)
            for d in [
                {"key": "a", "content": "one"},
                {"key": "b", "content": "two", "pinned": "yes"},
                {"key": "c", "content": "three", "created_at": 5},
                {"key": "d", "content": "four", "id": None},
            ]
        )
    )
    report = await engine.import_jsonl(path)
    assert report.landed == 1
    assert [r["message"] for r in report.refused] == [
        "field 'pinned' must be true or false",
        "field 'created_at' must be an ISO timestamp string",
        "field 'id' must be a string",
    ]


async def test_replacing_verbatim_import_keeps_its_dates(engine, tmp_path):
    await engine.add("k", "old", source="legacy")
    path = tmp_path / "in.jsonl"
    path.write_text(
        json.dumps(
            {
                "key": "k",
                "content": "new",
                "source": "user_stated",
                "created_at": "2024-02-01T00:00:00+00:00",
                "updated_at": "2024-02-01T00:00:00+00:00",
            }
        )
    )
    await engine.import_jsonl(path)
    [head] = [e for e in await engine.list_entries() if e.superseded_by is None]
    assert head.content == "new" and head.created_at.year == 2024 and head.version == 2


def test_misspelt_config_section_is_refused(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[memroy]\narchiveThreshold = 0.9\n")
    assert main(["--config", str(cfg), "--db", str(tmp_path / "m.db"), "stats"]) == 2
    assert "'memroy'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--db", "{tmp}", "stats"], "is a folder"),
        (["--config", "{tmp}", "--db", "{tmp}/m.db", "stats"], "cannot be read"),
        (["--db", "{tmp}/m.db", "--create", "export", "{tmp}/missing/out.jsonl"], "No such file"),
        (["--db", "{tmp}/m.db", "--create", "episodes", "--since", "99999999d"], "before year 1"),
    ],
)
def test_bad_paths_and_values_are_clear_errors(tmp_path, capsys, args, needle):
    code = main([a.format(tmp=tmp_path) for a in args])
    assert code in (1, 2)
    assert needle in capsys.readouterr().err


def test_ids_may_be_given_as_the_prefix_list_prints(tmp_path, capsys):
    db = str(tmp_path / "m.db")
    main(["--db", db, "--create", "add", "--key", "k", "--content", "v", "--json"])
    full = json.loads(capsys.readouterr().out)["id"]
    assert main(["--db", db, "pin", full[:8], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pinned"] is True
    assert main(["--db", db, "show", "ab"]) == 1
