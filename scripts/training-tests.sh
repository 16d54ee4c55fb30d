#!/usr/bin/env bash
# The training package's tests (training/tests, pytest) and the Python style check (ruff, configured in
# training/pyproject.toml) over training/ and scripts/*.py, in a light virtual environment in
# .build/training-test-venv: numpy, scipy, soundfile, tqdm, pytest and ruff (pyproject.toml's `test` extra)
# and the package itself without its dependencies (no PyTorch, onnxruntime or Silero VAD). Run again, it only
# checks. The model file's round trip runs the miccheck binary $MICCHECK_BINARY (default
# .build/debug/miccheck), and is skipped without one.
#   bash scripts/training-tests.sh [pytest options]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/training-test-venv
if ! "$venv/bin/python" -c "import numpy, scipy, soundfile, tqdm, pytest, miccheck_train" 2>/dev/null || ! [ -x "$venv/bin/ruff" ]; then
    if command -v dpkg >/dev/null && ! dpkg -s python3-venv >/dev/null 2>&1; then
        bash scripts/setup.sh python3-venv >&2
    fi
    echo "training-tests: installing numpy, scipy, soundfile, tqdm, pytest, ruff and the training package into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q -U pip
    "$venv/bin/python" -m pip install -q numpy scipy soundfile tqdm pytest ruff
    "$venv/bin/python" -m pip install -q --no-deps -e training
fi
"$venv/bin/ruff" check --config training/pyproject.toml training scripts/*.py
"$venv/bin/python" -m pytest -q training/tests "$@"
