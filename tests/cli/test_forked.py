"""The warm fork (forkkit.py) gives what a cold `python -m memtui` gives, and may: no memtui module
reads the environment, the working directory or the home folder when it is imported."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import forkkit

#: Every memtui module imported with os.environ and os.getcwd watched; a read whose nearest
#: non-standard-library caller is memtui's own code is printed as FILE:LINE KEY.
_WATCH = textwrap.dedent(
    r"""
    import importlib, os, pkgutil, sys, sysconfig
    stdlib = sysconfig.get_paths()["stdlib"]
    reads = []
    def note(key):
        frame = sys._getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            if "site-packages" in name:
                return  # a library reading its own settings
            if "/memtui/" in name:
                reads.append(f"{name.split('/memtui/', 1)[1]}:{frame.f_lineno} {key}")
                return
            frame = frame.f_back
    base = type(os.environ)
    class Watched(base):
        def __getitem__(self, key):
            note(key)
            return base.__getitem__(self, key)
        def __contains__(self, key):
            note(key)
            return base.__contains__(self, key)
    os.environ.__class__ = Watched
    cwd = os.getcwd
    os.getcwd = lambda: (note("cwd"), cwd())[1]
    import memtui
    names = [m.name for m in pkgutil.walk_packages(memtui.__path__, "memtui.")]
    for name in names:
        if name not in ("memtui.__main__", "memtui.hooks.launch", "memtui.runtime.launch"):  # scripts
            importlib.import_module(name)
    print(len(names), "modules")
    print("\n".join(reads))
    """
)


def test_no_memtui_module_reads_the_environment_at_import(tmp_path):
    proc = subprocess.run([sys.executable, "-c", _WATCH], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    count, _, reads = proc.stdout.partition(" modules\n")
    assert int(count) > 200 and reads.strip() == ""


def test_a_forked_command_gets_its_own_argv_cwd_env_stdin_and_exit_code(tmp_path, home):
    (tmp_path / "repo").mkdir()
    env = {**os.environ, "HOME": str(home)}
    cold = subprocess.run(
        [sys.executable, "-m", "memtui", "show", "nope"], cwd=tmp_path / "repo", env=env, capture_output=True
    )
    warm = forkkit.run(["show", "nope"], cwd=tmp_path / "repo", env=env)
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert warm.returncode == 1 and b"memtui init" in warm.stderr

    init = forkkit.run(["init"], cwd=tmp_path / "repo", env=env)
    assert init.returncode == 0 and (tmp_path / "repo" / ".memory" / "state.json").is_file()
    added = forkkit.run(["add", "-t", "decision", "Deploys use make ship"], cwd=tmp_path / "repo", env=env)
    assert added.returncode == 0, added.stderr
    listed = forkkit.run(["list"], cwd=tmp_path / "repo", env=env, text=True)
    assert "make ship" in listed.stdout
    assert forkkit.run(["--no-such-flag"], cwd=tmp_path, env=env).returncode == 2
