"""Where things live: the project, its `.memory/`, Claude Code's Markdown memory directories, and
the other agents' own memories memtui shows beside them (Gemini CLI's private project memory,
Codex CLI's memories).

The project is `CLAUDE_PROJECT_DIR`, else the nearest ancestor of the working directory that has
`.memory/`, else the git root, else the working directory. Only `memtui init` creates `.memory/`;
nothing is created outside an initialised project.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memtui.core import boundedjson, boundedread
from memtui.errors import NotInitialised
from memtui.store import root

MEMORY_DIR = root.MEMORY_DIR
_SANITIZE = re.compile(r"[^a-zA-Z0-9]")
_MAX_SANITIZED = 200


@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def name(self) -> str:
        return self.root.name

    @property
    def memory_dir(self) -> Path:
        return self.root / MEMORY_DIR

    @property
    def initialised(self) -> bool:
        return self.memory_dir.is_dir()

    def path(self, name: str) -> Path:
        """A file under `.memory/`: state.json, config.toml, journal.jsonl, index.db, lock, …"""
        return self.memory_dir / name

    def require(self) -> Project:
        if not self.initialised:
            raise NotInitialised(f"no memtui project at {self.root} (no .memory/); run `memtui init` there first")
        return self


def _git_root(start: Path) -> Path | None:
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def find_project(cwd: Path | None = None, env: Mapping[str, str] | None = None) -> Project:
    env = os.environ if env is None else env
    explicit = env.get("CLAUDE_PROJECT_DIR")
    if explicit:
        return Project(Path(explicit).expanduser().resolve())
    start = (cwd or Path.cwd()).resolve()
    found = root.nearest(str(start), str(Path.home()))
    if found is not None:
        return Project(Path(found))
    return Project(_git_root(start) or start)


def session_project(env: Mapping[str, str] | None = None, cwd: str | Path | None = None) -> Project:
    """The project a Claude Code session works in (hooks, the MCP server): from `CLAUDE_PROJECT_DIR`,
    else `cwd`, else the working directory, up to the nearest initialised ancestor, so a package of
    a monorepo uses the root's memory."""
    env = os.environ if env is None else env
    base = env.get("CLAUDE_PROJECT_DIR") or cwd or os.getcwd()
    return find_project(Path(base), {k: v for k, v in env.items() if k != "CLAUDE_PROJECT_DIR"})


