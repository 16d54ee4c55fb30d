"""Tunes SpeechFrameDecision's and SpeechEventDetector's thresholds on the public corpus.

Runs `miccheck analyze` once per file for the model's per-frame probabilities, then scores them as
../shared/bench/score.py does:
- frame decisions (speech at >= `threshold` and for `hold` frames after) by frame F1;
- SpeechEventDetector (start after `min` frames at >= `start`, end after `hang` frames below `end`),
  for every setting of a grid, by onsets answered within 300 ms and false starts per hour on noise-only
  and transient files.
score.py itself gives the final figures.

With several --model files the models' probabilities are averaged frame by frame (an ensemble: how
much seeds gain together, before one model is distilled from them).

usage: python3 training/tune_events.py [--split ../shared/corpus] [--binary .build/release/miccheck]
                                       [--model M.json [--model M2.json ...]]
                                       [--starts 0.6,0.7 --ends 0.5,0.7 --mins 1,2,3 --hangs 30]   (a smaller grid,
                                        for a large split such as a validation fold's --fold-corpus)
The defaults (and score.py, in ../shared/bench) lie in the MicCheck checkout: --checkout DIR,
$MICCHECK_CHECKOUT, or the nearest folder at or above the current one with MicCheck's Package.swift.
"""
import argparse, importlib.util, itertools, json, os, subprocess, sys
import numpy as np

from .. import cli
from ..config import BINARY, BUNDLED_MODEL, CHECKOUT_HELP, SHARED, find_checkout, in_checkout
from ..errors import ConfigError, DataError, ToolError
from ..progress import bar


def replay(p, start, end, min_frames, hang, lookahead=0):
    """Replays SpeechEventDetector over frame records' probabilities. With a look-ahead model, record i's
    probability was computed `lookahead` frames later, which is when an event on it is decided."""
    speaking, run = False, 0
    dec = np.zeros(len(p), bool); starts = []
    for i, v in enumerate(p):
        if speaking:
            run = run + 1 if v < end else 0
            if run >= hang:
                speaking, run = False, 0
        else:
            run = run + 1 if v >= start else 0
            if run >= min_frames:
                speaking, run = True, 0; starts.append((i + lookahead) * 0.01)
        dec[i] = speaking
    return dec, starts


def grid_of(v, y):
    """Frame decisions or probabilities on the label grid's length (missing frames: False or 0)."""
    d = np.zeros(len(y), np.asarray(v).dtype); n = min(len(y), len(v)); d[:n] = v[:n]
    return d


def bench_score(path):
    """../shared/bench/score.py (`path`: in a folder beside the repository, not a package), loaded from its
    path as the module `score`."""
    if not os.path.isfile(path):
        raise ToolError(f"{path} not found: tune_events.py scores as ../shared/bench/score.py does")
    spec = importlib.util.spec_from_file_location("score", path)
    score = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("score", score)
    spec.loader.exec_module(score)
    return score


