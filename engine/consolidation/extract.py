"""Rule-based extraction for the offline adapter: first-person facts (identity,
preferences, tools and versions, paths) and project facts from what the user
said, plus the entities a session involves.

Keys follow one scheme so that a later statement about the same slot becomes a
new version of the same key: `user/<slot>`, `user/preference/<topic>`,
`<project>/<slot>`, `<subject>/path/<name>`. Content is the user's own sentence
turned to the third person, so nothing is paraphrased away."""

from __future__ import annotations

import re
from typing import Iterable, Optional

from ..models import MemoryType
from .records import CandidateFact, Message
from .text import STOP_WORDS, ToolMention, find_tools, sentences, slug, words

PRODUCER = "offline-rules/1"

_PROJECT = re.compile(
    r"(?<![\w/.-])([a-z][a-z0-9]+-(?:api|web|cli|app|service|server|lib|core|ui|bot|worker|sdk|site|docs))(?![\w-])",
    re.IGNORECASE,
)
_WE = re.compile(r"\b(?:we|we're|we've|our|us|the team|the project|the repo|the service|there)\b", re.IGNORECASE)
_I = re.compile(r"\b(?:I|I'm|I've|I'd|my|me)\b")
_PATH = re.compile(r"(?<![\w/])(~/[\w./-]+|\.{1,2}/[\w./-]+|/(?:[\w.-]+/)+[\w.-]*)")
_FILLER = re.compile(
    r"^(?:(?:no|nope|yes|yep|sure|right)\s*[,!:;]|(?:oh|ah|so|also|and|btw|fyi|yeah|ok|okay|well|"
    r"actually|heads up|by the way|quick note|for the record|just so you know)\b[,:!\s-]*)\s*",
    re.IGNORECASE,
)
_USER_SLOTS = {"editor", "shell", "terminal"}

_NAME = re.compile(r"\b(?i:my name is|call me)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
_LOCATION = re.compile(
    r"\bI(?:'m| am)?\s+(?:(?:now\s+)?(?:based|living|located) in|live in|work from|"
    r"moved to|relocated to)\s+([A-Z][\w-]+(?:,?\s+[A-Z][\w-]+)*)"
)
_ROLE = re.compile(
    r"\bI(?:'m| am| work as)\s+(?:a|an)\s+((?:[\w-]+\s+){0,3}(?:developer|engineer|designer|manager|"
    r"scientist|researcher|maintainer|student|lead|architect|consultant|sre))\b",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"\b(?:I(?:'d| would)?|I\s+(?:really|much|strongly|still|generally|usually|honestly|do))\s*"
    r"(?:really\s+|much\s+|strongly\s+|still\s+|generally\s+|usually\s+|honestly\s+)?"
    r"(prefer|like|love|enjoy|want|hate|dislike|avoid|can't stand|cannot stand|don't like|do not like|"
    r"don't want|do not want|rather)\b(.*)",
    re.IGNORECASE,
)
_ALWAYS = re.compile(r"^(?:please\s+)?(always|never)\s+(.+)", re.IGNORECASE)
_TOOL_VERB = re.compile(
    r"\b(?:use[sd]?|using|switch(?:ed)?|move[sd]?|migrat(?:ed|ion)|upgrade[sd]?|downgraded|bumped|pinned|pins|runs?|running|"
    r"on|bundled|bundle[sd]?|built|build|deploy(?:s|ed)?|hosted|hosts|installed|adopted|stores?|backed|"
    r"tests?)\b",
    re.IGNORECASE,
)
_FROM_TO = re.compile(r"\bfrom\s+.+?\bto\s+", re.IGNORECASE)
_PATH_VERB = re.compile(r"\b(?:is|are|lives?|sits?|stored|kept|goes|go|resides?)\s+(?:in|at|under|inside)?\b", re.IGNORECASE)
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "ports": ("port", "ports", "listens", "listen", "listening"),
    "deploy": ("deploy", "deploys", "deployed", "deployment", "deployments"),
    "release": ("release", "releases", "released", "releasing"),
    "auth": ("auth", "authenticates", "authentication", "token", "tokens", "oauth", "oauth2"),
    "schedule": ("cron", "nightly", "scheduled", "schedule"),
    "staging": ("staging",),
    "endpoint": ("endpoint", "url", "base url", "hostname"),
    "tests": ("test", "tests", "coverage"),
    "storage": ("store", "stores", "stored", "keep", "keeps", "kept", "persist", "persists"),
}
_IRREGULAR = {
    "am": "is",
    "'m": "is",
    "have": "has",
    "'ve": "has",
    "do": "does",
    "don't": "doesn't",
    "was": "was",
    "go": "goes",
    "'d": "would",
    "'ll": "will",
}
_UNCHANGED = {
    "can",
    "could",
    "will",
    "would",
    "should",
    "must",
    "might",
    "may",
    "shall",
    "did",
    "had",
    "went",
    "made",
    "set",
    "put",
    "got",
    "kept",
    "left",
    "built",
    "ran",
    "found",
    "cut",
    "read",
    "wrote",
    "never",
    "doesn't",
    "does",
    "is",
    "was",
}
_ADVERBS = r"(?:just|really|usually|always|never|still|now|also|mostly|only|recently|finally|actually|generally)"


