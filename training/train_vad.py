#!/usr/bin/env python3
"""Trains MicCheck's voice activity model and writes Sources/MicCheck/Resources/VoiceActivityModel.json.

Material (never other recorded audio, and by default never the evaluation corpus; --corpus-voices, off,
would add its clean and quiet voices): ../shared/training (real voices
and real noise: music, music with singing, ambience, machinery, impacts, game sounds, clicks) and audio
synthesised here (espeak-ng speech in many voices and languages, and with --flite flite's; white, pink,
brown noise, hum, fans, breathing, click trains). Mixtures: speech at -55...-15 dBFS over a faint floor or a noise file at
-5...30 dB SNR, with random colouring, speed and reverb; every noise file alone at several levels and
colourings, impacts up to -1 dBFS peak. Features come from the Swift binary (`miccheck features`),
so the model is trained on exactly what runs in MicCheck.

Validation holds out whole noise packages and whole voices (never other stretches of files that were
trained on), which is how unseen noise shows up.

The model: features standardised, a dense tanh layer, one GRU, a sigmoid output (see
Guides/VoiceActivityDetection.md). Targets are the labels blended with Silero VAD's per-frame
probability (--distill 0.5; Silero runs here only, never in MicCheck, and hears each speech mixture
brought to where its voice is at -26 dBFS: --teacher-hears level), and the output after frame n is
trained on frame n - 3 (--lookahead 3: the model hears 30 ms past the frame it decides). A third of the
voices get an effect (--voice-effects 0.3: saturation, ring modulation, a pitch shift, a tremolo).

usage: pip install -r training/requirements.txt && pip install --no-deps silero-vad==6.2.3
       swift build -c release --product miccheck
       python3 training/train_vad.py [--shared ../shared] [--seed 8] [--split-seed 7] [--epochs 30]
       (with the defaults this is run Y8; the bundled model is run Y8 fine-tuned:
        python3 training/train_vad.py --out training/work/Y8.json
        python3 training/train_vad.py --init training/work/Y8.json --lr 1e-3 --epochs 8 --formants 2 --floor-shrink 0.5
       --seed 9 --teacher-hears mix is the one before run Y8, --seed 7 --teacher-hears mix --features 47
       the one before that)
"""
import argparse, glob, json, os, shutil, subprocess, sys, tempfile, threading, wave
from concurrent.futures import ThreadPoolExecutor
import numpy as np
import soundfile as sf
from scipy import signal as sps

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SR = 16000
FEATURES = 50   # columns `miccheck features` writes (VoiceFeatureExtractor.count)
CORE_FEATURES = 47   # before the articulation features (VoiceFeatureExtractor.coreCount)
D = FEATURES    # of which the model reads the first D (--features)
TEACHER_DBFS = -26   # the voice's level in what Silero hears with --teacher-hears clean or level
QUIET_DBFS = (-55, -38)   # the voice's level (active RMS) in quiet mixtures (--quiet-dbfs)
# Levels over the adaptive noise floor (mean, speech-band and max SNR; band pairs; short and long SNR):
# what --floor-shrink scales.
FLOOR_FEATURES = [1, 2, 3, *range(10, 18), 23, 24]
# What --group-dropout hides, a group at a time: level; levels over the floor; harmonicity and pitch;
# spectral shape; level context and modulation; how fast the shape moves; articulation.
FEATURE_GROUPS = [[0], FLOOR_FEATURES, [4, 5, 18, 19, 20, 21], [6, 7, 8, 9, 25, *range(28, 44)], [22, 26, 27],
                  [44, 45, 46], [47, 48, 49]]
# --aux-snr: the bands (in 100 Hz bins of a 10 ms frame) whose voice-over-the-rest the auxiliary output learns.
AUX_BANDS = [(0, 10), (10, 30), (30, 81)]   # below 1 kHz, 1-3 kHz, above 3 kHz
CROWD_DRAWS = 10   # --babble: draws of a crowd at most, until Silero hears no one speak in it

TEXTS = ["Can you hear me now?", "I think you are on mute.", "Let me share my screen for a moment.",
         "Sorry, I was muted. Could you repeat the question?", "Good morning everyone, shall we start?",
         "The numbers for this quarter look much better than expected.", "Wait, your audio is cutting out.",
         "I'll send the notes after the call.", "Does anyone have anything else to add before we finish?",
         "Yes, that works for me on Thursday.", "Hello? Hello, is anybody there?", "Okay.", "Mhm, right, exactly.",
         "Could everyone please introduce themselves briefly?", "I have a hard stop at three, sorry.",
         "Let's take that offline.", "Next slide, please.", "Twenty-five, thirty, forty-two, one hundred.",
         "My internet is really slow today.", "No, no, go ahead.", "What do you think about the new design?"]
# Single letters, syllables and one-word answers: short utterances, whose onset is all there is.
SHORT = ["A", "B", "E", "K", "M", "O", "S", "T", "ka", "to", "mi", "pa", "lu", "ne", "da", "shi", "Yes.", "No.",
         "Hi!", "Okay.", "Hmm.", "Right.", "What?", "So.", "Thanks.", "Sure."]
VOICES = ["en-us", "en-gb", "en-gb-scotland", "en-029", "de", "fr-fr", "es", "es-419", "it", "nl", "pt", "pt-br",
          "pl", "sv", "ru", "cs", "da", "fi", "el", "hu", "ro", "tr", "hi", "id", "vi", "cmn", "ja", "ko", "ar",
          "he", "uk", "sk", "hr", "sw", "ta", "bn", "fa", "ca", "eu", "cy"]
VARIANTS = ["", "+m1", "+m2", "+m3", "+m4", "+m5", "+m7", "+f1", "+f2", "+f3", "+f4", "+f5", "+klatt", "+klatt2",
            "+klatt4", "+croak", "+whisper"]


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


def phrase_set(rng, few, many, say):
    """A lead-in of digital silence, then `few`...`many - 1` phrases (each the 16 kHz audio `say()`
    returns), trimmed, each at +-3 dB and followed by a pause of digital silence: the signal and its
    labels by the corpus rule."""
    parts, labels = [np.zeros(int(rng.uniform(0.3, 1.5) * SR))], []
    t = len(parts[0]) / SR
    for _ in range(rng.integers(few, many)):
        y = say()
        nz = np.nonzero(np.abs(y) > 1e-3)[0]
        if len(nz) == 0:
            continue
        y = y[nz[0]:nz[-1] + 1] * 10 ** (rng.uniform(-3, 3) / 20)
        labels += [[a + t, b + t] for a, b in label_rule(y)]
        parts.append(y); t += len(y) / SR
        gap = np.zeros(int(rng.uniform(0.2, 3.0) * SR)); parts.append(gap); t += len(gap) / SR
    return np.concatenate(parts), labels


def espeak_set(rng, tmp, count, short=False):
    """Phrases by espeak-ng in many languages and voices, joined by pauses of digital silence; with
    `short`, sets of 4-9 single letters, syllables or one-word answers."""
    out = []
    texts = SHORT if short else TEXTS
    for k in range(count):
        lang = VOICES[k % len(VOICES)]

        def say():
            v = lang + VARIANTS[rng.integers(len(VARIANTS))]
            p = os.path.join(tmp, f"e{k}.wav")
            subprocess.run(["espeak-ng", "-v", v, "-s", str(rng.integers(110, 220)), "-p", str(rng.integers(15, 85)),
                            "-w", p, texts[rng.integers(len(texts))]], check=True, capture_output=True)
            with wave.open(p) as w:
                y = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float) / 32768
                r = w.getframerate()
            return np.interp(np.arange(int(len(y) * SR / r)) * r / SR, np.arange(len(y)), y)
        x, labels = phrase_set(rng, 4, 10, say) if short else phrase_set(rng, 2, 6, say)
        out.append((x, labels, f"espeak-{'short-' if short else ''}{lang}"))
    return out


FLITE_VOICES = ["slt", "awb", "kal16", "rms"]   # flite's English voices (rms keeps its own pitch)


def flite_set(rng, tmp, count):
    """Phrases by flite (another synthesiser than espeak-ng: statistical-parametric and diphone voices,
    with the pitch, its swing and the pace drawn for each phrase: f0 90...320 Hz, a spread of 5...100 Hz,
    0.75...1.6 times as slow), joined by pauses of digital silence, labelled by the corpus rule."""
    out = []
    for k in range(count):
        voice = FLITE_VOICES[k % len(FLITE_VOICES)]

        def say():
            p = os.path.join(tmp, f"f{k}.wav")
            subprocess.run(["flite", "-voice", voice, "--setf", f"int_f0_target_mean={rng.uniform(90, 320):.0f}",
                            "--setf", f"int_f0_target_stddev={rng.uniform(5, 100):.0f}",
                            "--setf", f"duration_stretch={rng.uniform(0.75, 1.6):.2f}",
                            "-t", TEXTS[rng.integers(len(TEXTS))], "-o", p], check=True, capture_output=True)
            return read(p)
        x, labels = phrase_set(rng, 2, 6, say)
        out.append((x, labels, f"flite-{voice}"))
    return out


