"""Audio made here: speech by espeak-ng and flite, synthetic noise and textures, and what is done to
signals before they are mixed (levels, colouring, reverb, speed, pitch, formants, voice effects)."""
import os, subprocess, wave
import numpy as np
import soundfile as sf
from scipy import signal as sps

from .config import SR
from .records import Voice

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
    """`count` sets of phrases by espeak-ng in many languages and voices, joined by pauses of digital silence,
    each a `Voice` named by its language; with `short`, sets of 4-9 single letters, syllables or one-word
    answers."""
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
        out.append(Voice(x, labels, f"espeak-{'short-' if short else ''}{lang}"))
    return out


FLITE_VOICES = ["slt", "awb", "kal16", "rms"]   # flite's English voices (rms keeps its own pitch)


def flite_set(rng, tmp, count):
    """Phrases by flite (another synthesiser than espeak-ng: statistical-parametric and diphone voices,
    with the pitch, its swing and the pace drawn for each phrase: f0 90...320 Hz, a spread of 5...100 Hz,
    0.75...1.6 times as slow), joined by pauses of digital silence, labelled by the corpus rule: `count`
    `Voice`s named by flite's voice."""
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
        out.append(Voice(x, labels, f"flite-{voice}"))
    return out



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
    if kind == "blades":
        return bladed_fan(rng, n)
    raise ValueError(kind)


SYNTHETIC = ["white", "pink", "brown", "hum", "fan", "breathing", "clicks", "silence", "blades"]


def bladed_fan(rng, n):
    """An electric fan as a microphone beside it hears one, unit RMS: broadband air noise (coloured,
    with a broad resonance) whose loudness beats at the blade rate (10-60 Hz, wandering by a percent or
    two as the motor hunts), the blade rate's first harmonics as tones, and a mains hum (50 or 60 Hz and
    its harmonics) or a motor whine. Steady and periodic at a syllable-like rate, the kind of noise a
    model that keys on modulation calls speech."""
    t = np.arange(n) / SR
    rate = rng.uniform(10, 60) * (1 + rng.uniform(0.005, 0.02) * np.sin(2 * np.pi * rng.uniform(0.05, 0.5) * t))
    phase = 2 * np.pi * np.cumsum(rate) / SR
    air = coloured(rng, n, rng.uniform(0.5, 1.8))
    centre = rng.uniform(300, 2500)
    b, a = sps.butter(2, [centre / 2 / (SR / 2), min(7800, centre * 2) / (SR / 2)], "band")
    air = 0.5 * air + sps.lfilter(b, a, air) * rng.uniform(0.5, 2)
    depth = rng.uniform(0.15, 0.8)
    y = air / rms(air) * (1 + depth * np.sin(phase) + 0.3 * depth * np.sin(2 * phase + rng.uniform(0, 6)))
    for k in range(1, int(rng.integers(2, 7))):
        y += np.sin(k * phase + rng.uniform(0, 6)) * rng.uniform(0.02, 0.4) / k
    if rng.random() < 0.6:
        f0 = rng.choice([50, 60]) * rng.uniform(0.99, 1.01)
        y += sum(np.sin(2 * np.pi * f0 * h * t + rng.uniform(0, 6)) * rng.uniform(0.02, 0.3) / h for h in range(1, 7))
    else:
        y += np.sin(2 * np.pi * rng.uniform(150, 1200) * t + rng.uniform(0, 6)) * rng.uniform(0.02, 0.2)
    return y / rms(y)


_PHONE_BAND = sps.butter(8, [300, 3400], "band", fs=SR, output="sos")


