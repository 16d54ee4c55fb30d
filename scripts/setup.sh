#!/usr/bin/env bash
# Installs what MicCheck needs on a fresh Debian machine (idempotent; needs root or sudo for apt).
set -euo pipefail
need=()
command -v swift >/dev/null || { echo "setup: Swift 6 is not on PATH; install a Swift 6 toolchain first (swift.org)." >&2; exit 1; }
# Tools the sample and training scripts use; the build itself needs only the Swift toolchain.
for pkg in espeak-ng sox; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "${MICCHECK_SKIP_APT:-}" != "1" ] && [ ${#need[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null \
        || echo "setup: could not install ${need[*]} (only needed to rebuild the sample or retrain)" >&2
fi
