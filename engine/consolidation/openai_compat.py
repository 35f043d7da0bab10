"""The adapter for any OpenAI-compatible chat-completions endpoint (Ollama,
llama.cpp, vLLM, hosted services): asks for one JSON object per call, retries
transient failures (timeouts, connection errors, 5xx, 429) a bounded number of
times with exponential backoff, and refuses any reply it cannot fully validate,
so a malformed or truncated answer never becomes a half-built fact.

httpx is imported on first use: importing it loads its command-line extras (rich),
which the engine must not pull in at import time."""

from __future__ import annotations

import asyncio
import json
import os
import re
from typing import TYPE_CHECKING, Any, Optional

from ..config import Settings
from ..models import InvalidValue, MemoryEntry, MemoryType
from .llm import ExtractionContext, LanguageModel, ModelError, ModelReplyError
from .records import CandidateFact, Message, Signals, Summary, Verdict

if TYPE_CHECKING:
    import httpx

_SUMMARY_PROMPT = (
    "You summarise a conversation between a developer and an AI assistant for the assistant's long-term memory. "
    'Reply with one JSON object: {"summary": string (at most 3 sentences), "entities": [string] (projects, tools '
    'and people named, as lower-case slugs), "importance": number between 0 and 1}.'
)
_EXTRACT_PROMPT = (
    "You extract durable facts from a conversation for an AI assistant's long-term memory: the user's identity and "
    "preferences, the tools and versions they use, paths, and facts about their projects. Only facts the user stated; "
    "no questions, no plans. Keys look like 'user/<slot>', 'user/preference/<topic>', '<project>/<slot>'. "
    'Reply with one JSON object: {"facts": [{"key": string, "content": string (one third-person sentence), '
    '"type": "user" or "environment", "tags": [string], "importance": number between 0 and 1}]}.'
)
_VERIFY_PROMPT = (
    "You judge whether two memory entries of an AI assistant contradict each other: both about the same subject, "
    'with values that cannot both be true. Reply with one JSON object: {"contradicts": boolean, "confidence": '
    'number between 0 and 1, "kind": one of "version", "value", "number", "date", "preference", '
    '"negation", "other", "none", "description": string (one line), "explanation": string}.'
)
KINDS = ("version", "value", "number", "date", "preference", "negation", "other", "none")
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


