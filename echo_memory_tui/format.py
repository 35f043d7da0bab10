"""Small, pure formatting helpers shared by the panes: ages, badges, colours,
invisible characters made visible. No engine calls here."""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from rich.style import Style
from rich.text import Text

from engine import MemoryTier, ProvenanceLevel, reveal_invisible

TIER_COLOURS = {
    "working": "#ff9800",
    "episodic": "#2196f3",
    "semantic": "#4caf50",
    "archival": "#9e9e9e",
}

PROVENANCE = {
    # level: (label, short, style)
    3: ("user stated", "USER", Style(color="#ffffff", bgcolor="#2e7d32", bold=True)),
    2: ("consolidated", "CONS", Style(color="#ffffff", bgcolor="#1565c0", bold=True)),
    1: ("model inferred", "INFR", Style(color="#000000", bgcolor="#f9a825", bold=True)),
    0: ("legacy", "LEGC", Style(color="#ffffff", bgcolor="#616161", bold=True)),
}


def provenance_badge(source: ProvenanceLevel | int, short: bool = False) -> Text:
    level = source.value if isinstance(source, ProvenanceLevel) else int(source)
    label, abbrev, style = PROVENANCE.get(level, ("?", "?", Style()))
    if short:
        return Text(f"{abbrev}", style=style)
    return Text(f" {label} · L{level} ", style=style)


def tier_text(tier: MemoryTier | str, short: bool = False) -> Text:
    name = tier.label if isinstance(tier, MemoryTier) else str(tier)
    return Text(name[:4].upper() if short else name.upper(), style=Style(color=TIER_COLOURS.get(name), bold=True))


def age(then: Optional[datetime], now: datetime) -> str:
    """Compact age: 45s, 12m, 5h, 3d, 7w, 11mo, 2y."""
    if then is None:
        return "—"
    seconds = (now - then).total_seconds()
    future = seconds < 0
    seconds = abs(seconds)
    if seconds < 60:
        out = f"{int(seconds)}s"
    elif seconds < 3600:
        out = f"{int(seconds // 60)}m"
    elif seconds < 86400:
        out = f"{int(seconds // 3600)}h"
    elif seconds < 86400 * 14:
        out = f"{int(seconds // 86400)}d"
    elif seconds < 86400 * 60:
        out = f"{int(seconds // (86400 * 7))}w"
    elif seconds < 86400 * 365:
        out = f"{int(seconds // (86400 * 30))}mo"
    else:
        out = f"{seconds / (86400 * 365):.0f}y"
    return ("in " + out) if future else out


def ago(then: Optional[datetime], now: datetime) -> str:
    """'3d ago', or 'in 38m' for a time after now."""
    text = age(then, now)
    return text if text.startswith("in ") or text == "—" else f"{text} ago"


def stamp(value: Optional[datetime]) -> str:
    return "—" if value is None else value.strftime("%Y-%m-%d %H:%M UTC")


def visible(text: str, style: str = "reverse red") -> Text:
    """Text with every invisible character shown as a marker like ⟨U+200B⟩."""
    shown = reveal_invisible(text)
    out = Text()
    i = 0
    while i < len(shown):
        j = shown.find("⟨U+", i)
        if j < 0:
            out.append(shown[i:])
            break
        k = shown.find("⟩", j)
        if k < 0:
            out.append(shown[i:])
            break
        out.append(shown[i:j])
        out.append(shown[j : k + 1], style=style)
        i = k + 1
    return out


def highlight_span(
    content: str, offset: Optional[int], matched: Optional[str], codepoint: Optional[str] = None, style: str = "bold reverse red"
) -> Text:
    """The content with the scanner's match highlighted and invisible characters revealed.

    The scanner reports the match in normalised form and its offset in the
    original; find the original span near that offset (case-insensitively),
    falling back to the matched length."""
    if offset is None or offset < 0 or offset > len(content):
        return visible(content)
    if codepoint:
        end = offset + 1
    else:
        length = len(matched or "") or 1
        end = min(len(content), offset + length)
        if matched:
            found = content.lower().find(matched.lower(), max(0, offset - 2))
            if found >= 0 and found <= offset + 2:
                end = found + len(matched)
    out = visible(content[:offset])
    middle = visible(content[offset:end], style=style)
    middle.stylize(style)
    out.append_text(middle)
    out.append_text(visible(content[end:]))
    return out


def bar(value: float, width: int = 10) -> str:
    """A horizontal bar of eighths for 0..1."""
    value = max(0.0, min(1.0, value))
    eighths = int(round(value * width * 8))
    full, part = divmod(eighths, 8)
    return ("█" * full + ("▏▎▍▌▋▊▉"[part - 1] if part else "")).ljust(width)
