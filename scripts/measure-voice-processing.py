#!/usr/bin/env python3
"""Voice-processing figures for MicCheck, on the public corpus through `miccheck process` and `analyze`.

Every clean and quiet corpus voice in turn is the far end (what the loudspeaker plays). Its echo
reaches the microphone through a synthetic path: a delay (default 40 ms), a gain (default -10 dB) and
three reflections within 15 ms, over a -70 dBFS noise floor. For each file:
  - echo return loss enhancement after the first second (echo energy over output energy);
  - double talk: the next voice talks over the echo; how much quieter it comes out;
  - false speech_started from the echo alone, after processing (analyze with --min-speech-level -50,
    --min-speech 0.1 and otherwise analyze's defaults, as listen --voice-processing runs) and,
    for comparison, without processing (analyze's defaults);
  - processing speed in x real time (reported by `process`, which times only the processing).

    swift build -c release && python3 scripts/measure-voice-processing.py [--delay-ms 40] [--gain-db -10]
"""
import argparse, glob, json, os, subprocess, sys, tempfile, wave
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
RATE = 16000


def read(path):
    with wave.open(path) as w:
        assert w.getsampwidth() == 2 and w.getframerate() == RATE, path
        x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64) / 32768
        return x.reshape(-1, w.getnchannels()).mean(axis=1)


def write(path, x):
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE)
        w.writeframes((np.clip(x, -1, 1) * 32767).round().astype(np.int16).tobytes())


def echo_of(far, delay_ms, gain_db):
    taps = [(0, 1.0), (3, -0.35), (7, 0.2), (15, -0.1)]
    norm = np.sqrt(sum(w * w for _, w in taps))
    out = np.zeros_like(far)
    for ms, w in taps:
        shift = int((delay_ms + ms) * RATE / 1000)
        if shift < len(far):
            out[shift:] += far[:len(far) - shift] * w / norm * 10 ** (gain_db / 20)
    return out


def db(x):
    return 10 * np.log10(max(np.mean(np.square(x)), 1e-20))


def starts(binary, path, extra):
    out = subprocess.run([binary, "analyze", "--format", "jsonl", *extra, path], capture_output=True, text=True,
                         check=True)
    return sum(1 for line in out.stdout.splitlines() if '"speech_started"' in line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "miccheck"))
    ap.add_argument("--delay-ms", type=float, default=40)
    ap.add_argument("--gain-db", type=float, default=-10)
    ap.add_argument("--aec-level", default="moderate", choices=["low", "moderate", "high"])
    ap.add_argument("--ns", default="moderate", choices=["low", "moderate", "high", "very-high"])
    args = ap.parse_args()
    voices = sorted(glob.glob(os.path.join(CORPUS, "clean_*.wav")) + glob.glob(os.path.join(CORPUS, "quiet_*.wav")))
    if not voices:
        sys.exit(f"no corpus voices in {CORPUS}")
    rng = np.random.default_rng(1)
    rows, seconds = [], 0.0
    fa_processed = fa_raw = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, path in enumerate(voices):
            far = read(path)
            talker = read(voices[(k + 1) % len(voices)])
            n = min(len(far), len(talker))
            far, talker = far[:n], talker[:n]
            echo = echo_of(far, args.delay_ms, args.gain_db)
            near = echo + rng.standard_normal(n) * 10 ** (-70 / 20)
            files = {name: os.path.join(tmp, name + ".wav") for name in ("far", "near", "dt", "out", "dtout")}
            write(files["far"], far); write(files["near"], near); write(files["dt"], near + talker)
            common = ["--far", files["far"], "--aec", "--aec-level", args.aec_level, "--ns", args.ns,
                      "--format", "json"]
            report = json.loads(subprocess.run([args.binary, "process", "--near", files["near"], "--out", files["out"],
                                                *common],
                                               capture_output=True, text=True, check=True).stdout)
            subprocess.run([args.binary, "process", "--near", files["dt"], "--out", files["dtout"], *common],
                           capture_output=True, text=True, check=True)
            out, dtout = read(files["out"]), read(files["dtout"])
            erle = db(echo[RATE:len(out)]) - db(out[RATE:])
            drop = db(talker[RATE:len(dtout)]) - db(dtout[RATE:])
            # As listen --voice-processing runs: SpeechEventDetector.Configuration.afterEchoCancellation.
            p = starts(args.binary, files["out"], ["--min-speech-level=-50", "--min-speech=0.1"])
            r = starts(args.binary, files["near"], [])
            fa_processed += p; fa_raw += r; seconds += n / RATE
            rows.append((os.path.basename(path), n / RATE, erle, drop, p, r, report["x_real_time"], report["erle_db"],
                         report["delay_ms"]))
    print(f"echo path: {args.delay_ms:g} ms, {args.gain_db:g} dB, reflections to 15 ms, floor -70 dBFS; "
          f"aec {args.aec_level} + ns {args.ns} + high-pass, 16 kHz")
    print(f"{'far-end voice':44} {'s':>5} {'ERLE dB':>8} {'DT drop':>8} {'FA vp':>6} {'FA raw':>6} {'x RT':>6} "
          f"{'AEC ERLE':>9} {'delay':>6}")
    for name, s, erle, drop, p, r, speed, aec_erle, delay in rows:
        print(f"{name:44} {s:5.1f} {erle:8.1f} {drop:8.2f} {p:6d} {r:6d} {speed:6.0f} "
              f"{aec_erle if aec_erle is not None else '-':>9} {delay if delay is not None else '-':>6}")
    hours = seconds / 3600
    print(f"\nERLE after 1 s: min {min(r[2] for r in rows):.1f} dB, median {np.median([r[2] for r in rows]):.1f} dB")
    print(f"double talk: the near-end voice drops by at most {max(r[3] for r in rows):.2f} dB "
          f"(median {np.median([r[3] for r in rows]):.2f})")
    print(f"false speech_started from echo alone: {fa_processed} with voice processing ({fa_processed / hours:.0f}/h), "
          f"{fa_raw} without ({fa_raw / hours:.0f}/h), over {seconds:.0f} s")
    print(f"processing: median {np.median([r[6] for r in rows]):.0f}x real time (one thread, release build)")


if __name__ == "__main__":
    main()
