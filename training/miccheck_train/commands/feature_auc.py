"""How well single features of `miccheck features` tell speech frames from the rest, file by file: the
per-frame ROC-AUC of each --column against the corpus's labels, on the files with speech in noise
(snr*), grouped by the noise, per file and pooled per noise. A quick check of a new feature before any
training; no model is involved.

usage: swift build -c release --product miccheck
       python3 training/feature_auc.py [--split ../shared/corpus] [--columns 2 1] [--files 'snr*']
"""
import argparse, glob, json, os, re, sys, tempfile
import numpy as np
from tqdm import tqdm

from .. import cli
from ..config import BINARY, CHECKOUT_HELP, FEATURES, SHARED, find_checkout, in_checkout
from ..errors import ConfigError, DataError, ToolError
from ..features import features_of, frame_labels
from ..progress import bar


def labels(path, frames):
    """Each 10 ms frame's label (speech or not) from the corpus's JSON beside the WAV."""
    return frame_labels(json.load(open(path[:-4] + ".json")).get("speech", []), frames)


def auc(y, x):
    from sklearn.metrics import roc_auc_score
    return roc_auc_score(y, x) if 0 < y.sum() < len(y) else float("nan")


def run(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", help="the labelled corpus (default: ../shared/corpus beside the checkout)")
    ap.add_argument("--binary", help="the miccheck binary (default: the checkout's .build/release/miccheck)")
    ap.add_argument("--checkout", metavar="DIR", help=CHECKOUT_HELP)
    ap.add_argument("--columns", type=int, nargs="+", default=[2, 1],
                    help="feature columns to score (default: the speech band's and all bands' mean level over "
                         "the noise floor, 2 and 1)")
    ap.add_argument("--files", default="snr*", help="glob of the corpus's WAV files (default: speech in noise)")
    a = cli.logging_options(ap).parse_args(argv)
    cli.start_logging(a)
    if not all(0 <= c < FEATURES for c in a.columns):
        raise ConfigError(f"--columns must lie in 0...{FEATURES - 1}")
    checkout = find_checkout(a.checkout)
    split = in_checkout(a.split, "--split", checkout, (*SHARED, "corpus"))
    binary = in_checkout(a.binary, "--binary", checkout, BINARY)
    if not os.path.exists(binary):
        raise ToolError(f"{binary} not found: swift build -c release --product miccheck")
    files = sorted(glob.glob(os.path.join(split, a.files + ".wav")))
    if not files:
        raise DataError(f"no {a.files}.wav in {split}")
    pooled = {}
    head = "".join(f"  col {c:>3}" for c in a.columns)
    print(f"{'file':60s}{head}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "f.bin")
        for w in bar(files, desc="features", unit="file"):
            X = features_of(binary, w, out)
            y = labels(w, len(X))
            name = os.path.basename(w)
            m = re.match(r"snr\d+_(.+?)_(?:espeak|klettres|hedgewars|asterisk)", name)
            kind = m.group(1) if m else "other"
            ys, xs = pooled.setdefault(kind, ([], []))
            ys.append(y); xs.append(X[:, a.columns])
            tqdm.write(f"{name:60s}" + "".join(f"  {auc(y, X[:, c]):7.3f}" for c in a.columns), file=sys.stdout)
    print()
    for kind, (ys, xs) in pooled.items():
        y, X = np.concatenate(ys), np.concatenate(xs)
        print(f"{'pooled ' + kind:60s}" + "".join(f"  {auc(y, X[:, i]):7.3f}" for i in range(len(a.columns))))



def main(argv=None):
    """The command's exit status (0, or 1 after a sentence on stderr saying what stopped it)."""
    return cli.main(run, argv)


if __name__ == "__main__":
    sys.exit(main())
