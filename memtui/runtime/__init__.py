"""What coding agents start and talk to: the one room for memtui's runtime.

    launch    the hook command setup installs (`python -S …/runtime/launch.py [--agent A] <Event>`)
    client    the thin client: asks the project's recall service, imports nothing else
    entry     the in-process hook (`memtui hook`): answers when the service did not, then starts it
    context   one hook call: the agent, its typed event, the project, settings and log
    answer    a recall event's answer with its chores (an explicit save, a verify queued, …)
    capture   turn ends and compactions handed to the worker as spool jobs
    spool     the job queue in `.memory/spool/` and the one way the worker is started
    worker    the detached capture/verify/reindex worker
    signin    capture jobs waiting for a model login, noticed on any hook
    service   the recall service's life: started on demand, its status, stopped
    server    the recall service process itself; `wire` its request format
    settings  the `[hooks]` and `[service]` tables of config.toml
    log       `.memory/logs/hooks.log`

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
