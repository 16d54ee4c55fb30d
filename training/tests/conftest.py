"""Shared by the training package's tests: the repository, the miccheck binary, a made-up voice, and the
package's logger put back as it was after each test (the commands set it up)."""
import logging
import os
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
SR = 16000


@pytest.fixture(autouse=True)
def package_log():
    """The package's logger (which `cli.start_logging` sets up), its handlers and level put back after the test."""
    log = logging.getLogger("miccheck_train")
    handlers, level = list(log.handlers), log.level
    yield log
    log.handlers[:] = handlers
    log.setLevel(level)


@pytest.fixture(scope="session")
def miccheck():
    """The miccheck binary: $MICCHECK_BINARY, or .build/debug/miccheck of this repository (the tests that
    run it are skipped without one)."""
    path = Path(os.environ.get("MICCHECK_BINARY") or ".build/debug/miccheck")
    if not path.is_absolute():
        path = REPO / path
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip(f"no miccheck binary at {path}: build it (swift build --product miccheck) or set MICCHECK_BINARY")
    return str(path)


def voice(rng, seconds=3.0, speech=((0.5, 1.4), (1.8, 2.6))):
    """A made-up voice: a harmonic tone at 120-220 Hz, swelling and fading, in the labelled `speech`
    segments (seconds), digital silence between them; and its labels."""
    t = np.arange(int(seconds * SR)) / SR
    x = np.zeros(len(t))
    for a, b in speech:
        m = (t >= a) & (t < b)
        f0 = rng.uniform(120, 220)
        tone = sum(np.sin(2 * np.pi * f0 * k * t[m] + rng.uniform(0, 6)) / k for k in range(1, 12))
        x[m] = tone * np.sin(np.pi * (t[m] - a) / (b - a)) ** 0.5
    return x, [list(s) for s in speech]
