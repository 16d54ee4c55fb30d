#!/usr/bin/env python3
"""Long sessions: every noise recording played in a loop for minutes at fixed levels, as a call beside
a fan lasts an hour. For each file and level, a detector's speech frames (their share over the whole
session, in its first minute and in the minutes after) and its speech starts an hour.

The noise comes from ../shared/training/noise, the more_noise recipe's output and the public corpus's
noise-only and transient files (whatever of them is present). Each file is repeated whole until the
session is long enough, cut to the session's length and scaled to the level (RMS over the session,
dBFS); nothing in it is speech, so every speech frame is a false one and every start a false alert.

Needs numpy and soundfile (the training environment: bash scripts/training-env.sh).

  py=$(bash scripts/training-env.sh)
  $py scripts/long-sessions.py                                    # 10 minutes at -50, -40, -30 dBFS
  $py scripts/long-sessions.py --minutes 2 --levels -40 --sources corpus --json /tmp/ls.json
  $py scripts/long-sessions.py \\
      --cmd '.build/release/miccheck analyze --format jsonl --no-background-gate {wav}' --name raw \\
                               --cmd 'python3 ../shared/bench/peers/silero.py {wav}' --name silero --sources corpus
"""
import argparse, glob, json, os, shlex, subprocess, sys, tempfile, wave
from concurrent.futures import ThreadPoolExecutor

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
# Where ../shared/training/more_noise/build.py builds (as training/miccheck_train/config.py's RECIPES).
MORE_NOISE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "miccheck-training",
                          "more_noise")
SR = 16000


def noise_files(sources, shared, more_noise):
    """(source, path) of every noise recording of the named sources that is present."""
    out = []
    if "training" in sources:
        out += [("training", p) for p in sorted(glob.glob(os.path.join(shared, "training", "noise", "*.flac")))]
    if "more_noise" in sources:
        out += [("more_noise", p) for p in sorted(glob.glob(os.path.join(more_noise, "noise", "*.flac")))]
    if "corpus" in sources:
        corpus = os.path.join(shared, "corpus")
        for j in sorted(glob.glob(os.path.join(corpus, "*.json"))):
            if os.path.basename(j) == "manifest.json":
                continue
            lab = json.load(open(j))
            if (lab.get("scenario") in ("noise_only", "transients") and not lab.get("speech")
                    and not lab.get("dead_mic")):
                out.append(("corpus", j[:-5] + ".wav"))
    return out


def read_mono(path):
    import soundfile
    x, sr = soundfile.read(path, dtype="float32", always_2d=True)
    x = x.mean(axis=1)
    if sr != SR:
        # Every pool and corpus file is 16 kHz; anything else is resampled by the detector from the WAV.
        raise SystemExit(f"{path}: {sr} Hz, expected {SR}")
    return x


