"""search, related, index, service (the recall service)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memtui.commands.common import (
    check_filters,
    line_width,
    open_bank,
    positive_seconds,
    print_json,
    readable,
    text_argument,
)
from memtui.core.text import clip


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("search", help="find memories by words and meaning, best first, with why each matched")
    p.add_argument("query", nargs="*", help="what to look for (or standard input)")
    p.add_argument("-k", type=int, default=5, metavar="N", help="how many results (default 5)")
    p.add_argument("--type", "-t", action="append", help="only this type (repeatable)")
    p.add_argument(
        "--scope",
        action="append",
        help="only this scope: repo, local, project, user, agent:<name>; org, team:NAME, person: on the organisation's server",
    )
    p.add_argument("--all", action="store_true", help="include superseded and archived memories")
    p.add_argument(
        "--min-score",
        type=float,
        default=0.0,
        metavar="S",
        help="hide results scoring below S (0..1; recall injects at 0.30)",
    )
    p.add_argument(
        "--semantic",
        choices=["auto", "off", "local", "service"],
        default=None,
        help="auto: the recall service if running, else the model in this process if installed (default); "
        "off: words only; service: also start the recall service for next time",
    )
    p.add_argument("--exact", action="store_true", help="no typo correction")
    p.add_argument("--json", action="store_true", help="a JSON array of {id, score, why, highlights, memory}")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("related", help="memories sharing these tags, rarest shared tags first")
    p.add_argument("tags", nargs="+", metavar="TAG")
    p.add_argument("-k", type=int, default=10, metavar="N")
    p.add_argument("--all", action="store_true", help="include superseded and archived memories")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_related)

    p = sub.add_parser("index", help="bring the search index up to date (it also updates itself on every search)")
    p.add_argument("--rebuild", action="store_true", help="delete .memory/index.db and build it from the stores")
    p.add_argument("--no-vectors", action="store_true", help="skip embedding memories for semantic search")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_index)

    _service_parser(sub, "service")
    # Its name before it had one name everywhere: scripts that call `memtui daemon` keep working. Not
    # listed: argparse (3.11) prints a suppressed subcommand's help as "==SUPPRESS==", so its row goes.
    _service_parser(sub, "daemon", help=argparse.SUPPRESS)
    sub._choices_actions[:] = [a for a in sub._choices_actions if a.help != argparse.SUPPRESS]


def _service_parser(sub: argparse._SubParsersAction, name: str, **kwargs: Any) -> None:
    kwargs.setdefault("help", "the project's recall service: index open, model warm (hooks start it; exits when idle)")
    p = sub.add_parser(
        name,
        **kwargs,
        description="Runs the recall service in this process (hooks start it by themselves in the "
        "background; this is for people and scripts).",
    )
    p.add_argument(
        "--idle",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="exit after this long without a request (default: [service] idle_seconds, 900)",
    )
    p.add_argument("--background", action="store_true", help="start it detached unless one runs, and return")
    p.add_argument("--stop", action="store_true", help="stop this project's service")
    p.add_argument(
        "--status", action="store_true", help="whether it runs: pid, memory, idle time (exit 1 until it answers)"
    )
    p.add_argument("--json", action="store_true", help="with --status: as JSON")
    p.add_argument("--lock-fd", type=int, default=None, help=argparse.SUPPRESS)  # the lock, handed over by a hook
    p.set_defaults(func=cmd_service)


def _semantic_mode(requested: str | None) -> str:
    if requested:
        return requested
    from memtui.index import embed

    # A person waits a second for the model once; a hook never does (it uses "auto").
    return "local" if embed.available() else "off"


def cmd_search(args: argparse.Namespace) -> int:
    from memtui.core.export import to_dict
    from memtui.errors import UsageError
    from memtui.index import remote
    from memtui.index.search import search

    bank = readable(open_bank(args))
    text = text_argument(
        args.query, "search words", usage="usage: memtui search [options] WORDS …  (or the words on standard input)"
    )
    if args.k < 1:
        raise UsageError("-k must be at least 1")
    shared = [s for s in args.scope or () if s in ("org", "person") or s.startswith("team:")]
    if shared:
        return _on_the_server(args, text, shared)
    check_filters(bank, args.type, args.scope)
    mode = _semantic_mode(args.semantic)
    if mode == "service":
        from memtui.runtime.service import ensure

        ensure(bank.project)
    elif mode == "local" and remote.ping(str(bank.project.root)) is not None:
        mode = "auto"  # the warm service answers faster than loading the model here
    hits = search(
        bank,
        text,
        k=args.k,
        types=args.type,
        scopes=args.scope,
        include_inactive=args.all,
        fuzzy=not args.exact,
        semantic=mode,
        min_score=args.min_score,
    )
    now = bank.clock()
    if args.json:
        print_json(
            [
                {
                    "id": h.memory.id,
                    "score": h.score,
                    "why": h.why,
                    "highlights": list(h.highlights),
                    "bm25": h.bm25,
                    "cosine": h.cosine,
                    "via": h.via,
                    "stale": h.stale or None,
                    "memory": to_dict(h.memory, now, bank.registry),
                }
                for h in hits
            ]
        )
        return 0
    if not hits:
        print("no memories match" + ("" if text.strip() else "; give some words to look for"))
        return 0
    _print_hits(hits)
    if hits[0].via.startswith("bm25") and args.semantic is None:
        from memtui.index import embed

        if not embed.available():
            print("(words only: install memtui[semantic] to also match by meaning)", file=sys.stderr)
    return 0


def cmd_related(args: argparse.Namespace) -> int:
    from memtui.core.export import to_dict
    from memtui.index.search import related

    bank = readable(open_bank(args))
    if args.k < 1:
        from memtui.errors import UsageError

        raise UsageError("-k must be at least 1")
    hits = related(bank, args.tags, k=args.k, include_inactive=args.all)
    if args.json:
        now = bank.clock()
        print_json(
            [
                {
                    "id": h.memory.id,
                    "score": h.score,
                    "why": h.why,
                    "shared_tags": list(h.highlights),
                    "memory": to_dict(h.memory, now, bank.registry),
                }
                for h in hits
            ]
        )
        return 0
    if not hits:
        print("no memories carry " + ("that tag" if len(args.tags) == 1 else "any of those tags"))
        return 0
    _print_hits(hits)
    return 0


def _embed(index: Any, model: Any, pending: int) -> bool:
    """The embedding of what has no vector: the long part of a first build, with a bar on a terminal.
    Each batch of vectors is committed as it is done, so Ctrl-C keeps those and says how many (False)."""
    from memtui.commands.progress import Tally, progress
    from memtui.index import vectors

    tally = Tally(pending)
    try:
        with progress(f"embedding with {model.model_id}", tally):
            vectors.update(index, model, progress=tally.update)
    except KeyboardInterrupt:
        kept = pending - len(vectors.missing(index, model.model_id))  # what is committed, not what was drawn
        print(
            f"memtui: interrupted; {kept:,} of {pending:,} memories were embedded and are kept, "
            "the rest were not: `memtui index` embeds them",
            file=sys.stderr,
        )
        return False
    return True


def cmd_index(args: argparse.Namespace) -> int:
    import time

    from memtui.index import embed, semantic, vectors
    from memtui.index.search import open_index

    bank = open_bank(args)
    started = time.perf_counter()
    index = open_index(bank)
    report = index.rebuild() if args.rebuild else index.refresh()
    elapsed = time.perf_counter() - started
    out: dict[str, Any] = {
        "memories": index.count(),
        "active": index.count(("active",)),
        "added": report.added,
        "updated": report.updated + report.reindexed,
        "removed": report.removed,
        "seconds": round(elapsed, 3),
        "file": str(index.path) if index.path else None,
        "vectors": None,
    }
    if not args.no_vectors and embed.available():
        model = embed.load()
        pending = len(vectors.missing(index, model.model_id))
        if pending and not args.json:
            print(f"embedding {pending} memories with {model.model_id}…", file=sys.stderr)
        if pending and not _embed(index, model, pending):
            return 130
        semantic.ensure_vectors(index, model)  # records that this generation is checked
        out["vectors"] = {"model": model.model_id, "embedded": pending}
    if args.json:
        print_json(out)
        return 0
    verb = "rebuilt" if args.rebuild else "up to date"
    print(
        f"index {verb}: {out['memories']} memories ({out['active']} active); "
        f"{report.added} added, {out['updated']} updated, {report.removed} removed in {elapsed * 1000:.0f} ms"
    )
    if out["vectors"]:
        print(f"vectors: {out['vectors']['model']}, {out['vectors']['embedded']} newly embedded")
    elif not args.no_vectors:
        print("vectors: none (install memtui[semantic] for semantic search)")
    return 0


def cmd_service(args: argparse.Namespace) -> int:
    from memtui.runtime import service

    bank = open_bank(args)
    project = bank.project
    if args.status:
        data = service.info(project)
        if args.json:
            print_json(data)
        else:
            print(f"service: {service.describe(data)}")
        return 0 if data["state"] == "ready" else 1
    if args.stop:
        print("service stopped" if service.stop(project) else "no service was running")
        return 0
    settings = service.ServiceSettings.load(project)
    idle = args.idle if args.idle is not None else settings.idle_seconds
    if args.background:
        fd = service.try_lock(project)
        if fd is None:
            print("service already running")
            return 0
        try:
            service.spawn(project.root, fd, idle)
        finally:
            import os

            os.close(fd)
        print("service starting in the background")
        return 0
    from memtui.runtime.server import serve

    return serve(project, idle=idle, lock_fd=args.lock_fd, log=lambda line: print(line, file=sys.stderr, flush=True))


def _print_hits(hits) -> None:
    """Score, id, type, badge and title in aligned columns (the title clipped to a terminal), then why."""
    from memtui.core.defuse import for_terminal
    from memtui.core.text import columns

    width = line_width()
    rows = [
        [
            f"{h.score:5.2f}",
            for_terminal(h.memory.id, oneline=True),
            for_terminal(h.memory.type, oneline=True),
            "" if h.memory.active else f"[{h.memory.status.value}]",
            for_terminal(h.memory.summary, oneline=True),
        ]
        for h in hits
    ]
    for hit, line in zip(hits, columns(rows, last_width=width), strict=True):
        print(line)
        if hit.stale:
            print(f"       {for_terminal(hit.stale, oneline=True)}")
        if hit.why:
            why = for_terminal(hit.why, oneline=True)
            print(f"       {clip(why, width - 7) if width else why}")


def _on_the_server(args: argparse.Namespace, text: str, scopes: list[str]) -> int:
    """`--scope org|team:NAME|person`: searched on the organisation's server (memtui/org/search.py)."""
    from memtui.commands.common import one_line
    from memtui.errors import UsageError
    from memtui.index import embed
    from memtui.org import scopes as org_scopes
    from memtui.org import search, shared

    if len(scopes) != len(args.scope):
        raise UsageError("--scope takes either the organisation's scopes or the project's, not both at once")
    for scope in scopes:
        problem = org_scopes.problem(scope)
        if problem:
            raise UsageError(problem)
    embedder = embed.load() if args.semantic != "off" and embed.available() else None
    with shared.connect() as conn:
        found = search.search(conn, text, scopes, k=args.k, embedder=embedder)
    if args.json:
        print_json(
            [
                {
                    "id": f.memory.id,
                    "score": f.score,
                    "via": f.via,
                    "scope": f.memory.scope,
                    "type": f.memory.type,
                    "content": f.memory.content,
                }
                for f in found
            ]
        )
        return 0
    if not found:
        print("no memories match")
    for f in found:
        print(
            f"{f.score:.2f}  {one_line(f.memory.id)}  ({one_line(f.memory.type)}, {one_line(f.memory.scope)}, {f.via})  "
            f"{one_line(f.memory.summary)}"
        )
    return 0
