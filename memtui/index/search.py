"""Search and related: the public API every face calls.

    hits = search(bank, "why do stripe webhooks fail", k=5)
    relevant = [h for h in hits if h.score >= RECALL_THRESHOLD]

Fast path (a UserPromptSubmit hook in a fresh process): this module imports sqlite3 and a few
of our own small modules, never numpy, onnxruntime, rapidfuzz, textual or anthropic. A search
with a current index opens the file, compares a few stat signatures with what it recorded, runs
one FTS5 query and decodes only the hits' JSON rows. Semantic search joins in only when the
recall service already answers on the project's socket (`semantic="auto"`), or when this process
has loaded the model itself.

`semantic`: "off" (BM25 only), "auto" (the service, or an already-loaded model, else BM25),
"local" (load the model here if the extra is installed), "service" (the same as auto here; the
command line also starts the service for next time), "warm" (a model this process has loaded,
else BM25; never asks the service: the hooks' recall, in the service and in its fallback).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from memtui.core.clock import utcnow
from memtui.core.memory import Memory
from memtui.index import calibration, fusion, lexical, succession, verdicts
from memtui.index.calibration import HIT_FLOOR as RECALL_THRESHOLD
from memtui.index.hit import Hit
from memtui.index.index import Index
from memtui.index.query import Query, parse
from memtui.index.sources import Sources

__all__ = ["RECALL_THRESHOLD", "SEMANTIC_MODES", "Hit", "close_all", "open_index", "related", "search"]

SEMANTIC_MODES = ("auto", "off", "local", "service", "warm")
#: Candidates taken from each ranker before fusion.
POOL = 50
#: How many of the best candidates the calibrated probability re-orders.
RERANK_DEPTH = 20
#: At most this many of the conversation's words join the lexical query (its first ones: the
#: previous prompt, then the start of the answer).
CONTEXT_WORDS = 10


_cache: dict[tuple, Index] = {}
_cache_lock = threading.Lock()


def open_index(bank_or_project: object, *, env: Mapping[str, str] | None = None) -> Index:
    """The process's open index for this project (kept open; refreshed by each search)."""
    if isinstance(bank_or_project, Index):
        return bank_or_project
    sources = Sources.of(bank_or_project, env)
    key = (str(sources.index_path), tuple(d.key + str(d.path) for d in sources.markdown))
    with _cache_lock:
        index = _cache.get(key)
        if index is None:
            index = _cache[key] = Index(sources)
            index.cache["lock"] = threading.RLock()
        return index


def close_all() -> None:
    """Close every index this process holds open (tests; a long-lived process switching projects)."""
    with _cache_lock:
        for index in _cache.values():
            with contextlib.suppress(Exception):  # already closed or its file is gone: nothing to release
                index.close()
        _cache.clear()


def _filters(types: Sequence[str] | None, scopes: Sequence[str] | None, include_inactive: bool) -> lexical.Filters:
    return lexical.Filters(
        statuses=None if include_inactive else ("active",),
        types=tuple(types) if types else None,
        scopes=tuple(scopes) if scopes else None,
    )


def search(
    bank_or_project: object,
    query: str,
    *,
    k: int = 10,
    types: Sequence[str] | None = None,
    scopes: Sequence[str] | None = None,
    include_inactive: bool = False,
    fuzzy: bool = True,
    semantic: str = "auto",
    min_score: float = 0.0,
    context: str = "",
    about: str = "",
) -> list[Hit]:
    """The `k` memories most relevant to `query`, best first. Never raises for odd input.

    What the conversation is about, so that a follow-up that names nothing ("and how do we deploy
    it?") still finds its subject (recall passes the previous turn): `context` adds its first words
    to the lexical query (the prompt's own words stay what coverage is measured on), and `about`
    (the previous prompt) pulls the query's meaning towards its own. Its vector is usually cached:
    the service embedded that prompt when it was the prompt (`semantic.query_vector`)."""
    if semantic not in SEMANTIC_MODES:
        raise ValueError(f"semantic must be one of {', '.join(SEMANTIC_MODES)}")
    parsed = parse(query or "", prefix_last=fuzzy)
    if parsed.empty and not (query or "").strip():
        return []
    index = open_index(bank_or_project)
    filters = _filters(types, scopes, include_inactive)
    embedder = None
    if semantic != "off":
        if semantic in ("auto", "service") and not (context or about):
            from memtui.index import remote

            answer = remote.ask(
                str(index.sources.project.root),
                query,
                k=k,
                types=types,
                scopes=scopes,
                include_inactive=include_inactive,
                fuzzy=fuzzy,
            )
            if answer is not None:
                return [h for h in answer if h.score >= min_score]
        embedder = _embedder(semantic)
    lock = index.cache.get("lock") or threading.RLock()
    with lock:
        index.refresh(wait=0.25)
        hits = index.guard(lambda: _rank(index, parsed, filters, k, fuzzy, embedder, context, about))
    return [h for h in hits if h.score >= min_score]


