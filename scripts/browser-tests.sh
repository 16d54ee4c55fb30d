#!/usr/bin/env bash
# The lobby and the call in real browsers (Tests/Browser/browser_tests.py): installs Debian's chromium and
# chromium-driver, and Selenium and axe-selenium-python (in a virtual environment under .build),
# postgresql (one call across two nodes) and Janus with its demos (Janus's own VideoRoom with MicCheck), builds
# miccheck, runs the tests.
#   bash scripts/browser-tests.sh [--screenshots DIR] [--figures FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
# The debug build scripts/test.sh makes (the analysis compiled with -O, Package.swift's optimizedForTests).
export MICCHECK_OPTIMIZED_TESTS=${MICCHECK_OPTIMIZED_TESTS:-1}
bash scripts/setup.sh chromium chromium-driver python3-venv fonts-dejavu-core postgresql janus janus-demos libjs-janus-gateway patch
venv=.build/browser-venv
if ! "$venv/bin/python" -c "import selenium, axe_selenium_python" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r Tests/Browser/requirements.txt
fi
swift build --product miccheck >/dev/null
exec "$venv/bin/python" Tests/Browser/browser_tests.py "$(swift build --show-bin-path)/miccheck" "$@"
