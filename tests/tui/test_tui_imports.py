"""Only memtui/tui imports Textual, and its data/ part doesn't either (proved, not promised)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import memtui

PACKAGE = Path(memtui.__file__).parent
#: The one module outside tui/ that may import rich: the CLI's progress bar (rich.progress, on a
#: terminal's stderr only), imported inside its function, never on the hook path.
PROGRESS = Path("commands") / "progress.py"


def textual_imports(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Import) and any(a.name.split(".")[0] in ("textual", "rich") for a in node.names)) or (
            isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("textual", "rich")
        ):
            lines.append(node.lineno)
    return lines


def test_no_textual_import_outside_the_tui_package():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        inside_tui = rel.parts[0] == "tui" and (len(rel.parts) < 2 or rel.parts[1] != "data")
        if not inside_tui and rel != PROGRESS and textual_imports(path):
            offenders.append(f"{rel}:{textual_imports(path)}")
    assert offenders == []


def test_importing_everything_but_the_tui_loads_no_textual():
    modules = sorted(
        ".".join(("memtui", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        for p in PACKAGE.rglob("*.py")
        if p.name != "__main__.py"
        and (p.relative_to(PACKAGE).parts[0] != "tui" or p.relative_to(PACKAGE).parts[:2] == ("tui", "data"))
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    try: importlib.import_module(name)\n"
        "    except Exception: pass  # a module another team is still writing must not hide a leak\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'textual')\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
