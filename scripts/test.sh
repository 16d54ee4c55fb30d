#!/usr/bin/env bash
# Builds MicCheck and runs every test (unit tests, the public corpus when ../shared is beside the repo,
# and the command-line tests, which run the built binary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
log=$(mktemp)
if ! swift build --build-tests >"$log" 2>&1; then cat "$log"; exit 1; fi
grep -E "warning:|error:" "$log" | grep -v "^warning: 'main'" || true
rm -f "$log"
swift test 2>&1 | grep -v -E "^\s*[◇↳]"
exit "${PIPESTATUS[0]}"
