"""Where secrets are found: detect-secrets' detectors, then memtui's own rules for what they miss.

The engine is Yelp's `detect-secrets` (the maintained original; the Bridgecrew fork has fewer
detectors): every regex-based detector it ships is used, so a new detector in a new release of the
library is picked up without a change here. We use its patterns, not its scanner: the scanner runs
every plugin and filter line by line (50 ms for a 6,000-character chunk, 10x our budget) and
reports a value rather than a position (for GitHub tokens the value is just `ghp`), while redaction
needs positions. Its patterns are read from a snapshot of the installed version (core/library_rules.py), so
no process, the hooks included, pays the library's 120 ms import to redact.

`PREFIXED` and `CONTEXT` hold the rules the library lacks, one row per kind, each with a test row in
tests/core/test_detectors.py. Most are the published, prefixed token formats of providers the
library has no detector for (the same shapes gitleaks' rules use); the rest are context rules:
a password in a URL, `SECRET_NAME=value` assignments and a random-looking value next to a word
such as "token" or "key", each with filters that keep code, identifiers and placeholders intact.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Rule:
    kind: str
    #: The regular expression's source: compiled on the first scan, so importing costs nothing.
    pattern: str
    #: The group that is the secret (None: the longest group of 8+ characters, else the whole match).
    group: str | None = None
    #: A filter on the secret's text: False means "not a secret after all".
    accept: Callable[[str], bool] | None = None
    #: Lower-case literals one of which any match contains; the pattern runs only when one is in the
    #: text (gitleaks' "keywords": a substring test is ~100x cheaper than a regex pass). None: always run.
    needles: tuple[str, ...] | None = None
    flags: int = 0
    #: The shortest text that counts: a key is long, a password a person chose may be short.
    min_length: int = 8
    #: A filter that sees where the secret stands: (text, start, end) → False for "not a secret".
    around: Callable[[str, int, int], bool] | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    start: int
    end: int
    kind: str


# ---- filters for the context rules ------------------------------------------------------------

# Values that are code or placeholders, not secrets.
_NOT_A_LITERAL = re.compile(
    r"[()\[\]{}$<>]|^(?:os\.|process\.|env\.|settings\.|config\.|self\.|None$|null$|true$|false$)"
    r"|^\*+$|^x{6,}$|REDACTED|^your[_-]|[_-]here$|^changeme$|^example",
    re.IGNORECASE,
)
# Identifiers (`input_password`, `authToken`, `SecretStr`, `GITHUB_TOKEN`) and paths (`PWD=/home/me`):
# a value made of letters joined by `_` or case changes, without digits, names something rather than being it.
_IDENTIFIER = re.compile(
    r"^(?:[A-Za-z]+(?:_[A-Za-z]+)+|[a-z]+(?:[A-Z][a-z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+)+)$|^~?\.{0,2}/"
)
_PIECES = re.compile(r"[_.\-/:+]")
#: Documentation placeholders (`sk_live_XXXXXXXX…`, `****`, `00000000`): no real key has these runs.
_PLACEHOLDER = re.compile(r"x{6,}|X{6,}|\*{4,}|(.)\1{7,}")


def _literal(value: str) -> bool:
    """An assigned value that is a literal secret, not code, a name, a number or a placeholder."""
    return not (
        _NOT_A_LITERAL.search(value)
        or _IDENTIFIER.search(value)
        or value.isdigit()
        or ("." in value and value.replace(".", "").isalpha())
        or _PLACEHOLDER.search(value)
    )


#: Example values in documentation and prose: not anybody's password.
_EXAMPLES = frozenset(
    [
        "changeme",
        "change-me",
        "changeit",
        "password",
        "passw0rd",
        "secret",
        "mysecret",
        "mypassword",
        "yourpassword",
        "hunter",
        "hunter1",
        "example",
        "sample",
        "dummy",
        "placeholder",
        "redacted",
        "required",
        "optional",
        "none",
        "null",
        "empty",
        "unset",
        "todo",
        "tbd",
        "foo",
        "bar",
        "foobar",
        "test",
        "testing",
    ]
)


def _plain_literal(value: str) -> bool:
    """A value given for a password-like name: any literal that is not code, a variable, a
    placeholder, an example word, a number or a path (short and low-entropy values count)."""
    bare = value.strip("\"'`")
    return (
        _literal(bare)
        and bare.lower().rstrip(".") not in _EXAMPLES
        and not bare.startswith(("%", "{{", "${", "$"))
        and not re.fullmatch(r"[A-Z][A-Z0-9_]*", bare)  # another variable's name: PASSWORD=DB_PASSWORD
    )


_CLAUSE_END = re.compile(r"\s*(?:$|\n|[,;)\]}]|\.(?:\s|$))")


def _whole(text: str, start: int, end: int) -> bool:
    """An assigned plain word is a value only as the whole value: `PASSWORD=swordfish` at the end
    of its line or clause, not `token = await getToken()` nor "password: see the vault"."""
    value = text[start:end]
    if not value.isalpha():
        return True
    after = end + 1 if end < len(text) and text[end] in "\"'`" else end
    return bool(_CLAUSE_END.match(text, after))


def _stated(text: str, start: int, end: int) -> bool:
    """A password stated in prose is quoted, or not a plain word: "the password is stored in
    Vault" says where it is, not what it is."""
    return (start > 0 and text[start - 1] in "\"'`") or not text[start:end].rstrip(".").isalpha()


