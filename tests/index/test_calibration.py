"""The calibrated gate: constants that reproduce from the data, and a gate that behaves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from memtui.index import calibration
from memtui.index.hit import Hit

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"


def test_shipped_constants_reproduce_from_the_development_sets():
    out = subprocess.run(
        [sys.executable, str(REPO / "bench" / "calibrate.py"), "--check", str(DATA)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "holds the fitted constants" in out.stdout


def hit(score: float, signals: tuple[float, ...]) -> Hit:
    from memtui.core.clock import utcnow
    from memtui.core.memory import Memory

    now = utcnow()
    return Hit(
        Memory(id=f"m{score}", type="decision", content="x", created=now, updated=now), score, "", (), signals=signals
    )


def hybrid(cosine: float, z: float, lexical: float) -> tuple[float, ...]:
    return (cosine, z, 0.0, lexical, lexical, lexical)


def test_probabilities_rise_with_the_evidence():
    weak = calibration.relevant([hybrid(0.15, 1.0, 0.0)])
    strong = calibration.relevant([hybrid(0.7, 5.0, 0.8)])
    assert 0 <= weak < calibration.GATE_HYBRID <= strong <= 1
    lexical_weak = calibration.relevant([(0.1, 0.2, 0.02, 0.0)])
    lexical_strong = calibration.relevant([(0.95, 1.0, 0.95, 0.0)])
    assert lexical_weak < calibration.GATE_LEXICAL <= lexical_strong


def test_gate_injects_nothing_for_an_unrelated_prompt_and_the_floor_otherwise():
    unrelated = [hit(0.3, hybrid(0.2, 1.2, 0.0)), hit(0.2, hybrid(0.18, 1.0, 0.0))]
    assert calibration.gate(unrelated, 5) == []
    related = [
        hit(0.9, hybrid(0.7, 5.0, 0.8)),
        hit(0.5, hybrid(0.5, 3.0, 0.2)),
        hit(calibration.HIT_FLOOR / 2, hybrid(0.3, 1.5, 0.0)),
    ]
    assert [h.score for h in calibration.gate(related, 5)] == [0.9, 0.5]
    assert len(calibration.gate(related, 1)) == 1
    assert calibration.gate([], 5) == []
