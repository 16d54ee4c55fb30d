#!/usr/bin/env bash
# Fuzzes MicCheck's parsers with coverage guidance: libFuzzer with AddressSanitizer, from the Swift toolchain.
#
#   bash scripts/fuzz.sh TARGET|all [SECONDS] [-- LIBFUZZER OPTIONS]
#
# Targets (Fuzz/, each a library whose LLVMFuzzerTestOneInput libFuzzer calls): wav (WAVReader, streamed in block sizes the input picks), model (VoiceActivityModel, then
# run), call (CallDescription, then played), state (the permission prompt dismissals and a ducking journal).
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
declare -A names=([wav]=FuzzWAV [model]=FuzzModel [call]=FuzzCallDescription [state]=FuzzStateFiles)
declare -A modules=([wav]="MicCheck" [model]="MicCheck" [call]="MicCheck MicCheckCall"
                    [state]="MicCheck MicCheckCall MicCheckPulse")
case "$target" in
all) targets=(wav model call state) ;;
wav|model|call|state) targets=("$target") ;;
*) echo "usage: fuzz.sh wav|model|call|state|all [SECONDS] [-- LIBFUZZER OPTIONS]" >&2; exit 64 ;;
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
