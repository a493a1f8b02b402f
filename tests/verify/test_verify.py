"""Verification against the code, on real git repositories in temp dirs and a real index file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitkit import git

from memtui.index.verdicts import DRIFTED, UNCHECKED, VERIFIED
from memtui.store.bank import Bank, init_project
from memtui.verify import engine

INVOICE = """\
MAX_RETRIES = 3


class InvoiceService:
    def finalize(self, invoice):
        return invoice


def handle_webhook(event):
    return InvoiceService().finalize(event)


def unrelated_helper(x):
    return x
"""
CALLER = """\
from billing.invoice import handle_webhook


def route(event):
    return handle_webhook(event)
"""
MAKEFILE = "ship:\n\t./deploy.sh --dry-run\n\ntest:\n\tpytest\n"


def run_memtui(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The real CLI in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        timeout=60,
    )


@pytest.fixture
def repo(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / "src" / "billing").mkdir(parents=True)
    (root / "services" / "api").mkdir(parents=True)
    (root / "src" / "billing" / "invoice.py").write_text(INVOICE)
    (root / "src" / "billing" / "routes.py").write_text(CALLER)
    (root / "services" / "api" / "app.py").write_text("APP_NAME = 'api'\n")
    (root / "Makefile").write_text(MAKEFILE)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    init_project(root)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    return root


MEMORIES = {
    "path": ("gotcha", "Webhook parsing lives in src/billing/invoice.py; keep it small."),
    "symbol": ("pattern", "Always go through `handle_webhook` for Stripe events."),
    "method": ("pattern", "InvoiceService.finalize() must run after MAX_RETRIES attempts."),
    "command": ("decision", "Deploy with `make ship`, and pass --dry-run the first time."),
    "dir": ("architecture", "The public API is under services/api/."),
    "prose": ("decision", "The user prefers tabs and short answers; we use GitHub and Node.js."),
    "steady": ("pattern", "`unrelated_helper` in src/billing/invoice.py is pure."),
    "library": ("pattern", "Use `json.dumps` with sort_keys for stable output."),
}


def add_all(root: Path) -> dict[str, str]:
    bank = Bank.open(root)
    return {key: bank.add(type_, text).memory.id for key, (type_, text) in MEMORIES.items()}


def refactor(root: Path) -> None:
    """Renames with git mv, a function and a method renamed, a target renamed, a flag removed."""
    git(root, "mv", "src/billing/invoice.py", "src/billing/invoices.py")
    git(root, "mv", "services/api", "services/gateway")
    for path in (root / "src" / "billing").glob("*.py"):
        text = path.read_text().replace("handle_webhook", "process_webhook").replace("finalize", "finalise")
        path.write_text(text.replace("billing.invoice ", "billing.invoices "))
    (root / "Makefile").write_text("release:\n\t./deploy.sh\n\ntest:\n\tpytest\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "refactor")


def by_key(report: engine.Report, ids: dict[str, str]) -> dict[str, object]:
    verdicts = {v.id: v for v in report.verdicts}
    return {key: verdicts[memory_id] for key, memory_id in ids.items()}


def test_a_sound_tree_verifies_and_prose_is_unchecked(repo: Path) -> None:
    ids = add_all(repo)
    v = by_key(engine.verify(Bank.open(repo)), ids)
    assert {k: x.status for k, x in v.items()} == {  # type: ignore[attr-defined]
        "path": VERIFIED,
        "symbol": VERIFIED,
        "method": VERIFIED,
        "command": VERIFIED,
        "dir": VERIFIED,
        "prose": UNCHECKED,
        "steady": VERIFIED,
        "library": UNCHECKED,  # json.dumps is named nowhere in this tree: not ours to judge
    }
    assert v["method"].refs == ("InvoiceService.finalize", "MAX_RETRIES")  # type: ignore[attr-defined]


@pytest.mark.parametrize("seen_before", [True, False], ids=["scanned-before", "history-only"])
def test_refactor_drifts_with_likely_new_names(repo: Path, seen_before: bool) -> None:
    ids = add_all(repo)
    if seen_before:
        engine.verify(Bank.open(repo))
    refactor(repo)
    v = by_key(engine.verify(Bank.open(repo)), ids)
    status = {k: x.status for k, x in v.items()}  # type: ignore[attr-defined]
    assert status == {
        "path": DRIFTED,
        "symbol": DRIFTED,
        "method": DRIFTED,
        "command": DRIFTED,
        "dir": DRIFTED,
        "prose": UNCHECKED,
        "steady": DRIFTED,  # its path moved; the function it names is still there
        "library": UNCHECKED,
    }
    assert v["path"].suggested == {"src/billing/invoice.py": "src/billing/invoices.py"}  # type: ignore[attr-defined]
    assert v["symbol"].suggested == {"handle_webhook": "process_webhook"}  # type: ignore[attr-defined]
    assert v["method"].missing == ("InvoiceService.finalize",)  # type: ignore[attr-defined]
    assert v["method"].suggested == {"InvoiceService.finalize": "InvoiceService.finalise"}  # type: ignore[attr-defined]
    assert set(v["command"].missing) == {"make ship", "--dry-run"}  # type: ignore[attr-defined]
    assert v["command"].suggested == {"make ship": "make release"}  # type: ignore[attr-defined]
    assert v["dir"].suggested == {"services/api/": "services/gateway/"}  # type: ignore[attr-defined]
    assert v["steady"].missing == ("src/billing/invoice.py",)  # type: ignore[attr-defined]
    note = v["path"].note  # type: ignore[attr-defined]
    assert note == "mentions src/billing/invoice.py (now src/billing/invoices.py?), which no longer exists in the code"


def test_memtuis_own_files_never_verify_a_memory(repo: Path) -> None:
    """state.json and CLAUDE.md hold the memories' own words: a name found only there is no evidence."""
    bank = Bank.open(repo)
    memory_id = bank.add("gotcha", "`ghost_function_xyz` must be called twice").memory.id
    (repo / "CLAUDE.md").write_text("ghost_function_xyz\n")
    (repo / ".claude" / "memory").mkdir(parents=True)
    (repo / ".claude" / "memory" / "note.md").write_text("ghost_function_xyz\n")
    verdicts = {v.id: v for v in engine.verify(bank).verdicts}
    assert verdicts[memory_id].status == UNCHECKED


