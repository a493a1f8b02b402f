"""detect-secrets' regex detectors as records (secret type, pattern, flags), for core/detectors.py.

They come from a snapshot of the installed version (`library_rules.json` beside this file) while
detect-secrets is that version, else from the library itself. The snapshot lets every process,
the hooks included, redact with the library's patterns without importing it: detect-secrets loads
`requests` and its whole scanning engine (120 ms). Regenerate it with
`python -m memtui.core.library_rules --write`; a test checks it against the installed library.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

SNAPSHOT = Path(__file__).with_name("library_rules.json")

#: Markers for the library's detector names (stable: a re-capture must dedup against the redacted text).
KINDS = {
    "AWS Access Key": "aws-access-key",
    "Azure Storage Account access key": "azure-storage",
    "Basic Auth Credentials": "password",
    "Discord Bot Token": "discord-token",
    "GitHub Token": "github-token",
    "GitLab Token": "gitlab-token",
    "JSON Web Token": "jwt",
    "NPM tokens": "npm-token",
    "OpenAI Token": "openai-key",
    "Private Key": "private-key",
    "PyPI Token": "pypi-token",
    "SendGrid API Key": "sendgrid-key",
    "Slack Token": "slack-token",
    "Stripe Access Key": "stripe-key",
    "Twilio API Key": "twilio-key",
    "Telegram Bot Token": "telegram-bot",
    "Mailchimp Access Key": "mailchimp-key",
    "Square OAuth Secret": "square-token",
    "Artifactory Credentials": "artifactory-token",
}
#: Substrings one of which each library detector's matches contain (see detectors.Rule.needles); a detector
#: not listed here (a new one in a new release) runs on every text.
NEEDLES = {
    "AWS Access Key": ("akia", "asia", "abia", "acca", "a3t", "aws"),
    "Azure Storage Account access key": ("accountkey=",),
    "Basic Auth Credentials": ("://",),
    "GitHub Token": ("gh",),
    "GitLab Token": ("gl", "gr1348941"),
    "JSON Web Token": ("eyj",),
    "NPM tokens": ("_authtoken",),
    "OpenAI Token": ("t3blbkfj",),
    "Private Key": ("private",),
    "PyPI Token": ("pypi-",),
    "SendGrid API Key": ("sg.",),
    "Slack Token": ("xox", "hooks.slack.com"),
    "Stripe Access Key": ("k_live_",),
    "Twilio API Key": ("ac", "sk"),
    "Mailchimp Access Key": ("-us",),
    "Square OAuth Secret": ("sq0csp-",),
    "Artifactory Credentials": ("akc", "ap"),
    "Cloudant Credentials": ("cl",),
    "IBM Cloud IAM Key": ("key", "pwd", "pass", "token"),
    "IBM COS HMAC Credentials": ("key",),
    "SoftLayer Credentials": ("sl", "softlayer"),
}
#: Detectors whose findings are not credentials in a memory: a public IP address names a host.
#: Its basic-auth detector matches `//user:password@` whole: memtui's own URL rule redacts only the
#: password, so the scheme, the user, the `@` and the host stay readable.
EXCLUDED = frozenset({"Public IP (ipv4)", "Basic Auth Credentials"})


def kind(secret_type: str) -> str:
    return KINDS.get(secret_type) or re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-")


def installed_version() -> str | None:
    """detect-secrets' version, read from its `__version__.py` without importing the package."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("detect_secrets")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        try:
            text = (Path(location) / "__version__.py").read_text(encoding="utf-8")
        except OSError:
            continue
        match = re.search(r"VERSION\s*=\s*['\"]([^'\"]+)['\"]", text)
        if match:
            return match.group(1)
    return None


def live() -> list[dict[str, Any]]:
    """The installed library's regex detectors, as (type, pattern, flags) records."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    records = []
    mapping: dict[str, type] = get_mapping_from_secret_type_to_class()
    for secret_type, plugin in sorted(mapping.items()):
        if not issubclass(plugin, RegexBasedDetector):
            continue  # the keyword and entropy detectors are not regexes; CONTEXT's rules stand in
        patterns: Iterable[re.Pattern[str]] = getattr(plugin, "denylist", ())  # a class attribute, typed as a property
        records += [{"type": secret_type, "pattern": p.pattern, "flags": int(p.flags)} for p in patterns]
    return records


def snapshot() -> dict[str, Any] | None:
    try:
        data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("rules"), list) else None


def records() -> list[dict[str, Any]]:
    """The detectors to use: the snapshot when it is of the installed version (or the library is
    missing), else the library's own."""
    taken = snapshot()
    version = installed_version()
    return taken["rules"] if taken and (version is None or taken.get("detect_secrets") == version) else live()


def main(argv: list[str] | None = None) -> int:
    """`python -m memtui.core.library_rules --write`: snapshot the installed library's detectors."""
    args = sys.argv[1:] if argv is None else argv
    rules = live()
    data = {"detect_secrets": installed_version(), "rules": rules}
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if "--write" in args:
        SNAPSHOT.write_text(text, encoding="utf-8")
        print(f"wrote {SNAPSHOT} ({len(rules)} patterns of detect-secrets {data['detect_secrets']})")
        return 0
    current = snapshot()
    same = current == data
    print("the snapshot matches the installed library" if same else "the snapshot is stale: run with --write")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
