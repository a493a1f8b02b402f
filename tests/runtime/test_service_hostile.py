"""The recall service against clients that misbehave: nothing a client sends stops the service or
makes another client wait. A real service process, real sockets, raw bytes."""

from __future__ import annotations

import json
import socket

import pytest
from test_service import log_of

from memtui.index import remote
from memtui.runtime import wire


def connect(project) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(60)
    sock.connect(remote.socket_path(str(project.root)))
    return sock


def exchange(project, data: bytes) -> bytes:
    """Send `data` as one request, the whole reply."""
    with connect(project) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def still_serving(project, pid: int) -> None:
    answer = remote.ping(str(project.root), budget=10.0)
    assert answer is not None and answer["pid"] == pid, "the service died: " + log_of(project)


def test_a_request_nested_100000_deep_is_answered_and_the_next_one_served(service, project):
    for deep in (b"[" * 100_000 + b"]" * 100_000, b'{"a": ' * 100_000 + b"1" + b"}" * 100_000):
        reply = exchange(project, b'{"op": "search", "query": ' + deep + b"}\n")
        assert reply.startswith(b"-") and b"deep" in reply
        still_serving(project, service)
    # The body (Claude Code's payload) nested as deep: the hook answers nothing, the service lives.
    header = json.dumps({"op": "hook", "event": "UserPromptSubmit", "root": str(project.root), "env": {}})
    reply = exchange(project, header.encode() + b"\n" + b"[" * 100_000 + b"]" * 100_000)
    assert reply[:1] in (b"+", b"-")
    still_serving(project, service)


@pytest.mark.parametrize(
    "garbage",
    [b"", b"\xff\xfe\x00garbage", b"not json\n{}", b"[1, 2]\n", b'{"op": "nope"}\n', b'{"op": "search", "k": {}}\n'],
)
def test_garbage_gets_an_answer(service, project, garbage):
    reply = exchange(project, garbage)
    assert reply.startswith((b"-", b"+"))
    still_serving(project, service)


def test_a_silent_client_is_dropped_alone_while_others_are_answered(service, project):
    silent = connect(project)  # sends nothing and never shuts its side: only the deadline ends it
    try:
        for _ in range(3):
            still_serving(project, service)  # answered while the silent client still holds its connection
        silent.setblocking(False)
        with pytest.raises(BlockingIOError):
            silent.recv(1)  # not dropped yet: the pings above did not wait behind it
        silent.settimeout(60)
        assert silent.recv(65536)[:1] in (b"", b"-")  # dropped at its deadline (within the 60 s here)
    finally:
        silent.close()
    still_serving(project, service)
    assert "dropped" in log_of(project)


# -- the request parser, as a table ------------------------------------------------------------------


@pytest.mark.parametrize(
    "header, reason",
    [
        (b'{"op": "ping"}', None),
        (b'{"op": "search", "query": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "types": ["x"]}', None),
        (b'{"op": "search", "query": "a \\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\" b"}', None),
        (b'{"op": ' + b"[" * 9 + b"]" * 9 + b"}", "request nested too deep"),
        (b'{"op": ' + b"[" * 100_000, "request nested too deep"),
        (b'{"q": "' + b"x" * (wire.MAX_HEADER + 1) + b'"}', "request header too long"),
        (b"[1, 2]", "bad request"),
        (b"\xff", "bad request"),
        (b"", "bad request"),
    ],
)
def test_parse(header, reason):
    if reason is None:
        request, body = wire.parse(header + b"\nbody")
        assert isinstance(request, dict) and body == b"body"
    else:
        with pytest.raises(wire.BadRequest, match=reason):
            wire.parse(header + b"\n")
