"""Issue 13: memory.sessionBoost. Turns of one conversation answer together: a
candidate gains a share of the best RRF score among the other candidates from its
source session, so a turn whose neighbours match strongly outranks a stray turn
that alone scored a little higher. Hand-made corpus, hand-set vectors."""

from __future__ import annotations

import pytest

from engine.config import KNOBS, ConfigError, Settings

from .helpers import make_entry
from .test_recall_quality import recall

# (key, content, cosine with the query, source session); only the vector path
# finds these turns (no query word in them), in the order listed
TURNS = [
    ("med-1", "follow-up with dr lee about the biopsy", 0.80, "s-med"),
    ("stray", "museum tickets for the weekend", 0.70, "s-trip"),
    ("med-2", "dr patel changed the nasal spray", 0.68, "s-med"),
    ("lone", "new running shoes arrived", 0.66, ""),
    ("noise", "gamma delta", 0.05, "s-other"),
]
FLAT = {"memory.lexicalConfidence": 0.0, "memory.importanceBlend": 0.0}


async def run(**knobs):
    docs = [(k, c, cos) for k, c, cos, _ in TURNS]
    entries = [make_entry(k, c, source_session=s) for k, c, _, s in TURNS]
    keys, res = await recall(docs, "which doctors did i visit", entries=entries, **FLAT, **knobs)
    return keys, {h.key: h for h in res.results}


async def test_a_turn_with_strong_neighbours_outranks_a_stray_turn():
    keys, hits = await run(**{"memory.sessionBoost": 0.0})
    assert keys.index("stray") < keys.index("med-2")  # vector rank 2 before 3
    assert all(h.session_boost == 0.0 for h in hits.values())
    keys, hits = await run(**{"memory.sessionBoost": 0.3})
    assert keys[:2] == ["med-1", "med-2"]  # the session the query is about leads
    # med-2 gains 0.3 x med-1's RRF; med-1 gains from med-2 in turn
    assert hits["med-2"].session_boost == pytest.approx(0.3 * hits["med-1"].rrf)
    assert hits["med-1"].session_boost == pytest.approx(0.3 * hits["med-2"].rrf)
    # a turn alone in its session, or with no session, gains nothing
    assert hits["stray"].session_boost == 0.0 and hits["lone"].session_boost == 0.0
    assert hits["med-2"].to_dict()["session_boost"] == hits["med-2"].session_boost


def test_the_knob_is_validated_and_shipped_at_its_measured_default():
    assert KNOBS["memory.sessionBoost"].default == 0.3
    with pytest.raises(ConfigError, match="memory.sessionBoost"):
        Settings.defaults().override({"memory.sessionBoost": 2})
