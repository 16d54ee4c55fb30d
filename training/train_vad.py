#!/usr/bin/env python3
"""Trains MicCheck's voice activity model and writes Sources/MicCheck/Resources/VoiceActivityModel.json.

The command is miccheck_train.commands.train_vad (its --help says more); this file runs it, from this folder or
from the installed package (pip install -e training).
"""
import sys

from miccheck_train.commands.train_vad import main

if __name__ == "__main__":
    sys.exit(main())
