#!/usr/bin/env python3
"""How well single features of `miccheck features` tell speech frames from the rest, file by file: the

The command is miccheck_train.commands.feature_auc (its --help says more); this file runs it, from this folder or
from the installed package (pip install -e training).
"""
import sys

from miccheck_train.commands.feature_auc import main

if __name__ == "__main__":
    sys.exit(main())
