"""The README's benchmark tables, generated from the committed result files.

    python -m benchmarks.readme_tables           # rewrite README.md between the markers
    python -m benchmarks.readme_tables --check   # exit 1 if README.md is not what the files give

Each table sits between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` and says
which result file (revision, date, machine, load) each column comes from. Every number
in a table is read from a file, never typed: change a file and the table follows."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any, Callable, Optional

from benchmarks import results_io

README = results_io.REPO / "README.md"
Doc = dict[str, Any]
Column = tuple[str, Doc, Doc]  # (heading, the file's results for this column, the whole file)


def fmt(value: Any, unit: str = "") -> str:
    """A number from a file, rounded for reading (3 significant digits, whole numbers at
    100 and above, thousands separated), or a dash when the file has none."""
    if value is None or isinstance(value, bool):
        return "–" if value is None else ("yes" if value else "no")
    size = abs(value)
    digits = 0 if size >= 100 or isinstance(value, int) else 1 if size >= 10 else 2 if size >= 0.1 else 3
    text = f"{value:,.{digits}f}"
    return (text.rstrip("0").rstrip(".") if "." in text else text) + unit


def get(data: Doc, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def pair(data: Doc, dotted: str, unit: str = " ms") -> str:
    """The "p50 / p95" text of a {p50, p95} block."""
    return f"{fmt(get(data, dotted + '.p50'))} / {fmt(get(data, dotted + '.p95'))}{unit}"


def source_line(name: str, doc: Doc) -> str:
    run = doc["run"]
    m = run.get("machine", {})
    dirty = " with uncommitted changes" if run.get("git_dirty") else ""
    memory = f", {fmt(m['memory_gb'])} GB" if m.get("memory_gb") else ""
    before, after = (run.get("load_before") or [None])[0], (run.get("load_after") or [None])[0]
    took = f" in {fmt(run['seconds'], ' s')}" if run.get("seconds") else ""
    speed = f", host speed {fmt(run['host_speed_ms'], ' ms')}" if run.get("host_speed_ms") else ""
    return (
        f"`benchmarks/results/{name}`: revision {run['git_revision']}{dirty}, {run['date']}, "
        f"{m.get('cpus', '?')} cores{memory}{speed}, load average {fmt(before)} before / {fmt(after)} after; "
        f"made by `{run['command']}`{took}"
    )


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def size_label(entries: str) -> str:
    n = int(entries)
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else str(n)


def mark(files: dict[str, Doc], doc: Doc) -> str:
    """The [n] that ties a column to its file in the source list (when there are several)."""
    return f" [{list(files.values()).index(doc) + 1}]" if len(files) > 1 else ""


def by_size(files: dict[str, Doc]) -> list[Column]:
    """One column per size in each file (recall, import and backfill keep one result per size)."""
    return [
        (size_label(size) + mark(files, doc), result, doc)
        for doc in files.values()
        for size, result in doc["results"].items()
        if size.isdigit()
    ]


def rows_table(columns: list[Column], rows: list[tuple[str, Callable[[Doc], str]]]) -> list[str]:
    return table([""] + [c[0] for c in columns], [[label] + [cell(c[1]) for c in columns] for label, cell in rows])


def render_recall(files: dict[str, Doc]) -> list[str]:
    columns = by_size(files)

    def vs(key: str, unit: str = " ms") -> Callable[[Doc], str]:
        return lambda r: fmt(get(r, f"vs.{key}.p50"), unit)

    rows = [
        ("recall p50 / p95, query embedding included", lambda r: pair(r, "recall_ms")),
        ("of which query embedding, p50 / p95", lambda r: pair(r, "stages_ms.embed")),
        ("our BM25 search (top pool), p50", vs("lexical_ms")),
        ("`rank_bm25.get_scores`, p50", vs("rank_bm25_get_scores_ms")),
        ("`bm25s` retrieve (top pool), p50", vs("bm25s_query_ms")),
        (
            "index build: `rank_bm25` / `bm25s`",
            lambda r: f"{fmt(get(r, 'vs.rank_bm25_build_s'))} / {fmt(get(r, 'vs.bm25s_build_s'), ' s')}",
        ),
        (
            "our BM25 speedup over the strongest",
            lambda r: f"{fmt(get(r, 'vs.lexical_speedup_vs_strongest'), '×')} ({get(r, 'vs.lexical_strongest_baseline')})",
        ),
        (
            "our vector search (top pool), p50",
            lambda r: f"{fmt(get(r, 'vs.vector_ms.p50'), ' ms')} ({get(r, 'vs.vector_backend')})",
        ),
        (
            "numpy float32 scan, p50 (same process / no torch)",
            lambda r: f"{fmt(get(r, 'vs.numpy_scan_ms.p50'))} / {fmt(get(r, 'vs.numpy_scan_isolated_ms.p50'), ' ms')}",
        ),
        ("numpy float16 scan, p50", vs("numpy_f16_scan_ms")),
        (
            "our vector time / the strongest",
            lambda r: f"{fmt(get(r, 'vs.vector_vs_strongest'), '×')} ({get(r, 'vs.vector_strongest_baseline')})",
        ),
        ("open from the index snapshot", lambda r: fmt(r.get("open_s"), " s")),
        ("first open (no snapshot yet)", lambda r: fmt(r.get("first_open_s"), " s")),
        (
            "peak RSS (with the baselines)",
            lambda r: f"{fmt(r.get('peak_rss_mb'))} MB ({fmt(r.get('peak_rss_mb_with_baselines'))} MB)",
        ),
        ("database file", lambda r: fmt(r.get("store_mb"), " MB")),
    ]
    targets = [
        [c[0], name, fmt(measured), ("≥ " if "speedup" in name else "≤ ") + fmt(target)]
        for c in columns
        for name, (measured, target) in (c[1].get("targets") or {}).items()
    ]
    return (
        rows_table(columns, rows)
        + ["", "Targets, as recorded beside each run (a speedup is met at or above its target, the rest at or below):", ""]
        + table(["size", "", "measured", "target"], targets)
    )


def render_import(files: dict[str, Doc]) -> list[str]:
    rows = [
        ("gated bulk path, entries/s", lambda r: fmt(get(r, "gated_bulk.entries_per_s"))),
        (
            "… seconds; batch p50 / p95",
            lambda r: f"{fmt(get(r, 'gated_bulk.seconds'), ' s')}; {pair(r, 'gated_bulk.batch_seconds', ' s')}",
        ),
        (
            "one by one, gated, entries/s",
            lambda r: f"{fmt(get(r, 'one_by_one.entries_per_s'))} ({fmt(get(r, 'one_by_one.entries'))} sampled)",
        ),
        ("bulk speedup over one by one", lambda r: fmt(r.get("speedup_vs_one_by_one"), "×")),
        ("plain `executemany`, no gate, entries/s", lambda r: fmt(get(r, "executemany.entries_per_s"))),
        ("diagnostic: scanner stubbed, entries/s", lambda r: fmt(get(r, "diagnostic_scanner_stubbed.entries_per_s"))),
        ("scanner's share of the time", lambda r: fmt(r.get("scanner_share_of_time"))),
    ]
    return rows_table(by_size(files), rows)


def render_backfill(files: dict[str, Doc]) -> list[str]:
    def base(key: str) -> Callable[[Doc], str]:
        return lambda r: fmt(get(r, f"baseline.{key}"))

    rows = [
        ("embedded, entries/s (target)", lambda r: f"{fmt(r.get('entries_per_s'))} ({fmt(r.get('target_entries_per_s'))})"),
        ("entries per CPU-second", lambda r: fmt(r.get("entries_per_cpu_s"))),
        ("batch p50 / p95", lambda r: pair(r, "batch_ms")),
        ("replaced path, entries/s (entries)", lambda r: f"{base('entries_per_s')(r)} ({base('entries')(r)})"),
        ("speedup over the replaced path", lambda r: fmt(r.get("speedup_vs_baseline"), "×")),
        ("model load", lambda r: fmt(r.get("model_load_s"), " s")),
    ]
    return rows_table(by_size(files), rows)


def render_write_path(files: dict[str, Doc]) -> list[str]:
    columns = [("one gated write" + mark(files, doc), get(doc["results"], "single_write"), doc) for doc in files.values()]
    rows = [
        ("p50 / p95", lambda r: pair(r, "gated_ms")),
        ("plain INSERT, no gate: p50 / p95", lambda r: pair(r, "raw_insert_ms")),
        ("ratio at p50", lambda r: fmt(r.get("ratio_p50"), "×")),
        ("writes", lambda r: fmt(r.get("writes"))),
    ]
    return rows_table(columns, rows)


def render_mcp(files: dict[str, Doc]) -> list[str]:
    rows: list[list[str]] = []
    for doc in files.values():
        r = doc["results"]
        for call, key in (("`memory add`", "memory_add"), ("`recall`", "recall")):
            ratio = fmt(get(r, f"ratio_p50.{key}"), "×")
            rows.append(
                [
                    call + mark(files, doc),
                    pair(r, f"stdio.{key}_ms"),
                    pair(r, f"python_api.{key}_ms"),
                    ratio,
                    fmt(r.get("entries")),
                ]
            )
    return table(["call", "stdio p50 / p95", "Python API p50 / p95", "ratio at p50", "entries"], rows)


def median_p95(data: Doc, dotted: str, unit: str = " ms") -> str:
    """The "median / p95" text of a stats block (benchmarks/tui_bench.py's)."""
    return f"{fmt(get(data, dotted + '.median'))} / {fmt(get(data, dotted + '.p95'))}{unit}"


def render_tui(files: dict[str, Doc]) -> list[str]:
    def vs_offset(keyset: str, offset: str) -> Callable[[Doc], str]:
        return lambda r: f"{median_p95(r, 'engine_reads_ms.' + keyset)} ({median_p95(r, 'engine_reads_ms.' + offset)})"

    rows = [
        ("first frame (process start), median", lambda r: fmt(get(r, "first_frame_ms.median"), " ms")),
        ("first rows (process start), median", lambda r: fmt(get(r, "first_rows_ms.median"), " ms")),
        ("first rows after the first frame, median", lambda r: fmt(get(r, "first_rows_after_first_frame_ms.median"), " ms")),
        ("`j` → its frame, median / p95", lambda r: median_p95(r, "key_j_to_frame_ms")),
        ("`G` settled (rows drawn), median / p95", lambda r: median_p95(r, "rows_settled.G_settled_ms")),
        ("`g` settled", lambda r: median_p95(r, "rows_settled.g_settled_ms")),
        ("sort (`o`) settled", lambda r: median_p95(r, "rows_settled.sort_settled_ms")),
        ("filter (tier:archival, pasted) settled", lambda r: median_p95(r, "rows_settled.filter_settled_ms")),
        ("clearing the filter settled", lambda r: median_p95(r, "rows_settled.clear_filter_settled_ms")),
        ("store read for `G`: keyset (OFFSET)", vs_offset("G_last_page_keyset", "G_last_page_offset_baseline")),
        (
            "store read for filter then `G`: keyset (OFFSET)",
            vs_offset("filter_then_G_keyset", "filter_then_G_offset_baseline"),
        ),
        (
            "store read for a drag to the middle: ladder + seek (OFFSET)",
            vs_offset("drag_to_middle_ladder_and_seek", "drag_to_middle_offset_baseline"),
        ),
        ("load average after this size", lambda r: fmt((r.get("load_average_after") or [None])[0])),
    ]
    return rows_table(by_size(files), rows)


def render_tui_stalls(files: dict[str, Doc]) -> list[str]:
    """One row per scenario and size that ran the stall scenarios."""
    rows = []
    for label, result, _doc in by_size(files):
        for scenario, found in (result.get("loop_stalls") or {}).items():
            rows.append(
                [
                    f"{label}: {scenario}",
                    f"{fmt(found.get('max_ms'))} / {fmt(found.get('p95_ms'))} ms",
                    fmt(found.get("busy_max_ms"), " ms"),
                    fmt(found.get("seconds"), " s"),
                ]
            )
    return table(["scenario", "lateness max / p95", "loop busy, max", "lasted"], rows)


# marker name -> (result files, oldest first; renderer)
SECTIONS: dict[str, tuple[list[str], Callable[[dict[str, Doc]], list[str]]]] = {
    "write-path": (["write-path.json"], render_write_path),
    "import": (["import-bench-quiet.json", "import.json"], render_import),
    "backfill": (["backfill-bench-quiet.json", "backfill.json"], render_backfill),
    "mcp": (["mcp.json"], render_mcp),
    "recall": (["recall.json", "recall-1m.json", "recall-1m-idle.json"], render_recall),
    "tui": (["tui.json", "tui-1m.json"], render_tui),
    "tui-stalls": (["tui.json"], render_tui_stalls),
}


def has_results(name: str, results: Path) -> bool:
    return any((results / f).exists() for f in SECTIONS[name][0])


def section(name: str, results: Path) -> str:
    """The generated text of one section: its sources, then its tables."""
    names, render = SECTIONS[name]
    files = {f: results_io.load(results / f) for f in names if (results / f).exists()}
    missing = [f for f in names if f not in files]
    lines: list[str] = []
    if len(files) == 1:
        lines = ["Source: " + source_line(*next(iter(files.items()))) + "."]
    elif files:
        lines = ["Sources:", ""] + [f"- [{i}] {source_line(f, d)}." for i, (f, d) in enumerate(files.items(), 1)]
    if missing:
        lines += [""] * bool(lines) + [f"No result file yet: {', '.join(f'`benchmarks/results/{f}`' for f in missing)}."]
    if files:
        lines += ["", *render(files)]
    return "\n".join(lines)


def rewrite(text: str, results: Path) -> str:
    """text with every marked section regenerated; a marker pair that is missing is an error
    once the section has a result file (a new benchmark's table waits for its first run)."""
    for name in SECTIONS:
        start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
        pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            if not has_results(name, results):
                continue
            raise ValueError(f"README.md has no {start} … {end} markers")
        body = section(name, results)
        text = pattern.sub(lambda _m, body=body: f"{start}\n{body}\n{end}", text, count=1)
    return text


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only compare; exit 1 if README.md is stale")
    ap.add_argument("--readme", type=Path, default=README)
    ap.add_argument("--results", type=Path, default=results_io.RESULTS)
    args = ap.parse_args(argv)
    try:
        current = args.readme.read_text(encoding="utf-8")
        fresh = rewrite(current, args.results)
    except (OSError, ValueError) as exc:
        print(f"readme_tables: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if fresh != current:
            print(f"{args.readme} is stale: run python -m benchmarks.readme_tables", file=sys.stderr)
            return 1
        return 0
    args.readme.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
