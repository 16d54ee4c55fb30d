#!/usr/bin/env bash
# Calls across two `miccheck serve` nodes sharing presence through PostgreSQL (Tests/Presence/presence_nodes.py):
# installs Debian's postgresql and the protocol client's `websockets` (in a virtual environment under .build),
# builds miccheck, runs the tests. Each test starts its own private cluster (scripts/postgres-server.sh).
#   bash scripts/presence-tests.sh [unittest options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh postgresql python3-venv
venv=.build/presence-venv
if ! "$venv/bin/python" -c "import websockets" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r Tests/Presence/requirements.txt
fi
if ! log=$(swift build --product miccheck 2>&1); then echo "$log" >&2; exit 1; fi
exec "$venv/bin/python" Tests/Presence/presence_nodes.py "$(swift build --show-bin-path)/miccheck" "$@"
