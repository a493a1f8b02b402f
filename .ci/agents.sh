#!/usr/bin/env bash
# Installs the coding-agent CLIs the tests drive offline (today: Codex CLI) into a cache, once.
# The tests find them through tests/codexkit.py, which reads the same directory: $MEMTUI_AGENT_CACHE,
# else ~/.cache/memtui-test-agents. Each CLI lives in <cache>/<name>-<version>; an install that was cut
# short leaves no such folder (it is built beside it and renamed), so a rerun starts it again.
# Usage: .ci/agents.sh        (prints the binary's path; nothing is fetched when it is already there)
set -euo pipefail
codex_version="${MEMTUI_CODEX_VERSION:-0.171.0}"  # keep in step with tests/codexkit.py
cache="${MEMTUI_AGENT_CACHE:-$HOME/.cache/memtui-test-agents}"
dest="$cache/codex-$codex_version"
bin="$dest/node_modules/.bin/codex"
if [ ! -x "$bin" ]; then
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/.codex-$codex_version.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    # The package carries its native binary (an optional dependency aliased to the same version): no
    # install scripts run and nothing is downloaded afterwards.
    npm install --prefix "$work" --no-audit --no-fund --no-save --ignore-scripts \
        "@openai/codex@$codex_version" >&2
    rm -rf "$dest"
    mv "$work" "$dest"
    trap - EXIT
fi
"$bin" --version >&2
echo "$bin"
