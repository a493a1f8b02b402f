"""The daemon protocol over a real Unix socket, served from a thread with the stand-in embedder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from memtui.index import daemon
from memtui.index.sources import Sources


@pytest.fixture
def serving(bank, stand_in):
    bank.add("gotcha", "Stripe webhooks need the raw body", tags=["stripe"])
    bank.add("decision", "Postgres for everything")
    sources = Sources.of(bank)
    thread = threading.Thread(target=daemon.serve, args=(sources,),
                              kwargs={"idle": 30, "embedder": stand_in, "log": lambda *_: None}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not daemon.running(sources):
        assert time.monotonic() < deadline, "daemon did not come up"
        time.sleep(0.05)
    yield sources
    daemon.stop(sources)
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_ask_answers_hybrid_hits(serving):
    hits = daemon.ask(serving, "stripe webhooks", k=3)
    assert hits and hits[0].memory.content.startswith("Stripe")
    assert hits[0].via == "hybrid+daemon" and hits[0].cosine is not None
    assert daemon.ask(serving, "", k=3) == []


def test_one_daemon_per_project(serving):
    assert daemon.serve(serving, idle=1, log=lambda *_: None) == 0  # the lock is held: returns at once


def test_fresh_process_uses_the_running_daemon(serving, project):
    code = ("import sys, json; from pathlib import Path; from memtui.index.search import search;"
            "from memtui.store.locations import Project;"
            "hits = search(Project(Path(sys.argv[1])), 'stripe webhooks', k=2);"
            "print(json.dumps([h.via for h in hits]))")
    out = subprocess.run([sys.executable, "-c", code, str(project.root)], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)[0] == "hybrid+daemon"


def test_no_daemon_means_no_answer(bank):
    sources = Sources.of(bank)
    assert daemon.ask(sources, "anything") is None
    assert not daemon.running(sources)
    # a stale socket file left by a killed daemon is not an answer either
    daemon.socket_path(sources).write_text("")
    assert daemon.ask(sources, "anything") is None


def test_bad_requests_do_not_kill_it(serving):
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(str(daemon.socket_path(serving)))
        sock.sendall(b"not json\n")
        answer = json.loads(sock.recv(65536))
    assert answer["ok"] is False
    assert daemon.running(serving)
