"""The Textual app over the engine. Importing the package registers the app's own
config sections ([keys], [ui]) with the engine's loader, so every entry point
refuses a malformed file the same way."""

from .config_sections import register

register()
