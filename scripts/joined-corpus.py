#!/usr/bin/env python3
"""Writes SECONDS of the public corpus's 16 kHz, mono, 16-bit files, joined in name order (from the start
again if the corpus is shorter), as one WAV file: the benchmarks' default input.
usage: python3 scripts/joined-corpus.py SECONDS OUT.wav [CORPUS_DIR]   (default: ../shared/corpus)"""
import glob, os, sys, wave

if len(sys.argv) not in (3, 4):
    sys.exit(__doc__)
seconds, out = float(sys.argv[1]), sys.argv[2]
corpus = sys.argv[3] if len(sys.argv) == 4 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                              "shared", "corpus")
want = int(seconds * 16000) * 2
data = b""
files = sorted(glob.glob(os.path.join(corpus, "*.wav")))
while len(data) < want:
    before = len(data)
    for f in files:
        with wave.open(f) as w:
            if w.getframerate() == 16000 and w.getnchannels() == 1 and w.getsampwidth() == 2:
                data += w.readframes(w.getnframes())
        if len(data) >= want:
            break
    if len(data) == before:
        sys.exit(f"joined-corpus: no 16 kHz mono 16-bit WAV files in {corpus}")
with wave.open(out, "wb") as w:
    w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000); w.writeframes(data[:want])