def _embedder(semantic: str) -> Any:
    from memtui.index import embed

    current = embed.loaded()
    if current is not None or semantic in ("auto", "warm"):
        return current
    return embed.load() if embed.available() else None


def _rank(
    index: Index,
    parsed: Query,
    filters: lexical.Filters,
    k: int,
    fuzzy: bool,
    embedder: Any,
    context: str = "",
    about: str = "",
) -> list[Hit]:
    if fuzzy and not parsed.empty:
        from memtui.index import fuzzy as typo

        corrections = typo.corrections(index.conn, parsed.words)
        if corrections:
            parsed = parsed.with_corrections(corrections)
    pool = max(POOL, 2 * k)
    around = parse(context).words[:CONTEXT_WORDS] if context else ()
    searched = parsed.with_words(around) if around else parsed
    expression = searched.expression()
    bm25 = dict(index.bm25(expression, filters, pool))
    cos = None
    if embedder is not None:
        from memtui.index import semantic

        cos = semantic.cosines(index, embedder, parsed.text, filters, pool, bm25, about=about)
    n_docs = cos.count if cos is not None else index.count(filters.statuses)
    inactive: set[int] = (
        set(index.inactive(list(bm25) + list(cos.values if cos else ()))) if filters.statuses is None else set()
    )
    # First a cheap order over the whole pool (z-scored blend, or BM25 alone), then the calibrated
    # probability over the best RERANK_DEPTH of it, which needs each memory's text (coverage).
    ranked: list[tuple[float, int]] = []
    if cos is not None:
        zb = fusion.zscores(bm25, n_docs)
        for rowid in set(bm25) | set(cos.values):
            ranked.append(
                (fusion.SEMANTIC_WEIGHT * cos.z(rowid) + (1 - fusion.SEMANTIC_WEIGHT) * zb.get(rowid, 0.0), rowid)
            )
    else:
        ranked = [(b, rowid) for rowid, b in bm25.items()]
    ranked.sort(key=lambda t: (-t[0], -bm25.get(t[1], 0.0), t[1]))
    top = [rowid for _, rowid in ranked[: max(k, RERANK_DEPTH)]]
    memories = index.memories(top)
    # Coverage stays the share of the *prompt's* words a memory holds: counted over the
    # conversation's words too, an off-topic prompt after an on-topic turn passed the gate
    # (multi-turn dev set: none left empty fell from 5 in 6 to 1 in 6).
    signals = _signals(top, bm25, cos, n_docs, parsed, memories)
    weights = calibration.HYBRID if cos is not None else calibration.LEXICAL
    position = {rowid: i for i, rowid in enumerate(top)}
    checked = verdicts.read(index.conn, [m.id for m in memories.values()])
    now = utcnow()
    scored = []
    for rowid in top:
        if rowid not in memories:
            continue
        if bm25.get(rowid, 0.0) <= 0 and (cos is None or cos.values.get(rowid, cos.mean) < fusion.COSINE_LOW):
            continue  # no word matched and the meaning is unrelated: no evidence at all
        p = calibration.probability(weights, signals[rowid])
        if rowid in inactive:
            p *= fusion.INACTIVE_FACTOR
        verdict = checked.get(memories[rowid].id)
        if verdict is not None and verdict.drifted:
            p *= fusion.DRIFTED_FACTOR
        if memories[rowid].expired(now):
            p *= fusion.EXPIRED_FACTOR
        scored.append((p, rowid))
    scored.sort(key=lambda t: (-t[0], position[t[1]]))
    scored = scored[:k]
    rowids = [r for _, r in scored]
    matched = lexical.matches(index.conn, expression, [r for r in rowids if r in bm25])
    hits = []
    for score, rowid in scored:
        memory = memories[rowid]
        fields = matched.get(rowid, {})
        why = lexical.explain(fields)
        cosine = cos.values.get(rowid) if cos is not None else None
        if cosine is not None and (not why or cosine >= fusion.COSINE_LOW):
            why = f"{why}; meaning: {cosine:.2f}" if why else f"meaning: {cosine:.2f}"
        for typed, terms in parsed.corrections.items():
            if any(w.startswith(t) for t in terms for words in fields.values() for w in words):
                why += f" (≈ {typed})"
        words = tuple(dict.fromkeys(w for ws in fields.values() for w in ws))
        verdict = checked.get(memory.id)
        hits.append(
            Hit(
                memory,
                round(score, 4),
                why,
                words,
                round(bm25.get(rowid, 0.0), 4),
                None if cosine is None else round(cosine, 4),
                "hybrid" if cos is not None else "bm25",
                tuple(round(x, 5) for x in signals[rowid]),
                verdict.status if verdict else "",
                verdict.note if verdict else "",
            )
        )
    return succession.ordered(_replacements_first(hits), now)


