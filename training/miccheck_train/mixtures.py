"""The training material: mixtures of voices (the pool's, synthesised ones, the corpus's clean ones) and
noise (the pool's and synthetic), each as (signal, labels, validation group, the voice alone at -26 dBFS,
the gain that brings the voice to -26 dBFS). Every builder takes the run's `Config` and its own random
generator, so that adding one kind of mixture leaves the others as they were."""
import glob, json, os, sys
import numpy as np

from .config import CROWD_DRAWS, SR, TEACHER_DBFS
from .features import teacher_probs
from .synth import (active_rms, at_level, at_snr, colour, coloured, espeak_set, fit_loop, flite_set,
                    formant_shifted, pitch_shifted, read, reverb, rms, speed, stretched, synthetic_noise, texture,
                    through_channel, voice_effect, SYNTHETIC)

# The corpus scenario of each of voice_mixture's variants, and the noise categories the corpus calls
# transients (what --fold-corpus writes in its labels).
VARIANT_SCENARIO = ["clean", "snr", "snr", "quiet"]
TRANSIENTS = ("impacts_doors", "clicks", "game_sfx")


def flite_mixtures(cfg, rng, tmp):
    """--flite phrase sets (`flite_set`), each made as the four main mixtures (clean, in noise at
    5...30 and -5...12 dB SNR, quiet): voices that are not the pool's read speech nor espeak-ng's."""
    noise = pool_noises(cfg.shared) + synthetic_noises(rng)
    return four_mixtures(rng, flite_set(rng, tmp, cfg.flite), noise, tmp, cfg)



def pool_voices(shared):
    """The training pool's real voices: (signal, labels, voice folder) for every speech file."""
    voices = []
    for j in sorted(glob.glob(os.path.join(shared, "training", "speech", "*", "*.json"))):
        voices.append((read(j[:-5] + ".flac"), json.load(open(j))["speech"], os.path.basename(os.path.dirname(j))))
    return voices


def pool_noises(shared):
    """The training pool's real noise: (signal, category, package) for every noise file."""
    return noises_in(os.path.join(shared, "training", "noise"))


def noises_in(folder):
    """(signal, category, package) for every noise file (FLAC and JSON) in `folder`."""
    noise = []
    for j in sorted(glob.glob(os.path.join(folder, "*.json"))):
        lab = json.load(open(j))
        noise.append((read(j[:-5] + ".flac"), lab["category"], lab.get("source_pkg", "?").split()[0]))
    return noise


def more_voices(cfg):
    """more_speech's voices (none with --more-speech none): (signal, labels, voice folder), without the
    nonverbal files (cries, grunts, laughs) unless --nonverbal."""
    if cfg.more_speech == "none":
        return []
    voices = []
    for j in sorted(glob.glob(os.path.join(cfg.more_speech, "speech", "*", "*.json"))):
        lab = json.load(open(j))
        if lab.get("nonverbal") and not cfg.nonverbal:
            continue
        voices.append((read(j[:-5] + ".flac"), lab["speech"], os.path.basename(os.path.dirname(j))))
    return voices


def more_noises(cfg):
    """more_noise's files (none with --more-noise none), as `noises_in`."""
    return [] if cfg.more_noise == "none" else noises_in(os.path.join(cfg.more_noise, "noise"))


def synthetic_noises(rng):
    """Three of each synthetic noise (white, pink, brown, hum, fan, breathing, clicks, silence), 15-40 s."""
    return [(synthetic_noise(rng, int(rng.uniform(15, 40) * SR), kind), kind, f"synthetic-{kind}")
            for kind in SYNTHETIC * 3]


def teacher_gain(level):
    """The gain that brings a voice at `level` dBFS (active RMS) to TEACHER_DBFS: what --teacher-hears
    level applies to a whole mixture before Silero judges it."""
    return 10 ** ((TEACHER_DBFS - level) / 20)


