"""init, status, repair."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from memtui.commands.common import one_line, open_bank, print_json, print_labelled, project_dir, say


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("init", help="create .memory/ in the project (the git root, or DIR)")
    p.add_argument("dir", nargs="?", help="project directory (default: the git root of the working directory)")
    p.add_argument("--name", help="project name shown in CLAUDE.md (default: the directory name)")
    p.add_argument("--description", help="one-line project description for the CLAUDE.md block")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("status", help="what is stored where, and the health of each store")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("repair", help="rebuild a damaged state.json from what can still be read and the journal")
    p.set_defaults(func=cmd_repair)


def cmd_init(args: argparse.Namespace) -> int:
    from memtui.store.bank import Bank, init_project
    from memtui.store.locations import find_project

    root = Path(args.dir).expanduser() if args.dir else (project_dir(args) or find_project().root)
    if args.dir and not root.is_dir():
        from memtui.errors import UsageError

        if root.exists():
            raise UsageError(f"{root} is a file; give `memtui init` the project's directory")
        if not root.absolute().parent.is_dir():  # a typo must not build a whole tree of folders
            raise UsageError(
                f"no directory {root.absolute().parent}; create it first or give an existing project directory"
            )
        root.mkdir()
        print(f"Created {root}")
    already = (root / ".memory").is_dir()
    project = init_project(root)
    header = {k: v for k, v in (("project", args.name), ("description", args.description)) if v}
    if header:
        Bank(project).update_header(**header)
    from memtui.commands.review import start_marks_in

    start_marks_in(project.root)  # the review queue of agents' own stores starts here, not at the TUI
    print(f"{'Already initialised' if already else 'Initialised'} {project.memory_dir}")
    if not already:
        say(
            "Next: `memtui setup` connects Claude Code (not needed with the memtui plugin), `memtui setup "
            "--agent NAME` another agent (codex, gemini, opencode, …; `--agent all`: every one installed); "
            '`memtui add --type decision "…"` saves a memory.'
        )
    return 0


def _status(bank) -> dict:
    from memtui.core import decay
    from memtui.store.reviewmarks import Marks

    now = bank.clock()
    marks = Marks.load(bank.project)  # what agents wrote into their own stores since the person's review
    stores = {}
    for key, store in bank.stores().items():
        present = store.exists
        memories = marks.apply(store.load().values()) if present or key == "state" else []
        stores[key] = {
            "path": str(store.path),
            "exists": present,
            "active": sum(m.active for m in memories),
            "superseded": sum(m.status.value == "superseded" for m in memories),
            "archived": sum(m.status.value == "archived" for m in memories),
            "unreviewed": sum(m.active and not m.reviewed for m in memories),
            "by_type": dict(Counter(m.type for m in memories if m.active)),
            "stale": sum(m.active and decay.age_days(m, now) >= 1 for m in memories),
        }

    problems = list(bank.problems)
    from memtui.store import gitdriver

    if gitdriver.missing(bank.project.root):
        problems.append(f"this clone's git does not know memtui's merge driver; {gitdriver.HOW}")
    from memtui.store.ignore import tracked_by_mistake

    stray = tracked_by_mistake(bank.project)
    if stray:
        problems.append(
            f"git tracks {', '.join(stray)}, which belong to this clone and conflict between clones: "
            f"`git rm --cached {' '.join(stray)}` and commit"
        )
    claude, agents = _rendered(bank, problems)
    from memtui.core.boundedread import problem

    unread = problem(bank.project.root / "AGENTS.md", "block")  # read by Codex's hooks, set up or not
    if unread and unread not in problems:
        problems.append(unread)
    everything = {m.id: m for m in bank.memories()}
    conflicts = [
        [m.id, other.id]
        for m in everything.values()
        if (other := m.in_conflict_with(everything)) is not None and m.id < other.id
    ]
    return {
        "project": str(bank.project.root),
        "stores": stores,
        "conflicts": conflicts,
        "claude_md": claude,
        "agents_md": agents,
        "problems": problems,
        "capture": _capture_health(bank),
    }


def _rendered(bank, problems: list[str]) -> tuple[dict, dict | None]:
    """CLAUDE.md's state, and AGENTS.md's once Codex is set up; a broken file is a problem, not a failure."""
    from memtui.core.render_block import MarkerError
    from memtui.errors import MemtuiError, os_error_line

    try:
        plan = bank.render_plan()
    except (MarkerError, MemtuiError, OSError) as exc:  # status reports a broken CLAUDE.md or MEMORY.md
        problems.append(os_error_line(exc) if isinstance(exc, OSError) else str(exc))
        return {"path": str(bank.project.root / "CLAUDE.md"), "installed": False, "up_to_date": False}, None
    claude = {
        "path": str(plan.claude_path),
        "installed": bool(plan.claude_current and "MEMORY:START" in plan.claude_current),
        "up_to_date": not plan.claude_changed,
    }
    return claude, _agents_status(plan.agents)


def _agents_status(agents) -> dict | None:
    """AGENTS.md once Codex is set up for the project (None before): its block, size and cap."""
    from memtui.store.rendering import AGENTS_MD_CAP

    if agents is None:
        return None
    return {
        "path": str(agents.path),
        "installed": agents.block is not None,
        "up_to_date": not agents.changed,
        "bytes": agents.size,
        "cap": AGENTS_MD_CAP,
        "problem": agents.problem,
    }


def _capture_health(bank) -> dict | None:
    """Capture's health, the Claude Code login checked; jobs that waited for a model are started
    here once one is there (a sign-in since the last hook), not at the next hook."""
    from memtui.agents.report import with_agents
    from memtui.capture import health
    from memtui.runtime import spool

    out = with_agents(health.read(bank, login=True), bank)
    jobs = spool.waiting(bank.project.memory_dir)
    oldest = min((float(j.data.get("waiting") or j.data.get("queued") or 0) for j in jobs), default=None)
    started = bool(jobs) and out.get("backend") != "off" and not out.get("paused")
    if started:
        spool.ensure_worker(bank.project)
    out["waiting_jobs"] = {"count": len(jobs), "oldest": oldest, "started": started} if jobs else None
    return out


def cmd_status(args: argparse.Namespace) -> int:
    from memtui.runtime.service import info

    bank = open_bank(args, tolerant=True)
    status = _status(bank)
    status["service"] = info(bank.project)
    status["context"] = _layers(bank)
    if args.json:
        print_json(status)
        return 0
    out: list[str] = []
    out.append(f"{'project':<12} {status['project']}")
    for key, s in status["stores"].items():
        if not s["exists"] and key != "state":
            continue
        types = ", ".join(f"{one_line(t)} {n}" for t, n in sorted(s["by_type"].items()))
        extra = f"; {s['unreviewed']} to review" if s["unreviewed"] else ""
        if len(key) > 12:  # md:agent:NAME: its own line, so the values stay in one column
            out.append(key)
            key = ""
        out.append(
            f"{key:<12} {s['active']} active, {s['superseded']} superseded, {s['archived']} archived{extra}  ({types or 'empty'})"
        )
    claude = status["claude_md"]
    state = (
        "not installed (run `memtui render`)"
        if not claude["installed"]
        else ("up to date" if claude["up_to_date"] else "out of date (run `memtui render`)")
    )
    out.append(f"CLAUDE.md    {state}")
    agents = status["agents_md"]
    if agents is not None:
        said = agents["problem"] or ("up to date" if agents["up_to_date"] else "out of date (run `memtui render`)")
        from memtui.commands.setupfiles import agents_md_readers
        from memtui.store.rendering import read_by

        readers = agents_md_readers(Path(status["project"]))
        out.append(f"AGENTS.md    {said} ({agents['bytes']:,}{read_by(readers)})")
    for first, second in status["conflicts"]:
        out.append(
            f"conflict     {one_line(first)} ⇄ {one_line(second)}: edited on both sides of a git merge; keep one (`memtui drop` the other), "
            "merge them (`memtui merge`) or keep both (`memtui review` both), or use the review queue in `memtui`"
        )
    out += [_layer_line(layer, Path(status["project"])) for layer in status["context"]]
    from memtui.runtime.service import describe

    out.append(f"service      {describe(status['service'])}")
    for problem in status["problems"]:
        out.append(f"problem      {one_line(problem)}")
    if status["capture"] is not None:
        from memtui.capture import health

        out += health.lines(status["capture"])
    for line in out:
        print_labelled(line)
    return 0


def _layers(bank) -> list[dict]:
    """What each layer puts in a session of this project (`recall.layers`), as JSON values."""
    from dataclasses import asdict

    from memtui.recall.layers import picture
    from memtui.runtime.settings import HookSettings

    settings = HookSettings.from_table(bank.config.section("hooks"))
    return [asdict(layer) for layer in picture(bank.project, bank.config, settings)]


def _layer_line(layer: dict, root: Path) -> str:
    size = f"{layer['size'] / 1024:.1f} KB"
    from memtui.recall.layers import counted

    count = counted(layer["name"], layer["count"])
    limit = f" of {layer['limit']}" if layer["limit"] else ""
    by = layer["by"]
    if layer["name"] == "AGENTS.md block":  # recall cannot ask agents/ who loads it: named here
        from memtui.commands.setupfiles import agents_md_readers

        by = ", ".join(agents_md_readers(root)) or by
    return f"{'context':<12} {layer['name']} ({by}): {count}, {size}{limit}; {layer['what']}"


def cmd_repair(args: argparse.Namespace) -> int:
    import json

    from memtui.store.atomic import atomic_write
    from memtui.store.bank import Bank
    from memtui.store.locations import find_project
    from memtui.store.safepath import confine
    from memtui.store.statefile import parse, salvage

    root = project_dir(args)
    # -C names the project outright; CLAUDE_PROJECT_DIR must not redirect the repair elsewhere.
    project = find_project(root, {} if root else None).require()
    path = project.path("state.json")
    bank = Bank(project)
    with bank.lock:  # a hook writing mid-repair would otherwise be lost or overwritten
        payload = path.read_bytes() if path.exists() else b""
        if payload and parse(payload)[1] is None:
            print(f"{path} is readable; nothing to repair")
            return 0
        from memtui.store import gitmerge

        merged = gitmerge.unconflict(payload) if payload else None
        if merged is not None and parse(merged.data)[1] is None:
            backup = path.with_name(path.name + ".before-repair")
            confine(backup).write_bytes(payload)
            atomic_write(path, merged.data)
            bank.update_header()
            pairs = "".join(f"\n  review: {a} ⇄ {b} (both sides changed it)" for a, b in merged.conflicts)
            print(
                f"Merged the git conflict in {path}: {len(merged.after)} memories, both sides kept; "
                f"the file as git left it is kept as {backup.name}{pairs}"
            )
            return 0
        recovered = {str(m["id"]): m for m in salvage(payload)}
        from_journal = 0
        # The journal's last word on each memory; a memory it saw removed (promoted, pruned) stays removed.
        for mid, snap in bank.journal.latest("state").items():
            if mid not in recovered and snap is not None:
                recovered[mid] = snap
                from_journal += 1
        backup = path.with_name(path.name + ".before-repair")
        if payload:
            confine(backup).write_bytes(payload)
        state = {
            "version": 2,
            "project": project.name,
            "description": "",
            "memories": list(recovered.values()),
            "lastUpdated": "",
            "extractionCount": 0,
        }
        atomic_write(path, json.dumps(state, indent=2, ensure_ascii=False))
        bank.update_header()
    print(
        f"Rebuilt {path}: {len(recovered) - from_journal} memories read from the damaged file, "
        f"{from_journal} from the journal; the damaged file is kept as {backup.name}"
    )
    return 0
