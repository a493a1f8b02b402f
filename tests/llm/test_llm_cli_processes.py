"""A nested agent-CLI run ends with memtui, however memtui ends, and leaves nothing behind.

memtui runs in a real subprocess with the gemini backend pointed (MEMTUI_GEMINI) at a stand-in
`gemini` program: it records its pid, its private home (GEMINI_CLI_HOME) and the pid of a child of
its own (as node starts children), then waits, or with FAKE_GEMINI_MODE=answer answers at once.
memtui is then killed (SIGKILL, SIGTERM) mid-run; what must hold is read from /proc and the disk:
the run's private home (copies of the login files) is gone at the next call, the CLI and its child
are not running, and a live run's home is never taken from under it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

FAKE = """\
#!{python}
import json, os, subprocess, sys, time
sys.stdin.read()
if os.environ.get("FAKE_GEMINI_MODE") == "answer":
    print(json.dumps({{"response": "fine", "stats": {{}}}}))
    sys.exit(0)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
record = {{"pid": os.getpid(), "child": child.pid, "home": os.environ["GEMINI_CLI_HOME"]}}
where = os.path.join(os.environ["FAKE_GEMINI_RECORDS"], str(os.getpid()))
with open(where + ".tmp", "w") as handle:
    json.dump(record, handle)
os.rename(where + ".tmp", where + ".json")
time.sleep(120)
"""

#: One model call through the gemini backend, as capture and `memtui ask` make it.
CALL = """\
import os
from pathlib import Path
from memtui.llm.gemini import GeminiClient
from memtui.llm.settings import LLMSettings
env = dict(os.environ)
settings = LLMSettings.load({}, {"MEMTUI_LLM_RETRIES": "0", "MEMTUI_LLM_TIMEOUT": "60"})
client = GeminiClient(settings, Path(env["MEMTUI_GEMINI"]), env=env)
print(client.stream_text(system="s", prompt="p", purpose="ask"))
"""


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, str]:
    """The environment of a memtui process beside a person's Gemini CLI, signed in with a key, whose
    `gemini` is the stand-in."""
    return _machine_in(tmp_path)


def start_call(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], dict]:
    """A memtui process in the middle of a call: started, and its CLI waiting."""
    records = Path(env["FAKE_GEMINI_RECORDS"])
    before = set(records.glob("*.json"))
    proc = subprocess.Popen([sys.executable, "-c", CALL], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not (new := set(records.glob("*.json")) - before):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the stand-in gemini never started"
        time.sleep(0.05)
    return proc, json.loads(new.pop().read_text())


def call(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A whole call that gets its answer."""
    done = subprocess.run(
        [sys.executable, "-c", CALL],
        env={**env, "FAKE_GEMINI_MODE": "answer"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.strip() == "fine", done.stderr
    return done


def running(pid: int) -> bool:
    """The process exists and is not a zombie (an exited process nobody reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def kill_all(*records: dict) -> None:
    """A failed test leaves no process behind."""
    for record in records:
        for pid in (record["pid"], record["child"]):
            if running(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_sigkilled_run_leaves_no_cli_running_and_the_next_call_removes_its_home_at_once(machine):
    proc, killed = start_call(machine)
    try:
        home = Path(killed["home"])
        assert (home / ".gemini" / "oauth_creds.json").read_text() == '{"refresh_token": "the-persons-token"}'

        proc.kill()
        proc.wait()

        assert gone(killed["pid"]), "the CLI outlived a SIGKILLed memtui"
        call(machine)  # at once: not an hour later
        assert not home.parent.exists(), "a killed run's home, with its copy of the login, is still there"
        assert gone(killed["child"]), "what the CLI started outlived memtui and the next call"
    finally:
        kill_all(killed)


def test_the_next_call_never_removes_a_live_runs_home_and_sigterm_ends_the_run_cleanly(machine):
    proc, live = start_call(machine)
    try:
        home = Path(live["home"])
        old = time.time() - 2 * 3600
        os.utime(home.parent, (old, old))  # old or not, a live run's folder is its own

        call(machine)

        assert (home / ".gemini" / "oauth_creds.json").is_file() and running(live["pid"])

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) != 0
        assert not home.parent.exists(), "a run ended by SIGTERM left its home"
        assert gone(live["pid"]) and gone(live["child"])
    finally:
        kill_all(live)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_call_that_times_out_ends_the_cli_and_what_it_started(machine):
    slow = CALL.replace('"MEMTUI_LLM_TIMEOUT": "60"', '"MEMTUI_LLM_TIMEOUT": "2"')
    records = Path(machine["FAKE_GEMINI_RECORDS"])
    done = subprocess.run([sys.executable, "-c", slow], env=machine, capture_output=True, text=True, timeout=60)
    record = json.loads(next(records.glob("*.json")).read_text())
    try:
        assert done.returncode != 0 and "did not answer" in done.stderr
        assert gone(record["pid"]) and gone(record["child"])
        assert not Path(record["home"]).parent.exists()
    finally:
        kill_all(record)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="a second user needs root and setpriv")
def test_another_user_cannot_read_a_live_runs_copy_of_the_login(tmp_path):
    """While a run is live its private home holds a copy of the person's Gemini login: another user
    on the machine (uid 65534 through setpriv) can neither list the runs nor read the copy, even
    where the person's home and ~/.cache are open to all (0755, as many homes are)."""
    import tempfile

    open_dir = Path(tempfile.mkdtemp(prefix="memtui-open-", dir="/tmp"))
    try:
        open_dir.chmod(0o755)
        env = _machine_in(open_dir)
        for folder in (Path(env["HOME"]), Path(env["HOME"]) / ".cache"):
            folder.mkdir(parents=True, exist_ok=True)
            folder.chmod(0o755)
        proc, live = start_call(env)
        try:
            copy = Path(live["home"]) / ".gemini" / "oauth_creds.json"
            assert copy.read_text() == '{"refresh_token": "the-persons-token"}'
            other = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            for argv in (["cat", str(copy)], ["ls", str(Path(live["home"]).parent.parent)]):
                seen = subprocess.run([*other, *argv], capture_output=True, text=True, timeout=30)
                assert seen.returncode != 0 and "the-persons-token" not in seen.stdout, (argv, seen)
        finally:
            proc.kill()
            proc.wait()
            kill_all(live)
    finally:
        shutil.rmtree(open_dir, ignore_errors=True)


def _machine_in(base: Path) -> dict[str, str]:
    """The `machine` fixture's environment under `base` (a folder other users may traverse)."""
    home = base / "home"
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "oauth_creds.json").write_text('{"refresh_token": "the-persons-token"}')
    fake = base / "gemini"
    fake.write_text(FAKE.format(python=sys.executable))
    fake.chmod(0o755)
    (base / "records").mkdir()
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL")}
    return {
        **keep,
        "HOME": str(home),
        "GEMINI_API_KEY": "fake-gemini-key",
        "MEMTUI_GEMINI": str(fake),
        "FAKE_GEMINI_RECORDS": str(base / "records"),
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
