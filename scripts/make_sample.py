#!/usr/bin/env python3
"""Builds the bundled sample: synthetic speech (espeak-ng), pauses with pink room tone, and typing
(synthetic key clicks). Writes Sources/MicCheckLive/Resources/sample.wav (a package resource of
MicCheckLive), or the WAV to --wav PATH. Reproducible: fixed seed, fixed voice settings.

usage: python3 scripts/make_sample.py [--wav PATH]     (needs espeak-ng and numpy)
"""
import argparse, io, os, subprocess, tempfile, wave
import numpy as np

SR = 16000
rng = np.random.default_rng(2026)


def speak(text, voice, speed, pitch):
    with tempfile.NamedTemporaryFile(suffix=".wav") as f:
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", f.name, text], check=True)
        with wave.open(f.name) as w:
            x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float64) / 32768
            rate = w.getframerate()
    # espeak-ng writes 22050 Hz: resample by linear interpolation of a band-limited signal (fine for a demo)
    t = np.arange(int(len(x) * SR / rate)) * rate / SR
    y = np.interp(t, np.arange(len(x)), x)
    nz = np.nonzero(np.abs(y) > 1e-3)[0]
    return y[nz[0]:nz[-1] + 1] if len(nz) else y


def pink(n):
    w = rng.standard_normal(n)
    f = np.fft.rfft(w)
    f[1:] /= np.sqrt(np.arange(1, len(f)))
    p = np.fft.irfft(f, n)
    return p / np.sqrt(np.mean(p ** 2))


def click(strength):
    n = int(0.03 * SR)
    env = np.exp(-np.arange(n) / (0.004 * SR))
    return strength * env * rng.standard_normal(n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wav")
    a = ap.parse_args()
    parts = [("", 0.8),
             ("Hello, can you hear me? I think my microphone is working now.", 1.2),
             ("TYPING", 0.6),
             ("Let's start the meeting in a minute.", 1.5)]
    sig = []
    for text, pause in parts:
        if text == "TYPING":
            seg = np.zeros(int(2.0 * SR))
            pos = 0
            while pos < len(seg) - 600:
                c = click(10 ** (rng.uniform(-32, -22) / 20))
                seg[pos:pos + len(c)] += c
                pos += int(rng.uniform(0.08, 0.22) * SR)
            sig.append(seg)
        elif text:
            s = speak(text, "en-us+m3", 165, 45)
            s *= 10 ** (-22 / 20) / np.sqrt(np.mean(s[np.abs(s) > 0.01] ** 2))
            sig.append(s)
        sig.append(np.zeros(int(pause * SR)))
    x = np.concatenate(sig)
    x += pink(len(x)) * 10 ** (-66 / 20)
    x = np.clip(x, -1, 1)
    pcm = (x * 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(SR); w.writeframes(pcm.tobytes())
    data = buf.getvalue()
    here = os.path.dirname(os.path.abspath(__file__))
    out = a.wav or os.path.join(here, "..", "Sources", "MicCheckLive", "Resources", "sample.wav")
    open(out, "wb").write(data)
    print(f"{len(x) / SR:.2f} s, {len(data)} bytes -> {out}")


if __name__ == "__main__":
    main()