class OpenAICompatModel(LanguageModel):
    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: Optional[str] = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        backoff_seconds: float = 0.5,
    ):
        self.model = model
        self.name = f"openai-compatible:{model or 'default'}"
        self.max_retries = max_retries
        self.backoff_seconds = backoff_seconds
        import httpx

        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._client = httpx.AsyncClient(timeout=timeout, headers=headers, trust_env=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> "OpenAICompatModel":
        return cls(
            base_url=str(settings.get("memory.llm.baseUrl")).strip(),
            model=str(settings.get("memory.llm.model")),
            api_key=os.environ.get(str(settings.get("memory.llm.apiKeyEnv"))) or None,
            timeout=float(settings.get("memory.llm.timeoutSeconds")),
            max_retries=int(settings.get("memory.llm.maxRetries")),
        )

    async def aclose(self) -> None:
        await self._client.aclose()

    # ---- the three jobs ------------------------------------------------------------
    async def summarise(self, messages: list[Message], context: ExtractionContext) -> Summary:
        reply = await self.ask_json(_SUMMARY_PROMPT, _transcript(messages, []))
        summary = _field(reply, "summary", str).strip()
        if not summary:
            raise ModelReplyError("the model's summary is empty")
        return Summary(
            summary, [e.strip() for e in _strings(reply, "entities") if e.strip()], _fraction(reply, "importance"), self.name
        )

    async def extract_facts(self, messages: list[Message], notes: list[str], context: ExtractionContext) -> list[CandidateFact]:
        reply = await self.ask_json(_EXTRACT_PROMPT, f"The user is called {context.who}.\n" + _transcript(messages, notes))
        raw = _field(reply, "facts", list)
        facts = []
        for i, item in enumerate(raw):
            if not isinstance(item, dict):
                raise ModelReplyError(f"facts[{i}] is not an object")
            try:
                type_ = MemoryType.parse(_field(item, "type", str))
            except InvalidValue as exc:
                raise ModelReplyError(f"facts[{i}]: {exc}") from None
            facts.append(
                CandidateFact(
                    key=_field(item, "key", str).strip(),
                    content=_field(item, "content", str).strip(),
                    type=type_,
                    tags=[t.strip() for t in _strings(item, "tags") if t.strip()],
                    importance=_fraction(item, "importance"),
                    produced_by=self.name,
                )
            )
        return facts

    async def verify(self, a: MemoryEntry, b: MemoryEntry, signals: Signals) -> Verdict:
        reply = await self.ask_json(_VERIFY_PROMPT, f"Entry A:\n{_entry(a)}\n\nEntry B:\n{_entry(b)}")
        contradicts = _field(reply, "contradicts", bool)
        explanation = reply.get("explanation", "")
        if not isinstance(explanation, str):
            raise ModelReplyError("'explanation' must be a string")
        kind = _field(reply, "kind", str).strip().lower()
        return Verdict(
            contradicts,
            _fraction(reply, "confidence"),
            kind if kind in KINDS else "other",
            _field(reply, "description", str),
            explanation,
            self.name,
        )

    # ---- transport -----------------------------------------------------------------
    async def ask_json(self, system: str, user: str) -> dict[str, Any]:
        """One chat completion whose reply must be a JSON object."""
        payload = {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        }
        return _parse_reply(await self._post(payload))

    async def _post(self, payload: dict[str, Any]) -> httpx.Response:
        import httpx

        failure = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                await asyncio.sleep(self.backoff_seconds * 2 ** (attempt - 1))
            try:
                response = await self._client.post(self._url, json=payload)
            except httpx.TimeoutException:
                failure = f"timed out after {self._client.timeout.read}s"
                continue
            except httpx.TransportError as exc:
                failure = f"could not connect ({exc.__class__.__name__}: {exc})"
                continue
            if response.status_code >= 500 or response.status_code == 429:
                failure = f"HTTP {response.status_code}"
                continue
            if response.status_code >= 400:
                raise ModelError(f"{self._url} refused the request: HTTP {response.status_code} {response.text[:200]}")
            return response
        raise ModelError(f"{self._url}: {failure} ({self.max_retries + 1} attempts)")


def _parse_reply(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        raise ModelReplyError(f"the endpoint's reply is not JSON: {response.text[:120]!r}") from None
    try:
        choice = body["choices"][0]
        content = choice["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ModelReplyError("the endpoint's reply has no choices[0].message.content") from None
    if choice.get("finish_reason") == "length":
        raise ModelReplyError("the model's reply was cut off (finish_reason=length)")
    if not isinstance(content, str):
        raise ModelReplyError("the model's message content is not text")
    fenced = _FENCE.match(content)
    try:
        data = json.loads(fenced.group(1) if fenced else content)
    except json.JSONDecodeError as exc:
        raise ModelReplyError(f"the model's reply is not valid JSON ({exc.msg} at char {exc.pos}): {content[:120]!r}") from None
    if not isinstance(data, dict):
        raise ModelReplyError("the model's reply is JSON but not an object")
    return data


def _field(obj: dict[str, Any], name: str, kind: type) -> Any:
    value = obj.get(name)
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise ModelReplyError(f"the model's reply needs {name!r} as {kind.__name__}, got {value!r:.60}")
    return value


def _strings(obj: dict[str, Any], name: str) -> list[str]:
    values = obj.get(name, [])
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ModelReplyError(f"the model's reply needs {name!r} as a list of strings")
    return values


def _fraction(obj: dict[str, Any], name: str) -> float:
    value = obj.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ModelReplyError(f"the model's reply needs {name!r} as a number between 0 and 1, got {value!r}")
    return float(value)


def _transcript(messages: list[Message], notes: list[str]) -> str:
    lines = [f"[{m.idx}] {m.role}: {m.content}" for m in messages]
    if notes:
        lines += ["", "Working notes:"] + [f"- {n}" for n in notes]
    return "\n".join(lines)


def _entry(e: MemoryEntry) -> str:
    return (
        f"key: {e.key}\ncontent: {e.content}\ntags: {', '.join(e.tags)}\nsource: {e.source.label}\n"
        f"written: {e.created_at:%Y-%m-%d}"
    )
