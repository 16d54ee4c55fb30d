#!/usr/bin/env bash
# A private PulseAudio server with a virtual microphone, for the tests and for trying `miccheck listen`
# on a machine with no sound card. It never touches the user's own server.
#
#   scripts/pulse-server.sh start [DIR]   start (or reuse) a server whose runtime folder is DIR
#   scripts/pulse-server.sh stop  [DIR]   stop it
#   scripts/pulse-server.sh env   [DIR]   print the exports a client needs
#
# DIR defaults to $MICCHECK_PA_DIR, then /tmp/miccheck-pa. Devices: sinks `speaker` (the default output)
# and `micsink`; source `virtmic` (the default source) remaps `micsink.monitor`, so what is played into
# micsink (`paplay -d micsink speech.wav`) is what the microphone hears. `norewinds=1` keeps captured time
# equal to wall time. Extra arguments after DIR are passed to the daemon (`--load=...`).
set -euo pipefail
cmd=${1:-}
dir=${2:-${MICCHECK_PA_DIR:-/tmp/miccheck-pa}}
shift $(( $# < 2 ? $# : 2 ))
export XDG_RUNTIME_DIR=$dir PULSE_RUNTIME_PATH=$dir/pulse
unset PULSE_SERVER
case "$cmd" in
start)
    command -v pulseaudio >/dev/null || { echo "pulse-server: pulseaudio is not installed (run scripts/setup.sh)" >&2; exit 1; }
    mkdir -p "$dir"; chmod 700 "$dir"
    if pactl info >/dev/null 2>&1; then exit 0; fi
    pulseaudio --daemonize=yes --exit-idle-time=-1 -n --use-pid-file=yes --system=no \
        --log-target=file:"$dir/pa.log" --log-level=info \
        --load="module-native-protocol-unix auth-anonymous=1" \
        --load="module-null-sink sink_name=speaker norewinds=1 sink_properties=device.description=Speaker" \
        --load="module-null-sink sink_name=micsink norewinds=1 sink_properties=device.description=MicFeed" \
        --load="module-remap-source master=micsink.monitor source_name=virtmic source_properties=device.description=VirtualMic" \
        --load="module-always-sink" "$@"
    for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.05; done
    pactl info >/dev/null 2>&1 || { echo "pulse-server: the server did not start; see $dir/pa.log" >&2; exit 1; }
    pactl set-default-sink speaker
    pactl set-default-source virtmic
    ;;
stop)
    pid=$(cat "$dir/pulse/pid" 2>/dev/null) || exit 0
    kill "$pid" 2>/dev/null || exit 0
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null || true
    ;;
env)
    echo "export XDG_RUNTIME_DIR=$dir PULSE_RUNTIME_PATH=$dir/pulse"
    ;;
*)
    echo "usage: scripts/pulse-server.sh start|stop|env [DIR]" >&2; exit 64 ;;
esac
