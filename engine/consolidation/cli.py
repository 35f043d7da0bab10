"""CLI commands for sessions, consolidation, contradictions and version history,
registered through engine.cli's EXTENSIONS hook. Every command takes --json.
Exit codes follow engine.cli: 0 ok, 1 failure or not found, 2 usage, 3 refused."""

from __future__ import annotations

import sys

from ..cli import EXIT_FAIL, EXIT_OK, emit, positive_int
from ..models import ContradictionStatus
from ..query import parse_time_option


def register(add) -> None:
    statuses = ", ".join(s.label for s in ContradictionStatus)
    p = add("contradictions", cmd_contradictions, "list contradictions (pending first in the app)")
    p.add_argument(
        "--status", choices=[s.label for s in ContradictionStatus], help=f"only this status: {statuses} (default: all)"
    )
    p.add_argument("--limit", type=positive_int, help="at most N (at least 1), newest first (default: all)")
    p = add("contradiction", cmd_contradiction, "one contradiction with its entries and explanation")
    p.add_argument("action", choices=["show"], help="show (the only action)")
    p.add_argument("id", help="the contradiction's id, as `contradictions` prints it")
    p = add("resolve", cmd_resolve, "resolve a pending contradiction by hand")
    p.add_argument("id", help="the contradiction's id")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--keep", choices=["a", "b", "both"], help="keep a (b is superseded), keep b, or keep both")
    how.add_argument("--merge", metavar="TEXT", help="replace both with this text, stated by you")
    add("undo", cmd_undo, "revert the last resolution").add_argument("--id", help="only this contradiction's last one")
    add("history", cmd_history, "an entry's version lattice (ancestors, descendants, merges)").add_argument(
        "id", help="entry id, or its first 8 characters (as list prints them)"
    )
    add("sessions", cmd_sessions, "conversation sessions and their consolidation state").add_argument(
        "--status",
        choices=["open", "ended", "consolidated"],
        help="only sessions that are open, ended or consolidated (default: all)",
    )
    p = add("episodes", cmd_episodes, "episodes made from sessions, newest first")
    p.add_argument("--session", help="only this session's episodes (its key)")
    p.add_argument("--entity", help="only episodes that name this entity, e.g. atlas")
    p.add_argument("--query", help="text in the summary")
    p.add_argument("--similar", metavar="TEXT", help="rank episodes by embedding similarity to TEXT")
    p.add_argument("--since", help="ISO date/time or a span back from now: 12h, 7d, 2w")
    p.add_argument("--until", help="ISO date/time or a span back from now")
    p.add_argument("--limit", type=positive_int, help="at most N episodes (at least 1; default: all; 10 with --similar)")
    add("consolidate", cmd_consolidate, "run consolidation now (and any job a crash left)").add_argument(
        "--session", help="only this session"
    )
    add("runs", cmd_runs, "recent consolidation runs").add_argument(
        "--limit", type=positive_int, default=20, help="at most N runs (at least 1), newest first (default 20)"
    )


async def cmd_contradictions(engine, args) -> int:
    records = await engine.consolidation.contradictions(args.status, args.limit)
    emit(
        args,
        [r.to_dict() for r in records],
        lambda: (
            "\n".join(
                f"{r.id[:8]} {r.status.label:<9} {r.confidence:.2f} {r.kind:<10} {r.entry_a_id[:8]} ~ {r.entry_b_id[:8]}  "
                f"{r.description}"
                for r in records
            )
            or "(no contradictions)"
        ),
    )
    return EXIT_OK


async def cmd_contradiction(engine, args) -> int:
    service = engine.consolidation
    record = await service.contradiction(args.id)
    a, b = await engine.get(record.entry_a_id), await engine.get(record.entry_b_id)
    data = {
        **record.to_dict(),
        "entry_a": a.to_dict(),
        "entry_b": b.to_dict(),
        "resolutions": await service.resolutions(record.id),
    }
    preview = record.detail.get("preview", {})
    emit(
        args,
        data,
        lambda: "\n".join(
            [
                f"{record.id}  {record.status.label}  confidence {record.confidence:.2f}  ({record.kind}, by {record.detector})",
                f"  {record.description}",
                f"  a: [{a.source.label}, v{a.version}, {a.tier.label}] {a.key}: {a.content}",
                f"  b: [{b.source.label}, v{b.version}, {b.tier.label}] {b.key}: {b.content}",
                f"  why: {record.detail.get('explanation', '')}",
                f"  rule: {preview.get('reason', '')}" + (f" -> keep {preview.get('winner')}" if preview.get("winner") else ""),
            ]
            + ([f"  resolution: {record.resolution} at {record.resolved_at:%Y-%m-%d %H:%M}"] if record.resolved_at else [])
        ),
    )
    return EXIT_OK


