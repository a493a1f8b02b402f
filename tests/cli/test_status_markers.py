"""`memtui status` reports a CLAUDE.md with broken markers instead of failing on it."""

import json


def test_status_lists_broken_markers_as_a_problem(project, cli):
    (project.root / "CLAUDE.md").write_text("<!-- MEMORY:START -->\nhalf a block\n", encoding="utf-8")
    result = cli("status", "--json", cwd=project.root)
    assert result.returncode == 0, result.stderr.decode()
    status = json.loads(result.stdout)
    assert any("MEMORY:START" in p for p in status["problems"])
    assert status["claude_md"]["up_to_date"] is False
    plain = cli("status", cwd=project.root)
    assert plain.returncode == 0 and b"problem" in plain.stdout
