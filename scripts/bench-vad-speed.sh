#!/usr/bin/env bash
# Speed of MicCheck's voice activity detector against Silero VAD, on the same audio in the same run.
#   Silero: onnxruntime with one intra-op thread, as its users run it (scripts/silero-speed.py).
#   MicCheck: the detector through package-benchmark (Benchmarks/FramePath), one thread, in process.
# Both are reported in x real time (audio seconds per wall second), with their ratio.
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

silero=$(python3 scripts/silero-speed.py "$wav" 3)

out=$(MICCHECK_BENCH_WAV="$wav" MICCHECK_BENCHMARKS=1 swift package --disable-sandbox benchmark \
      --filter ".*comparison WAV.*" --format markdown --no-progress 2>&1) || { echo "$out"; exit 1; }
# The wall-clock row's p50, in the unit its name gives (the output goes through a file, not the script text).
report=$(mktemp); echo "$out" > "$report"
miccheck=$(python3 - "$seconds" "$report" <<'PY'
import re, sys
seconds, text = float(sys.argv[1]), open(sys.argv[2]).read()
scale = {"ns": 1e-9, "us": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0}
for line in text.splitlines():
    if line.startswith("| Time (wall clock)"):
        unit = re.search(r"\((ns|us|μs|ms|s)\)", line).group(1)
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        p50 = float(cells[3].replace(",", "")) * scale[unit]   # name, p0, p25, p50, ...
        print(f"{seconds / p50:.1f}")
        break
else:
    sys.exit("could not read the benchmark's wall-clock row:\n" + text)
PY
)
rm -f "$report"
mallocs=$(echo "$out" | grep "^| Malloc (total)" | head -1 || true)
echo "audio: $wav ($seconds s)"
echo "Silero VAD 6.2.3 (onnxruntime, 1 thread): ${silero}x real time"
echo "MicCheck detector (package-benchmark, p50): ${miccheck}x real time"
python3 -c "import sys; print(f'ratio: {float(sys.argv[1]) / float(sys.argv[2]):.1f}x Silero')" "$miccheck" "$silero"
echo "MicCheck mallocs over the whole file (p0 ... p100, samples): $mallocs"
