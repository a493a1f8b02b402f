"""`memtui setup --help` says plainly what each agent gets and why."""

from __future__ import annotations

from memtui.agents import NAMES, get


def test_setup_help_names_every_agent_with_what_it_gets(run):
    code, out, _err = run("setup", "--help")

    assert code == 0
    for name in NAMES:
        module = get(name)
        line = next(line for line in out.splitlines() if line.strip().startswith(name + " "))
        assert module.LABEL in line
        assert " ".join(module.REACH.split()[:3]) in " ".join(out.split())