def voice_mixture(rng, x, labels, voice, variant, noise, tmp, cfg):
    """One mixture of the voice `x`: variant 0 clean over a faint floor, 1 over one of `noise` at
    5...30 dB SNR, 2 at -5...12 dB, 3 quiet (--quiet-dbfs, half with reverb); random speed, colouring,
    reverb and (a --voice-effects share of those not quiet) a voice effect. Returns the signal, its labels,
    its validation group (`voice`, and "|" and the noise's package for 1 and 2), the voice alone at
    -26 dBFS (what the teacher hears with --teacher-hears clean) and the gain that brings the voice to
    -26 dBFS (with --teacher-hears level)."""
    y, lab = (speed(rng, x, labels) if rng.random() < 0.3 else (x, labels))
    quiet = variant == 3
    target = rng.uniform(*cfg.quiet_dbfs) if quiet else rng.uniform(-42, -14)
    if cfg.voice_effects > 0 and not quiet and rng.random() < cfg.voice_effects:
        y = voice_effect(rng, y, tmp)
    y = colour(rng, y)
    if rng.random() < (0.5 if quiet else 0.2):
        y = reverb(rng, y)
    clean = at_level(y, lab, TEACHER_DBFS)
    y = at_level(y, lab, target)
    gain = teacher_gain(target)
    floor = coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
    if variant in (0, 3):
        return y + (floor if rng.random() < 0.8 else 0), lab, voice, clean, gain
    nz, _, pkg = noise[rng.integers(len(noise))]
    snr = rng.uniform(5, 30) if variant == 1 else rng.uniform(-5, 12)
    nn = colour(rng, fit_loop(rng, nz, len(y)))
    nn = at_snr(nn, y, lab, snr)
    return y + nn + floor, lab, voice + "|" + pkg, clean, gain


def four_mixtures(rng, speech, noise, tmp, cfg):
    """Each (signal, labels, voice) of `speech` as the four main mixtures, `voice_mixture`'s variants in
    turn: clean, in noise at 5...30 and at -5...12 dB SNR, quiet."""
    return [voice_mixture(rng, x, labels, voice, variant, noise, tmp, cfg)
            for x, labels, voice in speech for variant in range(4)]


def channelled(cfg, rng, mix, tmp, kind):
    """A mixture (`voice_mixture`'s tuple) through --telephone's or --lofi's channel (or neither), with
    its corpus scenario (`kind`: {"scenario", "music_vocals"}) as a sixth value."""
    y = through_channel(rng, mix[0], tmp, cfg.telephone, cfg.lofi)
    # Kept as float32 (as the 16-bit file it becomes needs), and the voice alone only where the teacher
    # hears it (--teacher-hears clean) or --aux-snr reads it: a run's mixtures are held in memory at once.
    clean = mix[3] if cfg.teacher_hears == "clean" or cfg.aux_snr > 0 else None
    return (y.astype(np.float32), mix[1], mix[2], clean, mix[4], kind)


def make_mixtures(cfg, rng, tmp):
    """The main mixtures: the pool's voices and --espeak (and --espeak-short) sets as the four main mixtures
    each, more_speech's voices as --more-speech-mixtures of them each, every noise file of the pool alone
    --noise-variants times and every more_noise file --more-noise-variants times; a --telephone and a
    --lofi share of them all through those channels."""
    speech, noise = pool_voices(cfg.shared), pool_noises(cfg.shared)
    speech += espeak_set(rng, tmp, cfg.espeak)
    if cfg.espeak_short > 0:
        speech += espeak_set(rng, tmp, cfg.espeak_short, short=True)
    more_speech, more_noise = more_voices(cfg), more_noises(cfg)
    print(f"{len(speech)} speech files and {len(more_speech)} of more_speech, {len(noise)} noise files and "
          f"{len(more_noise)} of more_noise", file=sys.stderr)
    noise += synthetic_noises(rng)
    every_noise = noise + more_noise
    # (signal, labels, group for validation, the voice alone at -26 dBFS, the gain that brings the voice
    # to -26 dBFS (None for noise alone), the corpus scenario)
    def spoken(x, labels, voice, variant):
        return channelled(cfg, rng, voice_mixture(rng, x, labels, voice, variant, every_noise, tmp, cfg), tmp,
                          {"scenario": VARIANT_SCENARIO[variant]})

    mixes = [spoken(x, labels, voice, variant) for x, labels, voice in speech for variant in range(4)]
    for k, (x, labels, voice) in enumerate(more_speech):
        for m in range(cfg.more_speech_mixtures):
            mixes.append(spoken(x, labels, voice, (k + m * 2) % 4 if cfg.more_speech_mixtures <= 2 else (k + m) % 4))
    plan = [(n, cfg.noise_variants) for n in noise] + [(n, cfg.more_noise_variants) for n in more_noise]
    for (nz, cat, pkg), variants in plan:
        kind = {"scenario": "transients" if cat in TRANSIENTS else "noise_only", "music_vocals": cat == "music_vocals"}
        for variant in range(variants):
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
            group = pkg
            if rng.random() < 0.3 and cat not in ("silence",):
                other, _, opkg = every_noise[rng.integers(len(every_noise))]
                y = y + (colour(rng, fit_loop(rng, other, len(y))) * rms(y) / rms(other)
                         * 10 ** (rng.uniform(-20, 0) / 20))
                group = pkg + "|" + opkg
            mixes.append(channelled(cfg, rng, (y, [], group, None, None), tmp, kind))
    return mixes


