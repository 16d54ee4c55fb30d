#!/usr/bin/env bash
# The Python environment for training/ (train_vad.py, tune_events.py, feature_auc.py): a virtual
# environment in .build/train-venv with a current pip (Debian's and older pips cannot resolve torch's
# newer wheels), training/requirements.txt, Silero VAD (the training targets' teacher only) and the
# training package itself (pip install -e training: miccheck_train and its commands, miccheck-train-vad
# and the others, in the environment's bin/), plus espeak-ng and sox from Debian. Prints the
# environment's python; run again, it only checks.
#   bash scripts/training-env.sh            then   .build/train-venv/bin/python training/train_vad.py ...
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh espeak-ng sox libsox-fmt-base python3-venv >&2   # libsox-fmt-base: GSM and G.711 for the telephone channel
venv=.build/train-venv
if ! "$venv/bin/python" -c "import torch, sklearn, soundfile, scipy, tqdm, onnxruntime, silero_vad" 2>/dev/null; then
    echo "training-env: installing training/requirements.txt into $venv (PyTorch: a few GB)" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q -U pip
    "$venv/bin/python" -m pip install -q -r training/requirements.txt
    "$venv/bin/python" -m pip install -q --no-deps silero-vad==6.2.3
fi
# The package, editable (the code stays in training/), unless this checkout's is installed already.
if ! "$venv/bin/python" -c "import os, sys, miccheck_train.commands as c; sys.exit(os.path.realpath(c.__path__[0]) != os.path.realpath('training/miccheck_train/commands'))" 2>/dev/null; then
    echo "training-env: installing the training package (pip install -e training) into $venv" >&2
    "$venv/bin/python" -m pip install -q --no-deps -e training
fi
echo "$venv/bin/python"
