#!/usr/bin/env python3
"""How a model hears one labelled voice over one noise, at several SNRs: a probe for where it fails.

The command is miccheck_train.commands.mix_probe (its --help says more); this file runs it, from this folder or
from the installed package (pip install -e training).
"""
import sys

from miccheck_train.commands.mix_probe import main

if __name__ == "__main__":
    sys.exit(main())
