"""Claude Code event entry points (`memtui hook <event>`), recall injection, capture hand-off, setup.

A hook is a fresh process whose start-up time is the user's latency, so modules here import only the
standard library and memtui's light layers at module level; everything else is imported inside the
function that needs it. Every path fails open: exit 0, print nothing or one JSON object.
"""


def launch_path():
    """The fast hook launcher (`launch.py` beside this file), or None when not a plain file
    (a zipped or frozen install), in which case hooks run through `memtui hook`."""
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "launch.py")
    return path if os.path.isfile(path) else None
