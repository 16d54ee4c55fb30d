"""Writes a validation fold's held-out mixtures as a labelled corpus, without training: the main mixtures of
a run (the same options and --split-seed make the same mixtures), then every one with a source the fold
holds out, as WAV and JSON for ../shared/bench/score.py and training/tune_events.py to score any
detector on, with the held-out noise packages' recordings whole beside them (for score.py --loop-noise).
`train_vad.py --fold-corpus` writes the same while it builds a run's data; this is for a fold whose run reads
its data from a --cache.

usage: python3 training/fold_corpus.py --fold B --out-corpus training/work/foldB-corpus [train_vad.py's options]
"""
import sys, tempfile

import numpy as np

from .. import cli
from ..config import from_arguments, parser
from ..dataset import checked, held_parts, write_fold_corpus, write_fold_recordings
from ..mixtures import make_mixtures


def run(argv=None):
    ap = cli.logging_options(parser(__doc__))
    ap.add_argument("--out-corpus", "--corpus-out", dest="corpus_out", required=True, metavar="DIR",
                    help="the folder to write the fold's corpus into")
    args = ap.parse_args(argv)
    cli.start_logging(args)
    cfg = checked(from_arguments(args).checked().resolved("shared"))
    with tempfile.TemporaryDirectory() as tmp:
        mixes = make_mixtures(cfg, np.random.default_rng(cfg.validation.split_seed), tmp)
        held = held_parts(cfg, [m.group for m in mixes])
        write_fold_corpus(args.corpus_out, mixes, held)
        write_fold_recordings(args.corpus_out, cfg, held)



def main(argv=None):
    """The command's exit status (0, or 1 after a sentence on stderr saying what stopped it)."""
    return cli.main(run, argv)


if __name__ == "__main__":
    sys.exit(main())
