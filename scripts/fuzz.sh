#!/usr/bin/env bash
# Fuzzes MicCheck's parsers with coverage guidance: libFuzzer with AddressSanitizer, from the Swift toolchain.
#
#   bash scripts/fuzz.sh TARGET|all [SECONDS] [-- LIBFUZZER OPTIONS]
#
# Targets (Fuzz/, each a library whose LLVMFuzzerTestOneInput libFuzzer calls): wav (WAVReader, streamed in block sizes the input picks), model (VoiceActivityModel, then
# run), call (CallDescription, then played), state (the permission prompt dismissals and a ducking journal), server
# (the server's WebSocket messages of both protocols, /v1/vad's and the call page's: text, PCM with the settings it
# picks, frames through the message assembler).
# SECONDS (default 60) is each target's time. The corpus grows in .build/fuzz-corpus/TARGET, seeded from the
# repo's own files and the headers of ../shared/corpus's WAV files; a crash or a hang is kept in
# Fuzz/crashes/TARGET/ and fails the script (fix it, add a regression test, and move the input to
# Fuzz/regressions/TARGET/, which seeds every later run). The last lines of each run
# are its figures: executions, coverage (cov: edges, ft: features), the corpus, and the CPU time it had (SECONDS is
# wall-clock time: on a busy machine give it more to reach a given CPU time).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-}
seconds=${2:-60}
shift $(( $# < 2 ? $# : 2 ))
[ "${1:-}" = "--" ] && shift
declare -A names=([wav]=FuzzWAV [model]=FuzzModel [call]=FuzzCallDescription [state]=FuzzStateFiles [server]=FuzzServerMessages)
declare -A modules=([wav]="MicCheck" [model]="MicCheck" [call]="MicCheck MicCheckCall"
                    [state]="MicCheck MicCheckCall MicCheckPulse" [server]="MicCheck MicCheckCall MicCheckServer")
# Targets whose modules need their packages' too (Hummingbird, NIO, ...): every other module the build made goes in
# an archive, from which the linker takes what they use.
declare -A archived=([server]=1)
case "$target" in
all) targets=(wav model call state server) ;;
wav|model|call|state|server) targets=("$target") ;;
*) echo "usage: fuzz.sh wav|model|call|state|server|all [SECONDS] [-- LIBFUZZER OPTIONS]" >&2; exit 64 ;;
esac
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number" >&2; exit 64; }

scratch=.build/fuzz
bin=$scratch/x86_64-unknown-linux-gnu/release
seed() {  # the corpus's first inputs
    local t=$1 dir=.build/fuzz-corpus/$1
    mkdir -p "$dir"
    # Inputs that once crashed (each with a regression test in the suites) stay in every corpus.
    [ -d "Fuzz/regressions/$t" ] && cp "Fuzz/regressions/$t/"* "$dir/"
    [ "$(ls "$dir" | wc -l)" -gt "$(ls "Fuzz/regressions/$t" 2>/dev/null | wc -l)" ] && return 0
    case "$t" in
    wav)
        cp Sources/MicCheckTesting/Resources/voice.wav Sources/MicCheckLive/Resources/sample.wav "$dir/"
        # The headers of the public corpus's files (every format it holds), with a little audio after them.
        if [ -d ../shared/corpus ]; then
            find ../shared/corpus -name '*.wav' | sort | head -200 | while read -r f; do
                head -c 2048 "$f" >"$dir/$(basename "$f")"
            done
        fi ;;
    model)
        # The bundled model is larger than an input may be (64 KiB): a small one of the same format,
        # every layer two units wide, which the loader accepts and the analyzer runs.
        python3 - "$dir/small.json" <<'PY'
import json, sys
m = json.load(open("Sources/MicCheck/Resources/VoiceActivityModel.json"))
h = 2
m["dense"] = {"inputs": m["features"], "outputs": h, "weights": [0.01 * i for i in range(m["features"] * h)], "bias": [0.0] * h}
m["gru"] = {"inputs": h, "hidden": h, "inputWeights": [0.1] * (6 * h), "recurrentWeights": [0.1] * (6 * h),
            "inputBias": [0.0] * (3 * h), "recurrentBias": [0.0] * (3 * h)}
m["output"] = {"inputs": h, "outputs": 1, "weights": [0.5] * h, "bias": [0.0]}
m["inputMean"] = [round(x, 3) for x in m["inputMean"]]
m["inputScale"] = [round(x, 3) for x in m["inputScale"]]
json.dump(m, open(sys.argv[1], "w"), separators=(",", ":"))
PY
        ;;
    server)
        # The first byte picks what the rest is (Fuzz/FuzzServerMessages): 0 /v1/vad text, 1 call page text,
        # 2 one message, 3 a query, 4 PCM after settings, 5 frames.
        printf '\x00%s\x00%s\x00%s' '{"type": "session.update", "session": {"sample_rate": 48000, "threshold": 0.6, "muted": true}}' \
            '{"type": "keep_alive"}' '{"type": "close_stream"}' >"$dir/vad.txt"
        printf '\x01\x03%s\x00%s\x00%s\x00%s\x00%s' '{"type": "devices", "audio": true, "video": false}' \
            '{"type": "signal", "to": "p2", "data": {"description": {"type": "offer", "sdp": "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=sendrecv\r\nm=video 0 UDP/TLS/RTP/SAVPF 96\r\na=recvonly\r\n"}}}' \
            '{"type": "signal", "to": "p2", "data": {"candidate": {"candidate": "candidate:1 1 udp 2122260223 192.168.1.2 54400 typ host", "sdpMid": "0", "sdpMLineIndex": 0}}}' \
            '{"type": "muted_notice_off"}' '{"type": "leave"}' >"$dir/call.txt"
        printf '\x01\x00%s' '{"type": "signal", "to": "p2", "data": {"description": {"type": "answer", "sdp": "a=sendonly\r\nm=audio 9 RTP 0\r\n"}}}' >"$dir/listener.txt"
        printf '\x02%s' '{"description": {"type": "offer", "sdp": "m=video 9 RTP 96\na=sendonly"}, "type": "x"}' >"$dir/message.txt"
        printf '\x03%s' 'sample_rate=8000&threshold=0.3&prefix_padding_ms=300&silence_duration_ms=500&min_speech_ms=100&muted=false' >"$dir/query.txt"
        { printf '\x04\xbb\x80\x80\x08\x0c\x05'; head -c 8044 Sources/MicCheckTesting/Resources/voice.wav | tail -c 8000; } >"$dir/pcm"
        python3 - "$dir/frames" <<'PY'