def raised(rng, x, tmp):
    """`x` an octave or so higher (600-1300 cents, sox, timing kept): an adult voice at a child's or an
    excited speaker's pitch, f0 about 150-450 Hz, which the pool's read speech seldom reaches."""
    return pitch_shifted(x, rng.uniform(600, 1300), tmp, f"up{rng.integers(1 << 30)}")


def noisy_speech_mixtures(cfg, rng, tmp):
    """Each real voice of the pool --noisy-speech more times over a noise of the pool or a synthetic one at
    -5...20 dB SNR, with the main mixtures' speed changes, voice effects, colouring and reverb: more
    speech in noise, where the model misses most. A --raise-pitch share of them are raised in pitch first
    (`raised`): voices at 350-450 Hz fall apart in noise for a model that has not heard them. Their own
    generator, so the other mixtures stay the same."""
    noise = pool_noises(cfg.shared) + synthetic_noises(rng)
    mixes = []
    for x, labels, voice in pool_voices(cfg.shared):
        for _ in range(cfg.noisy_speech):
            y, lab = (speed(rng, x, labels) if rng.random() < 0.3 else (x, labels))
            if rng.random() < cfg.raise_pitch:
                y = raised(rng, y, tmp)
            elif rng.random() < cfg.voice_effects:
                y = voice_effect(rng, y, tmp)
            y = colour(rng, y)
            if rng.random() < 0.2:
                y = reverb(rng, y)
            clean = at_level(y, lab, TEACHER_DBFS)
            level = rng.uniform(-42, -16)
            y = at_level(y, lab, level)
            nz, _, pkg = noise[rng.integers(len(noise))]
            nn = colour(rng, fit_loop(rng, nz, len(y)))
            nn = at_snr(nn, y, lab, rng.uniform(-5, 20))
            floor = coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
            mixes.append((y + nn + floor, lab, voice + "|" + pkg, clean, teacher_gain(level)))
    return mixes


def formant_mixtures(cfg, held, rng, tmp):
    """Each real voice of the pool that validation does not hold out (`held`) --formants more times with its
    formants moved (`formant_shifted`, ratio 0.8...1.25: a shorter or longer vocal tract, another speaker
    at the same pitch), made as a main mixture of a random variant (clean, in noise at 5...30 or
    -5...12 dB SNR, or quiet). Their own generator, so the other mixtures stay the same."""
    return changed_voice_mixtures(cfg, held, rng, tmp, cfg.formants, lambda x: formant_shifted(
        x, float(np.exp(rng.uniform(np.log(0.8), np.log(1.25))))))


def changed_voice_mixtures(cfg, held, rng, tmp, times, change):
    """Each real voice of the pool that validation does not hold out (`held`) `times` more times as
    `change(voice)` makes it, each made as a main mixture of a random variant."""
    noise = pool_noises(cfg.shared) + synthetic_noises(rng)
    mixes = []
    for x, labels, voice in pool_voices(cfg.shared):
        if voice in held:
            continue
        for _ in range(times):
            mixes.append(voice_mixture(rng, change(x), labels, voice, int(rng.integers(4)), noise, tmp, cfg))
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


def effort_mixtures(cfg, held, rng, tmp):
    """Each real voice of the pool that validation does not hold out (`held`) --effort more times with
    more vocal effort (`effortful`), made as a main mixture of a random variant (clean, in noise at
    5...30 or -5...12 dB SNR, or quiet). Their own generator, so the other mixtures stay the same."""
    return changed_voice_mixtures(cfg, held, rng, tmp, cfg.effort, lambda x: effortful(rng, x, tmp))


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


def corpus_mixtures(cfg, rng, tmp):
    """Each voice of `corpus_voices` (the --corpus-voices-from corpus, less --corpus-hold) --corpus-voices
    times, as the main mixtures make them (`voice_mixture`'s four variants in turn): voices of the kinds
    the corpus draws from (game characters, letters read one by one), which the pool lacks. Their own
    generator, so the other mixtures stay the same."""
    noise = pool_noises(cfg.shared) + synthetic_noises(rng)
    mixes = []
    for x, labels, group in corpus_voices(cfg.corpus_for_voices, set(cfg.hold)):
        for k in range(cfg.corpus_voices):
            mixes.append(voice_mixture(rng, x, labels, group, k % 4, noise, tmp, cfg))
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


