"""How a model hears one labelled voice over one noise, at several SNRs: a probe for where it fails.

The voice is a labelled file (a corpus .wav with its .json, or a training-pool .flac with its .json);
the noise is any audio file at 16 kHz, looped or cut to the voice's length and scaled against the
voice's active level (the corpus's own SNR rule). For each SNR (and the voice alone) it prints the mean
probability and the share of frames at >= 0.5 inside the labels (recall), and the share at >= 0.5
outside them, as `miccheck analyze` gives them. For diagnosis only: nothing here trains or tunes.

usage: python3 training/mix_probe.py VOICE NOISE [--snr 20 10 5 0] [--model M.json] [--binary B] [--checkout DIR]
e.g.   python3 training/mix_probe.py ../shared/corpus/clean_00_hedgewars-British.wav \\
           ../shared/corpus/noise_08_crowd_applause_ottd.wav
"""
import argparse, json, os, subprocess, sys, tempfile
import numpy as np
import soundfile as sf

from .. import cli
from ..config import BINARY, CHECKOUT_HELP, SR, find_checkout, in_checkout
from ..errors import DataError


def labelled(path):
    """The voice's samples and its speech segments (from the .json beside it)."""
    label = os.path.splitext(path)[0] + ".json"
    if not os.path.exists(label):
        raise DataError(f"{path}: no labels ({label} is missing)")
    return mono(path), json.load(open(label)).get("speech", [])


def mono(path):
    try:
        x, sr = sf.read(path, dtype="float64", always_2d=True)
    except RuntimeError as e:
        raise DataError(f"{path}: not readable audio ({e})") from e
    if sr != SR:
        raise DataError(f"{path}: {sr} Hz; the probe mixes 16 kHz files only")
    return x.mean(axis=1)


def mask(segments, n, rate):
    m = np.zeros(n, bool)
    for a, b in segments:
        m[int(a * rate):int(b * rate)] = True
    return m


def heard(binary, model, y, segments, tmp):
    """Mean probability and recall inside the labels, and the share of frames at >= 0.5 outside them."""
    wav = os.path.join(tmp, "mix.wav")
    sf.write(wav, np.clip(y, -1, 1), SR, subtype="PCM_16")
    out = subprocess.run([binary, "analyze", "--format", "jsonl", wav] + (["--model", model] if model else []),
                         capture_output=True, text=True, check=True).stdout
    p = np.array([json.loads(l)["prob"] for l in out.splitlines() if l.startswith('{"t"')])
    inside = mask(segments, len(p), 100)
    if not inside.any():
        raise DataError("the voice's labels hold no speech")
    return p[inside].mean(), np.mean(p[inside] >= 0.5), np.mean(p[~inside] >= 0.5) if (~inside).any() else 0.0


def run(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("voice"); ap.add_argument("noise")
    ap.add_argument("--snr", type=float, nargs="+", default=[20, 10, 5, 0])
    ap.add_argument("--model", help="a model file instead of the bundled one")
    ap.add_argument("--binary", help="the miccheck binary (default: the checkout's .build/release/miccheck)")
    ap.add_argument("--checkout", metavar="DIR", help=CHECKOUT_HELP)
    a = ap.parse_args(argv)
    binary = in_checkout(a.binary, "--binary", find_checkout(a.checkout), BINARY)
    x, segments = labelled(a.voice)
    noise = mono(a.noise)
    active = x[mask(segments, len(x), SR)]
    if len(active) == 0 or not np.any(noise):
        raise DataError("the voice has no labelled speech, or the noise is silent")
    level = np.sqrt(np.mean(active ** 2))
    bed = np.resize(noise, len(x))
    bed = bed / (np.sqrt(np.mean(bed ** 2)) + 1e-12)
    print(f"{'SNR':>6s}  mean p  recall  outside >= 0.5")
    with tempfile.TemporaryDirectory() as tmp:
        for snr in [None] + a.snr:
            y = x if snr is None else x + bed * level * 10 ** (-snr / 20)
            p, recall, outside = heard(binary, a.model, y, segments, tmp)
            print(f"{'alone' if snr is None else f'{snr:g} dB':>6s}  {p:6.2f}  {recall:6.2f}  {outside:8.2f}")



def main(argv=None):
    """The command's exit status (0, or 1 after a sentence on stderr saying what stopped it)."""
    return cli.main(run, argv)


if __name__ == "__main__":
    sys.exit(main())
