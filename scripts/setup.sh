#!/usr/bin/env bash
# Installs what MicCheck needs on a fresh Debian machine (idempotent; needs root or sudo for apt).
#   libpulse-dev          the build: live capture and devices over libpulse
#   libwebrtc-audio-processing-dev   the build: echo cancellation, noise suppression, gain control
#   pulseaudio, pulseaudio-utils   the tests: a private server with a virtual microphone, paplay, pactl
#   libncurses-dev        the build: the full-screen lobby (miccheck lobby)
#   tmux                  the tests: the lobby is driven through a private tmux server
#   espeak-ng, sox        rebuilding the bundled sample and retraining the voice model
#   python3               the tests: scripts/tagged-suites.py reads which suites are tagged live
# usage: bash scripts/setup.sh [PACKAGE...]   (Debian packages a script needs beyond these, installed the same way)
set -euo pipefail
command -v swift >/dev/null || { echo "setup: Swift 6 is not on PATH; install a Swift 6 toolchain first (swift.org)." >&2; exit 1; }
need=()
for pkg in libpulse-dev libwebrtc-audio-processing-dev libncurses-dev pulseaudio pulseaudio-utils tmux espeak-ng sox python3 "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "${MICCHECK_SKIP_APT:-}" != "1" ] && [ ${#need[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    echo "setup: installing ${need[*]}" >&2
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
        || { echo "setup: could not install ${need[*]}" >&2; exit 1; }
fi
