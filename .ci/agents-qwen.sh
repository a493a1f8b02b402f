#!/usr/bin/env bash
# Installs Qwen Code, the coding-agent CLI tests/qwenkit.py drives offline, into the test-agent cache,
# once. Same layout as .ci/agents.sh: $MEMTUI_AGENT_CACHE (else ~/.cache/memtui-test-agents) holds
# <cache>/qwen-<version>; an install that was cut short leaves no such folder (it is built beside it
# and renamed), so a rerun starts it again.
# Usage: .ci/agents-qwen.sh   (prints the binary's path; nothing is fetched when it is already there)
set -euo pipefail
qwen_version="${MEMTUI_QWEN_VERSION:-0.24.4}"  # keep in step with tests/qwenkit.py
cache="${MEMTUI_AGENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memtui-test-agents}"
dest="$cache/qwen-$qwen_version"
bin="$dest/node_modules/.bin/qwen"
if [ ! -x "$bin" ]; then
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/.qwen-$qwen_version.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    # The package carries its JS bundle (144 MB with its vendored tools): no install script is
    # needed and nothing is downloaded afterwards.
    npm install --prefix "$work" --no-audit --no-fund --no-save --ignore-scripts \
        "@qwen-code/qwen-code@$qwen_version" >&2
    rm -rf "$dest"
    mv "$work" "$dest"
    trap - EXIT
fi
"$bin" --version >&2
echo "$bin"
