"""The hook command `memtui setup` installs: `<python> -S <this file> <Event>`.

`-S` skips the `site` module, which scans site-packages and runs every `.pth` file (an editable
install's finder, setuptools' distutils shim, …) before the first line of a program: about half
of a bare interpreter's start-up, paid by every prompt. The hook path needs only the standard
library and memtui itself (a test proves it), so this file puts memtui's own directory on the
path and runs the hook. Site-packages is appended without running its `.pth` files, so a
third-party import on this path would still resolve rather than break the hook.
"""

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
# Replace this script's directory (memtui/hooks) with the directory that holds the memtui package,
# so no module of ours can shadow a standard one.
sys.path[0] = os.path.dirname(os.path.dirname(here))
version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
sys.path.append(os.path.join(sys.prefix, "Lib" if os.name == "nt" else f"lib/{version}", "site-packages"))

from memtui.hooks.entry import main  # noqa: E402

raise SystemExit(main(sys.argv[1:]))