def _entropy(value: str) -> float:
    counts: dict[str, int] = {}
    for char in value:
        counts[char] = counts.get(char, 0) + 1
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _random(value: str) -> bool:
    """A value that reads as generated: some piece mixes letters and digits, and it is not a name.

    `fixture_token_30`, `orders.v2`, `2026.11.24-1432` and `enable_new_checkout_v2` are names
    (every piece all letters or all digits); keys mix the two within a piece.
    """
    if _PLACEHOLDER.search(value) or _NOT_A_LITERAL.search(value):
        return False
    pieces = [p for p in _PIECES.split(value) if p]
    mixed = [p for p in pieces if re.search(r"[A-Za-z]", p) and re.search(r"\d", p)]
    if not mixed or max(len(p) for p in mixed) < 8:
        return False
    return _entropy(value) >= 3.0


# ---- memtui's own rules ------------------------------------------------------------------------


def _r(pattern: str, flags: int = 0) -> str:
    """A rule's pattern; flags other than DOTALL and IGNORECASE are written inline."""
    inline = ("s" if flags & re.DOTALL else "") + ("i" if flags & re.IGNORECASE else "")
    return f"(?{inline}){pattern}" if inline else pattern


_END = r"(?![A-Za-z0-9_-])"  # a token ends where its alphabet does

_SECRET_NAME = (
    r"(?:SECRET|PASSWORD|PASSWD|PWD|PASS|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CLIENT[_-]?SECRET|"
    r"AUTH[_-]?TOKEN|SECRET[_-]?KEY|CREDENTIALS?|DSN|KEY)"
)
_SECRET_NEEDLES = ("secret", "pass", "pwd", "token", "key", "credential", "dsn", "auth", "identity", "pat")
#: Names whose value is a secret whatever it looks like (a name ending in one: PGPASSWORD, API_TOKEN).
_PASSWORD_NAME = r"(?:PASSWORD|PASSWD|PASSPHRASE|PWD|SECRET|TOKEN)"
_PASSWORD_NEEDLES = ("pass", "pwd", "secret", "token")
#: `NAME=value`, `name: "value"`: a name ending in a password-like word (PGPASSWORD, db_password:
#: whatever stands before the word is the name's), then its value.
_ASSIGNED = (
    _PASSWORD_NAME + r"\"?\s*(?::=|=>|[:=])\s*(?P<q>[\"'`]?)"
    r"(?P<secret>[^\s\"'`,;]{4,})(?P=q)"
)
_VALUE = r"(?P<q>[\"'`]?)(?P<secret>[^\s\"'`,;]{4,})(?P=q)"
#: "the (admin) password (for staging) is …": a password named in prose, then the verb that states it.
_PROSE = r"\b(?:password|passphrase|passwd)s?\b[^\n.:=]{0,40}?\b(?:is|was|are|were|reads|equals)\s+"
#: Words after which a random-looking value is a credential ("the Datadog key for staging is 0a1b…").
_SECRET_WORD = (
    r"\b(?:api[ _-]?keys?|keys?|tokens?|secrets?|passwords?|passwd|passphrase|credentials?|"
    r"auth|authorization|dsn|identity|pat)\b"
)

