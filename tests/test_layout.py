"""pytest imports test modules by basename (rootdir mode): two files with one name break collection."""

from collections import Counter
from pathlib import Path


def test_test_module_basenames_are_unique():
    names = Counter(p.name for p in Path(__file__).parent.rglob("*.py") if p.name not in ("conftest.py", "__init__.py"))
    assert [n for n, c in names.items() if c > 1] == []
