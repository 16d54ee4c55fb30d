#!/usr/bin/env bash
# The main job: set up, build, and listen live. On the default microphone when the machine has one
# (a PulseAudio or PipeWire server with a source that is not an output's monitor); otherwise on the
# bundled sample (speech, pauses, typing) played in real time. Ctrl-C ends with a summary.
#   MICCHECK_LISTEN_SECONDS   how long to listen to a microphone (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product miccheck 2>&1 | tail -1
bin=.build/release/miccheck
if $bin devices --format json 2>/dev/null | grep -q '"monitor": false'; then
    exec $bin listen --duration "${MICCHECK_LISTEN_SECONDS:-30}"
fi
echo "run-sample: no microphone found (no audio server, or no capture source); listening to the bundled sample." >&2
exec $bin listen --sample
