"""The development sets: loaded, checked against the rules their READMEs state, and built into
real memtui projects for the benchmarks (retrieval, calibrate, enrich, search_latency, verify).

    python bench/devsets.py [DATA_DIR]      # exit 1 and name every broken rule

Two folders hold coding-agent recall sets of the same format: `coding-dev/` (three projects, the
set memtui was first tuned on) and `coding-more/` (six projects of other kinds, written for the
out-of-sample gate). `multi-turn/` holds follow-up prompts over those projects' memories, and
`multi-turn/pronouns.jsonl` prompts whose subject is a pronoun, `questions/` hand-written
questions per memory (the doc2query ceiling). The rules checked here are
the ones the READMEs promise: every id exists, gold is canonical and current, and a `paraphrase`
prompt shares no content word with its gold memories (after stop words and Porter stemming, the
index's own tokenizer).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from memtui.core.memory import Memory, Status
from memtui.core.similarity import STOP_WORDS
from memtui.store.locations import Project

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


def pronouns(data: Path) -> list[dict]:
    path = data / "multi-turn" / "pronouns.jsonl"
    return load(path) if path.is_file() else []


def pronoun_problems(lines: list[dict]) -> list[str]:
    """multi-turn/pronouns.jsonl's own rules: a `pronoun` line has gold, an `unresolved` one none,
    and every prompt points (it, that, those…) at what the turn before named."""
    from memtui.recall.subject import REFERENCES, words

    out = []
    for p in lines:
        if p["category"] not in ("pronoun", "unresolved"):
            out.append(f"{p['id']}: category {p['category']} is neither pronoun nor unresolved")
        elif bool(p["gold"]) != (p["category"] == "pronoun"):
            out.append(f"{p['id']}: a {p['category']} line has {'no ' if not p['gold'] else ''}gold")
        if not REFERENCES & set(words(p["prompt"])):
            out.append(f"{p['id']}: the prompt points at nothing")
    return out


def questions_of(data: Path) -> dict[str, list[str]]:
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


# -- the sets as real memtui projects (bench/retrieval.py, bench/calibrate.py, bench/enrich.py) ------

BASE = datetime(2026, 4, 20, tzinfo=UTC)


def default_data_dir() -> Path:
    """The development sets the repository carries (tests/data/README.md says where each comes from)."""
    return REPO / "tests" / "data"


# -- stores ---------------------------------------------------------------------------------------


@dataclass
class Store:
    name: str
    project: Project
    memories: list[Memory]
    #: id → canonical id (near-duplicates count as their canonical memory)
    canonical: dict[str, str] = field(default_factory=dict)
    queries: list[dict] = field(default_factory=list)


def write_store(root: Path, memories: list[Memory]) -> Project:
    from memtui.store.bank import init_project
    from memtui.store.statefile import StateStore, to_raw

    project = init_project(root)
    state = StateStore(project.path("state.json"), project.name)
    state.load()
    state.apply({m.id: to_raw(m, None) for m in memories}, BASE)
    return project


def coding_memory(m: dict, i: int, **fields) -> Memory:
    """Row `m` of a coding project as a Memory, written `i` minutes after BASE; `fields` add to it."""
    when = BASE + timedelta(minutes=i)
    return Memory(
        id=m["id"],
        type=m["type"],
        content=m["content"],
        created=when,
        updated=when,
        name=m["name"],
        description=m["description"],
        tags=tuple(m["tags"]),
        **fields,
    )


def coding_stores(data: Path, tmp: Path, *, questions: bool = False) -> list[Store]:
    """Every coding project as a real memtui project; with `questions`, the memories carry the
    hand-written questions of `questions/` (the doc2query ceiling: what a model could add)."""
    memories, queries = coding(data)
    asked = questions_of(data) if questions else {}
    replaced_by = {m["id"]: m["superseded_by"] for m in memories if m.get("superseded_by")}
    replaces = {new: old for old, new in replaced_by.items()}
    stores = []
    for name in sorted({m["project"] for m in memories}):
        mine = [m for m in memories if m["project"] == name]
        out = []
        for i, m in enumerate(mine):
            out.append(
                coding_memory(
                    m,
                    i,
                    status=Status.SUPERSEDED if m["id"] in replaced_by else Status.ACTIVE,
                    supersedes=replaces.get(m["id"]),
                    questions=tuple(asked.get(m["id"], ())),
                )
            )
        project = write_store(tmp / "coding" / name, out)
        canonical = {m["id"]: m.get("dup_of") or m["id"] for m in mine}
        stores.append(Store(f"coding/{name}", project, out, canonical, [q for q in queries if q["project"] == name]))
    return stores


def locomo_stores(data: Path, tmp: Path, kind: str) -> list[Store]:
    source = "observations.jsonl" if kind == "obs" else "memories.jsonl"
    rows = load(data / "locomo-dev" / source)
    queries = load(data / "locomo-dev" / "queries.jsonl")
    stores = []
    for conv in sorted({r["conv"] for r in rows}):
        out = []
        for i, r in enumerate(r for r in rows if r["conv"] == conv):
            when = BASE + timedelta(minutes=i)
            out.append(Memory(id=r["id"], type="context", content=r["text"], created=when, updated=when))
        project = write_store(tmp / f"locomo-{kind}" / conv, out)
        mine = []
        for q in queries:
            if q["conv"] != conv:
                continue
            gold = q["gold_obs"] if kind == "obs" else q["gold"]
            if kind == "obs" and not gold:
                continue
            mine.append({**q, "gold": gold, "category": f"c{q['category']}"})
        stores.append(Store(f"locomo-{kind}/{conv}", project, out, {m.id: m.id for m in out}, mine))
    return stores


def recall_at(gold: list[str], ranked: list[str], canonical: dict[str, str], k: int = 5) -> float:
    top = {canonical.get(mid, mid) for mid in ranked[:k]}
    return sum(g in top for g in gold) / len(gold)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    data = Path(args[0]) if args else REPO / "tests" / "data"
    memories, queries = coding(data)
    found = problems(memories, queries, [*turns(data), *pronouns(data)])
    found += pronoun_problems(pronouns(data))
    asked = questions_of(data)
    found += [f"questions for unknown memory {i}" for i in asked if i not in {m["id"] for m in memories}]
    for line in found:
        print(line)
    projects = sorted({m["project"] for m in memories})
    print(
        f"{len(projects)} projects, {len(memories)} memories, {len(queries)} queries, {len(turns(data))} turns, "
        f"{len(pronouns(data))} pronoun prompts"
    )
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
