#!/usr/bin/env python3
"""Microphone-health figures on a labelled corpus (../shared/corpus by default): for every file, the
dead-microphone verdicts and the warnings `miccheck analyze --format jsonl` raises, then totals.

usage: swift build -c release --product miccheck && python3 scripts/measure-microphone-health.py [CORPUS_DIR] [-v]
"""
import glob, json, os, subprocess, sys

args = [a for a in sys.argv[1:] if a != "-v"]
verbose = "-v" in sys.argv[1:]
corpus = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus")
binary = os.path.join(os.path.dirname(__file__), "..", ".build", "release", "miccheck")
if not os.path.exists(os.path.join(corpus, "manifest.json")):
    sys.exit(f"measure-microphone-health: no corpus at {corpus} (its manifest.json is missing)")
if not os.access(binary, os.X_OK):
    sys.exit("measure-microphone-health: build first: swift build -c release --product miccheck")

files = (sorted(glob.glob(os.path.join(corpus, "*.wav")))
         + sorted(glob.glob(os.path.join(corpus, "other-formats", "*.wav"))))
dead_found, dead_latency, dead_total, live_false, live_total = 0, [], 0, [], 0
noisy_raised, noisy_in_speech, noisy_on_speech_files, noisy_latency = [], [], [], []
clipping, quiet_flagged, quiet_total, clean_flagged = [], 0, 0, []
for path in files:
    name = os.path.basename(path)
    label = json.load(open(path[:-4] + ".json"))
    out = subprocess.run([binary, "analyze", "--format", "jsonl", path], capture_output=True, text=True,
                         check=True).stdout
    events = [e for e in map(json.loads, out.splitlines())
              if "event" in e and not e["event"].startswith("speech_st") and e["event"] != "speech_ended"]
    scenario, dead = label["scenario"], label["dead_mic"]
    silent = [e["t"] for e in events if e["event"] == "microphone_silent"]
    if dead:
        dead_total += 1
        start = dead["from"] if isinstance(dead, dict) else 0.0
        hit = [t for t in silent if t >= start - 0.05]
        if hit and hit[0] - start <= 2:
            dead_found += 1
            dead_latency.append(hit[0] - start)
    else:
        live_total += 1
        if silent:
            live_false.append(name)
    noisy = [e for e in events if e["event"] == "noisy_microphone"]
    if noisy:
        noisy_raised.append(f"{name} ({noisy[0]['noise']}, {noisy[0]['level_db']} dBFS, {noisy[0]['t']} s)")
        if any(a <= e["t"] <= b for e in noisy for a, b in label["speech"]):
            noisy_in_speech.append(name)
        if scenario in ("clean", "quiet"):
            noisy_on_speech_files.append(name)
        if scenario == "noise_only":
            noisy_latency.append(noisy[0]["t"])
    if any(e["event"] == "clipping" for e in events):
        clipping.append(name)
    quiet = any(e["event"] == "speech_too_quiet" for e in events)
    if scenario == "quiet":
        quiet_total += 1
        quiet_flagged += quiet
    if scenario == "clean" and quiet:
        clean_flagged.append(name)
    if verbose:
        print(f"{name[:50]:50} {scenario:10} " + "; ".join(f"{e['event']}@{e['t']}" for e in events))

med = lambda v: sorted(v)[len(v) // 2] if v else float("nan")
print(f"dead microphone: {dead_found}/{dead_total} dead files found within 2 s (median {med(dead_latency):.2f} s, "
      f"at most {max(dead_latency, default=0):.2f} s); "
      f"{len(live_false)} false verdicts on {live_total} live files {live_false or ''}")
print(f"noisy microphone: raised on {len(noisy_raised)} files; on clean or quiet speech files: "
      f"{len(noisy_on_speech_files)} {noisy_on_speech_files or ''}; "
      f"inside a labelled speech stretch: {len(noisy_in_speech)} {noisy_in_speech or ''}; "
      f"noise-only files: median {med(noisy_latency):.2f} s to the warning")
print(f"clipping: raised on {len(clipping)} of {len(files)} files {clipping or ''}")
print(f"speech too quiet: {quiet_flagged}/{quiet_total} quiet files flagged; "
      f"clean files flagged: {len(clean_flagged)} {clean_flagged or ''}")
if verbose:
    print("noisy:", *noisy_raised, sep="\n  ")
