"""The README is a user's guide that stays true: short, every `memtui` command it shows exists with
the options it shows, and every link (README, docs/, CONTRIBUTING) resolves to a file and heading."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation gone, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.+)$", text, re.M)}


def commands_shown() -> list[list[str]]:
    """Every `memtui …` invocation in the README's code blocks and inline code."""
    text = README.read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            for part in re.split(r"&&|;", line.split("#")[0]):
                found.append(part.strip())
    found += re.findall(r"`(memtui [^`]+)`", text)
    out = []
    for command in found:
        if not command.startswith("memtui "):
            continue
        words = shlex.split(command)
        if len(words) > 1 and re.fullmatch(r"[a-z][a-z-]*", words[1]):
            out.append(words[1:])
    return out


def test_the_readme_is_a_guide_of_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    headings = [line for line in lines if line.startswith("## ")]
    for needed in ("## Quick start", "## Install", "## What needs a model", "## Team use", "## Uninstall"):
        assert any(h.startswith(needed) for h in headings), needed


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_resolves(page):
    broken = []
    for match in LINK.finditer(page.read_text(encoding="utf-8")):
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z]+://|mailto:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in anchors(file)):
            broken.append(target)
    assert not broken, broken


def test_every_command_the_readme_shows_runs_with_its_options(cli):
    shown = commands_shown()
    subcommands = {words[0] for words in shown}
    assert {"init", "setup", "status", "search", "uninstall", "demo"} <= subcommands
    helps: dict[str, str] = {}
    for name in sorted(subcommands):
        done = cli(name, "--help")
        assert done.returncode == 0, (name, done.stderr)
        helps[name] = done.stdout.decode()
    missing = [
        (words[0], option)
        for words in shown
        for option in words[1:]
        if option.startswith("--") and option.split("=")[0] not in helps[words[0]]
    ]
    assert not missing, missing


def test_the_command_reference_lists_real_commands_and_options(cli):
    rows = re.findall(r"^\| `memtui ([a-z][a-z-]*)([^`]*)`", (ROOT / "docs" / "commands.md").read_text("utf-8"), re.M)
    assert len(rows) >= 25
    missing = []
    for name, rest in rows:
        done = cli(name, "--help")
        assert done.returncode == 0, (name, done.stderr)
        missing += [(name, o) for o in re.findall(r"--[a-z][a-z-]*", rest) if o not in done.stdout.decode()]
    assert not missing, missing


def test_ci_runs_the_gates_then_the_readmes_test_command_verbatim():
    """`.ci/run` ends with the README's install and test command, word for word (split around the gates
    CONTRIBUTING names), so a green CI proves the command a contributor is told to run."""
    quick_start = README.read_text(encoding="utf-8").split("## Quick start", 1)[1]
    block = re.search(r"```bash\n(.*?)```", quick_start, re.S)
    assert block is not None
    test_command = block.group(1).strip().splitlines()[-1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    install, gates, tests = ci[-3:]
    assert f"{install} && {tests}" == test_command
    assert gates in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
