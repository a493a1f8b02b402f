"""Where the organisation's database is: the person's own config only (`[org] url` in
~/.config/memtui/config.toml, written by `memtui org connect`), else libpq's own environment
(PGSERVICE, PGHOST…) and files (~/.pg_service.conf, ~/.pgpass). A project's .memory/config.toml never
chooses it (`config.PER_USER`): a cloned repository must not send a person's memories to its host.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from memtui.config import user_label, user_path, user_table
from memtui.errors import UsageError

#: libpq's variables that name a server by themselves: with one set and no URL, libpq's defaults are used.
LIBPQ_VARIABLES = ("PGSERVICE", "PGHOST", "PGDATABASE")


@dataclass(frozen=True)
class Setting:
    #: The connection string for psycopg ("" for libpq's defaults), None when not connected.
    url: str | None
    #: Where it comes from, as a person reads it.
    source: str


def current(env: Mapping[str, str] | None = None) -> Setting:
    env = os.environ if env is None else env
    url = user_table("org", env).get("url")
    if isinstance(url, str) and url:
        return Setting(url, user_label(env))
    named = [v for v in LIBPQ_VARIABLES if env.get(v)]
    if named:
        return Setting("", f"libpq's environment ({', '.join(named)})")
    return Setting(None, "not connected (`memtui org connect URL`)")


def check(url: str) -> str:
    """`url` if memtui may record it: a postgresql:// URL, or libpq's `service=NAME`, without a password
    (a password belongs in ~/.pgpass or the service file, not in a config file)."""
    url = url.strip()
    if url.startswith("service=") and " " not in url and len(url) > len("service="):
        return url
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise UsageError("give a postgresql://USER@HOST/DATABASE URL or service=NAME (a pg_service.conf entry)")
    if parts.password:
        raise UsageError(
            "leave the password out of the URL: libpq reads it from ~/.pgpass, PGPASSWORD or the service file"
        )
    return url


def shown(url: str) -> str:
    """The URL without anything secret in its query (`password=…` there too), for status lines."""
    parts = urlsplit(url)
    if "password" in parts.query.lower():
        return parts._replace(query="…").geturl()
    return url


def record(url: str | None, env: Mapping[str, str] | None = None) -> None:
    """Set (or with None remove) `[org] url` in the person's own config.toml, keeping the rest as written."""
    import tomlkit

    from memtui.store.atomic import atomic_write

    path = user_path(env)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    document = tomlkit.parse(text)
    table = document.get("org")
    if url is None:
        if table is not None and "url" in table:
            del table["url"]
            if not table:
                del document["org"]
    else:
        if table is None:
            table = tomlkit.table()
            document["org"] = table
        table["url"] = url
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write(path, tomlkit.dumps(document))
    path.chmod(0o600)
