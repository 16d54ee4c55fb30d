#!/usr/bin/env python3
"""Keyboard-noise figures: how often `miccheck analyze --format jsonl` raises `keyboard_noise` on typing,
how soon, and how often on everything that is not typing.

Typing (the public corpus): the typing recording (noise_00_typing_bucklespring), the bursts of key presses
(transient_03_bucklespring-bursts) and the four speech-over-typing mixtures (snr*_typing_*). Their typing
stretches are found from the audio: keystroke onsets (a 1 ms block 12 dB or more over the 22 ms before it,
above -65 dBFS) outside the labelled speech (with 0.3 s either side), one stretch while they follow each
other within 2 s with no speech between them; a stretch of 7 onsets or more over 1.2 s or more should
raise the event. A stretch is found when an event falls inside it (from its first onset to 0.2 s after its
last) or when an event of the same stretch of typing came less than 10 s before it (the event repeats every
10 s of continued typing).
The delay is from the stretch's first onset to its first event. The synthetic key-click trains
(noise_13_clicks_synth) are reported on their own.

Not typing: every other file of the corpus (speech, music, applause, fans, claps, crashes, game effects,
dead microphones), and, as tuning material, ../shared/training (noise/ by category, speech/) and the
more_noise recipe's output where it has been built. Each is played once, or looped to --loop minutes;
every event on them is a false alert. The training pool's `clicks` (UI clicks, key clicks, a shutter) are
reported apart: a key click is typing's sound.

usage: swift build -c release --product miccheck
       py=$(bash scripts/training-env.sh)     # numpy and soundfile
       $py scripts/measure-keyboard-noise.py [--corpus DIR] [--loop MINUTES] [--no-training] [-v]
"""
import argparse, glob, json, os, subprocess, sys, tempfile, wave
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import soundfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
MORE_NOISE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "miccheck-training",
                          "more_noise")
SR = 16000

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--corpus", default=os.path.join(SHARED, "corpus"))
ap.add_argument("--training", default=os.path.join(SHARED, "training"))
ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "miccheck"))
ap.add_argument("--loop", type=float, default=0, help="play each file that is not typing in a loop this many minutes")
ap.add_argument("--no-training", action="store_true", help="the corpus only")
ap.add_argument("-v", action="store_true", help="every event on every file")
args = ap.parse_args()
if not os.path.exists(os.path.join(args.corpus, "manifest.json")):
    sys.exit(f"measure-keyboard-noise: no corpus at {args.corpus} (its manifest.json is missing)")
if not os.access(args.binary, os.X_OK):
    sys.exit("measure-keyboard-noise: build first: swift build -c release --product miccheck")


def events(path):
    out = subprocess.run([args.binary, "analyze", "--format", "jsonl", path], capture_output=True, text=True,
                         check=True).stdout
    return [json.loads(line) for line in out.splitlines() if '"event"' in line]


def mono(path):
    x, rate = soundfile.read(path, dtype="float32", always_2d=True)
    return x.mean(axis=1), rate


def onsets(x, speech):
    """Keystroke-like onsets (seconds) of 16 kHz audio, outside the labelled speech."""
    m = len(x) // 16
    e = (x[: m * 16].astype(np.float64).reshape(m, 16) ** 2).mean(axis=1)
    db = 10 * np.log10(e + 1e-16)
    pre = np.convolve(e, np.ones(22) / 22, mode="full")[: m]  # pre[i] = mean of e[i-21..i]
    found, i = [], 24
    while i < m:
        before = 10 * np.log10(pre[i - 3] + 1e-16)  # the 22 blocks ending 2 before i
        t = i / 1000
        if db[i] - before >= 12 and db[i] >= -65 and not any(a - 0.3 <= t <= b + 0.3 for a, b in speech):
            found.append(t)
            i += 15
        else:
            i += 1
    return found


def stretches(times, speech, gap=2.0):
    """Onsets one at most `gap` s after the other, with no labelled speech between them."""
    groups = []
    for t in times:
        if groups and t - groups[-1][-1] <= gap and not any(groups[-1][-1] <= a <= t for a, _ in speech):
            groups[-1].append(t)
        else:
            groups.append([t])
    return [(g[0], g[-1], len(g)) for g in groups if len(g) >= 7 and g[-1] - g[0] >= 1.2]