def babble_mixtures(cfg, held, rng, tmp):
    """--babble crowds (`babble`) of the pool's voices that validation does not hold out (`held`), in which
    Silero hears speech in at most a tenth of the frames (drawn again otherwise, up to CROWD_DRAWS times,
    the last draw kept; so --babble needs Silero even without --distill), each alone once (at -50...-15 dBFS,
    over a faint floor) and under two voices of the pool (also not held out), made as the main mixtures'
    noisy variants (`voice_mixture`, -5...30
    dB SNR). The voices over the crowd are the labels; the crowd alone is not speech. Their own
    generator, so the other mixtures stay the same."""
    voices = [v for v in pool_voices(cfg.shared) if v[2] not in held]
    mixes = []
    for _ in range(cfg.babble):
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
                                       tmp, cfg))
    return mixes


def texture_mixtures(cfg, rng):
    """--textures textures (see `texture`), each alone at three levels and under one voice of the training
    pool at -5...25 dB SNR (also three times). Their own generator, so the other mixtures stay the same."""
    voices = pool_voices(cfg.shared)
    pkg = "texture"
    mixes = []
    for k in range(cfg.textures):
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
            y = at_level(y, lab, level)
            nn = colour(rng, fit_loop(rng, nz, len(y)))
            nn = at_snr(nn, y, lab, rng.uniform(-5, 25))
            mixes.append((y + nn, lab, voice + "|" + pkg, None, teacher_gain(level)))
    return mixes



# Noise categories (the pool's and more_noise's) and synthetic kinds a long session draws three times as
# often as the rest: the steady backgrounds of a call that lasts an hour.
STEADY = ("machinery", "ambience", "fan", "blades", "hum", "white", "pink", "brown")


def long_session_mixtures(cfg, rng, tmp):
    """--long-sessions N sessions of 1.5-4 minutes, as a call beside a fan or a machine: one noise recording
    (the pool's, more_noise's, or a synthetic one drawn for it; machines, ambience and the steady synthetic
    kinds three times as often as the rest) played whole in a loop for the session at -55...-25 dBFS RMS,
    coloured, over a faint floor; in half of them one to three files of one voice (the pool's or
    more_speech's) over it at 0...20 dB SNR (at most -14 dBFS), the first after 20 s at the earliest. Trained
    with the GRU's
    state carried from chunk to chunk (--stream-frames), they ask what to answer after minutes of the same
    sound, which 6 s chunks never did, and that a voice over it is still heard. A session's group is its
    noise's package (and its voice's), so that a fold holds it out with them. Their own generator, so the
    other mixtures stay the same."""
    noise = pool_noises(cfg.shared) + more_noises(cfg)
    kinds = [k for k in SYNTHETIC if k not in ("silence", "clicks")]
    choices = [("file", k) for k in range(len(noise))] + [("synthetic", k) for k in kinds]
    weight = np.array([3.0 if (noise[k][1] if c == "file" else k) in STEADY else 1.0 for c, k in choices])
    voices = pool_voices(cfg.shared) + more_voices(cfg)
    mixes = []
    for _ in range(cfg.long_sessions):
        n = int(rng.uniform(90, 240) * SR)
        c, k = choices[rng.choice(len(choices), p=weight / weight.sum())]
        if c == "file":
            nz, _, pkg = noise[k]
        else:
            nz, pkg = synthetic_noise(rng, int(rng.uniform(20, 60) * SR), k), f"synthetic-{k}"
        start = int(rng.integers(len(nz)))   # played whole, again and again, from anywhere in it
        bed = colour(rng, np.tile(nz, n // len(nz) + 2)[start:start + n])
        level = rng.uniform(-55, -25)
        bed = bed * 10 ** (level / 20) / rms(bed)
        y = bed + coloured(rng, n, rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
        labels, group, gain = [], pkg, None
        if rng.random() < 0.5:
            _, _, voice = voices[rng.integers(len(voices))]
            mine = [v for v in voices if v[2] == voice]
            at = rng.uniform(20, 60)
            snr = rng.uniform(0, min(20, -14 - level))   # the voice at most -14 dBFS (active RMS)
            for _ in range(int(rng.integers(1, 4))):
                x, lab, _ = mine[rng.integers(len(mine))]
                put = int(at * SR)
                if put + len(x) > n or not lab:
                    break
                v = colour(rng, x)
                if rng.random() < 0.2:
                    v = reverb(rng, v)
                v = v * 10 ** ((level + snr) / 20) / active_rms(v, lab)
                y[put:put + len(v)] += v
                labels += [[a + at, b + at] for a, b in lab]
                at += len(x) / SR + rng.uniform(5, 40)
            if labels:
                group, gain = voice + "|" + pkg, teacher_gain(level + snr)
        mixes.append((y.astype(np.float32), labels, group, None, gain))
    return mixes
