#!/usr/bin/env bash
# Makes the example's page in OUT: Debian's Janus demos (janus-demos) with videoroom.patch applied, MicCheck's
# SDK folder (with miccheck.wasm) and the glue beside them, and a settings.js that points the page at JANUS_URL
# with no STUN or TURN server. Serve OUT with any static server (python3 -m http.server).
#   bash Examples/janus-videoroom/page.sh [--plain] OUT JANUS_URL
# --plain: Debian's page as it is (no patch, no MicCheck), for measuring what MicCheck adds to a page.
set -euo pipefail
plain=0
[ "${1:-}" = --plain ] && { plain=1; shift; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-}
url=${2:-}
[ -n "$out" ] && [ -n "$url" ] || { echo "usage: page.sh [--plain] OUT JANUS_URL" >&2; exit 64; }
demos=/usr/share/janus/demos
[ -f "$demos/videoroomtest.js" ] || { echo "page.sh: Janus's demos are not installed (bash scripts/setup.sh janus-demos)" >&2; exit 69; }
sdk=$root/Web/sdk
[ -f "$sdk/miccheck.wasm" ] || bash "$root/scripts/build-wasm.sh"
rm -rf "$out"
mkdir -p "$out"
# -L: the demos reach their scripts (jQuery, Bootstrap, janus.js) through a link to /usr/share/javascript.
cp -rL "$demos/." "$out/"
if [ "$plain" = 0 ]; then
    patch -s -d "$out" -p1 <"$here/videoroom.patch" || { echo "page.sh: videoroom.patch does not apply to $demos" >&2; exit 1; }
    cp "$here/miccheck-janus.js" "$out/"
    cp -r "$sdk" "$out/sdk"
fi
# Debian's settings.js points at port 8088 of the page's host and declares no `token` or `apisecret`, which the
# VideoRoom page reads: this one declares all four.
cat >"$out/settings.js" <<SETTINGS
var server = "$url";
var iceServers = [];
var token = null;
var apisecret = null;
SETTINGS
