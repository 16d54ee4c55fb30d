#!/usr/bin/env bash
# Speed of MicCheck's voice activity detector against Silero VAD, on the same audio in the same run.
#   Silero: onnxruntime with one intra-op thread, as its users run it (scripts/silero-speed.py).
#   MicCheck: the detector through package-benchmark (Benchmarks/FramePath), one thread, in process.
# Both are reported in x real time (audio seconds per wall second), fastest and median run, with ratios
# of like to like.
# usage: bash scripts/bench-vad-speed.sh [WAV, 16 kHz]   (default: 60 s of the public corpus, joined)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import onnxruntime, silero_vad" 2>/dev/null || {
    pip install -q onnxruntime && pip install -q --no-deps silero-vad==6.2.3; }

wav=${1:-}
if [[ -z "$wav" ]]; then
    wav=$(mktemp /tmp/miccheck-speed.XXXXXX.wav)
    trap 'rm -f "$wav"' EXIT
    python3 - "$wav" <<'PY'
import glob, sys, wave
out, data = sys.argv[1], b""
for f in sorted(glob.glob("../shared/corpus/*.wav")):
    with wave.open(f) as w:
        if w.getframerate() == 16000 and w.getnchannels() == 1:
            data += w.readframes(w.getnframes())
    if len(data) >= 60 * 32000:
        break
with wave.open(out, "wb") as w:
    w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000); w.writeframes(data[:60 * 32000])
PY
fi
seconds=$(python3 -c "import wave,sys; w=wave.open(sys.argv[1]); print(w.getnframes()/w.getframerate())" "$wav")

# Silero runs before and after MicCheck (three passes each), so a change in the machine's speed during
# the run weighs on both detectors; its fastest and median pass of the six are reported.
silero_before=$(python3 scripts/silero-speed.py "$wav" 3 --all)

out=$(MICCHECK_BENCH_WAV="$wav" MICCHECK_BENCHMARKS=1 swift package --disable-sandbox benchmark \
      --filter ".*comparison WAV.*" --format markdown --no-progress 2>&1) || { echo "$out"; exit 1; }
# The wall-clock row's p0 and p50, in the unit its name gives (the output goes through a file, not the script text).
report=$(mktemp); echo "$out" > "$report"
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
rm -f "$report"
silero_after=$(python3 scripts/silero-speed.py "$wav" 3 --all)
read -r silero silero_median < <(python3 -c "import statistics, sys; v = [float(x) for x in sys.argv[1:]]; print(max(v), round(statistics.median(v), 1))" $silero_before $silero_after)
[[ -n "${miccheck:-}" && -n "${silero:-}" ]] || { echo "no figures: Silero '${silero:-}', MicCheck '${miccheck:-}'"; exit 1; }
mallocs=$(echo "$out" | grep "^| Malloc (total)" | head -1 || true)
echo "audio: $wav ($seconds s)"
echo "Silero VAD 6.2.3 (onnxruntime, 1 thread), 6 passes over the file: fastest ${silero}x, median ${silero_median}x real time"
echo "MicCheck detector (package-benchmark), passes over the file: fastest (p0) ${miccheck}x, median (p50) ${miccheck_median}x real time"
python3 -c "import sys; a = [float(v) for v in sys.argv[1:]]; print(f'ratio: {a[0] / a[1]:.1f}x Silero (fastest runs), {a[2] / a[3]:.1f}x (median runs)')" \
    "$miccheck" "$silero" "$miccheck_median" "$silero_median"
echo "MicCheck mallocs over the whole file (p0 ... p100, samples): $mallocs"
