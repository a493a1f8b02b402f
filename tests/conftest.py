"""Fixtures shared by every test area: an isolated HOME and a real project in a temp dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: Every fixture, transcript and development set the tests read (tests/data/README.md): nothing outside the checkout.
DATA = REPO / "tests" / "data"

# Every git the tests run (theirs and memtui's) has an identity: a fresh machine has no global one, and
# a merge commit or a `git commit` without one stops with "Please tell me who you are". A caller's own
# identity in the environment still wins.
for _var, _value in (
    ("GIT_AUTHOR_NAME", "memtui tests"),
    ("GIT_AUTHOR_EMAIL", "tests@memtui.invalid"),
    ("GIT_COMMITTER_NAME", "memtui tests"),
    ("GIT_COMMITTER_EMAIL", "tests@memtui.invalid"),
):
    os.environ.setdefault(_var, _value)


def pytest_configure(config: pytest.Config) -> None:
    """With PYTHONDONTWRITEBYTECODE set (some machines and CI images set it) every memtui process a
    test starts, hook, CLI or service, would compile memtui's ~280 modules from source again: half
    of a CLI command's time. Compile them once, before any worker starts; a process still reads
    bytecode it finds, it only does not write it."""
    if sys.flags.dont_write_bytecode and not hasattr(config, "workerinput"):
        import compileall

        compileall.compile_dir(REPO / "memtui", quiet=1, workers=0)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private HOME so nothing reads or writes the real ~/.claude."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    # Nor the person's own memtui config (`memtui.config.user_path`): it sets [llm] keys for every project.
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    # memtui's own caches (backups, model runs, MCP answers, the folders setup made) follow HOME too:
    # the kits read the download cache before this (codexkit._CACHE_HOME).
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("MEMTUI_SERVICE", "off")  # no test starts a recall service it did not ask for (envkit.py)
    # No test uses a `claude` it finds on this machine: the claude-code backend is chosen on purpose (claudekit.py).
    monkeypatch.setenv("MEMTUI_CLAUDE", str(home / ".no-claude-here"))
    # Nor a `codex`: the codex backend too is chosen on purpose (codexkit.py), never found by `auto`.
    monkeypatch.setenv("MEMTUI_CODEX", str(home / ".no-codex-here"))
    monkeypatch.setenv("MEMTUI_GEMINI", str(home / ".no-gemini-here"))
    # Nor any agent reached only through MCP (agents/mcponly.py): setup finds the fake one a test puts there.
    for name in ("CRUSH", "QWEN", "CURSOR", "COPILOT", "AMP"):
        monkeypatch.setenv(f"MEMTUI_{name}", str(home / f".no-{name.lower()}-here"))
    monkeypatch.setenv("MEMTUI_OPENCODE", str(home / ".no-opencode-here"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)  # Gemini's private memory is looked up under HOME
    return home


@pytest.fixture
def project(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch):
    """An initialised project (a git-like root with .memory/); CLAUDE_PROJECT_DIR points at it."""
    from memtui.store.bank import init_project

    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    project = init_project(root)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    return project


@pytest.fixture
def bank(project):
    from memtui.store.bank import Bank

    return Bank.open(project.root)


def run_memtui(
    *args: str, cwd: Path | None = None, input: str | bytes | None = None, env: dict | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    """Run the real CLI in a process of its own (`python -m memtui …`, forked warm: forkkit.py)."""
    import forkkit

    full_env = dict(os.environ)
    full_env.update(env or {})
    data = input.encode() if isinstance(input, str) else input
    return forkkit.run(list(args), cwd=cwd, input=data, env=full_env, timeout=timeout)


@pytest.fixture
def cli():
    return run_memtui


def load_json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


# -- running the suite in parts (`-m "not slow"`, `-n auto`) ------------------------------------

#: Folders and modules by kind (glob patterns from tests/; each must match a test module, or the run
#: fails: a moved folder cannot leave its tests unmarked). `bench` checks that shipped figures
#: reproduce from the development sets; `slow` is what makes the suite take minutes; `serial` runs in
#: one worker. `-m "not slow"` is the fast suite: the domain, the stores, the index, recall, verify.
MARKED = {
    "e2e/*": ("e2e", "slow", "serial"),
    "index/test_calibration.py": ("bench", "slow"),
    "core/test_redaction_bench.py": ("bench",),
    # Real subprocesses (hooks, the CLI, the MCP server, the service, git, the fake API) and the
    # TUI driven screen by screen: the bulk of the suite's minutes.
    "runtime/*": ("slow",),
    # The recall service's own tests start and stop it and measure its idle exit: a busy
    # neighbour would skew them.
    "runtime/test_service*.py": ("serial",),
    "cli/*": ("slow",),
    "mcp/*": ("slow",),
    "capture/*": ("slow",),
    "team/*": ("slow",),
    # A real PostgreSQL per worker (tests/pgkit.py), the CLI in subprocesses against it.
    "organisation/*": ("slow",),
    "tui/*": ("slow",),
    "test_readme.py": ("slow",),
    # The CLI in subprocesses by the dozen, outside the folders above.
    "store/test_concurrency.py": ("slow",),
    "store/test_crash.py": ("slow",),
    "store/test_full_disk.py": ("slow",),
    "importers/test_*_cli.py": ("slow",),
    "index/test_cli.py": ("slow",),
    "index/test_semantic_model.py": ("slow", "serial"),
    "agents/test_*_setup.py": ("slow",),
    "agents/test_claude_plugin.py": ("slow",),
    "verify/test_verify.py": ("slow",),
    "agents/test_mcponly_agents.py": ("slow",),
    # 100,000 characters of every worst case through every entry point: CPU seconds each.
    "core/test_linear.py": ("slow",),
}

#: A module that names one of these drives a real agent CLI (Claude Code bundled by
#: claude-agent-sdk, Codex, Gemini CLI, opencode, Qwen Code): marked `agents` and `slow`. The kits'
#: `require_*` functions fail a test that reaches a CLI without the mark (markkit.expect).
AGENT_NEEDLES = ("require_codex", "require_gemini", "require_opencode", "require_qwen", "claudekit", "agentskit")


def _agent_module(path: Path, seen: dict[Path, bool]) -> bool:
    if path not in seen:
        text = path.read_text(encoding="utf-8") if path.suffix == ".py" else ""
        seen[path] = any(needle in text for needle in AGENT_NEEDLES)
    return seen[path]


def pytest_collection_modifyitems(config, items):
    import fnmatch

    tests = Path(__file__).parent
    unused = [
        p
        for p in MARKED
        if not any(fnmatch.fnmatch(m.relative_to(tests).as_posix(), p) for m in tests.rglob("test_*.py"))
    ]
    if unused:
        raise pytest.UsageError(f"tests/conftest.py MARKED names no test module: {', '.join(unused)}; fix the pattern")
    seen: dict[Path, bool] = {}
    for item in items:
        where = Path(str(item.path)).relative_to(tests).as_posix()
        for pattern, marks in MARKED.items():
            if fnmatch.fnmatch(where, pattern):
                for mark in marks:
                    item.add_marker(getattr(pytest.mark, mark))
        if _agent_module(Path(str(item.path)), seen):
            item.add_marker(pytest.mark.agents)
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("serial"):
            # One xdist worker runs every `serial` test, one at a time (`--dist loadgroup`): they
            # start background processes or measure idle exits that a busy neighbour would skew.
            item.add_marker(pytest.mark.xdist_group("serial"))


def pytest_runtest_setup(item):
    import markkit

    markkit.CURRENT[:] = [mark.name for mark in item.iter_markers()]


@pytest.fixture(scope="session")
def pg():
    """A real PostgreSQL with pgvector (tests/pgkit.py): one per session and xdist worker, each in
    a temporary folder of its own, stopped and deleted at the end."""
    import pgkit

    if pgkit.SKIP_REASON:
        pytest.skip(pgkit.SKIP_REASON)
    server = pgkit.Server.start()
    yield server
    server.stop()


@pytest.fixture
def pg_db(pg):
    """A database of this test's own on the session's server, memtui's schema migrated."""
    import pgkit

    return pgkit.new_database(pg)