#: Published token formats the library has no detector for (checked before the library's, so their kind names the finding).
PREFIXED: tuple[Rule, ...] = (
    # The whole PEM block: the library's detector matches only the BEGIN line.
    Rule(
        "private-key",
        _r(
            r"-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----.*?(?:-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----|\Z)", re.DOTALL
        ),
        needles=("private key",),
    ),
    Rule(
        "anthropic-key",
        _r(r"\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{20,}|\bsk-ant-[A-Za-z0-9_-]{20,}"),
        needles=("sk-ant-",),
    ),
    # The library knows only the legacy `T3BlbkFJ` format.
    Rule("openai-key", _r(r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}"), needles=("sk-",)),
    Rule(
        "github-token",
        _r(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
        needles=("gh", "github_pat_"),
    ),
    Rule("slack-token", _r(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"), needles=("xox",)),
    Rule(
        "slack-webhook",
        _r(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"),
        needles=("hooks.slack.com",),
    ),
    Rule(
        "discord-webhook",
        _r(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]+"),
        needles=("discord",),
    ),
    Rule(
        "stripe-key",
        _r(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9+/]{16,}"),
        needles=("k_live_", "k_test_", "whsec_"),
    ),
    Rule("google-api-key", _r(r"\bAIza[0-9A-Za-z_-]{35}" + _END), needles=("aiza",)),
    Rule(
        "google-oauth",
        _r(r"\bGOCSPX-[A-Za-z0-9_-]{28}" + _END + r"|\bya29\.[0-9A-Za-z_-]{30,}"),
        needles=("gocspx-", "ya29."),
    ),
    Rule("jwt", _r(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), needles=("eyj",)),
    Rule("npm-token", _r(r"\bnpm_[A-Za-z0-9]{36}" + _END), needles=("npm_",)),
    Rule("huggingface-token", _r(r"\b(?:hf_|api_org_)[A-Za-z0-9]{34}" + _END), needles=("hf_", "api_org_")),
    Rule(
        "mailgun-key",
        _r(r"\bkey-[a-f0-9]{32}" + _END + r"|\b[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}" + _END),
        needles=("key-", "-"),
    ),
    Rule("shopify-token", _r(r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _END), needles=("shp",)),
    Rule("vault-token", _r(r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}"), needles=("hvs.", "hvb.", "hvr.")),
    Rule("doppler-token", _r(r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9.]{40,}"), needles=("dp.",)),
    Rule(
        "age-secret-key",
        _r(r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b"),
        needles=("age-secret-key-1",),
    ),
    Rule("databricks-token", _r(r"\bdapi[a-f0-9]{32}(?:-\d)?" + _END), needles=("dapi",)),
    Rule("digitalocean-token", _r(r"\bdo[opr]_v1_[a-f0-9]{64}" + _END), needles=("_v1_",)),
    Rule(
        "newrelic-key",
        _r(r"\bNR(?:AK|II|JS|RA)-[A-Za-z0-9]{19,32}" + _END),
        needles=("nrak-", "nrii-", "nrjs-", "nrra-"),
    ),
    Rule(
        "sentry-dsn",
        _r(r"(?<=://)[a-f0-9]{32}(?=@[A-Za-z0-9.-]*sentry)|\bsntry[su]_[A-Za-z0-9+/=_]{40,}"),
        needles=("sentry", "sntry"),
    ),
    Rule("telegram-bot", _r(r"\b\d{8,10}:AA[A-Za-z0-9_-]{32,34}" + _END), needles=(":aa",)),
    Rule(
        "square-token",
        _r(r"\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}" + _END + r"|\bEAAA[A-Za-z0-9_-]{60}" + _END),
        needles=("sq0", "eaaa"),
    ),
    Rule("linear-key", _r(r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}" + _END), needles=("lin_",)),
    Rule(
        "notion-token",
        _r(r"\bntn_[0-9]{11}[A-Za-z0-9]{35}" + _END + r"|\bntn_[A-Za-z0-9]{40,}|\bsecret_[A-Za-z0-9]{43}" + _END),
        needles=("ntn_", "secret_"),
    ),
    Rule("postman-key", _r(r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}" + _END), needles=("pmak-",)),
    Rule(
        "grafana-token",
        _r(r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}" + _END + r"|\bglc_[A-Za-z0-9+/]{32,}={0,2}"),
        needles=("glsa_", "glc_"),
    ),
    Rule("docker-hub-token", _r(r"\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}"), needles=("dckr_",)),
    Rule("atlassian-token", _r(r"\bATATT3[A-Za-z0-9_\-=]{100,}"), needles=("atatt3",)),
    Rule("supabase-token", _r(r"\bsbp_[a-f0-9]{40}" + _END), needles=("sbp_",)),
    Rule("pulumi-token", _r(r"\bpul-[a-f0-9]{40}" + _END), needles=("pul-",)),
    Rule("planetscale-token", _r(r"\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,64}"), needles=("pscale_",)),
    Rule("terraform-token", _r(r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}"), needles=(".atlasv1.",)),
    Rule("rubygems-key", _r(r"\brubygems_[a-f0-9]{48}" + _END), needles=("rubygems_",)),
    Rule(
        "model-api-key",
        _r(
            r"\b(?:gsk_[A-Za-z0-9]{52}|xai-[A-Za-z0-9]{80}|pplx-[A-Za-z0-9]{48}|r8_[A-Za-z0-9]{37}"
            r"|lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})" + _END
        ),
        needles=("gsk_", "xai-", "pplx-", "r8_", "lsv2_"),
    ),
    Rule("figma-token", _r(r"\bfigd_[A-Za-z0-9_-]{40,}"), needles=("figd_",)),
    Rule("heroku-key", _r(r"\bHRKU-[A-Za-z0-9_-]{60}" + _END), needles=("hrku-",)),
    Rule("brevo-key", _r(r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}" + _END), needles=("xkeysib-",)),
    Rule("alibaba-key", _r(r"\bLTAI[A-Za-z0-9]{20}" + _END), needles=("ltai",)),
    Rule("airtable-token", _r(r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}" + _END), needles=("pat",)),
    Rule("1password-token", _r(r"\bops_eyJ[A-Za-z0-9+/=_-]{100,}"), needles=("ops_eyj",)),
    Rule(
        "azure-client-secret",
        _r(r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}" + _END),
        needles=("q~",),
    ),
)

#: Rules that need context, checked after the library's so a specific kind wins where both match.
CONTEXT: tuple[Rule, ...] = (
    # `Authorization: Basic <base64>` (the library's detector covers user:password@ in URLs).
    Rule("basic-auth", _r(r"\bBasic\s+(?P<secret>[A-Za-z0-9+/]{12,}={0,2})"), "secret", _random, needles=("basic",)),
    Rule(
        "bearer-token",
        _r(r"\bBearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
        "secret",
        lambda v: _literal(v) and len(v) >= 20,
        needles=("bearer",),
    ),
    # user:password@ in URLs (the user may be empty, as in redis://:pw@host); the user name stays.
    Rule(
        "password",
        # Anchored on `://` (a scheme character before it), not on the scheme's first letter: `\b[a-z][…]*://`
        # restarted inside every run of `a.a.a…` and rescanned it to its end (quadratic).
        _r(r"(?<=[a-zA-Z0-9+.-])://[^\s:/@]*:(?P<secret>[^\s@/]+)@"),
        "secret",
        lambda v: not v.startswith("[REDACTED") and not _NOT_A_LITERAL.search(v),
        needles=("://",),
        min_length=3,
    ),
    # SECRET_NAME=value, secret_name: "value" — the name says what it is; the value must be a literal.
    Rule(
        "secret",
        _r(
            r"(?<![A-Za-z0-9])"
            + _SECRET_NAME
            + r"\"?\s*(?::=|=>|[:=])\s*(?P<q>[\"']?)(?P<secret>[^\s\"'`,;]{8,})(?P=q)",
            re.IGNORECASE,
        ),
        "secret",
        _literal,
        needles=_SECRET_NEEDLES,
    ),
    # "the Datadog key for staging is 0a1b…": a random-looking value shortly after a secret word;
    # not a public key, a key's fingerprint or its id (public identifiers of a key, not the key).
    Rule(
        "secret",
        _r(
            r"(?<!public )"
            + _SECRET_WORD
            + r"(?![ _-]*(?:fingerprints?|ids?|servers?)\b)[^\n]{0,40}?(?<![A-Za-z0-9+/_.=~-])(?P<secret>[A-Za-z0-9+/_.=~-]{16,})",
            re.IGNORECASE,
        ),
        "secret",
        _random,
        needles=_SECRET_NEEDLES,
    ),
    # A value assigned to a password, passphrase, secret or token name is one, however short or
    # plain (`PASSWORD=hunter2`, `export PGPASSWORD=hunter2`, `db_password: hunter2`): the name says
    # what it is. Placeholders, variables and code (`<password>`, `$DB_PASSWORD`, `changeme`) stay.
    # A plain word counts only as the whole value (the line or clause ends there): in
    # `token = await getToken()` or "password: see the vault" it is code or prose.
    Rule(
        "password",
        _r(_ASSIGNED, re.IGNORECASE),
        "secret",
        _plain_literal,
        _PASSWORD_NEEDLES,
        min_length=4,
        around=_whole,
    ),
    # "The admin password is hunter2": stated in prose, a value that is quoted or not a plain word
    # ("the password is stored in Vault" says where it is, not what).
    Rule(
        "password",
        _r(_PROSE + _VALUE, re.IGNORECASE),
        "secret",
        _plain_literal,
        ("pass",),
        min_length=4,
        around=_stated,
    ),
    # A passphrase is words: everything after `passphrase:` to the end of the line.
    Rule(
        "password",
        _r(r"\bpassphrase\s*[:=]\s*(?P<q>[\"'`]?)(?P<secret>[^\n\"'`]{4,}?)(?P=q)\s*$", re.IGNORECASE | re.MULTILINE),
        "secret",
        lambda v: _plain_literal(v.split()[0]) if v.split() else False,
        needles=("passphrase",),
        min_length=4,
    ),
)

_DELIMITERS = " \t\r\n\"'=:`,;"


@cache
def library() -> tuple[Rule, ...]:
    """detect-secrets' regex detectors as rules (their patterns: see core/library_rules.py)."""
    from memtui.core import library_rules

    rules = []
    for record in library_rules.records():
        if record["type"] in library_rules.EXCLUDED:
            continue
        rules.append(
            Rule(
                library_rules.kind(record["type"]),
                record["pattern"],
                needles=library_rules.NEEDLES.get(record["type"]),
                flags=record["flags"],
            )
        )
    return tuple(rules)


def _span(rule: Rule, match: re.Match[str]) -> tuple[int, int] | None:
    if rule.group is not None:
        start, end = match.span(rule.group)
    else:
        groups = [i for i in range(1, (match.re.groups or 0) + 1) if match.group(i) and len(match.group(i)) >= 8]
        start, end = match.span(max(groups, key=lambda i: len(match.group(i)))) if groups else match.span()
    text = match.string
    while start < end and text[start] in _DELIMITERS:
        start += 1
    while end > start and (
        text[end - 1] in _DELIMITERS or text[end - 1] == "."
    ):  # a full stop ends the sentence, not the key
        end -= 1
    if end - start < rule.min_length or text[start:end].startswith("[REDACTED"):
        return None
    if rule.kind != "private-key" and _PLACEHOLDER.search(text, start, end):
        return None
    if rule.accept is not None and not rule.accept(text[start:end]):
        return None
    if rule.around is not None and not rule.around(text, start, end):
        return None
    return start, end


def rules() -> tuple[Rule, ...]:
    """Every rule, most specific first: a finding's kind is that of the first rule that matched it."""
    return _plan()[0]


@cache
def _plan() -> tuple[tuple[Rule, ...], list[re.Pattern[str] | None], tuple[str, ...]]:
    """The rules, their patterns (each compiled when a text first wakes it: a hook that redacts one
    short prompt compiles the two or three rules it needs, not all ~100), and every distinct needle
    (a text is searched once per needle, not per rule)."""
    every = PREFIXED + library() + CONTEXT
    compiled: list[re.Pattern[str] | None] = [None] * len(every)
    return every, compiled, tuple(sorted({needle for rule in every for needle in rule.needles or ()}))


def _pattern(order: int) -> re.Pattern[str]:
    every, compiled, _ = _plan()
    pattern = compiled[order]
    if pattern is None:
        pattern = compiled[order] = re.compile(every[order].pattern, every[order].flags)
    return pattern


@cache
def _by_needle() -> tuple[dict[str, tuple[int, ...]], frozenset[int]]:
    """Which rules (by order) each needle wakes, and the rules that run on every text: a text then
    visits only the rules one of its needles names, not all ~100 (most texts hold one or two)."""
    every, _, needles = _plan()
    woken = {needle: tuple(n for n, rule in enumerate(every) if needle in (rule.needles or ())) for needle in needles}
    return woken, frozenset(n for n, rule in enumerate(every) if rule.needles is None)


#: memtui's own rules, one row per kind in tests/core/test_detectors.py.
OWN = PREFIXED + CONTEXT


#: detect-secrets' patterns are not all linear: its npm, OpenAI and JWT detectors backtrack
#: quadratically or worse on a long run of `/`, `sk-` or `eyJ`. A longer text reaches them in
#: windows of this many characters, each overlapping the next by half, so their cost grows with the
#: text and not with its square. A match of up to `LIBRARY_WINDOW // 2` characters lies whole in
#: some window; longer secrets of those kinds (a PEM block, a JWT) are also memtui's own rules',
#: which are linear and see the whole text.
LIBRARY_WINDOW = 512


def _windows(rule: Rule, lower: str) -> list[tuple[int, int]]:
    """The spans of the text a library rule sees: the whole of a short text; of a long one, the
    overlapping windows that hold one of its needles."""
    if len(lower) <= LIBRARY_WINDOW:
        return [(0, len(lower))]
    step = LIBRARY_WINDOW // 2
    spans = [(start, min(start + LIBRARY_WINDOW, len(lower))) for start in range(0, len(lower) - step, step)]
    if rule.needles is None:
        return spans
    return [(s, e) for s, e in spans if any(lower.find(needle, s, e) >= 0 for needle in rule.needles)]


def find(text: str) -> list[Finding]:
    """Every secret in `text`, as non-overlapping spans in order (overlapping findings are joined)."""
    raw: list[tuple[int, int, int, str]] = []
    every, compiled, needles = _plan()
    lower = text.lower()
    woken, always = _by_needle()
    orders = set(always)
    for needle in needles:
        if needle in lower:
            orders.update(woken[needle])
    first_library = len(PREFIXED)
    last_library = first_library + len(library())
    for order in sorted(orders):  # rule order, as before: the first rule to match names the kind
        rule, pattern = every[order], compiled[order] or _pattern(order)
        windows = _windows(rule, lower) if first_library <= order < last_library else [(0, len(text))]
        for start, end in windows:
            for match in pattern.finditer(text, start, end):
                span = _span(rule, match)
                if span is not None:
                    raw.append((span[0], span[1], order, rule.kind))
    raw.sort()
    merged: list[list] = []
    for start, end, order, kind in raw:
        if merged and start < merged[-1][1]:
            last = merged[-1]
            if order < last[3]:
                last[2], last[3] = kind, order
            last[1] = max(last[1], end)
            continue
        merged.append([start, end, kind, order])
    return [Finding(start, end, kind) for start, end, kind, _ in merged]