def _companded(x, kind):
    """`x` (peak below 1) through 8-bit G.711 companding: mu-law or A-law, quantised and expanded."""
    a = np.abs(np.clip(x, -1, 1)); sign = np.sign(x)
    if kind == "u-law":
        c = np.log1p(255 * a) / np.log1p(255)
        c = np.round(c * 127) / 127
        return sign * np.expm1(c * np.log1p(255)) / 255
    A = 87.6
    c = np.where(a < 1 / A, A * a / (1 + np.log(A)), (1 + np.log(np.maximum(A * a, 1e-12))) / (1 + np.log(A)))
    c = np.round(c * 127) / 127
    return sign * np.where(c < 1 / (1 + np.log(A)), c * (1 + np.log(A)) / A, np.exp(c * (1 + np.log(A)) - 1) / A)


def telephone(rng, x, tmp):
    """`x` as a telephone line carries it, at its own RMS: band-passed to 300-3400 Hz, sampled at 8 kHz,
    coded as G.711 mu-law or A-law or GSM 06.10 full rate (sox), decoded, band-passed again and brought
    back to 16 kHz. Given to speech and noise alike, so that a telephone band never decides."""
    level = rms(x)
    y = sps.resample_poly(sps.sosfilt(_PHONE_BAND, x), 1, 2)
    peak = np.max(np.abs(y)) + 1e-12
    y = y / peak * rng.uniform(0.2, 0.9)   # what the line's gain leaves of the codec's range
    kind = ("u-law", "a-law", "gsm")[int(rng.integers(3))]
    if kind == "gsm":
        p = os.path.join(tmp, f"tel{rng.integers(1 << 30)}")
        sf.write(p + ".wav", y.astype(np.float32), SR // 2, subtype="FLOAT")
        subprocess.run(["sox", p + ".wav", "-r", "8000", "-c", "1", p + ".gsm"], check=True, capture_output=True)
        subprocess.run(["sox", p + ".gsm", "-e", "floating-point", "-b", "32", p + "b.wav"], check=True,
                       capture_output=True)
        z, _ = sf.read(p + "b.wav", dtype="float64")
        for f in (p + ".wav", p + ".gsm", p + "b.wav"):
            os.remove(f)
        y = np.concatenate([z, np.zeros(max(0, len(y) - len(z)))])[:len(y)]
    else:
        y = _companded(y, kind)
    y = sps.sosfilt(_PHONE_BAND, sps.resample_poly(y, 2, 1))
    y = np.concatenate([y, np.zeros(max(0, len(x) - len(y)))])[:len(x)]
    return y * level / rms(y)


def low_fidelity(rng, x):
    """`x` as an old game or a cheap recorder keeps it, at its own RMS: sampled at 11025 Hz (nothing above
    5.5 kHz) and, half the time, quantised to 8 bits near full scale (a hiss under everything), as 60 %
    of the more_speech voices are. Given to noise and speech alike, so that neither cue means speech."""
    level = rms(x)
    y = sps.resample_poly(x, 441, 640)
    if rng.random() < 0.5:
        peak = np.max(np.abs(y)) + 1e-12
        g = rng.uniform(0.5, 1) / peak
        y = np.round(y * g * 127) / 127 / g
    y = sps.resample_poly(y, 640, 441)
    y = np.concatenate([y, np.zeros(max(0, len(x) - len(y)))])[:len(x)]
    return y * level / rms(y)


def through_channel(rng, x, tmp, telephone_share, lofi_share):
    """`x`, or with probability `telephone_share` `telephone(x)`, else with `lofi_share` `low_fidelity(x)`."""
    u = rng.random()
    if u < telephone_share:
        return telephone(rng, x, tmp)
    if u < telephone_share + lofi_share:
        return low_fidelity(rng, x)
    return x


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


def at_level(x, labels, dbfs):
    """`x` scaled so that its active level (`active_rms` over the labelled speech `labels`) is `dbfs`."""
    return x * 10 ** (dbfs / 20) / active_rms(x, labels)


def at_snr(noise, voice, labels, snr):
    """`noise` scaled to lie `snr` dB under the active level of `voice` (labelled `labels`): the corpus's
    SNR rule, the noise's RMS against the voice's active RMS."""
    return noise * active_rms(voice, labels) / rms(noise) * 10 ** (-snr / 20)


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


