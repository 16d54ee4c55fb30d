#!/usr/bin/env bash
# Whole-process speed of `miccheck analyze --format jsonl` against Silero VAD's benchmark adapter
# (../shared/bench/peers/silero.py, which prints the same JSON Lines contract), on one long file, in the
# same run: what a user pays to get a frame record every 10 ms out of a recording, start-up, decoding
# and writing included. The two commands run alternately, ROUNDS times each (default 7), output to
# /dev/null; the medians and their ratio are printed. This machine's speed drifts within seconds, so
# compare only figures of one run.
# usage: [ROUNDS=7] bash scripts/bench-whole-process.sh [WAV]   (default: 6 minutes of the public corpus, joined)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-7}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive whole number, not '$rounds'" >&2; exit 64; }
python3 -c "import onnxruntime, silero_vad, soxr, soundfile" 2>/dev/null || {
    pip install -q -r ../shared/bench/peers/requirements.txt && pip install -q --no-deps silero-vad==6.2.3; }
swift build -c release --product miccheck >/dev/null
wav=${1:-}
tmp=""
trap 'rm -f $tmp' EXIT
if [[ -z "$wav" ]]; then
    tmp=$(mktemp /tmp/miccheck-six-minutes.XXXXXX.wav)
    wav=$tmp
    python3 scripts/joined-corpus.py 360 "$wav"
fi
python3 - "$wav" "$rounds" <<'PY'
import statistics, subprocess, sys, time, wave
wav, rounds = sys.argv[1], int(sys.argv[2])
with wave.open(wav) as w:
    seconds = w.getnframes() / w.getframerate()
cmds = {"miccheck": [".build/release/miccheck", "analyze", "--format", "jsonl", wav],
        "silero": [sys.executable, "../shared/bench/peers/silero.py", wav]}
times = {k: [] for k in cmds}
for _ in range(rounds):
    for name, cmd in cmds.items():
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - t)
m, s = statistics.median(times["miccheck"]), statistics.median(times["silero"])
print(f"{seconds:.0f} s of audio, {rounds} alternate runs each, whole process, JSON Lines to /dev/null")
for name, v in times.items():
    print(f"  {name:9s} median {statistics.median(v):.3f} s ({seconds / statistics.median(v):.0f}x real time), "
          f"fastest {min(v):.3f} s")
print(f"  MicCheck is {s / m:.1f}x Silero (medians; fastest against fastest {min(times['silero']) / min(times['miccheck']):.1f}x)")
PY
