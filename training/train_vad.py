#!/usr/bin/env python3
"""Trains MicCheck's voice activity model and writes Sources/MicCheck/VoiceActivityModel.swift.

Material (never the evaluation corpus): ../shared/training (real voices and real noise: music,
ambience, machinery, impacts, game sounds, clicks) and speech synthesised here with espeak-ng.
Mixtures: speech at -45...-15 dBFS, alone over a faint floor or over a noise file at -5...25 dB SNR;
noise files alone at several levels; stretches of digital silence. Features come from the Swift
binary (`miccheck features`), so the model is trained on exactly what runs in MicCheck.

Validation holds out whole noise packages and whole voices (never other stretches of files that were
trained on), which is how unseen noise shows up.

usage: pip install -r training/requirements.txt && swift build -c release
       python3 training/train_vad.py [--shared ../shared] [--seed 7]
"""
import argparse, glob, json, os, subprocess, sys, tempfile, wave
import numpy as np
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SR = 16000
D = 28


def label_rule(x):
    """The corpus label rule: 10 ms frames above max(peak-35 dB, p10+10 dB), gaps < 200 ms merged, 30 ms pad."""
    n = len(x) // 160
    if n == 0:
        return []
    e = 10 * np.log10(np.mean(x[:n * 160].reshape(n, 160) ** 2, axis=1) + 1e-12)
    thr = max(e.max() - 35, np.percentile(e, 10) + 10)
    on = e > thr
    segs, i = [], 0
    while i < n:
        if on[i]:
            j = i
            while j < n and on[j]:
                j += 1
            segs.append([i * 0.01, j * 0.01]); i = j
        else:
            i += 1
    merged = []
    for a, b in segs:
        if merged and a - merged[-1][1] < 0.2:
            merged[-1][1] = b
        else:
            merged.append([a, b])
    return [[max(0, a - 0.03), b + 0.03] for a, b in merged]


def read(path):
    x, sr = sf.read(path, dtype="float64", always_2d=True)
    x = x.mean(axis=1)
    assert sr == SR, path
    return x


def espeak_set(rng, tmp, count):
    texts = ["Can you hear me now?", "I think you are on mute.", "Let me share my screen for a moment.",
             "Sorry, I was muted. Could you repeat the question?", "Good morning everyone, shall we start?",
             "The numbers for this quarter look much better than expected.",
             "Wait, your audio is cutting out.", "I'll send the notes after the call.",
             "Does anyone have anything else to add before we finish?", "Yes, that works for me on Thursday."]
    voices = ["en-us+m1", "en-us+f2", "en+m3", "en+f4", "en-gb-x-rp+m7", "en-us+klatt2", "de+f1", "fr+m2",
              "es+f3", "it+m4", "nl+f1", "pt+m2", "pl+f3", "sv+m1", "en-us+klatt4", "ru+m5"]
    out = []
    for k in range(count):
        parts, labels, t = [np.zeros(int(rng.uniform(0.3, 1.0) * SR))], [], None
        t = len(parts[0]) / SR
        for _ in range(rng.integers(2, 5)):
            v = voices[rng.integers(len(voices))]
            p = os.path.join(tmp, "e.wav")
            subprocess.run(["espeak-ng", "-v", v, "-s", str(rng.integers(120, 200)), "-p", str(rng.integers(20, 80)),
                            "-w", p, texts[rng.integers(len(texts))]], check=True, capture_output=True)
            with wave.open(p) as w:
                y = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float) / 32768
                r = w.getframerate()
            y = np.interp(np.arange(int(len(y) * SR / r)) * r / SR, np.arange(len(y)), y)
            nz = np.nonzero(np.abs(y) > 1e-3)[0]
            y = y[nz[0]:nz[-1] + 1]
            labels += [[a + t, b + t] for a, b in label_rule(y)]
            parts.append(y); t += len(y) / SR
            gap = np.zeros(int(rng.uniform(0.3, 2.5) * SR)); parts.append(gap); t += len(gap) / SR
        out.append((np.concatenate(parts), labels, f"espeak{k}"))
    return out


