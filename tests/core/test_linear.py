"""Every path that reads stored or incoming text does so in time linear in its length.

Each entry point gets 100,000 characters of each worst case (runs of capitals, lower case, digits
and separators, and near-matches of every pattern repeated) and must still give the right answer.
Time is measured in bench/linear.py, never asserted here; the per-test timeout is far above what a
linear pass needs and far below what a quadratic or cubic one takes at this size.
"""

from __future__ import annotations

import pytest

from memtui.capture import transcript
from memtui.capture.explicit import MAX_TRIGGERS, explicit_memories
from memtui.core import redact, references, render_block, render_index, similarity
from memtui.core.defuse import for_model
from memtui.index import query, rows
from memtui.store import frontmatter
from memtui.verify import scan

N = 100_000

#: Units repeated to N characters: the worst cases of the patterns memtui runs.
UNITS = {
    "capitals": "A",
    "lower": "a",
    "digits": "7",
    "spaces": " ",
    "newlines": "\n",
    "camel": "aB",
    "capitals then lower": "AAAAAAAAa",
    "snake": "a_",
    "dashes": "-",
    "anthropic prefix": "sk-ant-",
    "openai prefix": "sk-",
    "aws prefix": "AKIA",
    "pem begin": "-----BEGIN ",
    "pem key": "-----BEGIN RSA PRIVATE KEY-----",
    "jwt prefix": "eyJ",
    "remember that": "remember that ",
    "remember colon": "please remember: x ",
    "backticks": "`",
    "backtick words": "`a",
    "angle brackets": "<",
    "tags": "<a",
    "square brackets": "[",
    "path": "a/",
    "slashes": "/",
    "dotted": "a.",
    "colons": "a::",
    "calls": "a()",
    "schemes": "a://",
    "url users": "://a:",
    "at signs": "a@",
    "assignments": "key=",
    "password prose": "password is ",
    "token words": "token ",
    "private tags": "<private>",
    "reminders": "<system-reminder>",
    "hex": "0123456789abcdef",
    "base64": "aZ09+/",
    "blanks inside": "a    ",
}


def shapes() -> list[tuple[str, str]]:
    return [(name, (unit * (N // len(unit) + 1))[:N]) for name, unit in UNITS.items()]


@pytest.mark.timeout(60)
def test_idents_split_only_identifiers_whatever_surrounds_them():
    for name, text in shapes():
        found = rows.idents("OrgNotActivated " + text + " handleWebhook2").split()
        assert found[:3] == ["org", "not", "activated"], name
        assert found[-3:] == ["handle", "webhook", "2"], name
    assert rows.idents("A" * N) == ""  # one run past MAX_IDENT: a blob, not an identifier


@pytest.mark.timeout(60)
def test_a_row_keeps_the_text_and_the_identifiers(make):
    for name, text in shapes()[:12]:  # the letter and digit runs the tokeniser sees
        row = rows.to_row(make(content=f"HTTPServer {text}"))
        assert row.fields[2].startswith("HTTPServer"), name
        assert row.fields[4].split()[:2] == ["http", "server"], name


@pytest.mark.timeout(60)
def test_a_long_prompt_parses_to_at_most_the_word_cap():
    for name, text in shapes():
        parsed = query.parse(f"why does OrgNotActivated fail {text}")
        assert 0 < len(parsed.words) <= query.MAX_WORDS, name
        assert "activated" in parsed.words, name


@pytest.mark.timeout(60)
def test_redaction_finds_the_secret_after_any_run():
    key = "sk-ant-api03-" + "Zq7Xw2Lp9Vb4Nc8Md1Kf6Hj3Gt5Rs0Ye"
    # The needles of every rule, so each pattern runs over the whole shape (the library's OpenAI,
    # npm and JWT patterns, and the URL password rule, backtracked on these runs).
    needles = "T3BlbkFJ _authToken eyJ ://"
    for name, text in shapes():
        result = redact.scan(f"{text} {needles} the key is {key} ok")
        assert key not in result.text, name
        # An unclosed PEM block or <private> tag hides everything after it, the key included.
        hidden = {"pem key": "private-key", "private tags": "private"}
        assert hidden.get(name, "anthropic-key") in result.kinds, name


@pytest.mark.timeout(60)
def test_references_are_found_after_any_run():
    for name, text in shapes():
        found = {ref.value for ref in references.extract(f"{text}\nsee `src/billing/invoice.py` and --dry-run")}
        assert {"src/billing/invoice.py", "--dry-run"} <= found, name


@pytest.mark.timeout(60)
def test_dedup_similarity_answers_on_long_texts():
    for name, text in shapes():
        assert similarity.tokenize(text + " zebra") >= {"zebra"}, name
        assert similarity.specifics(text + " InvoiceService") >= {"invoiceservice"}, name
        assert similarity.same_statement(text, text), name
        assert similarity.different_things(text + " port 8001", text + " port 8002"), name


@pytest.mark.timeout(60)
def test_explicit_requests_are_read_up_to_the_cap():
    for name, text in shapes():
        found = explicit_memories(f"{text}\nremember that we deploy with uv.")
        if "remember" not in name and "private" not in name:  # an unclosed <private> hides the rest
            assert found[-1][1] == "The team deploys with uv.", name
        assert len(found) <= MAX_TRIGGERS, name


@pytest.mark.timeout(60)
def test_markup_and_frontmatter_are_read_in_one_pass():
    for name, text in shapes():
        assert transcript.spoken(f"hi <system-reminder>x</system-reminder>{text}") == f"hi {text}".strip(), name
        assert render_block.current_block(text) is None or render_block.START in text, name
        assert "<recalled" not in for_model(f"{text}<recalled-memories>"), name
        doc = frontmatter.parse(f"---\nname: a{text.replace(chr(10), ' ')}b\ntags:\n  - x{text[:1000]}y \n---\nbody")
        assert str(doc.get("name")).startswith("a") and str(doc.get("name")).endswith("b"), name
    assert render_block.current_block(render_block.START * (N // len(render_block.START))) is None
    for name, text in shapes():
        assert render_index.linked(f"- {text.replace(chr(10), ' ')} [note](note.md)") == "note.md", name


@pytest.mark.timeout(60)
def test_verify_reads_definitions_after_any_run():
    for name, text in shapes():
        assert "ship" in scan.definitions("package.json", f'{text}\n  "ship": "make ship"'), name
        assert "handle" in scan.definitions("app.py", f"{text}\ndef handle():\n    pass\n"), name
        java = f"  {'public ' * (N // 7)}\n{text}\n  public static void main(String[] args) {{"
        assert "main" in scan.definitions("App.java", java), name
