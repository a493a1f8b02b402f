"""The hook command `memtui setup` installs: `<python> -S <this file> <Event>`.

`-S` skips the `site` module, which scans site-packages and runs every `.pth` file (an editable
install's finder, setuptools' distutils shim, …) before the first line of a program: about half
of a bare interpreter's start-up, paid by every prompt. This file puts memtui's own directory on
the path and, for the recall events, asks the project's warm recall service through the thin
client (`memtui.runtime.client`, which imports no Python module the interpreter has not already
loaded). Only when no service answers does it import the in-process hook (`memtui.runtime.entry`),
with site-packages appended without running its `.pth` files, so a third-party import on that
path would still resolve rather than break the hook.
"""

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
# Replace this script's directory (memtui/runtime) with the directory that holds the memtui package,
# so no module of ours can shadow a standard one.
sys.path[0] = os.path.dirname(os.path.dirname(here))
data = None
try:
    from memtui.runtime import client

    agent, event, _rest = client.parse_argv(sys.argv[1:])
    if event in client.EVENTS:
        client.arm(5.0)  # the in-process hook below arms its own watchdog
        data = client.read_stdin()
        printed = client.answer(event, data, agent=agent)
        client.disarm()
        if printed is not None:
            client.emit(printed)
            raise SystemExit(0)
except Exception:  # the in-process hook below still answers (and always exits 0)
    pass

version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
packages = "Lib" if os.name == "nt" else f"lib/{version}"
# Under -S a virtual environment's own prefix is not applied (`site` reads pyvenv.cfg), so sys.prefix
# is the base interpreter's: the venv is the folder above the interpreter we were started as.
venv = os.path.dirname(os.path.dirname(sys.executable))
if os.path.isfile(os.path.join(venv, "pyvenv.cfg")):
    sys.path.append(os.path.join(venv, packages, "site-packages"))
sys.path.append(os.path.join(sys.prefix, packages, "site-packages"))

from memtui.runtime.entry import main  # noqa: E402

raise SystemExit(main(sys.argv[1:], data))
