"""The coding development sets, loaded as one, and the rules their READMEs state, checked.

    python bench/devsets.py [DATA_DIR]      # exit 1 and name every broken rule

Two folders hold coding-agent recall sets of the same format: `coding-dev/` (three projects, the
set memtui was first tuned on) and `coding-more/` (six projects of other kinds, written for the
out-of-sample gate). `multi-turn/` holds follow-up prompts over those projects' memories, and
`questions/` hand-written questions per memory (the doc2query ceiling). The rules checked here are
the ones the READMEs promise: every id exists, gold is canonical and current, and a `paraphrase`
prompt shares no content word with its gold memories (after stop words and Porter stemming, the
index's own tokenizer).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from memtui.core.similarity import STOP_WORDS

CODING = ("coding-dev", "coding-more")


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def coding(data: Path) -> tuple[list[dict], list[dict]]:
    """Every coding memory and query, from each folder that is present."""
    memories, queries = [], []
    for folder in CODING:
        if (data / folder / "memories.jsonl").is_file():
            memories += load(data / folder / "memories.jsonl")
            queries += load(data / folder / "queries.jsonl")
    return memories, queries


def turns(data: Path) -> list[dict]:
    path = data / "multi-turn" / "turns.jsonl"
    return load(path) if path.is_file() else []


def questions(data: Path) -> dict[str, list[str]]:
    path = data / "questions" / "questions.jsonl"
    return {r["id"]: r["questions"] for r in load(path)} if path.is_file() else {}


class Stemmer:
    """Content words as the index sees them: FTS5's porter tokenizer, minus stop words."""

    def __init__(self) -> None:
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute("CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = 'porter unicode61 remove_diacritics 2')")
        self.conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'row')")

    def stems(self, text: str) -> set[str]:
        words = " ".join(w for w in text.lower().replace("_", " ").split() if w.strip(".,?!:;'\"()") not in STOP_WORDS)
        self.conn.execute("DELETE FROM t")
        self.conn.execute("INSERT INTO t (x) VALUES (?)", (words,))
        return {term for (term,) in self.conn.execute("SELECT term FROM v")} - {
            t for (t,) in self.conn.execute("SELECT term FROM v WHERE length(term) < 2")
        }


def problems(memories: list[dict], queries: list[dict], multi: list[dict] = ()) -> list[str]:  # type: ignore[assignment]
    out = []
    by_id = {m["id"]: m for m in memories}
    stemmer = Stemmer()
    for m in memories:
        for key in ("dup_of", "superseded_by"):
            if m.get(key) and m[key] not in by_id:
                out.append(f"{m['id']}: {key} {m[key]} does not exist")
    for q in [*queries, *multi]:
        for g in q["gold"] + q.get("distractors", []):
            if g not in by_id:
                out.append(f"{q['id']}: {g} does not exist")
            elif by_id[g]["project"] != q["project"]:
                out.append(f"{q['id']}: {g} is another project's memory")
        for g in q["gold"]:
            m = by_id.get(g, {})
            if m.get("dup_of") or m.get("superseded_by"):
                out.append(f"{q['id']}: gold {g} is a duplicate or superseded")
        if q["category"] == "paraphrase":
            words = stemmer.stems(q["query"])
            for g in (g for g in q["gold"] if g in by_id):
                same = [g, *(m["id"] for m in memories if m.get("dup_of") == g)]
                text = " ".join(
                    f"{by_id[i]['name']} {by_id[i]['description']} {by_id[i]['content']} {' '.join(by_id[i]['tags'])}"
                    for i in same
                )
                shared = words & stemmer.stems(text)
                if shared:
                    out.append(f"{q['id']}: paraphrase shares {sorted(shared)} with {g}")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    data = Path(args[0]) if args else REPO / "tests" / "data"
    memories, queries = coding(data)
    found = problems(memories, queries, turns(data))
    asked = questions(data)
    found += [f"questions for unknown memory {i}" for i in asked if i not in {m["id"] for m in memories}]
    for line in found:
        print(line)
    projects = sorted({m["project"] for m in memories})
    print(f"{len(projects)} projects, {len(memories)} memories, {len(queries)} queries, {len(turns(data))} turns")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