def test_outside_git_the_first_scan_is_the_baseline(tmp_path: Path, home: Path) -> None:
    root = tmp_path / "plain"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "tasks.rb").write_text("def enqueue_job(x)\n  x\nend\n\nclass Worker\nend\n")
    (root / "lib" / "old.rb").write_text("class Legacy\nend\n")
    init_project(root)
    bank = Bank.open(root)
    job = bank.add("pattern", "`enqueue_job` in lib/tasks.rb is idempotent").memory.id
    legacy = bank.add("gotcha", "lib/old.rb holds `Legacy`; do not extend it").memory.id
    first = {v.id: v.status for v in engine.verify(bank).verdicts}
    assert first == {job: VERIFIED, legacy: VERIFIED}
    assert engine.verify(bank).head == ""
    (root / "lib" / "old.rb").unlink()
    (root / "lib" / "tasks.rb").write_text("def enqueue_jobs(x)\n  x\nend\n\nclass Worker\nend\n")
    after = {v.id: v for v in engine.verify(bank).verdicts}
    assert after[legacy].status == DRIFTED and set(after[legacy].missing) == {"lib/old.rb", "Legacy"}
    assert after[job].suggested == {"enqueue_job": "enqueue_jobs"}


def test_an_edited_file_rechecks_only_the_memories_that_name_what_changed(repo: Path) -> None:
    ids = add_all(repo)
    engine.verify(Bank.open(repo))
    invoice = repo / "src" / "billing" / "invoice.py"
    invoice.write_text(INVOICE.replace("def unrelated_helper", "def renamed_helper").replace("(x)", "(y)"))
    changed = engine.file_changed(Bank.open(repo), [str(invoice)])
    assert [v.id for v in changed] == [ids["steady"]]
    assert changed[0].status == DRIFTED and changed[0].suggested == {"unrelated_helper": "renamed_helper"}
    # a file outside the project is not part of its tree
    assert engine.file_changed(Bank.open(repo), ["/etc/hostname"]) == []
    summary = json.loads((repo / ".memory" / engine.SUMMARY).read_text())
    assert list(summary["drifted"]) == [ids["steady"]]
    assert "unrelated_helper" in summary["drifted"][ids["steady"]]


