#!/usr/bin/env bash
# Attacks on `miccheck serve`'s WebSockets (Tests/Security/attacks.py, Guides/Security.md): raw frames no
# client library sends, nested JSON, clients that never read, names no store can keep. Installs the
# protocol client's `websockets` in a virtual environment under .build and Debian's postgresql (one test
# starts a private cluster, scripts/postgres-server.sh), builds miccheck unless a binary is given, runs the tests.
#   bash scripts/security-tests.sh [MICCHECK_BINARY] [unittest options]
set -euo pipefail
cd "$(dirname "$0")/.."
# The debug build scripts/test.sh makes (the analysis compiled with -O, Package.swift's optimizedForTests).
export MICCHECK_OPTIMIZED_TESTS=${MICCHECK_OPTIMIZED_TESTS:-1}
bash scripts/setup.sh postgresql python3-venv
venv=.build/security-venv
if ! "$venv/bin/python" -c "import websockets" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r Tests/Security/requirements.txt
fi
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
    binary=$1
    shift
else
    if ! log=$(swift build --product miccheck 2>&1); then echo "$log" >&2; exit 1; fi
    binary="$(swift build --show-bin-path)/miccheck"
fi
exec "$venv/bin/python" Tests/Security/attacks.py "$binary" "$@"
