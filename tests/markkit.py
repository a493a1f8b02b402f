"""What the running test is marked with (set by tests/conftest.py), so a kit that starts something
slow can fail a test whose marks hide it from `-m "not slow"` instead of slowing the fast suite."""

from __future__ import annotations

import pytest

#: The marks of the test being set up or run in this worker; empty outside a test.
CURRENT: list[str] = []


def expect(mark: str, what: str) -> None:
    """Fail the running test unless it carries `mark` (conftest.py's AGENT_NEEDLES or MARKED)."""
    if CURRENT and mark not in CURRENT:
        pytest.fail(
            f"this test starts {what} but is not marked {mark!r}: name its kit in the module or add it to "
            "tests/conftest.py MARKED",
            pytrace=False,
        )
