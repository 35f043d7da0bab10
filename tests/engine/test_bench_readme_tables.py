"""The README's benchmark tables (issue 14): generated from the committed result files,
so no number stands there without a file behind it."""

from __future__ import annotations

import json
import re
import shutil

from benchmarks import readme_tables, results_io

README = readme_tables.README
RESULTS = results_io.RESULTS
NUMBER = re.compile(r"(?<![\w.\-+:])\d[\d,]*(?:\.\d+)?(?![\w\-:])")


def sections(text: str) -> dict[str, str]:
    out = {}
    for name in readme_tables.SECTIONS:
        match = re.search(rf"<!-- bench:{re.escape(name)} -->(.*?)<!-- /bench:{re.escape(name)} -->", text, re.S)
        if match is None and not readme_tables.has_results(name, RESULTS):
            continue  # no result file yet, so no table yet
        assert match, f"README.md lacks the {name} markers"
        out[name] = match.group(1)
    return out


def leaves(data) -> list[float]:
    """Every number in a result file: values, keys that are numbers (the sizes), and numbers
    inside keys that name a scenario ("import of 20,000 entries in another process")."""
    if isinstance(data, dict):
        named = [float(t.replace(",", "")) for k in data for t in NUMBER.findall(k)]
        return named + [x for v in data.values() for x in leaves(v)]
    if isinstance(data, list):
        return [x for v in data for x in leaves(v)]
    return [float(data)] if isinstance(data, (int, float)) and not isinstance(data, bool) else []


def test_the_committed_readme_is_what_the_result_files_give():
    text = README.read_text(encoding="utf-8")
    assert readme_tables.rewrite(text, RESULTS) == text, "run: python -m benchmarks.readme_tables"
    assert readme_tables.main(["--check"]) == 0


def test_regenerating_is_idempotent():
    once = readme_tables.rewrite(README.read_text(encoding="utf-8"), RESULTS)
    assert readme_tables.rewrite(once, RESULTS) == once


def test_every_number_in_the_tables_comes_from_its_result_file():
    for name, body in sections(README.read_text(encoding="utf-8")).items():
        files = [RESULTS / f for f in readme_tables.SECTIONS[name][0] if (RESULTS / f).exists()]
        documents = [json.loads(f.read_text()) for f in files]
        for doc in documents:  # dates are strings in the file; code spans hold names and commands
            body = body.replace(doc["run"]["date"], "")
        body = re.sub(r"`[^`]*`|\[\d+\]|revision [0-9a-f]+", "", body)  # a revision can be all digits
        known = [x for doc in documents for x in leaves(doc)]
        for token in NUMBER.findall(body):
            value = float(token.replace(",", ""))
            places = len(token.partition(".")[2])
            assert any(abs(x - value) <= 0.5 * 10**-places + 1e-9 for x in known), f"{name}: {token} is in no result file"


def test_a_changed_result_file_changes_the_table(tmp_path):
    results = tmp_path / "results"
    shutil.copytree(RESULTS, results)
    path = results / "import-bench-quiet.json"
    document = json.loads(path.read_text())
    document["results"]["10000"]["gated_bulk"]["entries_per_s"] = 123457
    path.write_text(json.dumps(document))
    text = readme_tables.rewrite(README.read_text(encoding="utf-8"), results)
    assert "123,457" in sections(text)["import"]
    assert "123,457" not in README.read_text(encoding="utf-8")


def test_a_run_that_measured_its_host_says_how_fast_the_host_was(tmp_path):
    results = tmp_path / "results"
    shutil.copytree(RESULTS, results)
    path = results / "write-path.json"
    document = json.loads(path.read_text())
    document["run"]["host_speed_ms"] = 424.4
    path.write_text(json.dumps(document))
    text = readme_tables.rewrite(README.read_text(encoding="utf-8"), results)
    assert "host speed 424 ms" in sections(text)["write-path"]


def test_a_missing_result_file_is_said_not_hidden(tmp_path):
    results = tmp_path / "results"
    shutil.copytree(RESULTS, results)
    (results / "import-bench-quiet.json").unlink()
    text = readme_tables.rewrite(README.read_text(encoding="utf-8"), results)
    assert "No result file yet: `benchmarks/results/import-bench-quiet.json`" in sections(text)["import"]


def test_missing_markers_and_a_stale_readme_are_reported(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("# no markers here\n")
    assert readme_tables.main(["--readme", str(readme), "--check"]) == 2
    assert "no <!-- bench:write-path --> … <!-- /bench:write-path --> markers" in capsys.readouterr().err
    stale = README.read_text(encoding="utf-8").replace("| gated bulk path, entries/s |", "| gated bulk path, entries/s | 1 |")
    readme.write_text(stale)
    assert readme_tables.main(["--readme", str(readme), "--check"]) == 1
    assert "is stale" in capsys.readouterr().err
    assert readme.read_text() == stale  # --check writes nothing
