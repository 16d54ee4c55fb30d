#!/usr/bin/env bash
# Speed of MicCheck's voice activity detector against Silero VAD, on the same audio in the same run.
#   Silero: onnxruntime with one intra-op thread, as its users run it (scripts/silero-speed.py).
#   MicCheck: the detector through package-benchmark (Benchmarks/FramePath), one thread, in process.
# Both are reported in x real time (audio seconds per wall second), fastest and median run, with ratios
# of like to like, in paired rounds (below).
# usage: [ROUNDS=5] bash scripts/bench-vad-speed.sh [WAV, 16 kHz]   (default: 60 s of the public corpus, joined)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import onnxruntime, silero_vad" 2>/dev/null || {
    pip install -q onnxruntime && pip install -q --no-deps silero-vad==6.2.3; }

wav=${1:-}
wav_tmp=""   # the joined corpus file when no WAV is given; removed at exit with the report
report=$(mktemp)
trap 'rm -f "$report" $wav_tmp' EXIT
if [[ -z "$wav" ]]; then
    wav=$(mktemp /tmp/miccheck-speed.XXXXXX.wav)
    wav_tmp=$wav
    python3 scripts/joined-corpus.py 60 "$wav"
fi
seconds=$(python3 -c "import wave,sys; w=wave.open(sys.argv[1]); print(w.getnframes()/w.getframerate())" "$wav")

# This machine's speed drifts by up to half within seconds, so the comparison goes in rounds: each round times
# Silero five times just before and five times just after one package-benchmark run of MicCheck, and
# compares them with each other only (fastest against fastest, median against median). The rounds'
# medians are the result; every round is printed too.
rounds=${ROUNDS:-5}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive whole number, not '$rounds'"; exit 64; }
ratios=()
mallocs=""
for round in $(seq "$rounds"); do
    silero_before=$(python3 scripts/silero-speed.py "$wav" 5 --all)
    out=$(MICCHECK_BENCH_WAV="$wav" MICCHECK_BENCHMARKS=1 swift package --disable-sandbox benchmark \
          --filter ".*comparison WAV.*" --format markdown --no-progress 2>&1) || { echo "$out"; exit 1; }
    silero_after=$(python3 scripts/silero-speed.py "$wav" 5 --all)
    # The wall-clock row's p0 and p50, in the unit its name gives (the output goes through a file, not the script text).
    echo "$out" > "$report"
    read -r miccheck miccheck_median < <(python3 - "$seconds" "$report" <<'PY'
import re, sys
seconds, text = float(sys.argv[1]), open(sys.argv[2]).read()
scale = {"ns": 1e-9, "us": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0}
for line in text.splitlines():
    if line.startswith("| Time (wall clock)"):
        unit = re.search(r"\((ns|us|μs|ms|s)\)", line).group(1)
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        p0, p50 = (float(cells[i].replace(",", "")) * scale[unit] for i in (1, 3))   # name, p0, p25, p50, ...
        print(f"{seconds / p0:.1f} {seconds / p50:.1f}")
        break
else:
    sys.exit("could not read the benchmark's wall-clock row:\n" + text)
PY
)
    [[ -n "${miccheck:-}" && -n "$silero_before" && -n "$silero_after" ]] || {
        echo "no figures in round $round: Silero '$silero_before' '$silero_after', MicCheck '${miccheck:-}'"; exit 1; }
    line=$(python3 -c "
import statistics, sys
m, mm = float(sys.argv[1]), float(sys.argv[2]); s = [float(v) for v in sys.argv[3:]]
fast, mid = max(s), statistics.median(s)
print(f'{fast:.1f} {mid:.1f} {m:.1f} {mm:.1f} {m / fast:.2f} {mm / mid:.2f}')" \
        "$miccheck" "$miccheck_median" $silero_before $silero_after)
    read -r s_fast s_mid m_fast m_mid r_fast r_mid <<< "$line"
    echo "round $round: Silero ${s_fast}x (fastest of 10 passes), ${s_mid}x (median); MicCheck ${m_fast}x (p0), ${m_mid}x (p50): ratio ${r_fast}x, ${r_mid}x"
    ratios+=("$r_fast:$r_mid")
    mallocs=$(echo "$out" | grep "^| Malloc (total)" | head -1 || true)
done
echo "audio: $wav ($seconds s); Silero VAD 6.2.3 through onnxruntime with 1 thread, MicCheck's detector through package-benchmark"
python3 -c "
import statistics, sys
pairs = [tuple(float(x) for x in r.split(':')) for r in sys.argv[1:]]
fast = [p[0] for p in pairs]; mid = [p[1] for p in pairs]
print(f'ratio, median of {len(pairs)} rounds: {statistics.median(fast):.1f}x Silero (fastest passes), {statistics.median(mid):.1f}x (median passes); '
      f'rounds from {min(fast):.1f}x to {max(fast):.1f}x')" "${ratios[@]}"
echo "MicCheck mallocs over the whole file (p0 ... p100, samples): $mallocs"