def looped(path, minutes):
    """A temporary 16 kHz WAV of `path` repeated whole to `minutes` (or as it is, converted, when 0)."""
    x, rate = mono(path)
    if rate != SR:
        return None
    if minutes > 0:
        n = int(minutes * 60 * SR)
        x = np.tile(x, n // len(x) + 1)[:n]
    f = tempfile.NamedTemporaryFile(suffix=".wav", delete=False)
    with wave.open(f.name, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes((np.clip(x, -1, 32767 / 32768) * 32768).astype("<i2").tobytes())
    return f.name, len(x) / SR


# Typing.
corpus_files = sorted(glob.glob(os.path.join(args.corpus, "*.wav"))) + sorted(
    glob.glob(os.path.join(args.corpus, "other-formats", "*.wav")))
label = {p: json.load(open(p[:-4] + ".json")) for p in corpus_files}
typing = [p for p in corpus_files if "typing" in label[p]["noise"] or "bucklespring" in label[p]["noise"]]
keyclicks = [p for p in corpus_files if label[p]["noise"] == "clicks_synth"]
print("Typing (public corpus): file, its typing stretches found, the delay from each stretch's first keystroke")
found_total, stretch_total, delays, files_raised = 0, 0, [], 0
for p in typing:
    ev = [e for e in events(p) if e["event"] == "keyboard_noise"]
    x, rate = mono(p)
    speech = label[p]["speech"]
    st = stretches(onsets(x, speech), speech) if rate == SR else []
    in_speech = [e["t"] for e in ev if any(a <= e["t"] <= b for a, b in speech)]
    files_raised += bool(ev)
    line = []
    for a, b, n in st:
        inside = [e for e in ev if a <= e["t"] <= b + 0.2]
        covered = any(0 <= a - e["t"] < 10 and e["since"] <= a for e in ev)
        if inside:
            found_total += 1
            delays.append(inside[0]["t"] - a)
            line.append(f"{a:.1f}-{b:.1f} s: {inside[0]['t'] - a:.2f} s")
        elif covered:
            found_total += 1
            line.append(f"{a:.1f}-{b:.1f} s: covered by the event before")
        else:
            line.append(f"{a:.1f}-{b:.1f} s: MISSED")
    stretch_total += len(st)
    print(f"  {os.path.basename(p)[:-4]:52} {len(ev):2d} events; " + "; ".join(line)
          + (f"; INSIDE SPEECH at {in_speech}" if in_speech else ""))
med = lambda v: sorted(v)[len(v) // 2] if v else float("nan")
print(f"  => raised on {files_raised}/{len(typing)} typing files; {found_total}/{stretch_total} typing stretches "
      f"found, delay median {med(delays):.2f} s, at most {max(delays, default=float('nan')):.2f} s")
for p in keyclicks:
    ev = [e for e in events(p) if e["event"] == "keyboard_noise"]
    print(f"  synthetic key clicks {os.path.basename(p)}: {len(ev)} events at {[e['t'] for e in ev]}")

# Not typing.
def category(path):
    if path.startswith(args.corpus):
        return "corpus: " + label[path]["scenario"]
    if os.sep + "speech" + os.sep in path:
        return "training: speech"
    base = os.path.basename(path)
    for c in ("music_vocals", "impacts_doors", "game_sfx", "ambience", "machinery", "music", "clicks"):
        if base.startswith(c):
            return ("more_noise: " if path.startswith(MORE_NOISE) else "training: ") + c
    return "other"


others = [p for p in corpus_files if p not in typing and p not in keyclicks]
if not args.no_training:
    others += sorted(glob.glob(os.path.join(args.training, "noise", "*.flac")))
    others += sorted(glob.glob(os.path.join(args.training, "speech", "*", "*.flac")))
    others += sorted(glob.glob(os.path.join(MORE_NOISE, "noise", "*.flac")))


def run_other(p):
    made = looped(p, args.loop) if (args.loop > 0 or not p.endswith(".wav")) else None
    path, seconds = made if made else (p, soundfile.info(p).duration)
    try:
        ev = [e for e in events(path) if e["event"] == "keyboard_noise"]
    finally:
        if made:
            os.unlink(path)
    return p, seconds, ev


hours, alerts, worst = defaultdict(float), defaultdict(int), []
with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
    for p, seconds, ev in pool.map(run_other, others):
        c = category(p)
        hours[c] += seconds / 3600
        alerts[c] += len(ev)
        if ev:
            worst.append((len(ev), os.path.basename(p), [e["t"] for e in ev][:5]))
print(f"\nNot typing: false keyboard_noise events{f', each file looped to {args.loop:g} min' if args.loop else ''}")
for group in ("corpus", "training", "more_noise"):
    cats = sorted(c for c in hours if c.startswith(group))
    if not cats:
        continue
    for c in cats:
        print(f"  {c:28} {hours[c] * 60:7.1f} min  {alerts[c]:3d} events  {alerts[c] / hours[c]:6.2f} an hour")
    not_clicks = [c for c in cats if not c.endswith("clicks")]
    h, a = sum(hours[c] for c in not_clicks), sum(alerts[c] for c in not_clicks)
    print(f"  {'= ' + group + ' (clicks apart)':28} {h * 60:7.1f} min  {a:3d} events  {a / h:6.2f} an hour")
if worst:
    print("files with events:")
    for n, name, t in sorted(worst, reverse=True)[: None if args.v else 12]:
        print(f"  {n:3d}  {name}  at {t}")
