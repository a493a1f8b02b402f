"""What each agent loads by itself, so recall never sends it again: Claude Code its CLAUDE.md block
and auto-memory MEMORY.md, Codex its AGENTS.md block (and neither of Claude Code's), an agent memtui
does not know nothing (everything may be recalled)."""

from __future__ import annotations

from memtui.agents.codex import LOADS as CODEX
from memtui.core.render_block import current_block
from memtui.recall.layers import Loads, briefing_lines, picture
from memtui.runtime.settings import HookSettings
from memtui.store import rendering
from memtui.store.bank import Bank
from memtui.store.locations import markdown_dirs

IN_INDEX = "We deploy with make ship from the main branch"


def _set_up(project, env):
    """A project whose memories are in CLAUDE.md's block, AGENTS.md's block and Claude Code's index."""
    folder = next(d.path for d in markdown_dirs(project, env) if d.key == "md:project")
    folder.mkdir(parents=True)
    (folder / "deploy.md").write_text(f"---\nname: deploy\ndescription: {IN_INDEX}\ntype: project\n---\n\n{IN_INDEX}\n")
    (folder / "MEMORY.md").write_text(f"- [deploy](deploy.md) — {IN_INDEX}\n")
    bank = Bank(project, env=env)
    bank.add("decision", "Use integer cents for money")
    bank.write_render()  # CLAUDE.md
    rendering.enable_agents_md(bank)
    return bank


def _memory(bank, text):
    return next(m for m in bank.memories() if text in (m.description or m.content))


def test_codex_carries_its_agents_md_block_and_not_claude_code_loads(project, home):
    env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)}
    bank = _set_up(project, env)
    cents, deploy = _memory(bank, "integer cents"), _memory(bank, IN_INDEX)

    claude = Loads.read(project, bank.config, env)
    assert claude.carries(cents) and claude.carries(deploy)  # its block, its index

    codex = Loads.read(project, bank.config, env, loads=CODEX)
    assert codex.carries(cents) and codex.carries(deploy)  # both are lines of AGENTS.md's block
    assert codex.index_path is None and not codex.index.lines  # Codex never reads MEMORY.md

    (project.root / "AGENTS.md").unlink()  # Codex without the block carries nothing
    bare = Loads.read(project, bank.config, env, loads=CODEX)
    assert not bare.carries(cents) and not bare.carries(deploy)
    assert bare.adds(cents) and bare.adds(deploy)
    _, shown, _ = briefing_lines([cents, deploy], bare, bank.clock(), 10_000, {})
    assert set(shown) == {cents.id, deploy.id}  # what Claude Code alone loads is briefed to Codex
    _, shown, _ = briefing_lines([cents, deploy], claude, bank.clock(), 10_000, {})
    assert shown == []


def test_claude_code_does_not_carry_the_agents_md_block(project, home):
    env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)}
    bank = Bank(project, env=env)
    bank.add("decision", "Use integer cents for money")
    rendering.enable_agents_md(bank)
    cents = _memory(bank, "integer cents")
    assert Loads.read(project, bank.config, env, loads=CODEX).carries(cents)
    assert not Loads.read(project, bank.config, env).carries(cents)  # no CLAUDE.md block installed
    assert not Loads.read(project, bank.config, env, loads=()).carries(cents)  # unknown: carries nothing


def test_the_session_picture_shows_agents_md_only_when_its_block_is_on(project, home):
    env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)}
    bank = Bank(project, env=env)
    bank.add("decision", "Use integer cents for money")
    settings = HookSettings.from_table({})
    assert [layer.name for layer in picture(project, bank.config, settings, env)] == [
        "CLAUDE.md block",
        "MEMORY.md index",
        "briefing",
        "recall",
    ]
    rendering.enable_agents_md(bank)
    layers = picture(project, bank.config, settings, env)
    agents = layers[1]
    assert (agents.name, agents.by, agents.count, agents.counted) == ("AGENTS.md block", "Codex CLI", 1, "1 memory")
    assert agents.limit == "32 KB for all of AGENTS.md"
    assert agents.size == len(current_block((project.root / "AGENTS.md").read_text()).encode())
