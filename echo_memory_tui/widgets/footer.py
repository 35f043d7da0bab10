"""The key footer, rebuilt after the browser's rows rather than before them.

Textual's Footer rebuilds itself (about fifty key widgets, then a whole-screen layout and
restyle) whenever a focus change changes the active keys. Enter and Esc in the `/` filter
move the focus back to the browser as its reload starts, so that rebuild ran first and the
filtered rows waited 0.1-0.5 s behind it on a loaded machine (issue 14, seen in a profile
of a filter at 1k entries: most of the time in Footer and the layout it asks for). While a
browser reload is in flight the footer now waits for its rows."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

from .browser import EntryBrowser


class RowsFirstFooter(Footer):
    def bindings_changed(self, screen: Screen) -> None:
        browsers = self.app.query(EntryBrowser)
        browser = browsers.first() if browsers else None
        if browser is not None and browser.reloading():
            # (call_later: the rebuild runs as the footer's own message, in its own context)
            browser.after_reload(lambda: self.call_later(super(RowsFirstFooter, self).bindings_changed, screen))
            return
        super().bindings_changed(screen)
