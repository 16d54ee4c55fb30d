#!/usr/bin/env bash
# A private Janus WebRTC server (Debian's janus) for the example of MicCheck in Janus's own VideoRoom
# (Examples/janus-videoroom) and its browser tests. It never touches a server of the machine's own: its
# configuration is generated into DIR, it loads only the VideoRoom plugin and the HTTP transport, its HTTP API
# listens on 127.0.0.1 only, and its media use their own port range. No STUN or TURN.
#
#   scripts/janus-server.sh start DIR [PORT]   write the configuration into DIR (once) and start it
#   scripts/janus-server.sh stop  DIR          stop it (SIGTERM, then SIGKILL after 5 s)
#   scripts/janus-server.sh kill  DIR          stop it at once, as a crash would (SIGKILL)
#   scripts/janus-server.sh url   DIR          print its HTTP API address (http://127.0.0.1:PORT/janus)
#
# PORT defaults to 58088; the media use 200 UDP ports of their own (rtp_port_range below). The VideoRoom's
# room 1234 takes 16 publishers (Debian's sample room takes 6). The log is DIR/janus.log.
set -euo pipefail
cmd=${1:-}
dir=${2:-}
usage() { echo "usage: janus-server.sh start|stop|kill|url DIR [PORT]" >&2; exit 64; }
[ -n "$dir" ] || usage
lib=$(dirname "$(ls /usr/lib/*/janus/plugins/libjanus_videoroom.so 2>/dev/null | head -1)" 2>/dev/null || true)
running() { [ -f "$dir/janus.pid" ] && kill -0 "$(cat "$dir/janus.pid")" 2>/dev/null; }
case "$cmd" in
start)
    command -v janus >/dev/null && [ -f "$lib/libjanus_videoroom.so" ] \
        || { echo "janus-server: Janus is not installed (bash scripts/setup.sh janus janus-demos)" >&2; exit 69; }
    lib=$(dirname "$lib")
    port=${3:-58088}
    mkdir -p "$dir/conf" "$dir/plugins" "$dir/transports"
    [ -f "$dir/port" ] || echo "$port" >"$dir/port"
    port=$(cat "$dir/port")
    running && exit 0
    # Only what the example uses: the VideoRoom plugin and the HTTP transport (a folder of links to them).
    ln -sf "$lib/plugins/libjanus_videoroom.so" "$dir/plugins/"
    ln -sf "$lib/transports/libjanus_http.so" "$dir/transports/"
    # RTP ports: 200 from 30000 + (PORT mod 100) * 300, so that servers on neighbouring ports do not share them.
    low=$((30000 + (port % 100) * 300))
    cat >"$dir/conf/janus.jcfg" <<EOF
general: {
	configs_folder = "$dir/conf"
	plugins_folder = "$dir/plugins"
	transports_folder = "$dir/transports"
	events_folder = "$dir/none"
	loggers_folder = "$dir/none"
	debug_level = ${MICCHECK_JANUS_DEBUG:-4}
	server_name = "miccheck-test"
	session_timeout = 60
	protected_folders = ["/bin", "/boot", "/dev", "/etc", "/lib", "/proc", "/sbin", "/sys", "/usr", "/var"]
}
media: {
	rtp_port_range = "$low-$((low + 199))"
}
nat: {
	nice_debug = false
	ice_ignore_list = "vmnet,docker,br-,veth"
}
EOF
    cat >"$dir/conf/janus.transport.http.jcfg" <<EOF
general: {
	json = "plain"
	base_path = "/janus"
	http = true
	port = $port
	ip = "127.0.0.1"
	https = false
}
admin: {
	admin_http = false
}
EOF
    cat >"$dir/conf/janus.plugin.videoroom.jcfg" <<EOF
general: {
}
room-1234: {
	description = "MicCheck's example room"
	publishers = 16
	bitrate = 128000
	fir_freq = 10
	audiocodec = "opus"
	videocodec = "vp8"
	record = false
}
EOF
    mkdir -p "$dir/none"
    janus --configs-folder="$dir/conf" --config="$dir/conf/janus.jcfg" --log-file="$dir/janus.log" \
        --disable-stdout --disable-colors --debug-timestamps >/dev/null 2>&1 &
    echo $! >"$dir/janus.pid"
    # Ready when /info answers (Janus loads its plugin and transport in well under a second here).
    for _ in $(seq 1 100); do
        if python3 - "$port" <<'PY' 2>/dev/null; then exit 0; fi
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1)
s.sendall(b"GET /janus/info HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
data = b""
while chunk := s.recv(65536):
    data += chunk
sys.exit(0 if b'"janus"' in data and b"server_info" in data else 1)
PY
        running || { echo "janus-server: Janus exited at start; the end of $dir/janus.log:" >&2; tail -20 "$dir/janus.log" >&2; exit 1; }
        sleep 0.1
    done
    echo "janus-server: Janus did not answer on 127.0.0.1:$port within 10 s; the end of $dir/janus.log:" >&2
    tail -20 "$dir/janus.log" >&2
    exit 1
    ;;
stop)
    if running; then
        pid=$(cat "$dir/janus.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$dir/janus.pid"
    ;;
kill)
    running && kill -9 "$(cat "$dir/janus.pid")" 2>/dev/null || true
    rm -f "$dir/janus.pid"
    ;;
url) echo "http://127.0.0.1:$(cat "$dir/port")/janus" ;;
*) usage ;;
esac
