"""Reading the client's stdin, one JSON-RPC line at a time, bounded.

Every line the server reads comes through `read`, before and after the SDK has loaded (the SDK
reads the lines memtui hands it, `prelude._Replay`), so a client's line costs at most `MAX_LINE`
bytes of memory: a longer one, or one that never ends, is read to its end in small pieces and
skipped with one line on stderr (no memtui request is near it: a memory is at most 2,000
characters). `loads` is `json.loads` that takes a line nested too deep for the decoder's recursion
as the garbage it is, so no line a client sends ends the server.
"""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

#: The longest request line read; the SDK's own answers are never read back through here.
MAX_LINE = 1 << 20
#: The piece a skipped line is read in.
_PIECE = 1 << 16


def read(stream: BinaryIO | None = None) -> bytes:
    """The next line of at most `MAX_LINE` bytes (with its newline), or b"" at the end of input."""
    stream = sys.stdin.buffer if stream is None else stream
    while True:
        line = stream.readline(MAX_LINE + 1)
        if len(line) <= MAX_LINE or line.endswith(b"\n"):
            return line
        skipped = len(line)
        while not line.endswith(b"\n"):
            line = stream.readline(_PIECE)
            if not line:
                return b""  # the input ended inside the line: nothing to answer
            skipped += len(line)
        print(
            f"memtui mcp: skipped a request line longer than {MAX_LINE >> 20} MB ({skipped:,} bytes)",
            file=sys.stderr,
            flush=True,
        )


def loads(text: bytes | str) -> Any:
    """The JSON value of `text`; raises ValueError for anything that is not JSON, nested too deep included."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
