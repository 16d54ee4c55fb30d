#!/usr/bin/env python3
"""Writes a validation fold's held-out mixtures as a labelled corpus, without training: the main mixtures of

The command is miccheck_train.commands.fold_corpus (its --help says more); this file runs it, from this folder or
from the installed package (pip install -e training).
"""
import sys

from miccheck_train.commands.fold_corpus import main

if __name__ == "__main__":
    sys.exit(main())
