#!/usr/bin/env python3
"""Tunes SpeechEventDetector's thresholds on the public corpus.

Runs `miccheck analyze` once per file for the model's per-frame probabilities, then replays
SpeechEventDetector (start after `min` frames at >= `start`, end after `hang` frames below `end`) for
every setting of a grid and scores it as ../shared/bench/score.py does (frame F1, onsets answered within
300 ms, false starts per hour on noise-only and transient files). score.py itself gives the final figures.

usage: python3 training/tune_events.py [--split ../shared/corpus] [--binary .build/release/miccheck]
"""
import argparse, itertools, json, os, subprocess, sys
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def replay(p, start, end, min_frames, hang):
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
                speaking, run = True, 0; starts.append(i * 0.01)
        dec[i] = speaking
    return dec, starts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default=os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "miccheck"))
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.split, "..", "bench"))
    import score
    data = []
    for it in score.load_split(a.split):
        out = subprocess.run([a.binary, "analyze", "--format", "jsonl", it["wav"]],
                             capture_output=True, text=True, check=True).stdout
        p = np.array([json.loads(l)["prob"] for l in out.splitlines() if l.startswith('{"t"')])
        data.append((it, p))
    grid = itertools.product([0.5, 0.6, 0.7, 0.8, 0.9], [0.3, 0.4, 0.5, 0.6, 0.7], [2, 3, 5, 8], [5, 8, 10, 15, 20, 30])
    rows = []
    for start, end, mf, hang in grid:
        if end > start:
            continue
        tp = fp = fn = 0; lats = []; fa = 0; fa_s = 0.0
        for it, p in data:
            dur = float(it["duration_s"])
            dec, starts = replay(p, start, end, mf, hang)
            y = score.labels_to_grid(it.get("speech", []), dur)
            n = min(len(y), len(dec)); d = np.zeros(len(y), bool); d[:n] = dec[:n]
            tp += int((d & y).sum()); fp += int((d & ~y).sum()); fn += int((~d & y).sum())
            for a_, b_ in score.qualifying_onsets(it.get("speech", [])):
                c = [t for t in starts if a_ - score.ONSET_PRE <= t <= b_]
                lats.append(c[0] - a_ if c else None)
            if it.get("scenario") in score.FA_SCENARIOS and not it.get("music_vocals"):
                fa += len(starts); fa_s += dur
        f1 = 2 * tp / (2 * tp + fp + fn)
        fast = np.mean([l is not None and l <= 0.3 for l in lats])
        rows.append((f1, fast, fa / fa_s * 3600, start, end, mf, hang))
    rows.sort(key=lambda r: (-(r[2] <= 1), -(r[0] + r[1])))
    print("   F1  <=300ms   FA/h  start  end  min  hang")
    for r in rows[:25]:
        print(f"{r[0]:.3f}  {100 * r[1]:5.1f}%  {r[2]:6.1f}  {r[3]:.2f}  {r[4]:.2f}  {r[5]:3d}  {r[6]:3d}")


if __name__ == "__main__":
    main()
