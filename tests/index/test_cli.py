"""`memtui search`, `related`, `index`, `service` through the real CLI."""

from __future__ import annotations

import json


def test_search_json_and_text(bank, project, cli):
    bank.add("gotcha", "Stripe webhooks need the raw body in src/lib/stripe.ts", tags=["stripe", "webhooks"])
    bank.add("decision", "Postgres for everything", tags=["postgres"])
    out = cli("search", "stripe", "webhooks", "--json", "--semantic", "off", cwd=project.root)
    assert out.returncode == 0, out.stderr
    hits = json.loads(out.stdout)
    assert hits[0]["memory"]["content"].startswith("Stripe") and 0 < hits[0]["score"] <= 1
    assert "tags: stripe, webhooks" in hits[0]["why"] and hits[0]["via"] == "bm25"

    out = cli("search", "src/lib/stripe.ts", "-k", "1", "--semantic", "off", cwd=project.root)
    assert out.returncode == 0 and "Stripe webhooks" in out.stdout.decode() and "content:" in out.stdout.decode()

    out = cli("search", '"unbalanced AND (', "--semantic", "off", cwd=project.root)
    assert out.returncode == 0, out.stderr

    out = cli("search", "--semantic", "off", cwd=project.root, input="postgres\n")
    assert out.returncode == 0 and "Postgres" in out.stdout.decode()

    out = cli("search", "x", "-k", "0", cwd=project.root)
    assert out.returncode == 1 and b"-k" in out.stderr


def test_related_and_index(bank, project, cli):
    bank.add("gotcha", "Webhook retries", tags=["stripe", "retries"])
    bank.add("decision", "Pinned API version", tags=["stripe"])
    out = cli("related", "stripe", "retries", "--json", cwd=project.root)
    assert out.returncode == 0, out.stderr
    hits = json.loads(out.stdout)
    assert [h["shared_tags"] for h in hits] == [["stripe", "retries"], ["stripe"]]

    out = cli("index", "--rebuild", "--no-vectors", "--json", cwd=project.root)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["memories"] == 2 and report["added"] == 2 and report["file"].endswith("index.db")

    out = cli("index", "--no-vectors", cwd=project.root)
    assert out.returncode == 0 and b"0 added" in out.stdout


def test_service_status_when_not_running(project, cli):
    out = cli("service", "--status", cwd=project.root, env={"MEMTUI_SERVICE": ""})
    assert out.returncode == 1 and b"not running" in out.stdout


def test_commands_need_a_project(tmp_path, home, cli):
    out = cli("search", "x", cwd=tmp_path)
    assert out.returncode == 1 and b"memtui init" in out.stderr