def _signals(
    rowids: list[int], bm25: dict[int, float], cos: Any, n_docs: int, parsed: Query, memories: dict[int, Memory]
) -> dict[int, tuple[float, ...]]:
    """Each candidate's signals, in the order `calibration` names them for this kind of search."""
    base: dict[int, tuple[float, float, float]] = {}
    for rowid in rowids:
        squashed = fusion.lexical_score(bm25.get(rowid, 0.0), n_docs, 1.0)
        cover = fusion.coverage(parsed.words, memories.get(rowid), parsed.corrections)
        base[rowid] = (squashed, cover, squashed * cover)
    best_lexical = max((v[2] for v in base.values()), default=0.0)
    if cos is None:
        return {r: (*v, v[2] - best_lexical) for r, v in base.items()}
    values = {r: cos.values.get(r, cos.mean) for r in rowids}
    best = max(values.values(), default=0.0)
    return {r: (values[r], (values[r] - cos.mean) / cos.sd, values[r] - best, *base[r]) for r in rowids}


def _replacements_first(hits: list[Hit]) -> list[Hit]:
    """A superseded memory never ranks above the memory that replaced it (when both are listed);
    an agent's proposed replacement that no person accepted yet (store/proposals.py) never ranks
    above the reviewed memory it would replace."""
    position = {h.memory.id: i for i, h in enumerate(hits)}
    out = list(hits)
    for hit in hits:
        old = hit.memory.supersedes
        if old and old in position and position[old] < position[hit.memory.id]:
            out.remove(hit)
            out.insert(out.index(next(h for h in out if h.memory.id == old)), hit)
            position = {h.memory.id: i for i, h in enumerate(out)}
    for hit in hits:
        kept = hit.memory.proposes if not hit.memory.reviewed else None
        if kept and kept in position and position[kept] > position[hit.memory.id]:
            out.remove(hit)
            out.insert(out.index(next(h for h in out if h.memory.id == kept)) + 1, hit)
            position = {h.memory.id: i for i, h in enumerate(out)}
    return out


def related(bank_or_project: object, tags: Sequence[str], *, k: int = 10, include_inactive: bool = False) -> list[Hit]:
    """Memories that share the given tags, rarest shared tags first; score = share of the tags' weight."""
    wanted = tuple(dict.fromkeys(t.strip().lower().lstrip("#") for t in tags if t.strip()))
    if not wanted:
        return []
    index = open_index(bank_or_project)
    filters = _filters(None, None, include_inactive)
    lock = index.cache.get("lock") or threading.RLock()
    with lock:
        index.refresh(wait=0.25)

        def run() -> list[Hit]:
            total = max(1, index.count())
            freq = index.tag_frequencies(wanted)
            weight = {t: fusion.idf(total, freq.get(t, 0)) for t in wanted}
            whole = sum(weight.values()) or 1.0
            rows = index.tagged(wanted, filters)
            memories = index.memories([r for r, _ in rows])
            scored = []
            for rowid, _n in rows:
                memory = memories[rowid]
                shared = [t for t in wanted if t in {x.lower() for x in memory.tags}]
                scored.append((sum(weight[t] for t in shared) / whole, memory.updated.timestamp(), shared, memory))
            scored.sort(key=lambda t: (-t[0], -t[1], t[3].id))
            return [
                Hit(m, round(s, 4), f"tags: {', '.join(shared)}", tuple(shared), via="tags")
                for s, _u, shared, m in scored[:k]
            ]

        return index.guard(run)