def test_edited_and_new_memories_are_checked_without_a_rescan(repo: Path) -> None:
    ids = add_all(repo)
    bank = Bank.open(repo)
    engine.verify(bank)
    bank.update(ids["prose"], content="Stripe events go to `handle_webhook` only.")
    new = bank.add("gotcha", "`no_such_thing_here` is fine").memory.id
    fresh = {v.id: v.status for v in engine.refresh(bank)}
    assert fresh == {ids["prose"]: VERIFIED, new: UNCHECKED}
    bank.drop(ids["symbol"])
    report = engine.verify(bank)
    assert ids["symbol"] not in {v.id for v in report.verdicts}
    assert report.checked == 0  # nothing in the tree or the text changed since


def test_affirmed_references_stop_counting(repo: Path) -> None:
    ids = add_all(repo)
    refactor(repo)
    bank = Bank.open(repo)
    report = by_key(engine.verify(bank), ids)
    engine.affirm(bank, ids["command"], report["command"].missing)  # type: ignore[attr-defined]
    again = by_key(engine.verify(bank, full=True), ids)
    assert again["command"].status == VERIFIED and again["path"].status == DRIFTED  # type: ignore[attr-defined]


def test_cli_verify_json_and_text(repo: Path) -> None:
    ids = add_all(repo)
    refactor(repo)
    done = run_memtui("verify", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    rows = {row["id"]: row for row in json.loads(done.stdout.decode())}
    assert set(rows) == set(ids.values())
    assert rows[ids["symbol"]]["status"] == "drifted"
    assert rows[ids["symbol"]]["missing"] == ["handle_webhook"]
    assert rows[ids["symbol"]]["suggested"] == {"handle_webhook": "process_webhook"}
    assert rows[ids["prose"]] | {"commit": None} == {
        "id": ids["prose"],
        "status": "unchecked",
        "references": [],
        "missing": [],
        "suggested": {},
        "commit": None,
    }
    done = run_memtui("verify", cwd=repo)
    assert done.returncode == 0
    text = done.stdout.decode()
    assert "6 drifted, 2 unchecked" in text
    assert "gone: src/billing/invoice.py  → now src/billing/invoices.py?" in text


def test_cli_verify_outside_a_project_says_what_to_do(tmp_path: Path, home: Path) -> None:
    done = run_memtui("verify", cwd=tmp_path, env={"CLAUDE_PROJECT_DIR": str(tmp_path)})
    assert done.returncode == 1
    error = done.stderr.decode()
    assert "memtui init" in error and len(error.strip().splitlines()) == 1


def test_an_installed_claude_md_block_leaves_drifted_memories_out(repo: Path) -> None:
    ids = add_all(repo)
    assert run_memtui("render", cwd=repo).returncode == 0
    block = (repo / "CLAUDE.md").read_text()
    assert "Always go through `handle_webhook`" in block
    refactor(repo)
    engine.verify(Bank.open(repo))
    block = (repo / "CLAUDE.md").read_text()
    assert "Always go through `handle_webhook`" not in block
    assert "_6 memories name code that has since changed; left out here (`memtui verify` lists them)_" in block
    assert "The user prefers tabs" in block  # unchecked memories stay
    engine.affirm(Bank.open(repo), ids["symbol"], ["handle_webhook"])
    engine.verify(Bank.open(repo), full=True)
    assert "Always go through `handle_webhook`" in (repo / "CLAUDE.md").read_text()


def test_touch_reaffirms_a_drifted_memory(repo: Path) -> None:
    ids = add_all(repo)
    refactor(repo)
    engine.verify(Bank.open(repo))
    done = run_memtui("touch", ids["symbol"], cwd=repo)
    assert done.returncode == 0
    assert f"{ids['symbol']} still holds as written: handle_webhook no longer counted as gone" in done.stdout.decode()
    verdicts = {v.id: v for v in engine.verify(Bank.open(repo), full=True).verdicts}
    assert verdicts[ids["symbol"]].status == VERIFIED
    assert verdicts[ids["path"]].status == DRIFTED
    plain = run_memtui("touch", ids["prose"], cwd=repo).stdout.decode()
    assert "still holds" not in plain


def test_dotted_module_paths_and_names_still_in_wide_use(repo: Path) -> None:
    """A module named by its dotted path follows the module; a name this tree stops defining but
    many files still use (`logging`, once also a module here) is not gone."""
    (repo / "src" / "billing" / "logging.py").write_text("def setup_logging():\n    pass\n")
    for i in range(3):
        (repo / "src" / f"user{i}.py").write_text("import logging\nlog = logging.getLogger(__name__)\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "more")
    bank = Bank.open(repo)
    module = bank.add("pattern", "Import helpers from `src.billing.routes`, never the other way.").memory.id
    stdlib = bank.add("pattern", "Use `logging.getLogger` in every module.").memory.id
    engine.verify(bank)
    git(repo, "mv", "src/billing", "src/payments")
    git(repo, "rm", "-qf", "src/payments/logging.py")
    git(repo, "commit", "-qam", "move")
    verdicts = {v.id: v for v in engine.verify(bank).verdicts}
    assert verdicts[module].status == DRIFTED
    assert verdicts[module].suggested == {"src.billing.routes": "src.payments.routes"}
    assert verdicts[stdlib].status == VERIFIED


def test_undo_of_a_touch_brings_the_drift_back(repo: Path) -> None:
    """touch + undo: the memory counts as drifted again, in the index, verified.json and recall's note."""
    ids = add_all(repo)
    refactor(repo)
    engine.verify(Bank.open(repo))
    method = ids["method"]
    assert method in json.loads((repo / ".memory" / "verified.json").read_text())["drifted"]
    assert run_memtui("touch", method, cwd=repo).returncode == 0
    assert method not in json.loads((repo / ".memory" / "verified.json").read_text())["drifted"]
    undo = run_memtui("undo", cwd=repo)
    assert undo.returncode == 0, undo.stderr
    assert method in json.loads((repo / ".memory" / "verified.json").read_text())["drifted"]
    listed = json.loads(run_memtui("verify", "--json", cwd=repo).stdout)
    assert {v["id"]: v["status"] for v in listed}[method] == DRIFTED
    # a later full run agrees: the affirmation went with the touch it came from
    verdicts = {v.id: v for v in engine.verify(Bank.open(repo), full=True).verdicts}
    assert verdicts[method].status == DRIFTED


def test_undo_of_an_edit_judges_the_restored_text(repo: Path) -> None:
    ids = add_all(repo)
    refactor(repo)
    engine.verify(Bank.open(repo))
    method = ids["method"]
    fixed = run_memtui("edit", method, "--text", "Retries are capped by MAX_RETRIES.", cwd=repo)
    assert fixed.returncode == 0, fixed.stderr
    engine.refresh(Bank.open(repo))
    assert method not in json.loads((repo / ".memory" / "verified.json").read_text())["drifted"]
    assert run_memtui("undo", cwd=repo).returncode == 0
    assert method in json.loads((repo / ".memory" / "verified.json").read_text())["drifted"]
