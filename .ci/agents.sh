#!/usr/bin/env bash
# Installs the coding-agent CLIs the tests drive offline (Codex CLI, Gemini CLI) into a cache, once.
# The tests find them through tests/codexkit.py and tests/geminikit.py, which read the same directory:
# $MEMTUI_AGENT_CACHE, else $XDG_CACHE_HOME (or ~/.cache)/memtui-test-agents. Each CLI lives in <cache>/<name>-<version>; an
# install that was cut short leaves no such folder (it is built beside it and renamed), so a rerun
# starts it again.
# Usage: .ci/agents.sh [codex|gemini]   (default codex; prints the binary's path; nothing is fetched
#        when it is already there)
set -euo pipefail
agent="${1:-codex}"
case "$agent" in
    # keep the versions in step with tests/codexkit.py and tests/geminikit.py
    codex) version="${MEMTUI_CODEX_VERSION:-0.171.0}"; package="@openai/codex" ;;
    gemini) version="${MEMTUI_GEMINI_VERSION:-0.61.0}"; package="@google/gemini-cli" ;;
    *) echo "usage: $0 [codex|gemini]" >&2; exit 2 ;;
esac
cache="${MEMTUI_AGENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memtui-test-agents}"
dest="$cache/$agent-$version"
bin="$dest/node_modules/.bin/$agent"
if [ ! -x "$bin" ]; then
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/.$agent-$version.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    # Both packages carry everything they run (Codex its native binary as an optional dependency
    # aliased to the same version, Gemini a JS bundle): no install scripts run and nothing is
    # downloaded afterwards. Gemini's blocked scripts (node-pty, keytar) only serve interactive use.
    npm install --prefix "$work" --no-audit --no-fund --no-save --ignore-scripts \
        "$package@$version" >&2
    rm -rf "$dest"
    mv "$work" "$dest"
    trap - EXIT
fi
"$bin" --version >&2
echo "$bin"