def find_projects(text: str, known: Iterable[str] = ()) -> list[str]:
    """Project names in text: `name-api`-style tokens, and a known project's first
    part used alone ('atlas' for atlas-api)."""
    found: list[str] = [m.group(1).lower() for m in _PROJECT.finditer(text)]
    lowered = set(words(text))
    for project in known:
        head = project.split("-")[0]
        if project not in found and head in lowered and head not in STOP_WORDS:
            found.append(project)
    return list(dict.fromkeys(found))


def primary_tool(text: str) -> Optional[ToolMention]:
    """The tool a sentence is about: the one after 'from … to', else the first with a
    version, else the first named."""
    mentions = find_tools(text)
    if not mentions:
        return None
    moved = _FROM_TO.search(text)
    if moved:
        after = [m for m in mentions if m.start >= moved.end()]
        if after:
            return after[0]
    return next((m for m in mentions if m.version), mentions[0])


def conjugate(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _UNCHANGED or low.endswith("ed") or low.endswith("n't"):
        return verb
    if low.endswith(("s", "sh", "ch", "x", "o", "z")):
        return verb + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def third_person(sentence: str, who: str) -> str:
    """'I switched to Neovim' -> 'Maya switched to Neovim'; 'we moved' -> 'the team moved'."""
    text = sentence.strip().replace("\u2019", "'")
    while (stripped := _FILLER.sub("", text, count=1)) != text:
        text = stripped
    text = re.sub(r"\bI(?:'m| am)\b", f"{who} is", text)
    text = re.sub(r"\bI've\b", f"{who} has", text)
    text = re.sub(r"\bI'd\b", f"{who} would", text)
    text = re.sub(r"\bI'll\b", f"{who} will", text)
    text = re.sub(r"\bI don't\b", f"{who} doesn't", text)
    text = re.sub(r"\bI do not\b", f"{who} does not", text)
    text = re.sub(rf"\bI ({_ADVERBS} )?([A-Za-z']+)", lambda m: f"{who} {m.group(1) or ''}{conjugate(m.group(2))}", text)
    text = re.sub(r"\bmy\b", f"{who}'s", text, flags=re.IGNORECASE)
    text = re.sub(r"\bme\b", who, text)
    text = re.sub(r"\bwe(?:'re| are)\b", "the team is", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe've\b", "the team has", text, flags=re.IGNORECASE)
    text = re.sub(
        rf"\bwe ({_ADVERBS} )?([A-Za-z']+)",
        lambda m: f"the team {m.group(1) or ''}{conjugate(m.group(2))}",
        text,
        flags=re.IGNORECASE,
    )
    text = re.sub(r"\bour\b", "the team's", text, flags=re.IGNORECASE)
    text = text.rstrip(" ,;:-")
    if not text.endswith((".", "!", ")", "`")):
        text += "."
    if _PROJECT.match(text) or find_tools(text[:1]) or not text[0].isalpha():
        return text  # a lower-case name keeps its spelling
    return text[0].upper() + text[1:]


class RuleExtractor:
    """Facts from the user's declarative sentences (and the agent's WORKING notes):
    identity rules may each fire, otherwise the first rule that fits decides."""

    def __init__(self, who: str, known_projects: Iterable[str] = ()):
        self.who = who
        self.projects = tuple(known_projects)

    def extract(self, messages: list[Message], notes: list[str]) -> list[CandidateFact]:
        """Facts stamped with the time of the message that stated them (notes: unstamped)."""
        facts: dict[str, CandidateFact] = {}
        current: Optional[str] = None
        texts = [(m.role, m.content, m.at) for m in messages] + [("note", n, None) for n in notes]
        for role, text, at in texts:
            for sentence in sentences(text):
                projects = find_projects(sentence, self.projects + tuple(facts_projects(facts)))
                if role in ("user", "note") and not sentence.rstrip().endswith("?"):
                    for fact in self._facts(sentence, projects, current, role):
                        if role == "note" and fact.key in facts:
                            continue  # the user's own words outrank the agent's notes
                        facts.pop(fact.key, None)  # a later statement in the session wins
                        fact.stated_at = at
                        facts[fact.key] = fact
                if projects:
                    current = projects[-1]
        return list(facts.values())

    def _facts(self, sentence: str, projects: list[str], current: Optional[str], role: str) -> list[CandidateFact]:
        who = self.who
        first_person = bool(_I.search(sentence)) and role == "user"
        if first_person:
            identity = []
            if m := _NAME.search(sentence):
                identity.append(_fact("user/name", f"The user's name is {m.group(1)}.", MemoryType.USER, ["identity"], 0.9))
            if m := _LOCATION.search(sentence):
                identity.append(
                    _fact("user/location", f"{who} is based in {m.group(1)}.", MemoryType.USER, ["identity", "location"], 0.7)
                )
            if m := _ROLE.search(sentence):
                title = m.group(1).strip()
                article = "an" if title[0].lower() in "aeiou" else "a"
                identity.append(
                    _fact("user/role", f"{who} works as {article} {title}.", MemoryType.USER, ["identity", "role"], 0.7)
                )
            if identity:
                return identity
        if role == "user" and not projects:
            stated = _PREFERENCE.search(sentence) if first_person else None
            standing = None if stated else _ALWAYS.search(sentence)
            topic = slug((stated or standing).group(2), 2) if (stated or standing) else ""
            if topic:
                content = (
                    third_person(sentence, who)
                    if stated
                    else f"{who} asks to {standing.group(1).lower()} {standing.group(2).rstrip('.!')}."
                )
                return [_fact(f"user/preference/{topic}", content, MemoryType.USER, ["preference", *topic.split("-")], 0.6)]
        fact = self._project_or_tool(sentence, projects, current, first_person)
        return [] if fact is None else [fact]

    def _project_or_tool(
        self, sentence: str, projects: list[str], current: Optional[str], first_person: bool
    ) -> Optional[CandidateFact]:
        subject = self._subject(sentence, projects, current, first_person)
        if subject is None:
            return None
        path = _PATH.search(sentence)
        if path and _PATH_VERB.search(sentence):
            name = _path_name(sentence[: path.start()], subject) or slug(path.group(1).rstrip("/").split("/")[-1], 2)
            if name:
                return self._about(subject, f"path/{name}", sentence, ["path", name], projects, 0.5)
        tool = primary_tool(sentence)
        if tool is not None and _TOOL_VERB.search(sentence):
            if subject == "user" and tool.tool.slot not in _USER_SLOTS and current is not None:
                subject = current
            tags = (["tool"] if subject == "user" else []) + [tool.tool.slot, tool.tool.name.lower()]
            return self._about(subject, tool.tool.slot, sentence, tags, projects, 0.5 if subject != "user" else 0.6)
        if subject != "user":
            lowered = " " + " ".join(words(sentence)) + " "
            for attribute, cues in ATTRIBUTES.items():
                if any(f" {cue} " in lowered for cue in cues):
                    return self._about(subject, attribute, sentence, [attribute], projects, 0.5)
        return None

    def _subject(self, sentence: str, projects: list[str], current: Optional[str], first_person: bool) -> Optional[str]:
        if projects:
            return projects[0]
        if _WE.search(sentence) and current is not None:
            return current
        if first_person:
            return "user"
        return current

    def _about(
        self, subject: str, slot: str, sentence: str, tags: list[str], projects: list[str], importance: float
    ) -> CandidateFact:
        content = third_person(sentence, self.who)
        if subject == "user":
            return _fact(f"user/{slot}", content, MemoryType.USER, tags, importance)
        if subject not in projects:
            content = f"{subject}: {content[0].lower() + content[1:]}"
        return _fact(f"{subject}/{slot}", content, MemoryType.ENVIRONMENT, [subject, *tags], importance)


def facts_projects(facts: dict[str, CandidateFact]) -> list[str]:
    return [f.key.split("/")[0] for f in facts.values() if f.type is MemoryType.ENVIRONMENT]


def _path_name(before: str, subject: str) -> str:
    """Name a path by what the sentence says lives there ('the ledger db is at …' -> 'db')."""
    verb = list(_PATH_VERB.finditer(before))
    head = before[: verb[-1].start()] if verb else before
    skip = set(subject.split("-")) | {subject, "user", "team"}
    picked = [w for w in words(head) if w not in STOP_WORDS and w not in skip and not w.startswith(("~", "/"))]
    return slug(" ".join(picked[-2:]), 2)


def _fact(key: str, content: str, type_: MemoryType, tags: list[str], importance: float) -> CandidateFact:
    return CandidateFact(
        key=key,
        content=content,
        type=type_,
        tags=list(dict.fromkeys(t for t in tags if t)),
        importance=importance,
        produced_by=PRODUCER,
    )


def entities(messages: list[Message], known_projects: Iterable[str] = ()) -> list[str]:
    """Entity ids a session involves: the projects and tools it names, as slugs."""
    known = tuple(known_projects)
    found: list[str] = []
    for message in messages:
        found += find_projects(message.content, known)
        found += [m.tool.name.lower().replace(" ", "-") for m in find_tools(message.content)]
    return list(dict.fromkeys(found))