def flite_mixtures(shared, rng, tmp, count, effects):
    """`count` flite phrase sets (`flite_set`), each made as the four main mixtures (clean, in noise at
    5...30 and -5...12 dB SNR, quiet): voices that are not the pool's read speech nor espeak-ng's."""
    noise = pool_noises(shared) + synthetic_noises(rng)
    return four_mixtures(rng, flite_set(rng, tmp, count), noise, tmp, effects)


def coloured(rng, n, slope):
    """Noise with power falling as f^-slope (0 white, 1 pink, 2 brown), unit RMS."""
    m = 1 << int(np.ceil(np.log2(max(n, 2))))   # a power of two: odd lengths make the FFT crawl
    f = np.fft.rfft(rng.standard_normal(m))
    f[1:] /= np.arange(1, len(f)) ** (slope / 2)
    f[0] = 0
    p = np.fft.irfft(f, m)[:n]
    return p / (np.sqrt(np.mean(p ** 2)) + 1e-12)


def synthetic_noise(rng, n, kind):
    t = np.arange(n) / SR
    if kind == "white":
        return rng.standard_normal(n)
    if kind == "pink":
        return coloured(rng, n, 1)
    if kind == "brown":
        return coloured(rng, n, 2)
    if kind == "hum":
        f0 = rng.choice([50, 60, 100, 120]) * rng.uniform(0.98, 1.02)
        return sum(np.sin(2 * np.pi * f0 * h * t + rng.uniform(0, 6)) * rng.uniform(0.1, 1) / h for h in range(1, 9))
    if kind == "fan":
        base = coloured(rng, n, rng.uniform(1, 2)) * (1 + 0.2 * np.sin(2 * np.pi * rng.uniform(0.1, 1) * t))
        tone = np.sin(2 * np.pi * rng.uniform(90, 400) * t) * rng.uniform(0.05, 0.5)
        return base + tone
    if kind == "breathing":
        env = np.maximum(0, np.sin(2 * np.pi * t / rng.uniform(2.5, 5))) ** 2
        b, a = sps.butter(2, [rng.uniform(300, 800) / (SR / 2), rng.uniform(1500, 4000) / (SR / 2)], "band")
        return sps.lfilter(b, a, rng.standard_normal(n)) * env
    if kind == "clicks":
        y = np.zeros(n)
        pos = 0
        while pos < n - 400:
            pos += int(rng.exponential(rng.uniform(0.08, 0.4)) * SR) + 160
            if pos >= n - 400:
                break
            L = int(rng.integers(40, 400))
            click = rng.standard_normal(L)
            y[pos:pos + L] += click * np.exp(-np.arange(L) / (L / 4)) * rng.uniform(0.3, 1)
        return y
    if kind == "silence":
        return np.zeros(n)
    raise ValueError(kind)


SYNTHETIC = ["white", "pink", "brown", "hum", "fan", "breathing", "clicks", "silence"]


def texture(rng, n):
    """Applause, rain, crackling fire, gravel: many short band-passed noise bursts at random times (8 to
    400 a second, 2-30 ms each, log-normal loudness), swelling in and dying away; unit RMS. Broadband
    and busy, so that it masks speech more than any steady noise of its level does."""
    y = np.zeros(n + SR)
    rate = np.exp(rng.uniform(np.log(8), np.log(400)))
    longest = rng.uniform(0.004, 0.03)
    centre = rng.uniform(500, 4000)
    t = rng.exponential(1 / rate)
    while t * SR < n:
        L = max(16, int(rng.uniform(0.002, longest) * SR))
        burst = rng.standard_normal(L) * np.exp(-np.arange(L) / (L / rng.uniform(3, 6)))
        f = min(6000, centre * np.exp(rng.normal(0, 0.4))); q = rng.uniform(0.4, 1.5)
        b, a = sps.butter(2, [max(60, f / (1 + q)) / (SR / 2), min(7800, f * (1 + q)) / (SR / 2)], "band")
        s = int(t * SR)
        y[s:s + L] += sps.lfilter(b, a, burst) * np.exp(rng.normal(0, 0.6))
        t += rng.exponential(1 / rate)
    y = y[:n]
    tt = np.arange(n) / SR
    env = np.clip(np.minimum(tt / rng.uniform(0.05, 1.5), (n / SR - tt) / rng.uniform(0.05, 2)), 0, 1)
    y = y * env
    return y / rms(y)


def rms(x):
    return np.sqrt(np.mean(x ** 2)) + 1e-12


def active_rms(x, labels):
    m = np.zeros(len(x), bool)
    for a, b in labels:
        m[int(a * SR):int(b * SR)] = True
    return rms(x[m]) if m.any() else rms(x)


def reverb(rng, x):
    rt60 = rng.uniform(0.2, 0.8)
    n = int(rt60 * SR)
    ir = rng.standard_normal(n) * np.exp(-6.9 * np.arange(n) / n)
    ir[:int(rng.uniform(0, 0.01) * SR)] = 0
    ir[0] = rng.uniform(0.3, 1.5)
    y = sps.fftconvolve(x, ir)[:len(x)]
    return y * rms(x) / rms(y)


def colour(rng, x):
    """A random microphone/room colouring: a low cut and a high shelf or band limit."""
    if rng.random() < 0.3:
        return x
    b, a = sps.butter(1, rng.uniform(60, 300) / (SR / 2), "high")
    y = sps.lfilter(b, a, x)
    if rng.random() < 0.5:
        b, a = sps.butter(2, rng.uniform(3000, 7500) / (SR / 2), "low")
        y = sps.lfilter(b, a, y)
    return y


def voice_effect(rng, x, tmp):
    """A voice as games, phones and excited people make it: driven into saturation, ring-modulated
    (robotic), pitch-shifted without changing its timing (sox), or with a tremolo. Labels still hold."""
    kind = rng.integers(4)
    peak = np.max(np.abs(x)) + 1e-12
    if kind == 0:
        drive = rng.uniform(3, 20)
        return np.tanh(drive * x / peak) * peak
    if kind == 1:
        t = np.arange(len(x)) / SR
        mix = rng.uniform(0.4, 1.0)
        return x * ((1 - mix) + mix * np.sin(2 * np.pi * rng.uniform(30, 150) * t))
    if kind == 2:
        name = f"fx{rng.integers(1 << 30)}"
        return pitch_shifted(x, rng.choice([-1, 1]) * rng.uniform(250, 700), tmp, name)
    t = np.arange(len(x)) / SR
    return x * (1 - rng.uniform(0.3, 0.8) * (0.5 + 0.5 * np.sin(2 * np.pi * rng.uniform(4, 12) * t)))


def pitch_shifted(x, cents, tmp, name):
    """`x` shifted by `cents` without changing its timing (sox `pitch`), at its own peak level."""
    peak = np.max(np.abs(x)) + 1e-12
    p = os.path.join(tmp, name)
    sf.write(p + "a.wav", (x / peak * 0.5).astype(np.float32), SR, subtype="FLOAT")
    subprocess.run(["sox", p + "a.wav", p + "b.wav", "pitch", str(int(cents))], check=True, capture_output=True)
    y, _ = sf.read(p + "b.wav", dtype="float64")
    os.remove(p + "a.wav"); os.remove(p + "b.wav")
    y = np.concatenate([y, np.zeros(max(0, len(x) - len(y)))])[:len(x)]
    return y * peak / 0.5


def formant_shifted(x, ratio):
    """`x` with its spectral envelope (formants: the length of the vocal tract) moved by `ratio` along the
    frequency axis, its pitch, timing and harmonics kept: the envelope is the cepstrum's first 30
    quefrency bins (below 2 ms; a pitch period at 500 Hz is 2 ms) of each 32 ms frame."""
    n = len(x)
    _, _, Z = sps.stft(x, SR, nperseg=512, noverlap=384)
    ceps = np.fft.irfft(np.log(np.abs(Z) + 1e-9), axis=0)
    ceps[30:-29] = 0
    env = np.fft.rfft(ceps, axis=0).real
    bins = Z.shape[0]
    src = np.clip(np.arange(bins) / ratio, 0, bins - 1)
    lo = np.floor(src).astype(int); hi = np.minimum(lo + 1, bins - 1); frac = (src - lo)[:, None]
    moved = env[lo] * (1 - frac) + env[hi] * frac
    _, y = sps.istft(Z * np.exp(moved - env), SR, nperseg=512, noverlap=384)
    return np.concatenate([y, np.zeros(max(0, n - len(y)))])[:n]


