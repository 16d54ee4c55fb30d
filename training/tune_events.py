#!/usr/bin/env python3
"""Tunes SpeechFrameDecision's and SpeechEventDetector's thresholds on the public corpus.

The command is miccheck_train.commands.tune_events (its --help says more); this file runs it, from this folder or
from the installed package (pip install -e training).
"""
import sys

from miccheck_train.commands.tune_events import main

if __name__ == "__main__":
    sys.exit(main())
