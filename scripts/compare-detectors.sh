#!/usr/bin/env bash
# Guides/Figures.md's comparison table: every peer detector of ../shared/bench (the level rule, WebRTC VAD,
# Silero VAD, TEN VAD, RNNoise) and MicCheck, scored by ../shared/bench/score.py on one corpus, side by side.
# Installs what the peers need first (their pinned Python packages, Silero without torch, and libc++1 for
# TEN VAD's library) and builds miccheck: a few minutes on 2 cores.
# usage: bash scripts/compare-detectors.sh [SPLIT_DIR] [OUT_DIR]   (defaults: ../shared/corpus, /tmp/miccheck-peers)
set -euo pipefail
cd "$(dirname "$0")/.."
bench=../shared/bench
split=${1:-../shared/corpus}
out=${2:-/tmp/miccheck-peers}
[[ -f "$bench/score.py" && -f "$bench/run_peers.sh" ]] || {
    echo "compare-detectors: $bench/score.py not found; the benchmark sits in ../shared beside the repository" >&2; exit 66; }
[[ -d "$split" ]] || { echo "compare-detectors: no corpus at $split" >&2; exit 66; }
split=$(cd "$split" && pwd)
mkdir -p "$out" && out=$(cd "$out" && pwd)

# The peers' packages, as pinned by the benchmark; Silero without its torch dependency (the adapter runs
# its bundled ONNX file through onnxruntime).
if ! python3 -c "import soxr, soundfile, onnxruntime, webrtcvad, ten_vad, pyrnnoise, silero_vad" 2>/dev/null; then
    echo "compare-detectors: installing the peers' Python packages ($bench/peers/requirements.txt)" >&2
    export PIP_ROOT_USER_ACTION=ignore   # as root on a CI machine, without the warning
    pip install -q -r "$bench/peers/requirements.txt" && pip install -q --no-deps silero-vad==6.2.3
fi

bash scripts/setup.sh libc++1   # the build's packages, and libc++1 for TEN VAD's library
swift build -c release --product miccheck >/dev/null
# run_peers.sh writes each peer's report beside its summary and carries on when one fails; a missing
# summary is reported below with that peer's report.
bash "$bench/run_peers.sh" "$split" "$out" >/dev/null
python3 "$bench/score.py" --split "$split" -q --cmd "$PWD/.build/release/miccheck analyze --format jsonl {wav}" \
    --name miccheck --json "$out/miccheck.json" > "$out/miccheck.txt"
summaries=()
for name in threshold webrtc-2 silero tenvad rnnoise miccheck; do
    if [[ -s "$out/$name.json" ]]; then
        summaries+=("$out/$name.json")
    else
        echo "compare-detectors: $name gave no scores; its report ($out/$name.txt):" >&2
        tail -5 "$out/$name.txt" >&2 || true
    fi
done
python3 "$bench/score.py" --compare "${summaries[@]}"
echo "reports and summaries: $out"
