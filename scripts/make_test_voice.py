#!/usr/bin/env python3
"""Builds the tests' voice: Sources/MicCheckTesting/Resources/voice.wav, two espeak-ng voices (a man's, a
woman's) saying one sentence each, 150 ms apart, 16 kHz 16-bit mono, the active speech at -24 dBFS RMS
and no room tone. Tests scale and loop it (`Signals.voice`). Reproducible: fixed texts and voice settings.

usage: python3 scripts/make_test_voice.py      (needs espeak-ng and numpy)
"""
import os, wave
import numpy as np
from make_sample import SR, speak

PHRASES = [("Can you hear me now? I think the microphone works.", "en-us+m3", 160, 45),
           ("Good morning, everyone. Let us start the meeting.", "en+f4", 170, 60)]


def main():
    parts = []
    for text, voice, speed, pitch in PHRASES:
        parts += [speak(text, voice, speed, pitch), np.zeros(int(0.15 * SR))]
    x = np.concatenate(parts[:-1])
    x *= 10 ** (-24 / 20) / np.sqrt(np.mean(x[np.abs(x) > 0.01] ** 2))
    pcm = (np.clip(x, -1, 1) * 32767).astype("<i2")
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "MicCheckTesting", "Resources",
                       "voice.wav")
    with wave.open(out, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(SR); w.writeframes(pcm.tobytes())
    print(f"{len(x) / SR:.2f} s -> {os.path.normpath(out)}")


if __name__ == "__main__":
    main()
