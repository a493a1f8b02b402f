"""Building many objects at once (a store's 100k memories, the TUI list's entries) without the cyclic GC.

Loading 10k memories allocates ~100k containers, none of which can form a cycle; the cyclic GC would
walk them again and again (a quarter to a half of the load time). Inside `without_gc()` it does not run;
on the way out freeze+unfreeze files the new objects with the old ones, unscanned, instead of the
deferred collection that a plain gc.enable() would run on the caller's next allocation.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def without_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if enabled:
            gc.enable()