import sys
def frame(kind, payload, fin=True):  # the header byte and the length byte Fuzz/FuzzServerMessages reads
    out = b""
    while True:
        n = min(len(payload), 31 * 8 + 7)
        chunk, payload = payload[:n], payload[n:]
        last = fin and not payload
        out += bytes([kind | (n // 8) << 2 | (0 if last else 0x80), n % 8]) + chunk
        if not payload:
            return out
        kind = 2
text = b'{"type": "session.update", "session": {"sample_rate": 16000}}'
pcm = open("Sources/MicCheckTesting/Resources/voice.wav", "rb").read()[44:44 + 640]
open(sys.argv[1], "wb").write(b"\x05\xff\x20" + frame(0, text[:20], fin=False) + frame(2, text[20:]) + frame(1, pcm) + frame(0, b'{"type": "close_stream"}'))
PY
        ;;
    call)
        printf '%s' '{"id": "standup", "participants": [{"id": "ada", "name": "Ada Lovelace", "speaking": [[0, 60]]}]}' >"$dir/one.json"
        printf '%s' '{"id": "x", "capabilities": ["send-audio"], "scriptLength": 12, "participants": [{"id": "a", "name": "A", "speaking": [[1.5, 2], [3, 4]], "video": true, "trackPaused": true}, {"id": "b", "name": "B", "image": "b.png"}]}' >"$dir/two.json" ;;
    state)
        printf '%s' '{"version": 1, "calls": {"standup": ["camera", "microphone"]}}' >"$dir/prompts.json"
        printf '%s' '{"version": 1, "serverAddress": "unix:/run/pulse/native", "serverCookie": 7, "processID": 1, "processStart": "5", "entries": [{"index": 3, "name": "music", "original": [65536, 65536], "applied": [16384, 16384], "previous": [32768, 32768]}]}' >"$dir/journal.json" ;;
    esac
}

status=0
for t in "${targets[@]}"; do
    name=${names[$t]}
    # Compiled by SwiftPM with the fuzzer's coverage and AddressSanitizer in every module, then linked here
    # with lld: SwiftPM links with ld.gold, which fails on the sanitizers' debug information.
    log=$(MICCHECK_FUZZ=1 swift build -c release --scratch-path "$scratch" --target "$name" \
        -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address 2>&1) || { echo "$log" >&2; exit 1; }
    objects=()
    for m in $name ${modules[$t]}; do objects+=("$bin/$m.build/"*.o); done
    links=()
    [ "$t" = state ] && links=(-lpulse)
    if [ -n "${archived[$t]:-}" ]; then
        rm -f "$scratch/$t-deps.a"
        find "$bin" -path "$bin/Fuzz*" -prune -o -name '*.o' -path "$bin/*.build/*" -print | sort | while read -r o; do
            m=${o#"$bin"/}
            case " ${modules[$t]} " in *" ${m%%.build/*} "*) ;; *) echo "$o" ;; esac
        done >"$scratch/$t-deps.list"
        mapfile -t deps <"$scratch/$t-deps.list"
        llvm-ar qc "$scratch/$t-deps.a" "${deps[@]}"
        links+=("$scratch/$t-deps.a" -lpulse -lwebrtc_audio_processing -lstdc++ -lz)
    fi
    rm -f "$bin/$name"
    swiftc -o "$bin/$name" -module-name "$name" -emit-executable -Xlinker "-rpath=\$ORIGIN" -sanitize=fuzzer,address \
        -use-ld=lld "${objects[@]}" "${links[@]}"
    [ -x "$bin/$name" ] || { echo "fuzz.sh: $name did not link" >&2; exit 1; }
    seed "$t"
    crashes=Fuzz/crashes/$t
    mkdir -p "$crashes"
    echo "== $t ($name), ${seconds} s"
    # libFuzzer's time is wall-clock time; the CPU time it got (user and system) is printed after it.
    TIMEFORMAT="cpu: %U s user, %S s system, %R s wall"
    if ! { time "$bin/$name" ".build/fuzz-corpus/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$crashes/" "$@" 2>"$scratch/$t.log"; } 2>"$scratch/$t.time"; then
        status=1
        echo "fuzz.sh: $t found a crash or a hang; the input is in $crashes/" >&2
    fi
    cat "$scratch/$t.time"
    grep -E "DONE|stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb|ERROR|SUMMARY" "$scratch/$t.log" || true
    echo "corpus: $(ls ".build/fuzz-corpus/$t" | wc -l) inputs"
    rmdir "$crashes" 2>/dev/null || true
done
exit "$status"
