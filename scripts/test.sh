#!/usr/bin/env bash
# Builds MicCheck and runs every test (unit tests, the public corpus when ../shared is beside the repo,
# and the command-line tests, which run the built binary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build --build-tests 2>&1 | grep -E "warning:|error:" | grep -v "^warning: 'main'" || true
swift build --build-tests >/dev/null
swift test 2>&1 | grep -v -E "^\s*[◇↳]" 
exit "${PIPESTATUS[0]}"
