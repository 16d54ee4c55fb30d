#!/usr/bin/env bash
# The main job on the embedded default: analyse the bundled sample (speech, pauses, typing) and plot it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product miccheck 2>&1 | tail -1
.build/release/miccheck analyze --sample --plot sample.svg
