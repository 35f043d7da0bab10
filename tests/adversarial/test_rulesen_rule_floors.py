"""Floors under what the rules alone catch on each attack source, and ceilings on what they
refuse on each benign source (train + dev in ../shared/data).

The rules are not trained, so every source is "out of source" for them in the sense the
leave-one-source-out evaluation means; but several English families were written after
reading these sources' misses, so these are floors against regression, not a claim about
unseen attacks (the probes in test_rulesen_*.py are written for the tests). English
rules alone went from 47.8% to 68.2% with no benign source refused more often."""

from __future__ import annotations

from collections import defaultdict

import pytest

from benchmarks.train_scanner import DATA, FILES, load_rows
from engine.scanner import scan_rules

# A little under what the rules reach (garak 64.5%, BIPIA 76.8%, JailbreakBench 71.7%,
# PurpleLlama 31.6%, deepset 79.7%, ASB 51.9%; English 68.2%).
ATTACK_FLOORS = {
    "NVIDIA/garak": 0.62,
    "microsoft/BIPIA": 0.75,
    "JailbreakBench/artifacts": 0.70,
    "meta-llama/PurpleLlama": 0.30,
    "deepset/prompt-injections": 0.78,
    "Zhang-Henry/AIOS_agent": 0.51,
}
ENGLISH_FLOOR = 0.67
# The worst benign source is deepset at 2 of 170 (1.18%), from rules older than these families.
BENIGN_CEILING = 0.0125
BENIGN_MEAN_CEILING = 0.005


@pytest.fixture(scope="module")
def verdicts() -> list[tuple[dict, bool]]:
    missing = [str(DATA / name) for name in FILES if not (DATA / name).is_file()]
    if missing:
        pytest.fail(f"SCANNER DATA MISSING: {missing}; these tests need ../shared/data next to the repository")
    return [(row, scan_rules(row["text"]).blocked) for row in load_rows()]


def _rates(verdicts, label: str, key: str) -> dict[str, float]:
    seen: dict[str, list[bool]] = defaultdict(list)
    for row, blocked in verdicts:
        if row["label"] == label:
            seen[row[key]].append(blocked)
    return {name: sum(flags) / len(flags) for name, flags in seen.items()}


def test_rules_alone_keep_their_detection_per_attack_source(verdicts):
    rates = _rates(verdicts, "attack", "group")
    low = {name: round(rates[name], 4) for name, floor in ATTACK_FLOORS.items() if rates[name] < floor}
    assert not low, (low, ATTACK_FLOORS)
    assert _rates(verdicts, "attack", "lang")["en"] >= ENGLISH_FLOOR


def test_rules_alone_refuse_few_benign_lines_on_every_source(verdicts):
    rates = _rates(verdicts, "benign", "group")
    assert max(rates.values()) <= BENIGN_CEILING, rates
    assert sum(rates.values()) / len(rates) <= BENIGN_MEAN_CEILING, rates
