#!/usr/bin/env bash
# Installs opencode, the coding-agent CLI tests/opencodekit.py drives offline, into the test-agent
# cache, once. Same layout as .ci/agents.sh: $MEMTUI_AGENT_CACHE (else ~/.cache/memtui-test-agents)
# holds <cache>/opencode-<version>; an install that was cut short leaves no such folder (it is built
# beside it and renamed), so a rerun starts it again.
# Usage: .ci/agents-opencode.sh   (prints the binary's path; nothing is fetched when it is already there)
set -euo pipefail
opencode_version="${MEMTUI_OPENCODE_VERSION:-1.18.33}"  # keep in step with tests/opencodekit.py
cache="${MEMTUI_AGENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memtui-test-agents}"
dest="$cache/opencode-$opencode_version"
bin="$dest/node_modules/.bin/opencode"
if [ ! -x "$bin" ]; then
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/.opencode-$opencode_version.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    # The native binary comes in an optional dependency (opencode-linux-x64, -baseline for CPUs
    # without AVX2). The package's own postinstall, run by hand because npm 11 blocks install
    # scripts, links the one this CPU runs into bin/opencode.exe, where the .bin link points; it
    # fetches nothing when the optional dependency is already there.
    npm install --prefix "$work" --no-audit --no-fund --no-save --ignore-scripts \
        "opencode-ai@$opencode_version" >&2
    (cd "$work/node_modules/opencode-ai" && node postinstall.mjs) >&2
    rm -rf "$dest"
    mv "$work" "$dest"
    trap - EXIT
fi
"$bin" --version >&2
echo "$bin"
