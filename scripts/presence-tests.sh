#!/usr/bin/env bash
# Calls across two `miccheck serve` nodes sharing presence through PostgreSQL (Tests/Presence/presence_nodes.py):
# installs Debian's postgresql and the protocol client's `websockets` (in a virtual environment under .build),
# builds miccheck unless a binary is given, runs the tests. Each test starts its own private cluster
# (scripts/postgres-server.sh).
#   bash scripts/presence-tests.sh [MICCHECK_BINARY] [unittest options]
# e.g. bash scripts/presence-tests.sh .build/debug/miccheck PresenceNodeTests.test_6_a_presence_flood_on_one_node_is_coalesced_before_the_database
set -euo pipefail
cd "$(dirname "$0")/.."
# The debug build scripts/test.sh makes (the analysis compiled with -O, Package.swift's optimizedForTests).
export MICCHECK_OPTIMIZED_TESTS=${MICCHECK_OPTIMIZED_TESTS:-1}
bash scripts/setup.sh postgresql python3-venv
venv=.build/presence-venv
if ! "$venv/bin/python" -c "import websockets" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r Tests/Presence/requirements.txt
fi
if [ $# -gt 0 ] && [ -f "$1" ] && [ -x "$1" ]; then
    binary=$1
    shift
else
    if ! log=$(swift build --product miccheck 2>&1); then echo "$log" >&2; exit 1; fi
    binary="$(swift build --show-bin-path)/miccheck"
fi
exec "$venv/bin/python" Tests/Presence/presence_nodes.py "$binary" "$@"
