"""Command palette providers: every action of the binding table by name, plus
commands that have no key (sort by a column, filter by a tier or provenance,
pick a theme, show store info)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable, Iterator

from textual.command import DiscoveryHit, Hit, Hits, Provider

from . import keys
from .widgets.browser import SORT_CYCLE, SORT_LABELS

if TYPE_CHECKING:  # pragma: no cover
    from .app import EchoMemoryApp


def _commands(app: "EchoMemoryApp") -> Iterator[tuple[str, str, Callable[[], object]]]:
    keymap = getattr(app, "keymap", {})
    for key in keys.TABLE:
        if not key.palette:
            continue
        title = keys.SCOPE_TITLES.get(key.scope, key.scope)
        shown = keys.display_keys(key, keymap)
        help_text = f"{title} · {shown}"
        if key.write and app.read_only:
            help_text += " · disabled: read-only"
        name = key.description if key.scope == "app" else f"{key.scope.capitalize()}: {key.description}"
        yield name, help_text, partial(app.run_scoped, key)
    for column in SORT_CYCLE:
        label = SORT_LABELS.get(column, column)
        yield f"Sort entries by {label}", "Entry browser", partial(app.sort_entries, column)
    for tier in ("working", "episodic", "semantic", "archival"):
        yield f"Show {tier.upper()} entries", "Tier pyramid filter", partial(app.filter_tier, tier)
    yield "Show all tiers", "Tier pyramid filter", partial(app.filter_tier, None)
    for text, label in (
        ("pinned", "pinned entries"),
        ("type:user", "USER entries"),
        ("type:env", "ENVIRONMENT entries"),
        ("prov:user", "user-stated entries"),
        ("prov:cons", "consolidated entries"),
        ("prov:inferred", "model-inferred entries"),
        ("prov:legacy", "legacy entries"),
    ):
        yield f"Filter: {label}", f"Entry browser · /{text}", partial(app.filter_text, text)
    yield "Theme: dark", "textual-dark", partial(app.set_theme, "textual-dark")
    yield "Theme: light", "textual-light", partial(app.set_theme, "textual-light")
    yield "Store information", "path, schema, counts", app.show_store_info
    yield "Decay pass preview (dry run)", "what the next decay pass would archive", app.action_decay


class EchoCommands(Provider):
    async def discover(self) -> Hits:
        app = self.app
        for name, help_text, callback in _commands(app):  # type: ignore[arg-type]
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        app = self.app
        for name, help_text, callback in _commands(app):  # type: ignore[arg-type]
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
