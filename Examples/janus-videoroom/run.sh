#!/usr/bin/env bash
# The example in one command: installs Janus and its demos (Debian's), starts a private Janus on loopback
# (scripts/janus-server.sh), makes the page (page.sh) and serves it until Ctrl-C, which stops both.
#   bash Examples/janus-videoroom/run.sh [PAGE_PORT]      (8000 by default; Janus's API on 58088)
set -euo pipefail
cd "$(dirname "$0")/../.."
port=${1:-8000}
bash scripts/setup.sh janus janus-demos libjs-janus-gateway patch
work=.build/janus-videoroom
bash scripts/janus-server.sh start "$work/janus"
trap 'bash scripts/janus-server.sh stop "$work/janus"' EXIT
bash Examples/janus-videoroom/page.sh "$work/page" "$(bash scripts/janus-server.sh url "$work/janus")"
echo "open http://127.0.0.1:$port/videoroomtest.html in two or more tabs or browsers (Ctrl-C stops)"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/page"
