"""The launcher's old path (see `memtui/hooks/__init__.py`): run `memtui/runtime/launch.py` as if it were
this file, with no import beyond the interpreter's own (this runs under `python -S` on every prompt)."""

import os
import sys

_path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "runtime", "launch.py")
sys.argv[0] = _path
with open(_path, "rb") as _file:
    _code = compile(_file.read(), _path, "exec")
exec(_code, {"__name__": "__main__", "__file__": _path, "__builtins__": __builtins__})