def pink(rng, n):
    f = np.fft.rfft(rng.standard_normal(n))
    f[1:] /= np.sqrt(np.arange(1, len(f)))
    p = np.fft.irfft(f, n)
    return p / (np.sqrt(np.mean(p ** 2)) + 1e-12)


def active_rms(x, labels):
    m = np.zeros(len(x), bool)
    for a, b in labels:
        m[int(a * SR):int(b * SR)] = True
    return np.sqrt(np.mean(x[m] ** 2)) if m.any() else np.sqrt(np.mean(x ** 2))


def reverb(rng, x):
    rt60 = rng.uniform(0.2, 0.7)
    n = int(rt60 * SR)
    ir = rng.standard_normal(n) * np.exp(-6.9 * np.arange(n) / n)
    ir[0] = 1.0
    y = np.convolve(x, ir)[:len(x)]
    return y * np.sqrt(np.mean(x ** 2) / (np.mean(y ** 2) + 1e-12))


def fit_loop(rng, noise, n):
    if len(noise) >= n:
        s = rng.integers(0, len(noise) - n + 1)
        return noise[s:s + n]
    return np.tile(noise, n // len(noise) + 1)[:n]


def make_mixtures(shared, rng, tmp):
    speech, noise = [], []
    for j in sorted(glob.glob(os.path.join(shared, "training", "speech", "*", "*.json"))):
        lab = json.load(open(j))
        speech.append((read(j[:-5] + ".flac"), lab["speech"], os.path.basename(os.path.dirname(j))))
    for j in sorted(glob.glob(os.path.join(shared, "training", "noise", "*.json"))):
        lab = json.load(open(j))
        pkg = lab.get("source_pkg", "?").split()[0]
        noise.append((read(j[:-5] + ".flac"), lab["category"], pkg))
    speech += espeak_set(rng, tmp, 40)
    mixes = []   # (signal, labels, group-for-validation)
    for x, labels, voice in speech:
        for variant in range(3):
            target = rng.uniform(-45, -15)
            y = x * 10 ** (target / 20) / (active_rms(x, labels) + 1e-12)
            if rng.random() < 0.2:
                y = reverb(rng, y)
            floor = pink(rng, len(y)) * 10 ** (rng.uniform(-85, -60) / 20)
            if variant == 0:
                y = y + (floor if rng.random() < 0.7 else 0)
                group = voice
            else:
                nz, cat, pkg = noise[rng.integers(len(noise))]
                snr = rng.uniform(0, 25) if variant == 1 else rng.uniform(-5, 10)
                nn = fit_loop(rng, nz, len(y))
                nn = nn * active_rms(y, labels) / (np.sqrt(np.mean(nn ** 2)) + 1e-12) * 10 ** (-snr / 20)
                y = y + nn + floor
                group = voice + "|" + pkg
            mixes.append((y, labels, group))
    for nz, cat, pkg in noise:
        for variant in range(2):
            gain = rng.uniform(-45, -12) - 20 * np.log10(np.sqrt(np.mean(nz ** 2)) + 1e-12)
            y = nz * 10 ** (gain / 20)
            if rng.random() < 0.5:
                y = y + pink(rng, len(y)) * 10 ** (rng.uniform(-85, -65) / 20)
            mixes.append((y, [], pkg))
    # steady synthetic noises and silence
    for k in range(20):
        n = int(rng.uniform(8, 20) * SR)
        kind = k % 4
        if kind == 0:
            y = rng.standard_normal(n)
        elif kind == 1:
            y = pink(rng, n)
        elif kind == 2:
            t = np.arange(n) / SR
            f0 = rng.choice([50, 60, 100, 120])
            y = sum(np.sin(2 * np.pi * f0 * h * t + rng.uniform(0, 6)) / h for h in range(1, 6))
        else:
            y = np.zeros(n)
        y = y / (np.sqrt(np.mean(y ** 2)) + 1e-12) * 10 ** (rng.uniform(-70, -20) / 20) if kind != 3 else y
        mixes.append((y, [], f"synthetic{kind}"))
    return mixes


def features(binary, y, tmp):
    p = os.path.join(tmp, "m.wav"); q = os.path.join(tmp, "m.f32")
    pcm = (np.clip(y, -1, 1) * 32767).astype("<i2")
    with wave.open(p, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(SR); w.writeframes(pcm.tobytes())
    subprocess.run([binary, "features", p, "--output", q], check=True)
    return np.fromfile(q, "<f4").reshape(-1, D)


def frame_labels(labels, n):
    c = (np.arange(n) + 0.5) * 0.01
    y = np.zeros(n, bool)
    for a, b in labels:
        y |= (c >= a) & (c < b)
    return y


def write_swift(path, mean, scale, layers):
    def arr(v):
        return "[" + ", ".join(f"{float(x):.7g}" for x in np.ravel(v)) + "]"
    with open(path, "w") as f:
        f.write("// Generated by training/train_vad.py. Do not edit: run the script to retrain.\n")
        f.write("public enum VoiceActivityModel {\n")
        f.write("    /// The trained network: standardisation, then the layers.\n")
        f.write("    public static var network: DenseNetwork {\n")
        f.write(f"        DenseNetwork(\n            inputMean: {arr(mean)},\n            inputScale: {arr(scale)},\n            layers: [\n")
        for W, b in layers:
            f.write(f"                .init(inputs: {W.shape[0]}, outputs: {W.shape[1]},\n")
            f.write(f"                      weights: {arr(W.T)},\n                      bias: {arr(b)}),\n")
        f.write("            ])\n    }\n}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "miccheck"))
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--hidden", default="32,16")
    a = ap.parse_args()
    from sklearn.neural_network import MLPClassifier
    rng = np.random.default_rng(a.seed)
    with tempfile.TemporaryDirectory() as tmp:
        mixes = make_mixtures(a.shared, rng, tmp)
        X, Y, G = [], [], []
        for k, (y, labels, group) in enumerate(mixes):
            f = features(a.binary, y, tmp)
            X.append(f); Y.append(frame_labels(labels, len(f))); G += [group] * len(f)
            print(f"\rfeatures {k + 1}/{len(mixes)}", end="", file=sys.stderr)
        print(file=sys.stderr)
    X = np.concatenate(X); Y = np.concatenate(Y); G = np.array(G)
    # Hold out whole groups (voices / noise packages) for validation.
    groups = sorted(set(G))
    held = set(rng.choice(groups, size=max(1, len(groups) // 8), replace=False))
    val = np.array([g in held or any(h in g.split("|") for h in held) for g in G])
    mean = X[~val].mean(0); scale = 1 / (X[~val].std(0) + 1e-6)
    Xs = (X - mean) * scale
    print(f"frames: {len(X)} train {int((~val).sum())} val {int(val.sum())}, speech share {Y.mean():.2f}", file=sys.stderr)
    hidden = tuple(int(h) for h in a.hidden.split(","))
    clf = MLPClassifier(hidden_layer_sizes=hidden, activation="tanh", alpha=1e-4, batch_size=1024,
                        learning_rate_init=2e-3, max_iter=40, random_state=a.seed, verbose=False)
    clf.fit(Xs[~val], Y[~val])
    from sklearn.metrics import roc_auc_score, f1_score
    pv = clf.predict_proba(Xs[val])[:, 1]
    print(f"validation (held-out voices and noise packages): AUC {roc_auc_score(Y[val], pv):.4f} "
          f"F1@0.5 {f1_score(Y[val], pv >= 0.5):.3f}", file=sys.stderr)
    noise_val = val & (Y == 0)
    print(f"held-out non-speech frames above 0.6: {100 * np.mean(clf.predict_proba(Xs[noise_val])[:, 1] >= 0.6):.2f}%",
          file=sys.stderr)
    layers = list(zip(clf.coefs_, clf.intercepts_))
    out = os.path.join(ROOT, "Sources", "MicCheck", "VoiceActivityModel.swift")
    write_swift(out, mean, scale, layers)
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
