"""Plain-English text tools shared by the offline adapter and the contradiction
pre-filter: sentences, content words, a small tool lexicon, and the values two
statements can disagree on (versions, numbers, durations, dates, negation,
preference polarity). Pure functions, stdlib only, deterministic."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..words import CHAT_STOP_WORDS as STOP_WORDS  # the shared list and tokenizer (engine/words.py)
from ..words import words

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
NEGATION_WORDS = frozenset({"not", "no", "never", "nor", "longer", "stopped", "dropped", "removed", "without"})


def sentences(text: str) -> list[str]:
    """Split prose into sentences; code spans and paths stay intact."""
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if s and s.strip()]


def stem(word: str) -> str:
    """A crude suffix stripper: enough for 'releases'/'released'/'release' to meet,
    while 'atlas', 'redis' and 'status' keep their final s."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix) and not word[-len(suffix) - 1].isdigit():
            if suffix == "s" and word.endswith(("ss", "us", "is", "as")):
                break
            return word[: -len(suffix)]
    return word.rstrip("e") if len(word) > 4 else word


def content_words(text: str) -> set[str]:
    """Stems of the words that carry meaning (no stop words, no negation, no digits)."""
    return {stem(w) for w in words(text) if w not in STOP_WORDS and w not in NEGATION_WORDS and not w[0].isdigit() and len(w) > 1}


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def slug(text: str, max_words: int = 3) -> str:
    picked = [w for w in words(text) if w not in STOP_WORDS][:max_words]
    return "-".join(re.sub(r"[^a-z0-9+#]+", "-", w).strip("-") for w in picked)


# ---- tools ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tool:
    name: str  # display name
    slot: str  # what it fills: an exclusive slot (editor, bundler) or itself (python)
    versioned: bool = False


_LEXICON: dict[str, Tool] = {}


def _tools(slot: str, names: str, versioned: bool = False, own_slot: bool = False) -> None:
    for display in names.split(","):
        display = display.strip()
        _LEXICON[display.lower()] = Tool(display, display.lower() if own_slot else slot, versioned)


_tools("editor", "Neovim,Vim,Emacs,VS Code,VSCode,Helix,Zed,PyCharm,Sublime Text")
_tools("shell", "zsh,bash,fish,nushell")
_tools("terminal", "WezTerm,Alacritty,kitty,iTerm2,tmux")
_tools("runtime", "Python,Rust,Node.js,Node,Go,Java,Ruby,TypeScript,Deno,Bun", versioned=True, own_slot=True)
_tools("database", "PostgreSQL,Postgres,MySQL,SQLite,MongoDB,DuckDB", versioned=True)
_tools("cache", "Redis,Memcached,Valkey", versioned=True)
_tools("queue", "RQ,Celery,Dramatiq,Sidekiq,Kafka,RabbitMQ")
_tools("bundler", "webpack,Vite,esbuild,Rollup,Parcel,Turbopack", versioned=True)
_tools("test-runner", "pytest,Vitest,Jest,Mocha,nextest,Playwright", versioned=True)
_tools("package-manager", "pnpm,npm,Yarn,Poetry,uv,pip,Cargo", versioned=True)
_tools("ci", "GitHub Actions,GitLab CI,CircleCI,Buildkite,Jenkins")
_tools("hosting", "Cloudflare Pages,Vercel,Netlify,Fly.io,Heroku,Render")
_tools("framework", "FastAPI,Django,Flask,React,Svelte,Vue,Next.js,Axum,Clap", versioned=True)
_ALIASES = {"postgres": "postgresql", "node": "node.js", "vscode": "vs code", "nvim": "neovim"}

_TOOL_RE = re.compile(
    r"(?<![\w.-])(" + "|".join(re.escape(n) for n in sorted(_LEXICON, key=len, reverse=True)) + r")(?![\w-])",
    re.IGNORECASE,
)
_VERSION_AFTER = re.compile(r"\s*(?:version\s+|v)?(\d+(?:\.\d+){0,2})(?![\w.]*\.\w)", re.IGNORECASE)


@dataclass(frozen=True)
class ToolMention:
    tool: Tool
    version: str | None
    start: int


def find_tools(text: str) -> list[ToolMention]:
    """Tools named in text, each with the version written right after it, if any."""
    found = []
    for match in _TOOL_RE.finditer(text):
        name = match.group(1).lower()
        if name == "go" and not match.group(1)[0].isupper():
            continue  # "go" the verb
        tool = _LEXICON[_ALIASES.get(name, name)]
        version = None
        after = _VERSION_AFTER.match(text, match.end())
        if after and tool.versioned:
            version = after.group(1)
        found.append(ToolMention(tool, version, match.start()))
    return found


def versions_compatible(a: str, b: str) -> bool:
    """'3.12' and '3.12.1' agree (one refines the other); '3.12' and '3.13' do not."""
    pa, pb = a.split("."), b.split(".")
    n = min(len(pa), len(pb))
    return pa[:n] == pb[:n]