async def cmd_resolve(engine, args) -> int:
    service = engine.consolidation
    if args.merge is not None:
        result = await service.merge(args.id, args.merge, actor="cli")
    else:
        result = await service.resolve(args.id, args.keep, actor="cli")
    emit(args, result.to_dict(), lambda: _describe(result))
    return EXIT_OK


async def cmd_undo(engine, args) -> int:
    result = await engine.consolidation.undo(args.id, actor="cli")
    emit(args, result.to_dict(), lambda: _describe(result))
    return EXIT_OK


def _describe(result) -> str:
    lines = [f"{result.action}: contradiction {result.contradiction.id[:8]} is {result.contradiction.status.label}"]
    lines += [
        f"  {e.id[:8]} {e.tier.label:<8} v{e.version} {e.key}" + (f" -> {e.superseded_by[:8]}" if e.superseded_by else "")
        for e in result.changed
    ]
    return "\n".join(lines)


async def cmd_history(engine, args) -> int:
    lattice = await engine.consolidation.lattice(args.id)
    arrows = {e["from"]: e for e in lattice.edges}
    emit(
        args,
        lattice.to_dict(),
        lambda: "\n".join(
            f"{'*' if n['id'] == lattice.root_id else ' '} {n['id'][:8]} v{n['version']:<2} {n['tier']:<8} {n['source']:<14} "
            f"{n['key']:<28} {n['content'][:50]}"
            + (f"  --{arrows[n['id']]['kind']}--> {arrows[n['id']]['to'][:8]}" if n["id"] in arrows else "")
            for n in lattice.nodes
        ),
    )
    return EXIT_OK


async def cmd_sessions(engine, args) -> int:
    sessions = await engine.consolidation.list_sessions(args.status)
    emit(
        args,
        [s.to_dict() for s in sessions],
        lambda: (
            "\n".join(
                f"{s.key:<20} {s.status:<12} {s.messages:>4} msgs {s.unconsolidated:>4} unconsolidated {s.episodes:>3} episodes  "
                f"started {s.started_at:%Y-%m-%d %H:%M}"
                for s in sessions
            )
            or "(no sessions)"
        ),
    )
    return EXIT_OK


async def cmd_episodes(engine, args) -> int:
    now = engine.clock()
    if args.similar:
        found = await engine.search_episodes(
            args.similar, args.entity, parse_time_option(args.since, now), parse_time_option(args.until, now), args.limit or 10
        )
        emit(
            args,
            found.to_dict(),
            lambda: (
                "\n".join(
                    [f"{h.rank:>2} {h.score:.3f} {h.episode.session_key:<12} {h.episode.summary[:90]}" for h in found.hits]
                    + [f"   notice: {n.message}" for n in found.notices]
                )
                or "(no episodes)"
            ),
        )
        return EXIT_OK
    episodes = await engine.consolidation.episodes(
        args.session, args.entity, parse_time_option(args.since, now), parse_time_option(args.until, now), args.query, args.limit
    )
    emit(
        args,
        [e.to_dict() for e in episodes],
        lambda: (
            "\n".join(
                f"{e.id[:8]} {e.created_at:%Y-%m-%d %H:%M} {e.session_key:<12} [{e.message_range_start}-{e.message_range_end}] "
                f"imp {e.importance:.2f} {', '.join(e.entity_ids[:4])}\n    {e.summary}"
                for e in episodes
            )
            or "(no episodes)"
        ),
    )
    return EXIT_OK


async def cmd_consolidate(engine, args) -> int:
    service = engine.consolidation
    try:
        runs = await service.consolidate(args.session)
    finally:
        await service.stop()
    for key, holder in service.skipped.items():
        print(f"notice: session {key} is being consolidated by another process ({holder}); left to it", file=sys.stderr)
    emit(
        args,
        [r.to_dict() for r in runs],
        lambda: (
            "\n".join(
                f"{r.session_key:<20} {r.status:<7} "
                + ", ".join(f"{k}={v}" for k, v in r.counts.items())
                + "".join(f"\n    error: {e}" for e in r.errors)
                for r in runs
            )
            or "nothing to consolidate"
        ),
    )
    return EXIT_OK if all(r.status == "ok" for r in runs) else EXIT_FAIL


async def cmd_runs(engine, args) -> int:
    runs = await engine.consolidation.runs(args.limit)
    emit(
        args,
        [r.to_dict() for r in runs],
        lambda: (
            "\n".join(
                f"{r.started_at:%Y-%m-%d %H:%M} {r.session_key:<16} {r.trigger:<12} {r.status:<11} "
                f"{r.extractor or '-'}: " + ", ".join(f"{k}={v}" for k, v in r.counts.items())
                for r in runs
            )
            or "(no runs)"
        ),
    )
    return EXIT_OK