def fit_loop(rng, noise, n):
    if len(noise) >= n:
        s = rng.integers(0, len(noise) - n + 1)
        return noise[s:s + n]
    reps = np.tile(noise, n // len(noise) + 1)
    s = rng.integers(0, len(noise))
    return np.concatenate([reps, noise])[s:s + n]


def stretched(x, f):
    """`x` played `f` times as fast (linear interpolation)."""
    return np.interp(np.arange(int(len(x) / f)) * f, np.arange(len(x)), x)


def speed(rng, x, labels):
    f = rng.uniform(0.88, 1.12)
    return stretched(x, f), [[a / f, b / f] for a, b in labels]


def pool_voices(shared):
    """The training pool's real voices: (signal, labels, voice folder) for every speech file."""
    voices = []
    for j in sorted(glob.glob(os.path.join(shared, "training", "speech", "*", "*.json"))):
        voices.append((read(j[:-5] + ".flac"), json.load(open(j))["speech"], os.path.basename(os.path.dirname(j))))
    return voices


def pool_noises(shared):
    """The training pool's real noise: (signal, category, package) for every noise file."""
    noise = []
    for j in sorted(glob.glob(os.path.join(shared, "training", "noise", "*.json"))):
        lab = json.load(open(j))
        noise.append((read(j[:-5] + ".flac"), lab["category"], lab.get("source_pkg", "?").split()[0]))
    return noise


def synthetic_noises(rng):
    """Three of each synthetic noise (white, pink, brown, hum, fan, breathing, clicks, silence), 15-40 s."""
    return [(synthetic_noise(rng, int(rng.uniform(15, 40) * SR), kind), kind, f"synthetic-{kind}") for kind in SYNTHETIC * 3]


def teacher_gain(level):
    """The gain that brings a voice at `level` dBFS (active RMS) to TEACHER_DBFS: what --teacher-hears
    level applies to a whole mixture before Silero judges it."""
    return 10 ** ((TEACHER_DBFS - level) / 20)


def voice_mixture(rng, x, labels, voice, variant, noise, tmp, effects):
    """One mixture of the voice `x`: variant 0 clean over a faint floor, 1 over one of `noise` at
    5...30 dB SNR, 2 at -5...12 dB, 3 quiet (-55...-38 dBFS, half with reverb); random speed, colouring,
    reverb and (an `effects` share of those not quiet) a voice effect. Returns the signal, its labels,
    its validation group (`voice`, and "|" and the noise's package for 1 and 2), the voice alone at
    -26 dBFS (what the teacher hears with --teacher-hears clean) and the gain that brings the voice to
    -26 dBFS (with --teacher-hears level)."""
    y, lab = (speed(rng, x, labels) if rng.random() < 0.3 else (x, labels))
    quiet = variant == 3
    target = rng.uniform(*QUIET_DBFS) if quiet else rng.uniform(-42, -14)
    if effects > 0 and not quiet and rng.random() < effects:
        y = voice_effect(rng, y, tmp)
    y = colour(rng, y)
    if rng.random() < (0.5 if quiet else 0.2):
        y = reverb(rng, y)
    clean = y * 10 ** (TEACHER_DBFS / 20) / active_rms(y, lab)
    y = y * 10 ** (target / 20) / active_rms(y, lab)
    gain = teacher_gain(target)
    floor = coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
    if variant in (0, 3):
        return y + (floor if rng.random() < 0.8 else 0), lab, voice, clean, gain
    nz, _, pkg = noise[rng.integers(len(noise))]
    snr = rng.uniform(5, 30) if variant == 1 else rng.uniform(-5, 12)
    nn = colour(rng, fit_loop(rng, nz, len(y)))
    nn = nn * active_rms(y, lab) / rms(nn) * 10 ** (-snr / 20)
    return y + nn + floor, lab, voice + "|" + pkg, clean, gain


def four_mixtures(rng, speech, noise, tmp, effects):
    """Each (signal, labels, voice) of `speech` as the four main mixtures, `voice_mixture`'s variants in
    turn: clean, in noise at 5...30 and at -5...12 dB SNR, quiet."""
    return [voice_mixture(rng, x, labels, voice, variant, noise, tmp, effects)
            for x, labels, voice in speech for variant in range(4)]


def make_mixtures(shared, rng, tmp, espeak_count, noise_variants, effects=0, short_count=0):
    speech, noise = pool_voices(shared), pool_noises(shared)
    speech += espeak_set(rng, tmp, espeak_count)
    if short_count > 0:
        speech += espeak_set(rng, tmp, short_count, short=True)
    print(f"{len(speech)} speech files, {len(noise)} noise files", file=sys.stderr)
    noise += synthetic_noises(rng)
    # (signal, labels, group for validation, the voice alone at -26 dBFS, the gain that brings the voice
    # to -26 dBFS; None for noise alone)
    mixes = four_mixtures(rng, speech, noise, tmp, effects)
    for nz, cat, pkg in noise:
        for variant in range(noise_variants):
            y = colour(rng, nz)
            if variant >= 3:
                # Played faster or slower: music in another key and tempo, other animals, other machines.
                y = stretched(y, rng.uniform(0.8, 1.25))
            if cat in ("impacts_doors", "clicks", "game_sfx") and variant % 3 == 2:
                y = y * 10 ** (rng.uniform(-12, -1) / 20) / (np.max(np.abs(y)) + 1e-12)
            else:
                y = y * 10 ** (rng.uniform(-55, -12) / 20) / rms(y)
            if rng.random() < 0.6:
                y = y + coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
            if rng.random() < 0.3 and cat not in ("silence",):
                other, _, opkg = noise[rng.integers(len(noise))]
                y = y + colour(rng, fit_loop(rng, other, len(y))) * rms(y) / rms(other) * 10 ** (rng.uniform(-20, 0) / 20)
                pkg = pkg + "|" + opkg
            mixes.append((y, [], pkg, None, None))
    return mixes


def raised(rng, x, tmp):
    """`x` an octave or so higher (600-1300 cents, sox, timing kept): an adult voice at a child's or an
    excited speaker's pitch, f0 about 150-450 Hz, which the pool's read speech seldom reaches."""
    return pitch_shifted(x, rng.uniform(600, 1300), tmp, f"up{rng.integers(1 << 30)}")


def noisy_speech_mixtures(shared, rng, tmp, times, effects, raise_share=0):
    """Each real voice of the pool `times` more times over a noise of the pool or a synthetic one at
    -5...20 dB SNR, with the main mixtures' speed changes, voice effects, colouring and reverb: more
    speech in noise, where the model misses most. A `raise_share` of them are raised in pitch first
    (`raised`): voices at 350-450 Hz fall apart in noise for a model that has not heard them. Their own
    generator, so the other mixtures stay the same."""
    noise = pool_noises(shared) + synthetic_noises(rng)
    mixes = []
    for x, labels, voice in pool_voices(shared):
        for _ in range(times):
            y, lab = (speed(rng, x, labels) if rng.random() < 0.3 else (x, labels))
            if rng.random() < raise_share:
                y = raised(rng, y, tmp)
            elif rng.random() < effects:
                y = voice_effect(rng, y, tmp)
            y = colour(rng, y)
            if rng.random() < 0.2:
                y = reverb(rng, y)
            clean = y * 10 ** (TEACHER_DBFS / 20) / active_rms(y, lab)
            level = rng.uniform(-42, -16)
            y = y * 10 ** (level / 20) / active_rms(y, lab)
            nz, _, pkg = noise[rng.integers(len(noise))]
            nn = colour(rng, fit_loop(rng, nz, len(y)))
            nn = nn * active_rms(y, lab) / rms(nn) * 10 ** (-rng.uniform(-5, 20) / 20)
            floor = coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
            mixes.append((y + nn + floor, lab, voice + "|" + pkg, clean, teacher_gain(level)))
    return mixes


def formant_mixtures(shared, held, rng, tmp, times, effects):
    """Each real voice of the pool that validation does not hold out (`held`) `times` more times with its
    formants moved (`formant_shifted`, ratio 0.8...1.25: a shorter or longer vocal tract, another speaker
    at the same pitch), made as a main mixture of a random variant (clean, in noise at 5...30 or
    -5...12 dB SNR, or quiet). Their own generator, so the other mixtures stay the same."""
    return changed_voice_mixtures(shared, held, rng, tmp, times, effects, lambda x: formant_shifted(
        x, float(np.exp(rng.uniform(np.log(0.8), np.log(1.25))))))


def changed_voice_mixtures(shared, held, rng, tmp, times, effects, change):
    """Each real voice of the pool that validation does not hold out (`held`) `times` more times as
    `change(voice)` makes it, each made as a main mixture of a random variant."""
    noise = pool_noises(shared) + synthetic_noises(rng)
    mixes = []
    for x, labels, voice in pool_voices(shared):
        if voice in held:
            continue
        for _ in range(times):
            mixes.append(voice_mixture(rng, change(x), labels, voice, int(rng.integers(4)), noise, tmp, effects))
    return mixes


def effortful(rng, x, tmp):
    """`x` as if said with more vocal effort (calling, cheering, a game character's exclamations): a
    brighter spectrum (+3...8 dB an octave above 500 Hz, at most +18 dB), the pitch raised 150-450 cents
    with its timing kept, and a mild drive; at its own peak level."""
    peak = np.max(np.abs(x)) + 1e-12
    y = pitch_shifted(x, rng.uniform(150, 450), tmp, f"eff{rng.integers(1 << 30)}")
    m = 1 << int(np.ceil(np.log2(max(len(y), 2))))
    spec = np.fft.rfft(y, m)
    f = np.arange(len(spec)) * SR / m
    spec *= 10 ** (np.minimum(18, rng.uniform(3, 8) * np.log2(np.maximum(f, 500) / 500)) / 20)
    y = np.fft.irfft(spec, m)[:len(y)]
    drive = rng.uniform(1, 3)
    y = np.tanh(drive * y / (np.max(np.abs(y)) + 1e-12))
    return y * peak / (np.max(np.abs(y)) + 1e-12)


def effort_mixtures(shared, held, rng, tmp, times, effects):
    """Each real voice of the pool that validation does not hold out (`held`) `times` more times with
    more vocal effort (`effortful`), made as a main mixture of a random variant (clean, in noise at
    5...30 or -5...12 dB SNR, or quiet). Their own generator, so the other mixtures stay the same."""
    return changed_voice_mixtures(shared, held, rng, tmp, times, effects, lambda x: effortful(rng, x, tmp))


def corpus_voice_labels(corpus):
    """(label file, labels) of the public corpus's files whose voice is heard with no noise added: its
    clean and quiet files and the speech before a dead microphone's zeros. The files with noise mixed in
    (snr, noise, transients) are not used: their noise recordings stay unheard, so the noise-only files'
    false alerts keep meaning."""
    out = []
    for j in sorted(glob.glob(os.path.join(corpus, "*.json"))):
        lab = json.load(open(j))
        if isinstance(lab, dict) and lab.get("scenario") in ("clean", "quiet", "dead_mic") and lab.get("speech"):
            out.append((j, lab))
    return out


def corpus_voices(corpus, hold):
    """The voices of `corpus_voice_labels` as (signal, labels, "corpus-" + speech source), leaving out the
    speech sources in `hold`."""
    voices = []
    for j, lab in corpus_voice_labels(corpus):
        if lab.get("speech_source") in hold:
            continue
        x = read(j[:-5] + ".wav")
        cut = lab["dead_mic"].get("from") if isinstance(lab.get("dead_mic"), dict) else None
        labels = lab["speech"]
        if cut is not None:
            x = x[:int(cut * SR)]
            labels = [[a, min(b, cut)] for a, b in labels if a < cut]
        voices.append((x, labels, "corpus-" + lab["speech_source"]))
    return voices


def corpus_mixtures(shared, corpus, hold, rng, tmp, times, effects):
    """Each voice of `corpus_voices` `times` times, as the main mixtures make them (`voice_mixture`'s
    four variants in turn): voices of the
    kinds the corpus draws from (game characters, letters read one by one), which the pool lacks. Their
    own generator, so the other mixtures stay the same."""
    noise = pool_noises(shared) + synthetic_noises(rng)
    mixes = []
    for x, labels, group in corpus_voices(corpus, hold):
        for k in range(times):
            mixes.append(voice_mixture(rng, x, labels, group, k % 4, noise, tmp, effects))
    return mixes


def babble(rng, voices, n, tmp):
    """A crowd, `n` samples at unit RMS: 8-16 of `voices` talking at once (looped, coloured, a third of
    them faster or slower, a fifth raised 300-900 cents as people cheering are), mostly in a reverberant
    room, half of the time with applause (`texture`) under them. Murmur and cheering are voiced and
    harmonic throughout, which the pool's noise has little of (one stadium recording)."""
    y = np.zeros(n)
    for _ in range(rng.integers(8, 17)):
        x, labels, _ = voices[rng.integers(len(voices))]
        # Each voice at the same speaking level (the active level: a file of letters is mostly silence).
        v = (x if rng.random() >= 0.3 else stretched(x, rng.uniform(0.85, 1.15))) / active_rms(x, labels)
        v = fit_loop(rng, v, n)
        if rng.random() < 0.2:
            v = pitch_shifted(v, rng.uniform(300, 900), tmp, f"crowd{rng.integers(1 << 30)}")
        y += colour(rng, v) * 10 ** (rng.uniform(-4, 0) / 20)
    if rng.random() < 0.7:
        y = reverb(rng, y)
    if rng.random() < 0.5:
        y = y + texture(rng, n) * rms(y) * 10 ** (rng.uniform(-10, 5) / 20)
    return y / rms(y)


def babble_mixtures(shared, held, rng, tmp, count, effects):
    """`count` crowds (`babble`) of the pool's voices that validation does not hold out (`held`), in which
    Silero hears speech in at most a tenth of the frames (drawn again otherwise, up to CROWD_DRAWS times,
    the last draw kept; so --babble needs Silero even without --distill), each alone once (at -50...-15 dBFS, over a faint floor) and under two voices
    of the pool (also not held out), made as the main mixtures' noisy variants (`voice_mixture`, -5...30
    dB SNR). The voices over the crowd are the labels; the crowd alone is not speech. Their own
    generator, so the other mixtures stay the same."""
    voices = [v for v in pool_voices(shared) if v[2] not in held]
    mixes = []
    for _ in range(count):
        # A crowd in which Silero hears someone speak (it does in about a third: one voice stands out)
        # is not a crowd's noise; such draws are made again.
        for _ in range(CROWD_DRAWS):
            bed = babble(rng, voices, int(rng.uniform(8, 20) * SR), tmp)
            if np.mean(teacher_probs(bed * 10 ** (TEACHER_DBFS / 20), len(bed) // 160) >= 0.5) <= 0.1:
                break
        y = colour(rng, bed) * 10 ** (rng.uniform(-50, -15) / 20)
        y = y + coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
        mixes.append((y, [], "crowd", None, None))
        for _ in range(2):
            x, labels, voice = voices[rng.integers(len(voices))]
            mixes.append(voice_mixture(rng, x, labels, voice, int(rng.integers(1, 3)), [(bed, "crowd", "crowd")],
                                       tmp, effects))
    return mixes


def texture_mixtures(shared, rng, count):
    """`count` textures (see `texture`), each alone at three levels and under one voice of the training
    pool at -5...25 dB SNR (also three times). Their own generator, so the other mixtures stay the same."""
    voices = pool_voices(shared)
    pkg = "texture"
    mixes = []
    for k in range(count):
        nz = texture(rng, int(rng.uniform(10, 25) * SR))
        for variant in range(3):
            y = colour(rng, nz) * 10 ** (rng.uniform(-55, -15) / 20)
            y = y + coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
            mixes.append((y, [], pkg, None, None))
        for variant in range(3):
            x, labels, voice = voices[rng.integers(len(voices))]
            y, lab = (speed(rng, x, labels) if rng.random() < 0.3 else (x, labels))
            y = colour(rng, y)
            level = rng.uniform(-42, -18)
            y = y * 10 ** (level / 20) / active_rms(y, lab)
            nn = colour(rng, fit_loop(rng, nz, len(y)))
            nn = nn * active_rms(y, lab) / rms(nn) * 10 ** (-rng.uniform(-5, 25) / 20)
            mixes.append((y + nn, lab, voice + "|" + pkg, None, teacher_gain(level)))
    return mixes


def features(binary, y, path):
    p = path + ".wav"; q = path + ".f32"
    pcm = (np.clip(y, -1, 1) * 32767).astype("<i2")
    with wave.open(p, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(SR); w.writeframes(pcm.tobytes())
    f = features_of(binary, p, q)
    os.remove(p); os.remove(q)
    return f


def feature_names(binary):
    """The features' names in the order `miccheck features` writes them (the layout a model file names)."""
    names = json.loads(subprocess.run([binary, "features", "--names"], check=True, capture_output=True, text=True).stdout)
    if len(names) != FEATURES:
        sys.exit(f"{binary} names {len(names)} features, this script reads {FEATURES}: rebuild it")
    return names


def features_of(binary, wav, out):
    """`miccheck features` of a WAV file, through the file `out`: one row of FEATURES per 10 ms frame."""
    subprocess.run([binary, "features", wav, "--output", out], check=True)
    raw = np.fromfile(out, "<f4")
    if raw.size % FEATURES:
        sys.exit(f"{binary} does not write {FEATURES} features a frame: rebuild it")
    return raw.reshape(-1, FEATURES)


def frame_labels(labels, n):
    c = (np.arange(n) + 0.5) * 0.01
    y = np.zeros(n, bool)
    for a, b in labels:
        y |= (c >= a) & (c < b)
    return y


def delayed(v, k):
    """`v` later by `k` frames (the first value repeated): what the model's output after frame n is
    trained on when it decides frame n - k."""
    v = np.asarray(v, np.float32)
    return v if k <= 0 else np.concatenate([np.full(k, v[0] if len(v) else 0, np.float32), v[:-k]])[:len(v)]


def utterance_starts(y):
    """Indices of the frames where a labelled utterance begins (label rising from 0)."""
    return np.flatnonzero(np.diff(np.concatenate([[0], y])) > 0)


def utterance_ends(y):
    """Indices of the first frame after each labelled utterance (label falling to 0)."""
    return np.flatnonzero(np.diff(np.concatenate([y, [0]])) < 0) + 1


_teacher = threading.local()


def teacher_probs(x, n):
    """Silero VAD's speech probability for each of `n` 10 ms frames of `x` (16 kHz): its 32 ms windows run
    as its users run them (onnxruntime, 64 samples of context, state carried), each frame taking the
    window its centre falls in. Used at training time only (--distill); MicCheck never runs it."""
    import importlib.util
    import onnxruntime as ort
    if not hasattr(_teacher, "sess"):
        spec = importlib.util.find_spec("silero_vad")
        if spec is None:
            sys.exit("--distill needs Silero VAD: pip install onnxruntime && pip install --no-deps silero-vad==6.2.3")
        so = ort.SessionOptions(); so.intra_op_num_threads = 1; so.inter_op_num_threads = 1
        _teacher.sess = ort.InferenceSession(os.path.join(os.path.dirname(spec.origin), "data", "silero_vad.onnx"),
                                             sess_options=so, providers=["CPUExecutionProvider"])
    x = np.clip(x, -1, 1).astype(np.float32)
    windows = max(1, (len(x) + 511) // 512)
    x = np.concatenate([x, np.zeros(windows * 512 - len(x), np.float32)])
    state = np.zeros((2, 1, 128), np.float32); ctx = np.zeros((1, 64), np.float32); sr = np.array(SR, dtype=np.int64)
    p = np.zeros(windows, np.float32)
    for i in range(windows):
        inp = np.concatenate([ctx, x[None, i * 512:(i + 1) * 512]], axis=1)
        out, state = _teacher.sess.run(None, {"input": inp, "state": state, "sr": sr})
        p[i] = float(out.ravel()[0]); ctx = inp[:, -64:]
    idx = np.minimum(((np.arange(n) + 0.5) * 160 / 512).astype(int), windows - 1)
    return p[idx]


def model_probs(path, X):
    """The speech probability of each frame of each feature matrix in `X` (raw, as `miccheck features`
    writes them) by the model file `path`, run over each whole mixture from a zero state as MicCheck runs
    it, and moved back by the model's look-ahead so that entry n is frame n's (the last frames keep the
    last answer, as the Analyzer does at the end of its input)."""
    import torch
    m = json.load(open(path))
    d = m.get("features")
    if m.get("format") != "miccheck-vad" or d not in (CORE_FEATURES, FEATURES):
        sys.exit(f"{path}: not a MicCheck voice model with {FEATURES} or {CORE_FEATURES} features")
    net = network(d, m["dense"]["outputs"], m["gru"]["hidden"])
    try:
        load(net, m)
    except ValueError as e:
        sys.exit(f"{path}: {e}")
    mean = np.array(m["inputMean"], np.float32); scale = np.array(m["inputScale"], np.float32)
    k = int(m.get("lookahead", 0))
    probs = []
    with torch.no_grad():
        for x in X:
            logits, _ = net(torch.from_numpy(((x[:, :d] - mean) * scale).astype(np.float32))[None])
            p = torch.sigmoid(logits).reshape(-1).numpy()
            probs.append(np.concatenate([p[k:], np.full(min(k, len(p)), p[-1] if len(p) else 0, np.float32)]))
    return probs


def analysed(a, mixes):
    """Features, frame labels, groups and (with --distill) teacher probabilities of `mixes`."""
    with tempfile.TemporaryDirectory() as tmp:
        # A copy of the binary, so that a rebuild during training cannot replace it mid-run.
        binary = os.path.join(tmp, "miccheck")
        shutil.copy2(a.binary, binary)
        print(f"{len(mixes)} mixtures, {sum(len(m[0]) for m in mixes) / SR / 3600:.2f} h", file=sys.stderr)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            feats = list(ex.map(lambda km: features(binary, km[1][0], os.path.join(tmp, str(km[0]))), enumerate(mixes)))
        teacher = None
        if a.distill > 0:
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
                def heard(m):
                    if a.teacher_hears == "clean" and m[3] is not None:
                        return m[3]
                    if a.teacher_hears == "level" and m[4] is not None:
                        return m[0] * m[4]
                    return m[0]
                teacher = list(ex.map(lambda mf: teacher_probs(heard(mf[0]), len(mf[1])), zip(mixes, feats)))
    X = [f.astype(np.float32) for f in feats]
    Y = [frame_labels(m[1], len(f)).astype(np.float32) for m, f in zip(mixes, feats)]
    G = [m[2] for m in mixes]
    return X, Y, G, teacher


def cached(a, path, build):
    """`build()`'s (X, Y, G, teacher), kept in the .npz `path` (if given) and read back from it."""
    if path and os.path.exists(path):
        z = np.load(path, allow_pickle=True)
        teacher = list(z["T"]) if "T" in z else None
        if a.distill > 0 and teacher is None:
            sys.exit(f"{path} holds no teacher probabilities: give another --cache to build one with --distill")
        X = list(z["X"])
        if X and X[0].shape[1] != FEATURES:
            sys.exit(f"{path} holds {X[0].shape[1]} features a frame where `miccheck features` now writes "
                     f"{FEATURES}: give another --cache to build one")
        return X, list(z["Y"]), list(z["G"]), teacher
    X, Y, G, teacher = build()
    if path:
        extra = {"T": np.array(teacher, dtype=object)} if teacher is not None else {}
        np.savez(path, X=np.array(X, dtype=object), Y=np.array(Y, dtype=object), G=np.array(G, dtype=object), **extra)
    return X, Y, G, teacher


def voice_snr(m, n):
    """For each of `n` 10 ms frames of the mixture `m`, the voice's level over everything else in it (noise
    and floor) in dB, in each of AUX_BANDS, clamped to -10...30 dB and scaled to 0...1: how much voice
    there is to hear. Frames without voice (noise alone, pauses) are 0."""
    out = np.zeros((n, len(AUX_BANDS)), np.float32)
    if m[3] is None:
        return out
    x = m[0]; v = m[3] / m[4]   # the voice at its level in the mixture (see voice_mixture)
    L = min(len(x) // 160, n)
    V = np.abs(np.fft.rfft(v[:L * 160].reshape(L, 160), axis=1)) ** 2
    R = np.abs(np.fft.rfft((x - v)[:L * 160].reshape(L, 160), axis=1)) ** 2
    for b, (lo, hi) in enumerate(AUX_BANDS):
        ev, er = V[:, lo:hi].sum(1), R[:, lo:hi].sum(1)
        db = np.where(ev > 160 * 1e-9, 10 * np.log10((ev + 1e-20) / (er + 1e-20)), -10)
        out[:L, b] = (np.clip(db, -10, 30) + 10) / 40
    return out


def cached_voice_snr(path, make, data):
    """`voice_snr` of every mixture `make(tmp)` builds again (the same generator's draws as the cached
    features `data` = (X, Y, G, ...)), kept in the .npz `path` if given. The mixtures must come out as
    cached: the same count, groups and labels, or it exits."""
    if path and os.path.exists(path):
        return list(np.load(path, allow_pickle=True)["S"])
    X, Y, G = data[0], data[1], data[2]
    with tempfile.TemporaryDirectory() as tmp:
        mixes = make(tmp)
    if len(mixes) != len(X) or any(m[2] != g or not np.array_equal(frame_labels(m[1], len(x)), y > 0)
                                   for m, x, y, g in zip(mixes, X, Y, G)):
        sys.exit("--aux-snr: the mixtures built again differ from the cached ones; build the cache again")
    S = [voice_snr(m, len(x)) for m, x in zip(mixes, X)]
    if path:
        np.savez(path, S=np.array(S, dtype=object))
    return S


def cache_beside(a, suffix):
    """The cache file of mixtures made by their own generator, beside --cache (None without it)."""
    return a.cache and a.cache.removesuffix(".npz") + suffix + ".npz"


def joined(data, extra):
    """(X, Y, G, teacher) of `data` with `extra`'s mixtures after them."""
    (X, Y, G, teacher), (eX, eY, eG, eT) = data, extra
    return X + eX, Y + eY, G + eG, (teacher + eT if teacher is not None else None)


def main():
    global D, QUIET_DBFS   # set from --features and --quiet-dbfs
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "miccheck"))
    ap.add_argument("--seed", type=int, default=8, help="the model's initialisation and chunk order")
    ap.add_argument("--threads", type=int, default=1,
                    help="PyTorch threads (1: as fast as 2 for this small model, and the bundled model's setting)")
    ap.add_argument("--espeak", type=int, default=160, help="espeak-ng phrase sets to synthesise")
    ap.add_argument("--espeak-short", type=int, default=0,
                    help="espeak-ng sets of short utterances (letters, syllables, one-word answers) to synthesise")
    ap.add_argument("--textures", type=int, default=0,
                    help="synthetic applause/rain/crackle textures to add, each alone and under voices")
    ap.add_argument("--noisy-speech", type=int, default=0,
                    help="mixtures to add of each real voice of the pool over a noise (-5...20 dB SNR)")
    ap.add_argument("--raise-pitch", type=float, default=0,
                    help="with --noisy-speech, the share of its voices raised 600-1300 cents first (a child's or an "
                         "excited speaker's pitch)")
    ap.add_argument("--babble", type=int, default=0,
                    help="crowds to add (8-16 of the pool's voices talking at once, often with applause), each "
                         "alone and under two voices of the pool")
    ap.add_argument("--flite", type=int, default=0, metavar="N",
                    help="N phrase sets by flite (another synthesiser, pitch and pace drawn per phrase), each as "
                         "the four main mixtures (needs flite)")
    ap.add_argument("--formants", type=int, default=0,
                    help="mixtures to add of each real voice of the pool with its formants moved (0.8...1.25: "
                         "other speakers at the same pitch), made as the main mixtures (off)")
    ap.add_argument("--effort", type=int, default=0,
                    help="mixtures to add of each real voice of the pool said with more vocal effort (brighter, "
                         "150-450 cents higher, mildly driven), made as the main mixtures (off)")
    ap.add_argument("--corpus-voices", type=int, default=0,
                    help="mixtures to add of each voice of the public corpus's clean and quiet files (and of the "
                         "speech before a dead microphone's zeros), made as the main mixtures; its noisy files are "
                         "never used")
    ap.add_argument("--corpus-voices-from", help="the corpus whose voices --corpus-voices uses (default: the public "
                                                 "corpus in --shared)")
    ap.add_argument("--corpus-hold", nargs="+", metavar="SOURCE",
                    help="with --corpus-voices, speech sources (the labels' speech_source) to leave out, so that "
                         "the corpus's files of those voices score a model that never heard them")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=3e-3, help="Adam's learning rate at the start (a cosine schedule takes it to 0)")
    ap.add_argument("--init", metavar="MODEL.json",
                    help="start from this model's weights and input standardisation (fine-tuning) instead of at random; "
                         "with more --dense or --hidden units (or --features 50 from a 47-feature model) it is widened, "
                         "the new units starting without effect on its output")
    ap.add_argument("--floor-shrink", type=float, default=0,
                    help="share of training chunks whose levels over the noise floor (features 1-3, 10-17, 23, 24) "
                         "are scaled by a factor drawn from 0.25...1, as if the floor stood higher (off)")
    ap.add_argument("--group-dropout", type=float, default=0, metavar="P",
                    help="in every training chunk, each group of features (FEATURE_GROUPS) is hidden (set to its "
                         "training mean) with probability P, so that no one group decides alone (off: 0)")
    ap.add_argument("--aux-snr", type=float, default=0, metavar="WEIGHT",
                    help="a second output, used in training only, learns how far the voice stands over the rest in "
                         "three bands (voice_snr), with this weight beside the speech loss (off: 0)")
    ap.add_argument("--redraw", type=int, default=0, metavar="N",
                    help="N more draws of the main mixtures (new espeak-ng sets, levels, SNRs, noises, effects), "
                         "each with its own generator (off: 0)")
    ap.add_argument("--level-jitter", type=float, default=0, metavar="DB",
                    help="shift the level (feature 0, the only one a gain changes) of every training chunk by "
                         "-DB...+DB dB, as if heard through another gain, the labels unchanged (off)")
    ap.add_argument("--quiet-dbfs", type=float, nargs=2, default=list(QUIET_DBFS), metavar=("LO", "HI"),
                    help="the range of the voice's level (active RMS, dBFS) in the quiet mixtures, a quarter of "
                         "the speech mixtures (default: %(default)s); another range draws the same mixtures "
                         "with other levels, so give it another --cache")
    ap.add_argument("--noise-variants", type=int, default=6,
                    help="mixtures made of each noise file alone (from the fourth on, played 0.8-1.25x as fast)")
    ap.add_argument("--distill", type=float, default=0.5,
                    help="blend this share of Silero VAD's probability into every frame's target (training only)")
    ap.add_argument("--distill-speech", type=float,
                    help="the share blended into frames labelled speech instead (default: --distill); lower keeps "
                         "the teacher's doubt about quiet and noisy speech out of the targets")
    ap.add_argument("--distill-silence", type=float,
                    help="the share blended into frames labelled not speech instead (default: --distill); lower "
                         "keeps the teacher's lingering after each utterance out of the targets")
    ap.add_argument("--teachers", nargs="+", metavar="MODEL.json",
                    help="models (of earlier runs with other seeds) whose mean probability joins Silero's as the "
                         "teacher: an ensemble distilled into one model")
    ap.add_argument("--teacher-share", type=float, default=0.5,
                    help="with --teachers, the models' share of the teacher's part of each target (Silero keeps "
                         "the rest)")
    ap.add_argument("--label-onsets", type=int, default=0,
                    help="frames at the start of each labelled utterance whose target is the label alone (Silero "
                         "rises over the first 50-80 ms of a word, and a blend teaches that delay)")
    ap.add_argument("--label-offsets", type=int, default=0,
                    help="frames after the end of each labelled utterance whose target is the label alone (Silero "
                         "lingers after a word, and a blend teaches that tail) (off)")
    ap.add_argument("--voice-effects", type=float, default=0.3,
                    help="share of the speech mixtures (not the quiet ones) given a voice effect: saturation, ring "
                         "modulation, a pitch shift or a tremolo")
    ap.add_argument("--teacher-hears", choices=["mix", "clean", "level"], default="level",
                    help="what Silero judges for --distill: the mixture; (speech mixtures) the voice alone at -26 dBFS; "
                         "or (speech mixtures) the whole mixture brought to where its voice is at -26 dBFS, so that "
                         "the targets keep Silero's judgement of the noise but not its doubt about quiet voices")
    ap.add_argument("--hard-negatives", type=float, default=0,
                    help="frames that are not speech weigh 1 + K p^2 more, p the model's speech probability")
    ap.add_argument("--noise-weight", type=float, default=3,
                    help="loss weight of frames in noise-only mixtures (each one above threshold is a false alert)")
    ap.add_argument("--lookahead", type=int, default=3,
                    help="frames (10 ms) of audio after a frame that the model hears before deciding it (at most 3)")
    ap.add_argument("--features", type=int, default=FEATURES,
                    help=f"features the model reads: all {FEATURES}, or the first {CORE_FEATURES} (without the "
                         "articulation features 47-49, as the model before them)")
    ap.add_argument("--dense", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--corpus", help="also report frame F1 and AUC on this labelled corpus after every epoch (monitoring only)")
    ap.add_argument("--cache", help="keep the dataset in this .npz and reuse it")
    ap.add_argument("--no-validation", action="store_true", help="train on every group (the final model)")
    ap.add_argument("--split-seed", type=int, default=7,
                    help="seed of the validation split and of the mixtures; fixed, runs with other --seed values differ "
                         "only in their initialisation and chunk order, not in what they train on")
    ap.add_argument("--keep-epochs", help="also write each epoch's model into this folder (epoch-N.json)")
    ap.add_argument("--out", default=os.path.join(ROOT, "Sources", "MicCheck", "Resources", "VoiceActivityModel.json"))
    a = ap.parse_args()
    on_speech = a.distill if a.distill_speech is None else a.distill_speech
    on_silence = a.distill if a.distill_silence is None else a.distill_silence
    if not all(0 <= v <= 1 for v in (a.distill, on_speech, on_silence)):
        sys.exit("--distill, --distill-speech and --distill-silence must be 0...1")
    if (a.distill_speech is not None or a.distill_silence is not None) and a.distill <= 0:
        sys.exit("--distill-speech and --distill-silence need --distill above 0 (without it there is no teacher to blend)")
    if a.teachers and (a.distill <= 0 or not 0 <= a.teacher_share <= 1):
        sys.exit("--teachers needs --distill above 0 (their share is of the teacher's part) and --teacher-share 0...1")
    missing = [m for m in a.teachers or [] if not os.path.isfile(m)]
    if missing:
        sys.exit(f"--teachers: no such model file: {', '.join(missing)}")
    if not 0 <= a.raise_pitch <= 1 or (a.raise_pitch > 0 and a.noisy_speech <= 0):
        sys.exit("--raise-pitch is a share (0...1) of the --noisy-speech mixtures, and needs --noisy-speech")
    if a.corpus_hold and a.corpus_voices <= 0:
        sys.exit("--corpus-hold names voices to leave out of --corpus-voices, and needs it")
    hold = sorted(a.corpus_hold or [])
    corpus = a.corpus_voices_from or os.path.join(a.shared, "corpus")
    if a.corpus_voices > 0:
        # Checked before the mixtures are built, which takes minutes.
        known = {lab.get("speech_source") for _, lab in corpus_voice_labels(corpus)}
        if not known:
            sys.exit(f"--corpus-voices: no clean or quiet speech in {corpus}")
        if set(hold) - known:
            sys.exit(f"--corpus-hold: no such speech source in {corpus}: {', '.join(sorted(set(hold) - known))} "
                     f"(there are: {', '.join(sorted(known))})")
    if a.label_onsets < 0 or a.label_offsets < 0:
        sys.exit("--label-onsets and --label-offsets must be 0 or more frames")
    if a.effort < 0 or a.formants < 0:
        sys.exit("--effort and --formants are counts of mixtures (0 or more)")
    if not 0 <= a.level_jitter <= 40:
        sys.exit("--level-jitter is in dB (0...40)")
    if not 0 <= a.group_dropout < 1:
        sys.exit("--group-dropout is a probability (0...1, below 1)")
    if a.aux_snr < 0:
        sys.exit("--aux-snr is a weight (0 or more)")
    if a.flite < 0:
        sys.exit("--flite is a count of phrase sets (0 or more)")
    if a.flite > 0 and shutil.which("flite") is None:
        sys.exit("--flite needs flite (apt-get install flite)")
    if a.redraw < 0:
        sys.exit("--redraw is a count of draws (0 or more)")
    if not 0 <= a.floor_shrink <= 1:
        sys.exit("--floor-shrink is a share of the training chunks (0...1)")
    if not a.lr > 0:
        sys.exit("--lr must be above 0")
    start = None
    if a.init:
        try:
            start = json.load(open(a.init))
            shape = (start["features"], start["dense"]["outputs"], start["gru"]["hidden"], start["lookahead"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit(f"--init: {a.init} is not a readable MicCheck voice model ({e})")
        if shape[3] != a.lookahead or any(have > want for have, want in zip(shape, (a.features, a.dense, a.hidden))):
            sys.exit(f"--init: {a.init} has {shape[0]} features, {shape[1]} dense units, {shape[2]} GRU units and "
                     f"a look-ahead of {shape[3]}; give the same --lookahead and at least as many --features, "
                     f"--dense and --hidden (more widen the model: the new units start without effect)")
    if a.features not in (CORE_FEATURES, FEATURES):
        sys.exit(f"--features must be {FEATURES}, or {CORE_FEATURES} without the articulation features")
    if not -90 <= a.quiet_dbfs[0] < a.quiet_dbfs[1] <= -20:
        sys.exit("--quiet-dbfs: give LO < HI within -90...-20 dBFS")
    D = a.features
    QUIET_DBFS = tuple(a.quiet_dbfs)
    import torch
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    split_seed = a.split_seed
    aux = []   # with --aux-snr: each mixture's voice_snr, in X's order

    def loaded(path, seed, make):
        """(X, Y, G, teacher) of the mixtures `make(rng, tmp)` builds with the generator of `seed`, kept in
        the cache file `path` (and with --aux-snr their voice_snr added to `aux`, kept beside it)."""
        def build():
            with tempfile.TemporaryDirectory() as tmp:
                return analysed(a, make(np.random.default_rng(seed), tmp))
        data = cached(a, path, build)
        if a.aux_snr > 0:
            aux.extend(cached_voice_snr(path and path.removesuffix(".npz") + "-voice-snr.npz",
                                        lambda tmp: make(np.random.default_rng(seed), tmp), data))
        return data

    def main_mixtures(rng, tmp):
        return make_mixtures(a.shared, rng, tmp, a.espeak, a.noise_variants, a.voice_effects, a.espeak_short)

    X, Y, G, teacher = loaded(a.cache, split_seed, main_mixtures)
    # Hold out whole voices and noise packages (of the main mixtures, so that adding textures keeps the split).
    parts = sorted({p for g in G for p in g.split("|")})
    # Its own generator, so that the split is the same with or without --cache.
    held = set(np.random.default_rng(split_seed).choice(parts, size=max(2, len(parts) // 12), replace=False))

    def added(suffix, seed, make):
        """The data joined with the mixtures `make(rng, tmp)` builds, with their own generator (`seed`) and
        cache file (beside --cache, with `suffix`): the main mixtures stay exactly as they are."""
        return joined((X, Y, G, teacher), loaded(cache_beside(a, suffix), seed, make))

    # The extra voices are only those that validation does not hold out (except --noisy-speech's), and their
    # generators are the split's seed's (so that seeds compared on one split hear the same mixtures), except
    # the textures', which are the model seed's.
    kept_out = set() if a.no_validation else held
    for k in range(a.redraw):
        X, Y, G, teacher = added(f"-redraw{k + 1}", split_seed + 7000 + k, main_mixtures)
    if a.textures > 0:
        X, Y, G, teacher = added(f"-textures{a.textures}", a.seed + 1000,
                                 lambda rng, tmp: texture_mixtures(a.shared, rng, a.textures))
    if a.noisy_speech > 0:
        X, Y, G, teacher = added(f"-noisy{a.noisy_speech}" + (f"-raised{a.raise_pitch:g}" if a.raise_pitch > 0 else ""),
                                 split_seed + 2000, lambda rng, tmp: noisy_speech_mixtures(
                                     a.shared, rng, tmp, a.noisy_speech, a.voice_effects, a.raise_pitch))
    if a.babble > 0:
        X, Y, G, teacher = added(f"-babble{a.babble}", split_seed + 4000, lambda rng, tmp: babble_mixtures(
            a.shared, kept_out, rng, tmp, a.babble, a.voice_effects))
    if a.flite > 0:
        X, Y, G, teacher = added(f"-flite{a.flite}", split_seed + 8000, lambda rng, tmp: flite_mixtures(
            a.shared, rng, tmp, a.flite, a.voice_effects))
    if a.formants > 0:
        X, Y, G, teacher = added(f"-formants{a.formants}", split_seed + 5000, lambda rng, tmp: formant_mixtures(
            a.shared, kept_out, rng, tmp, a.formants, a.voice_effects))
    if a.effort > 0:
        X, Y, G, teacher = added(f"-effort{a.effort}", split_seed + 6000, lambda rng, tmp: effort_mixtures(
            a.shared, kept_out, rng, tmp, a.effort, a.voice_effects))
    if a.corpus_voices > 0:
        before = len(X)
        X, Y, G, teacher = added(f"-corpus{a.corpus_voices}" + "".join("-without-" + h for h in hold),
                                 split_seed + 3000, lambda rng, tmp: corpus_mixtures(
                                     a.shared, corpus, set(hold), rng, tmp, a.corpus_voices, a.voice_effects))
        print(f"corpus voices: {len(X) - before} mixtures of {len({g.split('|')[0] for g in G[before:]})} speech "
              f"sources" + (f", without {', '.join(hold)}" if hold else ""), file=sys.stderr)
    if a.teachers:
        # The models' mean, blended with Silero: the teacher's part of every target.
        ensemble = np.mean([np.concatenate(model_probs(m, X)) for m in a.teachers], axis=0)
        bounds = np.cumsum([0] + [len(x) for x in X])
        teacher = [(1 - a.teacher_share) * t + a.teacher_share * ensemble[bounds[i]:bounds[i + 1]]
                   for i, t in enumerate(teacher)]
        print(f"teachers: Silero and the mean of {len(a.teachers)} models ({a.teacher_share:.2f} of it)", file=sys.stderr)
    X = [x[:, :D] for x in X]   # the caches keep every feature; the model reads the first D
    val = [False] * len(G) if a.no_validation else [any(p in held for p in g.split("|")) for g in G]
    print(f"held out: {sorted(held)}", file=sys.stderr)
    tr_idx = [i for i, v in enumerate(val) if not v]; va_idx = [i for i, v in enumerate(val) if v]
    allX = np.concatenate([X[i] for i in tr_idx])
    mean = allX.mean(0); scale = 1 / (allX.std(0) + 1e-4)
    if start is not None:
        # The model's own standardisation of its features, on which its weights were learned (features
        # added by widening it keep the training frames').
        mean[:start["features"]] = start["inputMean"]; scale[:start["features"]] = start["inputScale"]
    print(f"frames: train {len(allX)}, val {sum(len(X[i]) for i in va_idx)}, "
          f"speech share {np.concatenate([Y[i] for i in tr_idx]).mean():.2f}", file=sys.stderr)

    net = network(D, a.dense, a.hidden, len(AUX_BANDS) if a.aux_snr > 0 else 0)
    if start is not None:
        try:
            load(net, start)
        except ValueError as e:
            sys.exit(f"--init: {a.init}: {e}")
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, a.epochs)
    T = 600
    Xs = [(x - mean) * scale for x in X]

    def weights(y, g):
        w = np.ones_like(y)
        # The first 150 ms of each utterance decides how fast speech is announced.
        for o in utterance_starts(y):
            w[o:o + 15] = 3
        if "|" not in g and y.sum() == 0:
            w *= a.noise_weight   # noise alone: every frame above threshold is a false alert
        return w

    if not 0 <= a.lookahead <= 3:
        sys.exit("--lookahead must be 0...3 frames (the detector may look at most 30 ms ahead)")
    W = [delayed(weights(Y[i], G[i]), a.lookahead) for i in range(len(Y))]
    # Targets: the labels, or with --distill a blend with the teacher's probabilities; with --lookahead
    # the output after frame n is frame n - lookahead's.
    def target(i):
        if a.distill <= 0:
            return Y[i]
        share = np.where(Y[i] > 0, on_speech, on_silence).astype(np.float32)
        if a.label_onsets > 0:
            for o in utterance_starts(Y[i]):
                share[o:o + a.label_onsets][Y[i][o:o + a.label_onsets] > 0] = 0   # the utterance's frames only
        if a.label_offsets > 0:
            for o in utterance_ends(Y[i]):
                share[o:o + a.label_offsets][Y[i][o:o + a.label_offsets] == 0] = 0   # up to the next utterance
        return (1 - share) * Y[i] + share * teacher[i]

    targets = [delayed(target(i), a.lookahead) for i in range(len(Y))]

    def chunks(idx, rs):
        out = []
        for i in idx:
            n = len(Xs[i])
            if n <= T:
                out.append((i, 0, n))
            else:
                starts = [0] + list(rs.integers(0, n - T, size=n // T))
                out += [(i, s, s + T) for s in starts]
        return out

    over_floor = [c for c in FLOOR_FEATURES if c < D]
    groups = [[c for c in g if c < D] for g in FEATURE_GROUPS]   # what --group-dropout hides
    offset = (mean * scale).astype(np.float32)   # raw * scale = standardised + offset

    def batch(items, rs=None):
        L = max(e - s for _, s, e in items)
        xb = np.zeros((len(items), L, D), np.float32); yb = np.zeros((len(items), L), np.float32)
        wb = np.zeros((len(items), L), np.float32)
        sb = np.zeros((len(items), L, len(AUX_BANDS)), np.float32) if aux else None
        for k, (i, s, e) in enumerate(items):
            xb[k, :e - s] = Xs[i][s:e]; yb[k, :e - s] = targets[i][s:e]; wb[k, :e - s] = W[i][s:e]
            if aux:
                sb[k, :e - s] = aux[i][s:e]
            if rs is not None and a.floor_shrink > 0 and rs.random() < a.floor_shrink:
                # The levels over the floor scaled in raw units (dB over the floor / constant), then standardised again.
                f = rs.uniform(0.25, 1)
                v = xb[k, :e - s]
                v[:, over_floor] = f * (v[:, over_floor] + offset[over_floor]) - offset[over_floor]
            if rs is not None and a.group_dropout > 0:
                for group in groups:
                    if rs.random() < a.group_dropout:
                        xb[k, :e - s, group] = 0   # standardised: the training mean
            if rs is not None and a.level_jitter > 0:
                # Feature 0 is (level + 50) / 25 raw; standardised, a shift of g dB is g / 25 * its scale.
                xb[k, :e - s, 0] += rs.uniform(-a.level_jitter, a.level_jitter) / 25 * scale[0]
        return torch.from_numpy(xb), torch.from_numpy(yb), torch.from_numpy(wb), (torch.from_numpy(sb) if aux else None)

    def evaluate(pairs, noise_threshold):
        """AUC and F1 at 0.5 over (features, labels) pairs, and the share (%) of frames of noise-only
        pairs at or above `noise_threshold`."""
        from sklearn.metrics import roc_auc_score
        net.eval()
        ps, ys, noise_p = [], [], []
        with torch.no_grad():
            for x, y in pairs:
                p = torch.sigmoid(net(torch.from_numpy(x[None]))[0])[0].numpy()
                ps.append(p); ys.append(y)
                if y.sum() == 0:
                    noise_p.append(p)
        net.train()
        p = np.concatenate(ps); y = np.concatenate(ys)
        f1 = 2 * np.sum((p >= 0.5) & (y > 0)) / (np.sum(p >= 0.5) + np.sum(y > 0))
        npz = np.concatenate(noise_p) if noise_p else np.zeros(1)
        return roc_auc_score(y, p), f1, 100 * np.mean(npz >= noise_threshold)

    held_out = [(Xs[i], delayed(Y[i], a.lookahead)) for i in va_idx]
    corpus = corpus_set(a, mean, scale) if a.corpus else []

    rs = np.random.default_rng(a.seed + 1)
    for epoch in range(a.epochs):
        items = chunks(tr_idx, rs)
        rs.shuffle(items)
        total = 0.0
        for b0 in range(0, len(items), 32):
            xb, yb, wb, sb = batch(items[b0:b0 + 32], rs)
            logits, _ = net(xb)
            if a.hard_negatives > 0:
                # Frames that are not speech count more the surer the model is that they are: the
                # confident false alerts on unfamiliar noise are the ones to unlearn.
                p = torch.sigmoid(logits.detach())
                wb = wb * (1 + a.hard_negatives * (1 - yb) * p * p)
            loss = (torch.nn.functional.binary_cross_entropy_with_logits(logits, yb, reduction="none") * wb).sum() / wb.sum()
            if aux:
                # The voice over the rest, per band, at every frame of the chunk (not the padding).
                m = (wb > 0).unsqueeze(-1).expand_as(sb).float()
                loss = loss + a.aux_snr * (torch.nn.functional.binary_cross_entropy_with_logits(
                    net.aux(net.z), sb, reduction="none") * m).sum() / m.sum()
            opt.zero_grad(); loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step(); total += float(loss.detach()) * len(xb)
        sched.step()
        auc, f1, fa = evaluate(held_out, 0.7) if held_out else (float("nan"), float("nan"), float("nan"))
        print(f"epoch {epoch + 1}: loss {total / len(items):.4f}  held-out AUC {auc:.4f} F1 {f1:.3f} "
              f"noise frames >= 0.7: {fa:.2f}%", file=sys.stderr)
        if corpus:
            auc, f1, fa = evaluate(corpus, 0.5)
            print(f"    corpus AUC {auc:.4f} F1 {f1:.3f} (p >= 0.5) noise-only frames >= 0.5: {fa:.2f}%", file=sys.stderr)
        export(net, mean, scale, a, a.out)
        if a.keep_epochs:
            os.makedirs(a.keep_epochs, exist_ok=True)
            export(net, mean, scale, a, os.path.join(a.keep_epochs, f"epoch-{epoch + 1}.json"))



def corpus_set(a, mean, scale):
    """Standardised features and frame labels of every file of a labelled corpus (score.py's grid)."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for j in sorted(glob.glob(os.path.join(a.corpus, "**", "*.json"), recursive=True)):
            wav = j[:-5] + ".wav"
            if not os.path.exists(wav):
                continue
            lab = json.load(open(j))
            q = os.path.join(tmp, "f.f32")
            f = features_of(a.binary, wav, q)[:, :D]
            y = frame_labels(lab.get("speech", []), len(f)).astype(np.float32)
            out.append((((f - mean) * scale).astype(np.float32), delayed(y, a.lookahead)))
    return out


def network(features, dense, hidden, aux=0):
    """The model in PyTorch (at random): a dense tanh layer, a GRU and a linear output, which answers the
    speech logit of each frame and the GRU's last state. With `aux` outputs more, `net.aux(net.z)` reads
    them from the GRU's states of the last call (training only: they are not exported)."""
    import torch

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = torch.nn.Linear(features, dense)
            self.gru = torch.nn.GRU(dense, hidden, batch_first=True)
            self.out = torch.nn.Linear(hidden, 1)
            if aux > 0:
                self.aux = torch.nn.Linear(hidden, aux)

        def forward(self, x, h=None):
            z, h = self.gru(torch.tanh(self.inp(x)), h)
            self.z = z
            return self.out(z).squeeze(-1), h
    return Net()


def load(net, model):
    """Sets `net`'s weights from a model file's (export's inverse). A file with fewer features, dense units
    or GRU units than `net` fills the top left of each matrix (per GRU gate), and what it lacks starts
    without effect on the output: the new features' and dense units' weights into the old units are 0,
    the new GRU units' weights into the old units and the output's from them are 0. The new units keep
    `net`'s own random weights otherwise, so that they learn from the first step. A layer with another
    number of values than the file's sizes call for is a ValueError."""
    import torch
    d, k, h = model["features"], model["dense"]["outputs"], model["gru"]["hidden"]
    D_, K, H = net.inp.in_features, net.inp.out_features, net.gru.hidden_size

    def put(param, values, rows, cols=None, zero_cols=0):
        """The file's `values` (rows × cols, or a vector) into `param`'s first rows and columns; with
        `zero_cols`, the columns after them in those rows set to 0."""
        v = torch.tensor(values, dtype=torch.float32)
        if v.numel() != rows * (cols or 1):
            raise ValueError(f"a layer has {v.numel()} values where {rows * (cols or 1)} were expected")
        with torch.no_grad():
            if cols is None:
                param[:rows] = v
            else:
                param[:rows, :cols] = v.reshape(rows, cols)
                param[:rows, cols:cols + zero_cols] = 0

    def gates(param, values, cols=None, zero_cols=0):
        """A GRU parameter, gate by gate (PyTorch stacks r, z, n along the rows)."""
        v = np.asarray(values, np.float32)
        if v.size != 3 * h * (cols or 1):
            raise ValueError(f"a layer has {v.size} values where {3 * h * (cols or 1)} were expected")
        v = v.reshape(3, -1)
        for g in range(3):
            put(param[g * H:(g + 1) * H], v[g], h, cols, zero_cols)
    put(net.inp.weight, model["dense"]["weights"], k, d, D_ - d); put(net.inp.bias, model["dense"]["bias"], k)
    gates(net.gru.weight_ih_l0, model["gru"]["inputWeights"], k, K - k)
    gates(net.gru.weight_hh_l0, model["gru"]["recurrentWeights"], h, H - h)
    gates(net.gru.bias_ih_l0, model["gru"]["inputBias"]); gates(net.gru.bias_hh_l0, model["gru"]["recurrentBias"])
    put(net.out.weight, model["output"]["weights"], 1, h, H - h); put(net.out.bias, model["output"]["bias"], 1)


def export(net, mean, scale, a, path):
    def t(v):
        return [float(f"{x:.7g}") for x in np.ravel(v.detach().numpy() if hasattr(v, "detach") else v)]
    model = {
        "format": "miccheck-vad", "version": 1, "features": D, "featureNames": feature_names(a.binary)[:D], "lookahead": a.lookahead,
        "trainedBy": "training/train_vad.py", "seed": a.seed, "splitSeed": a.split_seed,
        "inputMean": t(mean), "inputScale": t(scale),
        "dense": {"inputs": D, "outputs": a.dense, "weights": t(net.inp.weight), "bias": t(net.inp.bias)},
        "gru": {"inputs": a.dense, "hidden": a.hidden,
                "inputWeights": t(net.gru.weight_ih_l0), "recurrentWeights": t(net.gru.weight_hh_l0),
                "inputBias": t(net.gru.bias_ih_l0), "recurrentBias": t(net.gru.bias_hh_l0)},
        "output": {"inputs": a.hidden, "outputs": 1, "weights": t(net.out.weight), "bias": t(net.out.bias)},
    }
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(model, f, separators=(",", ":"))
    print(f"wrote {path} ({os.path.getsize(path)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