# ---- numbers, durations, dates ----------------------------------------------------------
NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty-five": 45,
    "sixty": 60,
    "ninety": 90,
    "half an": 0.5,
}
_UNIT_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800, "month": 2592000}
_NUM = r"(\d+(?:\.\d+)?|half an|forty-five|" + "|".join(k for k in NUMBER_WORDS if " " not in k and "-" not in k) + r")"
_DURATION = re.compile(_NUM + r"[\s-]*(second|minute|hour|day|week|month)s?\b", re.IGNORECASE)
_BARE_NUMBER = re.compile(r"(?<![\w.:/-])(\d+(?:\.\d+)?)(?![\w.:/-]*\w)")


def durations(text: str) -> list[tuple[float, str]]:
    """(seconds, surface) for every duration: 'one hour' and '60 minutes' compare equal."""
    out = []
    for match in _DURATION.finditer(text):
        raw = match.group(1).lower()
        amount = float(raw) if raw[0].isdigit() else float(NUMBER_WORDS[raw])
        out.append((amount * _UNIT_SECONDS[match.group(2).lower()], match.group(0)))
    return out


def anchored_numbers(text: str) -> list[tuple[set[str], str]]:
    """Bare numbers with the content words around them ('listens on port 8000 locally'
    -> ({'listen', 'port', 'local'}, '8000')): two numbers are about the same thing
    when their neighbourhoods meet. Numbers inside versions, durations, dates, paths
    and identifiers are left out."""
    masked = _DURATION.sub(" ", _DATE.sub(" ", text))
    for mention in find_tools(masked):
        if mention.version:
            masked = masked.replace(mention.version, " ", 1)
    out = []
    for match in _BARE_NUMBER.finditer(masked):
        before = [w for w in words(masked[: match.start()]) if w not in STOP_WORDS and not w[0].isdigit()][-2:]
        after = [w for w in words(masked[match.end() :]) if w not in STOP_WORDS and not w[0].isdigit()][:1]
        anchors = {stem(w) for w in before + after}
        if anchors:
            out.append((anchors, match.group(1)))
    return out


def surface(stems: set[str], text: str) -> list[str]:
    """The words of text whose stems are in stems, in order: for readable descriptions."""
    return list(dict.fromkeys(w for w in words(text) if stem(w) in stems))


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b(?:"
    + "|".join(WEEKDAYS)
    + r")s?\b|\b(?:"
    + "|".join(MONTHS)
    + r")(?:\s+\d{1,2}(?:st|nd|rd|th)?)?\b|\b(?:first|second|third|last|every other)\s+(?:"
    + "|".join(WEEKDAYS)
    + r")\b|\b\d{1,2}:\d{2}\b",
    re.IGNORECASE,
)


def dates(text: str) -> set[str]:
    """Calendar expressions (weekdays, months, ISO dates, clock times), normalised."""
    return {
        " ".join(m.group(0).lower().rstrip("s").split())
        if m.group(0).lower().rstrip("s") in WEEKDAYS
        else " ".join(m.group(0).lower().split())
        for m in _DATE.finditer(text)
    }


# ---- negation and preference ------------------------------------------------------------
_NEGATION = re.compile(
    r"\b(?:not|no longer|never|no more|stopped|dropped|removed|got rid of|isn't|aren't|doesn't|don't|"
    r"didn't|won't|can't|cannot)\b",
    re.IGNORECASE,
)


def is_negated(text: str) -> bool:
    return bool(_NEGATION.search(text.replace("\u2019", "'")))


_POSITIVE = re.compile(
    r"\b(?:prefers?|preferred|likes?|loves?|wants?|enjoys?|favou?rs?|always uses?|"
    r"swears by|sticks? (?:with|to))\b",
    re.IGNORECASE,
)
_NEGATIVE = re.compile(
    r"\b(?:hates?|dislikes?|avoids?|can't stand|cannot stand|(?:don't|doesn't|do not|does not|"
    r"never) (?:like|want|use)s?|is tired of|gave up on|no longer (?:likes?|wants?|uses?))\b",
    re.IGNORECASE,
)
ANTONYMS = (
    ("tabs", "spaces"),
    ("dark", "light"),
    ("verbose", "terse"),
    ("verbose", "concise"),
    ("short", "long"),
    ("snake_case", "camelcase"),
    ("single", "double"),
    ("rebase", "merge"),
    ("monorepo", "polyrepo"),
    ("sync", "async"),
    ("mocks", "fakes"),
)


def preference(text: str) -> tuple[int, set[str]] | None:
    """(polarity, topic words) of a stated preference: +1 likes, -1 dislikes, None if none."""
    text = text.replace("\u2019", "'")
    neg, pos = _NEGATIVE.search(text), _POSITIVE.search(text)
    if neg and (not pos or neg.start() <= pos.start()):
        return -1, content_words(text[neg.end() :])
    if pos:
        return 1, content_words(text[pos.end() :])
    return None


def antonym_clash(a: str, b: str) -> tuple[str, str] | None:
    """Opposite words on the two sides ('tabs' here, 'spaces' there), if any."""
    wa, wb = set(words(a)), set(words(b))
    for x, y in ANTONYMS:
        if (x in wa and y in wb and y not in wa and x not in wb) or (y in wa and x in wb and x not in wa and y not in wb):
            return (x, y) if x in wa else (y, x)
    return None
