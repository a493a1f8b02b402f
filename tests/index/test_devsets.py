"""The development sets keep the rules their READMEs state (bench/devsets.py checks them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import devsets  # noqa: E402


def test_the_coding_sets_and_the_multi_turn_set_keep_their_rules():
    out = subprocess.run(
        [sys.executable, str(REPO / "bench" / "devsets.py"), str(REPO / "tests" / "data")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout
    assert "9 projects" in out.stdout


def test_the_check_catches_a_paraphrase_that_shares_a_word():
    memories = [
        {
            "id": "p/m1",
            "project": "p",
            "name": "Deploys",
            "description": "",
            "content": "We deploy with Argo CD.",
            "tags": [],
        }
    ]
    queries = [
        {"id": "p/q1", "project": "p", "query": "how is deploying done?", "gold": ["p/m1"], "category": "paraphrase"}
    ]
    assert devsets.problems(memories, queries) == ["p/q1: paraphrase shares ['deploi'] with p/m1"]
    queries[0]["query"] = "how do releases reach servers?"
    assert devsets.problems(memories, queries) == []
    queries[0]["gold"] = ["p/m9"]
    assert devsets.problems(memories, queries) == ["p/q1: p/m9 does not exist"]


def test_the_check_catches_a_pronoun_line_that_breaks_its_rules():
    line = {"id": "p/p1", "project": "p", "prompt": "how do I trigger it?", "gold": ["p/m1"], "category": "pronoun"}
    assert devsets.pronoun_problems([line]) == []
    assert devsets.pronoun_problems([{**line, "prompt": "how do I trigger the backfill DAG?"}]) == [
        "p/p1: the prompt points at nothing"
    ]
    assert devsets.pronoun_problems([{**line, "category": "unresolved"}]) == ["p/p1: a unresolved line has gold"]
