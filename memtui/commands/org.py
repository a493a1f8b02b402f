"""org connect, org status, org disconnect, org migrate: the organisation's PostgreSQL (docs/organisation.md)."""

from __future__ import annotations

import argparse

from memtui.commands.common import one_line, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("org", help="organisation memory on PostgreSQL: connect, status, disconnect, migrate")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    q = verbs.add_parser("connect", help="record the database URL in your own config (never the project's)")
    q.add_argument(
        "url", help="postgresql://USER@HOST/DATABASE or service=NAME; the password through libpq (~/.pgpass)"
    )
    q.set_defaults(func=cmd_connect)
    q = verbs.add_parser("status", help="the server, your role, lag, queued writes and the scopes you read (--json)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_status)
    q = verbs.add_parser("disconnect", help="forget the database URL (the server keeps its memories)")
    q.set_defaults(func=cmd_disconnect)
    q = verbs.add_parser("migrate", help="create or update the schema (run as the database's owner)")
    q.set_defaults(func=cmd_migrate)


def cmd_connect(args: argparse.Namespace) -> int:
    from memtui.config import user_label
    from memtui.org import migrate, pgconn, settings

    url = settings.check(args.url)
    with pgconn.connect(url) as conn:  # unreachable: one line, nothing recorded
        behind = migrate.pending(conn)
    settings.record(url)
    print(f"Connected: {one_line(settings.shown(url))} recorded in {user_label()}")
    if behind:
        print(f"The schema lacks {len(behind)} migration(s): the database's owner runs `memtui org migrate`")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from memtui.org import shared

    status = shared.status()
    if args.json:
        print_json(status)
        return 0
    if status["url"] is None:
        print(f"{'server':<14} {status['source']}")
        return 0
    print(f"{'server':<14} {one_line(status['url'] or 'libpq defaults')} (from {one_line(status['source'])})")
    if not status["connected"]:
        print(f"{'state':<14} unreachable: {one_line(status['problem'] or '')}")
        return 1
    print(
        f"{'state':<14} connected as {one_line(status['role'])} to {one_line(status['database'])} (PostgreSQL {status['server_version']})"
    )
    if status["pending_migrations"]:
        print(
            f"{'schema':<14} behind by {', '.join(status['pending_migrations'])}: its owner runs `memtui org migrate`"
        )
    print(f"{'lag':<14} none: no local replica, reads go to the server")
    print(f"{'queued writes':<14} {status['queued_writes']}: writes go to the server at once")
    scopes = ", ".join(f"{one_line(scope)} {count}" for scope, count in status["scopes"].items())
    print(f"{'scopes':<14} {scopes or 'none'}")
    return 0


def cmd_disconnect(args: argparse.Namespace) -> int:
    from memtui.config import user_label
    from memtui.org import settings

    settings.record(None)
    print(f"Disconnected: the URL is gone from {user_label()}; the server keeps its memories")
    left = settings.current()
    if left.url is not None:
        print(f"libpq's environment still names a server ({left.source}): unset it to stop for good")
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from memtui.errors import UsageError
    from memtui.org import migrate, pgconn, settings

    url = settings.current().url
    if url is None:
        raise UsageError("no organisation database: `memtui org connect URL` (as the database's owner) first")
    with pgconn.connect(url) as conn:
        done = migrate.migrate(conn)
    print(f"Applied {', '.join(f'{m.version:04d}_{m.name}' for m in done)}" if done else "The schema is current")
    return 0