def claude_config_dir(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    configured = env.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    home = env.get("HOME")
    return (Path(home) if home else Path.home()) / ".claude"


def _simple_hash(text: str) -> str:
    """Claude Code's 32-bit string hash in base 36 (for directory names over 200 characters)."""
    h = 0
    data = text.encode("utf-16-le", "surrogatepass")  # JavaScript hashes UTF-16 code units, not code points
    for i in range(0, len(data), 2):
        h = ((h << 5) - h + int.from_bytes(data[i : i + 2], "little")) & 0xFFFFFFFF
    if h >= 0x80000000:
        h -= 0x100000000
    h = abs(h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while h:
        out = digits[h % 36] + out
        h //= 36
    return out or "0"


def sanitize(path: str) -> str:
    """Claude Code's project directory name: every non-alphanumeric character becomes `-`."""
    # A character outside the BMP is two UTF-16 units in JavaScript, so two dashes there.
    name = _SANITIZE.sub(lambda m: "-" * (2 if ord(m.group()) > 0xFFFF else 1), path)
    if len(name) <= _MAX_SANITIZED:
        return name
    return f"{name[:_MAX_SANITIZED]}-{_simple_hash(path)}"


@dataclass(frozen=True)
class MarkdownDir:
    #: "local", "project", "user", "agent:<name>", "gemini" or "codex".
    scope: str
    path: Path
    #: Whose layout the folder has: "claude" (one file per memory, MEMORY.md an index of links),
    #: "gemini" (MEMORY.md holds the memories as list items, sibling notes beside it) or "codex"
    #: (Codex's consolidated MEMORY.md, read only).
    kind: str = "claude"
    #: The folder writes are confined to (store/safepath): a link out of it is never written through.
    root: Path | None = None
    #: "codex": the project whose Task Groups it shows (Codex's file holds every project's).
    cwd: Path | None = None

    @property
    def key(self) -> str:
        return f"md:{self.scope}"


def markdown_dirs(project: Project, env: Mapping[str, str] | None = None) -> list[MarkdownDir]:
    """Every Claude Code memory directory of the project, whether or not it exists yet."""
    config = claude_config_dir(env)
    dirs = [
        MarkdownDir("local", project.root / ".claude" / "memory"),
        MarkdownDir("project", config / "projects" / sanitize(str(project.root)) / "memory"),
        MarkdownDir("user", config / "memory"),
    ]
    agents = project.root / ".claude" / "agent-memory"
    if agents.is_dir():
        dirs += [MarkdownDir(f"agent:{d.name}", d) for d in sorted(agents.iterdir()) if d.is_dir()]
    gemini = gemini_memory_dir(project, env)
    codex = codex_memories_dir(project, env)
    return dirs + [d for d in (gemini, codex) if d is not None]


#: Bigger than any projects.json Gemini writes; a larger file is not read (it may be anything).
_REGISTRY_BYTES = 4 * 1024 * 1024


def gemini_dir(env: Mapping[str, str] | None = None) -> Path:
    """Gemini CLI's user folder: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini` (its `homedir()`)."""
    env = os.environ if env is None else env
    home = env.get("GEMINI_CLI_HOME") or env.get("HOME")
    return (Path(home).expanduser() if home else Path.home()) / ".gemini"


def gemini_slug(project: Project, env: Mapping[str, str] | None = None) -> str | None:
    """The name Gemini CLI gave the project's folder under `~/.gemini/tmp/`, from its
    `projects.json` (`{"projects": {"<abs root>": "<slug>"}}`); None when Gemini has not run here,
    the registry is unreadable, the slug is not one folder name, or the folder's `.project_root`
    names another project (Gemini gives the slug up then, and so does memtui)."""
    base = gemini_dir(env)
    try:
        data = boundedread.head(base / "projects.json", _REGISTRY_BYTES + 1)  # Gemini's file: no FIFO holds us
        registry = boundedjson.loads(data, max_depth=8, max_size=_REGISTRY_BYTES)  # one flat map
    except (OSError, ValueError):  # TooDeep and TooLarge among them
        return None
    projects = registry.get("projects") if isinstance(registry, dict) else None
    if not isinstance(projects, dict):
        return None
    root = str(project.root)
    slug = projects.get(root)
    if slug is None:  # registered under a path that leads here through a link
        slug = next((v for k, v in projects.items() if isinstance(k, str) and _same(k, root)), None)
    if not isinstance(slug, str) or not _one_name(slug):
        return None
    try:
        owner = boundedread.read_text(base / "tmp" / slug / ".project_root", "record", universal=True).strip()
    except (OSError, UnicodeDecodeError):
        return slug  # no marker (older Gemini): the registry's word stands
    return slug if _same(owner, root) else None


def _same(path: str, root: str) -> bool:
    try:
        return os.path.realpath(path) == os.path.realpath(root)
    except (OSError, ValueError):
        return False


def _one_name(slug: str) -> bool:
    """A single folder name: no separator, not `.` or `..`, nothing hidden, no NUL."""
    return bool(slug) and slug not in (".", "..") and not slug.startswith(".") and not any(c in slug for c in "/\\\0")


def gemini_memory_dir(project: Project, env: Mapping[str, str] | None = None) -> MarkdownDir | None:
    """Gemini CLI's private memory of the project (`~/.gemini/tmp/<slug>/memory/`), whether or not
    the folder exists yet; None when Gemini has no slug for the project."""
    slug = gemini_slug(project, env)
    if slug is None:
        return None
    folder = gemini_dir(env) / "tmp" / slug
    return MarkdownDir("gemini", folder / "memory", "gemini", folder)


def codex_home(env: Mapping[str, str] | None = None) -> Path:
    """`$CODEX_HOME`, else `~/.codex`."""
    env = os.environ if env is None else env
    configured = env.get("CODEX_HOME")
    if configured:
        return Path(configured).expanduser()
    home = env.get("HOME")
    return (Path(home) if home else Path.home()) / ".codex"


def codex_memories_dir(project: Project, env: Mapping[str, str] | None = None) -> MarkdownDir | None:
    """Codex CLI's memories folder, when it holds a consolidated MEMORY.md (Codex writes one only
    once the person turned its memories on); its memories are the project's Task Groups."""
    folder = codex_home(env) / "memories"
    if not (folder / "MEMORY.md").is_file():
        return None
    return MarkdownDir("codex", folder, "codex", folder, project.root)
