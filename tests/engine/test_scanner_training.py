"""Training the learned layer: reproducible artifact, and out-of-source floors.

Needs ../shared/data/injection-train and injection-dev: a missing file fails
loudly (never a skip). Cost here: ~25 s for the reproduction test and ~30 s
for the three-fold out-of-source test on an idle 2-core machine.
"""

from __future__ import annotations

import json

import pytest

from benchmarks.scanner_eval import evaluate
from benchmarks.train_scanner import DATA, FILES, MissingData, load_rows, train
from engine.scanner.learned import META_FILE, MODEL_DIR, WEIGHTS_FILE

# Three folds of whole sources, each holding out attack and benign sources
# together: cheaper than leave-one-source-out (3 fits, not 19) and harsher,
# since each model trains on about two thirds of the sources.
FOLDS = [
    {"STAIR-BUPT/JailBench", "NVIDIA/garak", "tldr-pages/tldr", "leolee99/NotInject", "Giskard-AI/prompt-injections", "crafted"},
    {"JailbreakBench/artifacts", "microsoft/BIPIA", "fastapi/fastapi", "thu-coai/CrossWOZ", "thu-coai/Safety-Prompts"},
    {
        "Zhang-Henry/AIOS_agent",
        "meta-llama/PurpleLlama",
        "deepset/prompt-injections",
        "google-research-datasets/Synthetic-Persona-Chat",
        "yizhongw/self-instruct",
        "tagomaru/ai-security",
    },
]


def require_data() -> None:
    missing = [str(DATA / name) for name in FILES if not (DATA / name).is_file()]
    if missing:
        pytest.fail(f"SCANNER DATA MISSING: {missing}; these tests need ../shared/data next to the repository")


def test_missing_data_is_a_clear_error(tmp_path):
    with pytest.raises(MissingData, match="missing data file: .*injection-train/attack.jsonl"):
        load_rows(tmp_path)


def test_retraining_reproduces_the_shipped_artifact_byte_for_byte(tmp_path):
    require_data()
    shipped = json.loads((MODEL_DIR / META_FILE).read_text(encoding="utf-8"))
    # The threshold comes from leave-one-source-out (minutes); given it, the fit is what is checked.
    train(out=tmp_path, threshold=shipped["threshold"])
    assert (tmp_path / WEIGHTS_FILE).read_bytes() == (MODEL_DIR / WEIGHTS_FILE).read_bytes()
    assert (tmp_path / META_FILE).read_bytes() == (MODEL_DIR / META_FILE).read_bytes()


@pytest.fixture(scope="module")
def out_of_source() -> dict:
    require_data()
    groups = {row["group"] for row in load_rows()}
    assert groups == set().union(*FOLDS), "a source group is missing from the folds"
    return evaluate(load_rows(), folds=FOLDS)


def test_held_out_benign_sources_stay_under_one_percent(out_of_source):
    """Threshold chosen without these sources, model trained without them."""
    for source in (
        "google-research-datasets/Synthetic-Persona-Chat",
        "thu-coai/CrossWOZ",
        "fastapi/fastapi",
        "yizhongw/self-instruct",
        "tldr-pages/tldr",
        "microsoft/BIPIA",
    ):
        assert out_of_source["benign_sources"][source]["rate"] <= 0.01, (source, out_of_source["benign_sources"])


# Floors a little under what rules + learned layer reach on these folds, with the threshold
# chosen at <= 1% false positives on each of the other benign sources (source-balanced
# model, C=0.05: Giskard 100%, Safety-Prompts 96.7%, deepset 78.4%, JailBench 75%, AIOS
# 50.3%, JailbreakBench 47.0%, garak 33.6%, BIPIA 17.9%, PurpleLlama 16.8%; mean 65.1%;
# false positives 0.49% mean, 1.18% worst). A regression in either layer trips them.
FLOORS = {
    "Giskard-AI/prompt-injections": 0.95,
    "thu-coai/Safety-Prompts": 0.95,
    "deepset/prompt-injections": 0.77,
    "crafted": 1.0,
    "tagomaru/ai-security": 1.0,
    "STAIR-BUPT/JailBench": 0.74,
    "Zhang-Henry/AIOS_agent": 0.49,
    "JailbreakBench/artifacts": 0.46,
    "NVIDIA/garak": 0.33,
    "microsoft/BIPIA": 0.17,
    "meta-llama/PurpleLlama": 0.16,
}


def test_out_of_source_detection_floors(out_of_source):
    rates = {name: s["rate"] for name, s in out_of_source["attack_sources"].items()}
    for source, floor in FLOORS.items():
        assert rates[source] >= floor, (source, rates[source], floor)
    assert out_of_source["means"]["detection_mean"] >= 0.645


def test_no_benign_source_held_out_passes_the_false_positive_ceiling(out_of_source):
    """The issue's targets: <= 1% false positives on average over benign sources the model
    and the threshold never saw, and none above 2% (the trigger-word-heavy NotInject
    reached 2.36% when the threshold allowed 2% on the sources it was chosen on)."""
    rates = {name: s["rate"] for name, s in out_of_source["benign_sources"].items()}
    assert out_of_source["means"]["fp_mean"] <= 0.01, rates
    assert max(rates.values()) <= 0.02, rates
