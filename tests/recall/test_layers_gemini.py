"""The alongside rule for Gemini CLI: what Gemini loads by itself from its private MEMORY.md (all of
it, core/gemini_loads.py) is never briefed or recalled into a Gemini session again, while Claude Code
and Codex sessions, which do not load it, still get those memories."""

from __future__ import annotations

import pytest
from geminimemkit import FACT_PORT, FACT_TESTS, NOTE_TEXT, gemini_memory

from memtui.config import Config
from memtui.core.clock import utcnow
from memtui.core.gemini_loads import load_index
from memtui.recall import lookup
from memtui.recall.layers import CLAUDE_LOADS, Loads, briefing_lines
from memtui.store.bank import Bank

GEMINI_LOADS = ("agents_md", "gemini_memory")
CODEX_LOADS = ("agents_md",)


@pytest.fixture
def env(home, project):
    return {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)}


@pytest.fixture
def memories(home, project, env):
    gemini_memory(home, project.root)
    bank = Bank(project, env=env)
    bank.add("feedback", FACT_TESTS)  # the same fact kept in .memory/ too
    bank.add("pattern", "Releases are cut from the main branch with `make release`.")
    ranked, _total = lookup.ranked(project, limit=50, drifted={}, registry=bank.registry)
    return {m.content: m for m in ranked}


def loads_of(project, env, loads):
    return Loads.read(project, Config.load(project.path("config.toml")), env, loads=loads)


def test_gemini_loads_its_memory_md_whole(project, env, memories):
    loads = loads_of(project, env, GEMINI_LOADS)
    assert loads.index_path is not None and loads.index_path.name == "MEMORY.md"
    port, tests, note = memories[FACT_PORT], memories[FACT_TESTS], memories[NOTE_TEXT.strip()]
    assert port.store == "md:gemini" and tests.store == "state"
    assert loads.carries(port) and not loads.adds(port)
    assert loads.carries(tests) and not loads.adds(tests)  # its text is a loaded line
    assert loads.carries(note)  # its pointer is loaded …
    assert loads.adds(note)  # … its body is not, so recall may bring it
    release = memories["Releases are cut from the main branch with `make release`."]
    assert not loads.carries(release) and loads.adds(release)


@pytest.mark.parametrize("agent_loads", [CLAUDE_LOADS, CODEX_LOADS], ids=["claude", "codex"])
def test_other_agents_still_get_geminis_memories(project, env, memories, agent_loads):
    loads = loads_of(project, env, agent_loads)
    for text in (FACT_PORT, FACT_TESTS, NOTE_TEXT.strip()):
        assert not loads.carries(memories[text]) and loads.adds(memories[text])


def test_the_briefing_skips_what_gemini_loads_and_only_for_gemini(project, env, memories):
    ranked = list(memories.values())
    gemini, _shown, _whole = briefing_lines(ranked, loads_of(project, env, GEMINI_LOADS), utcnow(), 6000, {})
    claude, _shown, _whole = briefing_lines(ranked, loads_of(project, env, CLAUDE_LOADS), utcnow(), 6000, {})
    assert not any(FACT_PORT in line or FACT_TESTS in line for line in gemini)
    assert any("make release" in line for line in gemini)
    assert any(FACT_PORT in line for line in claude) and any(FACT_TESTS in line for line in claude)


def test_no_private_memory_carries_nothing(project, env, home):
    gemini_memory(home, project.root, {})
    loads = loads_of(project, env, GEMINI_LOADS)
    assert loads.index.lines == () and loads.index.files == frozenset()


def test_load_index_folds_items_and_names_notes():
    raw = "# Project Memory\r\n\r\n- first fact\r\n  wrapped on\r\n- See /h/.gemini/tmp/p/memory/db-notes.md for db notes.\r\n"
    load = load_index(raw)
    assert load.cut == 0 and load.total_lines == 5
    assert load.files == {"MEMORY.md", "db-notes.md"}
    assert "first fact wrapped on" in load.texts


def test_the_session_picture_shows_geminis_memory_md_only_when_there_is_one(project, env, home):
    from memtui.recall.layers import picture
    from memtui.runtime.settings import HookSettings

    config = Config.load(project.path("config.toml"))
    settings = HookSettings.from_table({})
    assert "Gemini MEMORY.md" not in [layer.name for layer in picture(project, config, settings, env)]
    memory = gemini_memory(home, project.root)
    layers = {layer.name: layer for layer in picture(project, config, settings, env)}
    gemini = layers["Gemini MEMORY.md"]
    assert (gemini.by, gemini.count, gemini.counted, gemini.limit) == ("Gemini CLI", 5, "5 lines", "")
    assert gemini.size == len((memory / "MEMORY.md").read_text().strip().encode())
    assert "1 note pointed to, not loaded" in gemini.what