def run(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", help="the labelled corpus (default: ../shared/corpus beside the checkout)")
    ap.add_argument("--binary", help="the miccheck binary (default: the checkout's .build/release/miccheck)")
    ap.add_argument("--checkout", metavar="DIR", help=CHECKOUT_HELP)
    ap.add_argument("--model", action="append",
                    help="a model file to evaluate instead of the bundled one; given more than once, the models' "
                         "probabilities are averaged (they must share a look-ahead)")
    floats = lambda v: [float(x) for x in v.split(",")]   # noqa: E731
    ints = lambda v: [int(x) for x in v.split(",")]   # noqa: E731
    ap.add_argument("--starts", type=floats, default=[0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
                    help="start thresholds of the event grid (comma-separated)")
    ap.add_argument("--ends", type=floats, default=[0.3, 0.4, 0.5, 0.6, 0.7], help="end thresholds of the grid")
    ap.add_argument("--mins", type=ints, default=[1, 2, 3, 5, 8], help="frames at or above the start threshold")
    ap.add_argument("--hangs", type=ints, default=[5, 8, 10, 15, 20, 30], help="frames below the end threshold")
    ap.add_argument("--every", action="store_true", help="print every setting of the event grid, not only the front")
    a = cli.logging_options(ap).parse_args(argv)
    cli.start_logging(a)
    checkout = find_checkout(a.checkout)
    split = in_checkout(a.split, "--split", checkout, (*SHARED, "corpus"))
    binary = in_checkout(a.binary, "--binary", checkout, BINARY)
    models = a.model or [in_checkout(None, "--model", checkout, BUNDLED_MODEL)]
    if checkout is None:
        raise ConfigError("tune_events.py scores as ../shared/bench/score.py does, beside the MicCheck checkout: "
                          "name the checkout (--checkout DIR or $MICCHECK_CHECKOUT)")
    score = bench_score(os.path.join(checkout, *SHARED, "bench", "score.py"))
    lookaheads = {json.load(open(m)).get("lookahead", 0) for m in models}
    if len(lookaheads) != 1:
        raise DataError(f"the models' look-aheads differ ({sorted(lookaheads)}): their frames would not line up")
    lookahead = lookaheads.pop()
    data = []
    for it in bar(score.load_split(split), desc="analyze", unit="file"):
        probs = []
        for m in models:
            out = subprocess.run([binary, "analyze", "--format", "jsonl", it["wav"], "--model", m],
                                 capture_output=True, text=True, check=True).stdout
            probs.append(np.array([json.loads(l)["prob"] for l in out.splitlines() if l.startswith('{"t"')]))
        p = np.mean(probs, axis=0)
        data.append((it, p, score.labels_to_grid(it.get("speech", []), float(it["duration_s"]))))
    ps = np.concatenate([grid_of(p, y) for _, p, y in data])
    ys = np.concatenate([y for _, _, y in data])
    print(f"AUC {score.auc(ps, ys):.4f} over {len(ys)} frames ({len(models)} model{'s' if len(models) > 1 else ''})")
    print("frame decisions: F1 by threshold (rows) and hold in frames (columns)")
    holds = [0, 2, 3, 5, 8, 12]
    print("       " + "".join(f"{h:7d}" for h in holds))
    for th in [0.4, 0.5, 0.6, 0.7, 0.8]:
        f1s = []
        for hold in holds:
            tp = fp = fn = 0
            for it, p, y in data:
                # Speech when this frame or one of the `hold` before it is at or above the threshold.
                held = np.convolve((p >= th).astype(np.int32), np.ones(hold + 1, np.int32))[:len(p)] > 0
                d = grid_of(held, y)
                tp += int((d & y).sum()); fp += int((d & ~y).sum()); fn += int((~d & y).sum())
            f1s.append(2 * tp / (2 * tp + fp + fn))
        print(f"{th:5.2f}  " + "".join(f"{f:7.3f}" for f in f1s))
    grid = itertools.product(a.starts, a.ends, a.mins, a.hangs)
    rows = []
    for start, end, mf, hang in grid:
        if end > start:
            continue
        lats = []; fa = 0; fa_s = 0.0
        for it, p, _ in data:
            _, starts = replay(p, start, end, mf, hang, lookahead)
            for a_, b_ in score.qualifying_onsets(it.get("speech", [])):
                c = [t for t in starts if a_ - score.ONSET_PRE <= t <= b_]
                lats.append(c[0] - a_ if c else None)
            if it.get("scenario") in score.FA_SCENARIOS and not it.get("music_vocals"):
                fa += len(starts); fa_s += float(it["duration_s"])
        fast = np.mean([l is not None and l <= 0.3 for l in lats])
        answered = [max(0.0, l) for l in lats if l is not None]   # as score.py: every onset answered, early ones as 0
        median = 1000 * float(np.median(answered)) if answered else float("nan")
        rows.append((fast, fa / fa_s * 3600, start, end, mf, hang, median))
    # The settings no other setting beats on both counts, fewest false starts first.
    front = rows
    if not a.every:
        front = [r for r in rows if not any(o[0] >= r[0] and o[1] <= r[1] and o[:2] != r[:2] for o in rows)]
        front = {r[:2]: r for r in front}.values()
    front = sorted(front, key=lambda r: (r[1], -r[0]))
    print("events (" + ("every setting" if a.every else "settings no other beats on both counts")
          + "): <=300ms   FA/h  start  end  min  hang  median ms")
    for r in front:
        print(f"        {100 * r[0]:5.1f}%  {r[1]:6.1f}  {r[2]:.2f}  {r[3]:.2f}  {r[4]:3d}  {r[5]:3d}  {r[6]:6.0f}")



def main(argv=None):
    """The command's exit status (0, or 1 after a sentence on stderr saying what stopped it)."""
    return cli.main(run, argv)


if __name__ == "__main__":
    sys.exit(main())
