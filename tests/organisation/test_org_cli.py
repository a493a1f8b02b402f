"""`memtui org connect/status/disconnect`, the shared scopes as stores of the CLI, and a project
file that names a database, which is ignored with one line."""

from __future__ import annotations

import tomllib

import pytest


@pytest.fixture(autouse=True)
def no_libpq_environment(monkeypatch):
    for var in ("PGSERVICE", "PGHOST", "PGDATABASE", "PGUSER", "PGSERVICEFILE"):
        monkeypatch.delenv(var, raising=False)


def _config(home):
    return home / ".config" / "memtui" / "config.toml"


def test_connect_records_the_url_in_the_persons_own_config(cli, project, home, pg_db):
    url = pg_db.person("ana", "payments")
    done = cli("org", "connect", url)
    assert done.returncode == 0, done.stderr
    assert tomllib.loads(_config(home).read_text())["org"]["url"] == url
    assert _config(home).stat().st_mode & 0o077 == 0
    status = cli("org", "status")
    assert status.returncode == 0, status.stderr
    text = status.stdout.decode()
    assert f"connected as {pg_db.role_name('ana')}" in text
    assert "scopes         org 0, team:payments 0, person 0" in text
    assert "queued writes  0" in text
    gone = cli("org", "disconnect")
    assert gone.returncode == 0 and "url" not in _config(home).read_text()
    assert "not connected" in cli("org", "status").stdout.decode()


def test_a_url_with_a_password_or_an_unreachable_server_records_nothing(cli, project, home, tmp_path):
    refused = cli("org", "connect", "postgresql://ana:secret@db.example/org")
    assert refused.returncode == 1 and b"~/.pgpass" in refused.stderr
    unreachable = cli("org", "connect", f"postgresql://ana@/org?host={tmp_path}")
    assert unreachable.returncode == 1 and len(unreachable.stderr.decode().strip().splitlines()) == 1
    assert not _config(home).exists()


def test_a_project_file_naming_a_database_is_ignored_with_one_line(cli, project, home, pg_db):
    planted = pg_db.person("planted")
    config = project.path("config.toml")
    config.write_text(config.read_text() + f'\n[org]\nurl = "{planted}"\n')
    status = cli("status")
    lines = [line for line in status.stdout.decode().splitlines() if "[org] url" in line]
    assert len(lines) == 1 and "cannot choose a database" in lines[0] and "~/.config/memtui/config.toml" in lines[0]
    assert "not connected" in cli("org", "status").stdout.decode()
    listed = cli("list", "--store", "org")
    assert listed.returncode != 0 and b"memtui org connect" in listed.stderr
    assert pg_db.sql("SELECT count(*) FROM memtui_audit") == [(0,)]


def test_the_shared_scopes_are_stores_of_the_cli(cli, project, home, pg_db):
    url = pg_db.person("ana", "payments")
    assert cli("org", "connect", url).returncode == 0
    added = cli("add", "--type", "pattern", "--store", "org", "Services log with structlog")
    assert added.returncode == 0, added.stderr
    local = cli("add", "--type", "pattern", "--json", "Payments changes need Maria's review")
    import json

    memory_id = json.loads(local.stdout)["id"]
    moved = cli("promote", memory_id, "team:payments")
    assert moved.returncode == 0, moved.stderr
    listed = cli("list", "--store", "team:payments").stdout.decode()
    assert "Payments changes need Maria's review" in listed
    assert pg_db.sql("SELECT scope, content FROM memtui_memories ORDER BY scope") == [
        ("org", "Services log with structlog"),
        ("team:payments", "Payments changes need Maria's review"),
    ]
    assert memory_id not in cli("list").stdout.decode()


def test_a_shared_memory_is_found_by_id_and_undone(cli, project, home, pg_db):
    import json

    url = pg_db.person("ana")
    assert cli("org", "connect", url).returncode == 0
    added = cli("add", "--type", "pattern", "--store", "org", "--json", "Releases go out on Tuesdays")
    memory_id = json.loads(added.stdout)["id"]
    dropped = cli("drop", memory_id)
    assert dropped.returncode == 0, dropped.stderr
    assert pg_db.sql("SELECT status FROM memtui_memories") == [("archived",)]
    undone = cli("undo")
    assert undone.returncode == 0, undone.stderr
    assert pg_db.sql("SELECT status FROM memtui_memories") == [("active",)]


def test_with_the_server_gone_the_project_works_and_says_so_in_one_line(cli, project, home, pg_db, tmp_path):
    import json

    assert cli("org", "connect", pg_db.person("ana")).returncode == 0
    added = cli("add", "--type", "pattern", "--json", "The build uses make")
    assert added.returncode == 0
    config = _config(home)
    config.write_text(f'[org]\nurl = "postgresql://ana@/gone?host={tmp_path}"\n')
    dropped = cli("drop", json.loads(added.stdout)["id"])
    assert dropped.returncode == 0, dropped.stderr
    notes = [line for line in dropped.stderr.decode().splitlines() if "organisation" in line]
    assert len(notes) == 1 and "left out" in notes[0]