def session(x, seconds, level_db):
    """`x` repeated whole to `seconds`, cut there, at `level_db` dBFS RMS (clipped to full scale)."""
    n = int(seconds * SR)
    reps = -(-n // max(1, len(x)))
    y = np.tile(x, reps)[:n].astype(np.float64)
    r = np.sqrt(np.mean(y * y))
    if r <= 0:
        return None
    y *= 10 ** (level_db / 20) / r
    return np.clip(y, -1, 32767 / 32768)


def write_wav(path, y):
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(SR)
        w.writeframes(np.round(y * 32768).astype("<i2").tobytes())


def measure(template, wav, seconds):
    """The detector's figures on `wav` from its JSON Lines (speech frames, their share in the first minute
    and after it, starts and starts an hour) and None; or None and the error's last line when it fails."""
    cmd = template.replace("{wav}", shlex.quote(wav))
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
    first = later = starts = 0
    frames_first = frames_later = 0
    for line in r.stdout.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("event") == "speech_started":
            starts += 1
        elif "speech" in rec and "t" in rec:
            if rec["t"] < 60:
                frames_first += 1; first += bool(rec["speech"])
            else:
                frames_later += 1; later += bool(rec["speech"])
    return dict(speech_frames=first + later, first_minute_share=first / max(1, frames_first),
                later_share=later / max(1, frames_later), starts=starts,
                starts_per_hour=starts / (seconds / 3600)), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--cmd", action="append", help="detector command with {wav} (JSON Lines out); repeatable "
                    "(default: .build/release/miccheck analyze --format jsonl {wav})")
    ap.add_argument("--name", action="append", help="a name for each --cmd")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--levels", default="-50,-40,-30", help="session levels, dBFS RMS (comma-separated)")
    ap.add_argument("--sources", default="training,more_noise,corpus",
                    help="training, more_noise, corpus (comma-separated)")
    ap.add_argument("--shared", default=SHARED)
    ap.add_argument("--more-noise", default=MORE_NOISE)
    ap.add_argument("--files", default="", help="only files whose name contains this")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--worst", type=int, default=10, help="how many of the worst sessions to list")
    ap.add_argument("--json", help="write every session's figures here")
    a = ap.parse_args()
    cmds = a.cmd or [os.path.join(ROOT, ".build/release/miccheck") + " analyze --format jsonl {wav}"]
    names = (a.name or []) + [f"cmd{k + 1}" for k in range(len(a.name or []), len(cmds))]
    levels = [float(v) for v in a.levels.split(",")]
    files = [(s, p) for s, p in noise_files(a.sources.split(","), a.shared, a.more_noise)
             if a.files in os.path.basename(p)]
    if not files:
        sys.exit("long-sessions: no noise files found (build more_noise with its recipe, or check --shared)")
    seconds = a.minutes * 60
    tmpdir = tempfile.mkdtemp(prefix="long-sessions-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    jobs = [(s, p, lv) for s, p in files for lv in levels]
    print(f"{len(files)} files x {len(levels)} levels, {a.minutes:g} min each: "
          f"{len(jobs) * seconds / 3600:.1f} h a detector",
          file=sys.stderr)

    def one(k_job):
        k, (src, path, level) = k_job
        y = session(read_mono(path), seconds, level)
        if y is None:
            return []
        wav = os.path.join(tmpdir, f"{k}.wav")
        write_wav(wav, y)
        rows = []
        try:
            for name, cmd in zip(names, cmds):
                m, err = measure(cmd, wav, seconds)
                rows.append(dict(detector=name, source=src, file=os.path.basename(path), level_db=level, error=err,
                                 **(m or {})))
        finally:
            os.unlink(wav)
        if k % 20 == 0:
            print(f"  {k + 1}/{len(jobs)}", file=sys.stderr)
        return rows

    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        rows = [r for rs in ex.map(one, enumerate(jobs)) for r in rs]
    os.rmdir(tmpdir)

    for name in names:
        mine = [r for r in rows if r["detector"] == name and not r["error"]]
        errors = [r for r in rows if r["detector"] == name and r["error"]]
        hours = len(mine) * seconds / 3600
        print(f"\n## {name}: {len(mine)} sessions, {hours:.1f} h" + (f", {len(errors)} failed" if errors else ""))
        print("| source | level | sessions | speech frames | share, first minute | share, minutes 2+ "
              "| starts an hour |")
        print("|---|---|---|---|---|---|---|")
        for src in sorted({r["source"] for r in mine}) + ["all"]:
            for lv in levels + [None]:
                sel = [r for r in mine if (src == "all" or r["source"] == src) and (lv is None or r["level_db"] == lv)]
                if not sel or (lv is None and len(levels) == 1):
                    continue
                h = len(sel) * seconds / 3600
                print(f"| {src} | {'all' if lv is None else f'{lv:g} dBFS'} | {len(sel)} | "
                      f"{sum(r['speech_frames'] for r in sel)} | "
                      f"{np.mean([r['first_minute_share'] for r in sel]):.4f} | "
                      f"{np.mean([r['later_share'] for r in sel]):.4f} | "
                      f"{sum(r['starts'] for r in sel) / h:.1f} |")
        worst = sorted(mine, key=lambda r: (r["speech_frames"], r["starts"]), reverse=True)[:a.worst]
        print(f"\nworst {len(worst)}: speech frames, starts an hour, share in the first minute / after")
        for r in worst:
            print(f"  {r['file']} at {r['level_db']:g} dBFS ({r['source']}): {r['speech_frames']} frames, "
                  f"{r['starts_per_hour']:.0f} an hour, {r['first_minute_share']:.3f} / {r['later_share']:.3f}")
        for r in errors[:5]:
            print(f"  failed: {r['file']} at {r['level_db']:g}: {r['error']}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
