#!/usr/bin/env python3
"""Writes a validation fold's held-out mixtures as a labelled corpus, without training: the main mixtures of
a run (the same options and --split-seed make the same mixtures), then every one with a source the fold
holds out, as WAV and JSON for ../shared/bench/score.py and training/tune_events.py to score any
detector on, with the held-out noise packages' recordings whole beside them (for score.py --loop-noise). `train_vad.py --fold-corpus` writes the same while it builds a run's data; this is for a
fold whose run reads its data from a --cache.

usage: python3 training/fold_corpus.py --fold B --out-corpus training/work/foldB-corpus [train_vad.py's options]
"""
import os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np   # noqa: E402
from miccheck_train.config import parser, Config   # noqa: E402
from miccheck_train.dataset import held_parts, write_fold_corpus, write_fold_recordings   # noqa: E402
from miccheck_train.mixtures import make_mixtures   # noqa: E402


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument("--out-corpus", "--corpus-out", dest="corpus_out", required=True, metavar="DIR",
                    help="the folder to write the fold's corpus into")
    args = vars(ap.parse_args(argv))
    out = args.pop("corpus_out")
    cfg = Config(**args).checked()
    with tempfile.TemporaryDirectory() as tmp:
        mixes = make_mixtures(cfg, np.random.default_rng(cfg.split_seed), tmp)
        held = held_parts(cfg, [m[2] for m in mixes])
        write_fold_corpus(out, mixes, held)
        write_fold_recordings(out, cfg, held)


if __name__ == "__main__":
    main()
