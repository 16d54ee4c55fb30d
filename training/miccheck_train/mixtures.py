"""The training material: mixtures (`records.Mixture`) of voices (the pool's, synthesised ones, the corpus's
clean ones) and noise (the pool's and synthetic), each with its labels, its validation group (`Group`), the
voice alone at -26 dBFS and the gain that brings the voice to -26 dBFS. Every builder takes the run's
`Config` and its own random generator, so that adding one kind of mixture leaves the others as they were."""
import dataclasses, glob, json, logging, os
import numpy as np

from .config import CROWD_DRAWS, SR, TEACHER_DBFS
from .features import teacher_probs
from .progress import bar
from .records import Group, Mixture, Noise, Voice
from .synth import (active_rms, at_level, at_snr, colour, coloured, espeak_set, fit_loop, flite_set,
                    formant_shifted, pitch_shifted, read, reverb, rms, speed, stretched, synthetic_noise, texture,
                    through_channel, voice_effect, SYNTHETIC)

log = logging.getLogger(__name__)

# The corpus scenario of each of voice_mixture's variants, and the noise categories the corpus calls
# transients (what --fold-corpus writes in its labels).
VARIANT_SCENARIO = ["clean", "snr", "snr", "quiet"]
TRANSIENTS = ("impacts_doors", "clicks", "game_sfx")


def flite_mixtures(cfg, rng, tmp):
    """--flite phrase sets (`flite_set`), each made as the four main mixtures (clean, in noise at
    5...30 and -5...12 dB SNR, quiet): voices that are not the pool's read speech nor espeak-ng's."""
    noise = pool_noises(cfg.paths.shared) + synthetic_noises(rng)
    return four_mixtures(rng, flite_set(rng, tmp, cfg.material.flite), noise, tmp, cfg)



def pool_voices(shared):
    """The training pool's real voices: a `Voice` for every speech file, named by its voice folder."""
    voices = []
    for j in sorted(glob.glob(os.path.join(shared, "training", "speech", "*", "*.json"))):
        voices.append(Voice(read(j[:-5] + ".flac"), json.load(open(j))["speech"],
                            os.path.basename(os.path.dirname(j))))
    return voices


def pool_noises(shared):
    """The training pool's real noise: a `Noise` for every noise file."""
    return noises_in(os.path.join(shared, "training", "noise"))


def noises_in(folder):
    """A `Noise` (signal, category, package) for every noise file (FLAC and JSON) in `folder`."""
    noise = []
    for j in sorted(glob.glob(os.path.join(folder, "*.json"))):
        lab = json.load(open(j))
        noise.append(Noise(read(j[:-5] + ".flac"), lab["category"], lab.get("source_pkg", "?").split()[0]))
    return noise


def more_voices(cfg):
    """more_speech's voices (none with --more-speech none), each a `Voice` named by its voice folder, without
    the nonverbal files (cries, grunts, laughs) unless --nonverbal."""
    if cfg.paths.more_speech == "none":
        return []
    voices = []
    for j in sorted(glob.glob(os.path.join(cfg.paths.more_speech, "speech", "*", "*.json"))):
        lab = json.load(open(j))
        if lab.get("nonverbal") and not cfg.material.nonverbal:
            continue
        voices.append(Voice(read(j[:-5] + ".flac"), lab["speech"], os.path.basename(os.path.dirname(j))))
    return voices


def more_noises(cfg):
    """more_noise's files (none with --more-noise none), as `noises_in`."""
    return [] if cfg.paths.more_noise == "none" else noises_in(os.path.join(cfg.paths.more_noise, "noise"))


def synthetic_noises(rng):
    """Three of each synthetic noise (white, pink, brown, hum, fan, breathing, clicks, silence), 15-40 s."""
    return [Noise(synthetic_noise(rng, int(rng.uniform(15, 40) * SR), kind), kind, f"synthetic-{kind}")
            for kind in SYNTHETIC * 3]


def teacher_gain(level):
    """The gain that brings a voice at `level` dBFS (active RMS) to TEACHER_DBFS: what --teacher-hears
    level applies to a whole mixture before Silero judges it."""
    return 10 ** ((TEACHER_DBFS - level) / 20)


def voice_mixture(rng, voice, variant, noise, tmp, cfg):
    """A `Mixture` of the `Voice` `voice`: variant 0 clean over a faint floor, 1 over one of `noise` at
    5...30 dB SNR, 2 at -5...12 dB, 3 quiet (--quiet-dbfs, half with reverb); random speed, colouring,
    reverb and (a --voice-effects share of those not quiet) a voice effect. Its group is the voice's (and
    for 1 and 2 the noise's package), its `clean` the voice alone at -26 dBFS (what the teacher hears with
    --teacher-hears clean) and its `gain` the one that brings the voice to -26 dBFS (with --teacher-hears
    level)."""
    y, lab = (speed(rng, voice.signal, voice.labels) if rng.random() < 0.3 else (voice.signal, voice.labels))
    quiet = variant == 3
    target = rng.uniform(*cfg.material.quiet_dbfs) if quiet else rng.uniform(-42, -14)
    if cfg.material.voice_effects > 0 and not quiet and rng.random() < cfg.material.voice_effects:
        y = voice_effect(rng, y, tmp)
    y = colour(rng, y)
    if rng.random() < (0.5 if quiet else 0.2):
        y = reverb(rng, y)
    clean = at_level(y, lab, TEACHER_DBFS)
    y = at_level(y, lab, target)
    gain = teacher_gain(target)
    floor = coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
    if variant in (0, 3):
        return Mixture(y + (floor if rng.random() < 0.8 else 0), lab, Group(voice.name), clean, gain)
    n = noise[rng.integers(len(noise))]
    snr = rng.uniform(5, 30) if variant == 1 else rng.uniform(-5, 12)
    nn = colour(rng, fit_loop(rng, n.signal, len(y)))
    nn = at_snr(nn, y, lab, snr)
    return Mixture(y + nn + floor, lab, Group(voice.name, (n.package,)), clean, gain)


def four_mixtures(rng, speech, noise, tmp, cfg):
    """Each `Voice` of `speech` as the four main mixtures, `voice_mixture`'s variants in turn: clean, in noise
    at 5...30 and at -5...12 dB SNR, quiet."""
    return [voice_mixture(rng, voice, variant, noise, tmp, cfg) for voice in speech for variant in range(4)]


def channelled(cfg, rng, mix, tmp, scenario, music_vocals=False):
    """The `Mixture` `mix` through --telephone's or --lofi's channel (or neither), with its corpus scenario
    and music_vocals (what --fold-corpus writes)."""
    y = through_channel(rng, mix.signal, tmp, cfg.material.telephone, cfg.material.lofi)
    # Kept as float32 (as the 16-bit file it becomes needs), and the voice alone only where the teacher
    # hears it (--teacher-hears clean) or --aux-snr reads it: a run's mixtures are held in memory at once.
    clean = mix.clean if cfg.teacher.teacher_hears == "clean" or cfg.training.aux_snr > 0 else None
    return dataclasses.replace(mix, signal=y.astype(np.float32), clean=clean, scenario=scenario,
                               music_vocals=music_vocals)


def make_mixtures(cfg, rng, tmp):
    """The main mixtures: the pool's voices and --espeak (and --espeak-short) sets as the four main mixtures
    each, more_speech's voices as --more-speech-mixtures of them each, every noise file of the pool alone
    --noise-variants times and every more_noise file --more-noise-variants times; a --telephone and a
    --lofi share of them all through those channels."""
    m = cfg.material
    speech, noise = pool_voices(cfg.paths.shared), pool_noises(cfg.paths.shared)
    speech += espeak_set(rng, tmp, m.espeak)
    if m.espeak_short > 0:
        speech += espeak_set(rng, tmp, m.espeak_short, short=True)
    more_speech, more_noise = more_voices(cfg), more_noises(cfg)
    log.info(f"{len(speech)} speech files and {len(more_speech)} of more_speech, {len(noise)} noise files and "
             f"{len(more_noise)} of more_noise")
    noise += synthetic_noises(rng)
    every_noise = noise + more_noise
    plan = [(n, m.noise_variants) for n in noise] + [(n, m.more_noise_variants) for n in more_noise]
    progress = bar(total=4 * len(speech) + m.more_speech_mixtures * len(more_speech) + sum(v for _, v in plan),
                   desc="mixtures", unit="mix")

    def spoken(voice, variant):
        progress.update()
        return channelled(cfg, rng, voice_mixture(rng, voice, variant, every_noise, tmp, cfg), tmp,
                          VARIANT_SCENARIO[variant])

    with progress:
        mixes = [spoken(voice, variant) for voice in speech for variant in range(4)]
        for k, voice in enumerate(more_speech):
            for j in range(m.more_speech_mixtures):
                mixes.append(spoken(voice, (k + j * 2) % 4 if m.more_speech_mixtures <= 2 else (k + j) % 4))
        for n, variants in plan:
            scenario = "transients" if n.category in TRANSIENTS else "noise_only"
            for variant in range(variants):
                progress.update()
                y = colour(rng, n.signal)
                if variant >= 3:
                    # Played faster or slower: music in another key and tempo, other animals, other machines.
                    y = stretched(y, rng.uniform(0.8, 1.25))
                if n.category in ("impacts_doors", "clicks", "game_sfx") and variant % 3 == 2:
                    y = y * 10 ** (rng.uniform(-12, -1) / 20) / (np.max(np.abs(y)) + 1e-12)
                else:
                    y = y * 10 ** (rng.uniform(-55, -12) / 20) / rms(y)
                if rng.random() < 0.6:
                    y = y + coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
                group = Group(noises=(n.package,))
                if rng.random() < 0.3 and n.category not in ("silence",):
                    other = every_noise[rng.integers(len(every_noise))]
                    y = y + (colour(rng, fit_loop(rng, other.signal, len(y))) * rms(y) / rms(other.signal)
                             * 10 ** (rng.uniform(-20, 0) / 20))
                    group = Group(noises=(n.package, other.package))
                mixes.append(channelled(cfg, rng, Mixture(y, [], group), tmp, scenario, n.category == "music_vocals"))
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
    m = cfg.material
    noise = pool_noises(cfg.paths.shared) + synthetic_noises(rng)
    mixes = []
    for voice in bar(pool_voices(cfg.paths.shared), desc="noisy speech", unit="voice"):
        for _ in range(m.noisy_speech):
            y, lab = (speed(rng, voice.signal, voice.labels) if rng.random() < 0.3 else (voice.signal, voice.labels))
            if rng.random() < m.raise_pitch:
                y = raised(rng, y, tmp)
            elif rng.random() < m.voice_effects:
                y = voice_effect(rng, y, tmp)
            y = colour(rng, y)
            if rng.random() < 0.2:
                y = reverb(rng, y)
            clean = at_level(y, lab, TEACHER_DBFS)
            level = rng.uniform(-42, -16)
            y = at_level(y, lab, level)
            n = noise[rng.integers(len(noise))]
            nn = colour(rng, fit_loop(rng, n.signal, len(y)))
            nn = at_snr(nn, y, lab, rng.uniform(-5, 20))
            floor = coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
            mixes.append(Mixture(y + nn + floor, lab, Group(voice.name, (n.package,)), clean, teacher_gain(level)))
    return mixes


def formant_mixtures(cfg, held, rng, tmp):
    """Each real voice of the pool that validation does not hold out (`held`) --formants more times with its
    formants moved (`formant_shifted`, ratio 0.8...1.25: a shorter or longer vocal tract, another speaker
    at the same pitch), made as a main mixture of a random variant (clean, in noise at 5...30 or
    -5...12 dB SNR, or quiet). Their own generator, so the other mixtures stay the same."""
    return changed_voice_mixtures(cfg, held, rng, tmp, cfg.material.formants, lambda x: formant_shifted(
        x, float(np.exp(rng.uniform(np.log(0.8), np.log(1.25))))), "formants")


def changed_voice_mixtures(cfg, held, rng, tmp, times, change, desc):
    """Each real voice of the pool that validation does not hold out (`held`) `times` more times as
    `change(signal)` makes it, each made as a main mixture of a random variant (`desc` names them on the
    progress bar)."""
    noise = pool_noises(cfg.paths.shared) + synthetic_noises(rng)
    mixes = []
    for voice in bar(pool_voices(cfg.paths.shared), desc=desc, unit="voice"):
        if voice.name in held:
            continue
        for _ in range(times):
            changed = dataclasses.replace(voice, signal=change(voice.signal))
            mixes.append(voice_mixture(rng, changed, int(rng.integers(4)), noise, tmp, cfg))
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
    return changed_voice_mixtures(cfg, held, rng, tmp, cfg.material.effort, lambda x: effortful(rng, x, tmp),
                                  "effort")


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
    """The voices of `corpus_voice_labels`, each a `Voice` named "corpus-" and its speech source, leaving out
    the speech sources in `hold`."""
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
        voices.append(Voice(x, labels, "corpus-" + lab["speech_source"]))
    return voices


def corpus_mixtures(cfg, rng, tmp):
    """Each voice of `corpus_voices` (the --corpus-voices-from corpus, less --corpus-hold) --corpus-voices
    times, as the main mixtures make them (`voice_mixture`'s four variants in turn): voices of the kinds
    the corpus draws from (game characters, letters read one by one), which the pool lacks. Their own
    generator, so the other mixtures stay the same."""
    noise = pool_noises(cfg.paths.shared) + synthetic_noises(rng)
    mixes = []
    for voice in bar(corpus_voices(cfg.corpus_for_voices, set(cfg.material.hold)), desc="corpus voices",
                     unit="voice"):
        for k in range(cfg.material.corpus_voices):
            mixes.append(voice_mixture(rng, voice, k % 4, noise, tmp, cfg))
    return mixes


def babble(rng, voices, n, tmp):
    """A crowd, `n` samples at unit RMS: 8-16 of `voices` talking at once (looped, coloured, a third of
    them faster or slower, a fifth raised 300-900 cents as people cheering are), mostly in a reverberant
    room, half of the time with applause (`texture`) under them. Murmur and cheering are voiced and
    harmonic throughout, which the pool's noise has little of (one stadium recording)."""
    y = np.zeros(n)
    for _ in range(rng.integers(8, 17)):
        voice = voices[rng.integers(len(voices))]
        x = voice.signal
        # Each voice at the same speaking level (the active level: a file of letters is mostly silence).
        v = (x if rng.random() >= 0.3 else stretched(x, rng.uniform(0.85, 1.15))) / active_rms(x, voice.labels)
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
    voices = [v for v in pool_voices(cfg.paths.shared) if v.name not in held]
    mixes = []
    for _ in bar(range(cfg.material.babble), desc="crowds", unit="crowd"):
        # A crowd in which Silero hears someone speak (it does in about a third: one voice stands out)
        # is not a crowd's noise; such draws are made again.
        for _ in range(CROWD_DRAWS):
            bed = babble(rng, voices, int(rng.uniform(8, 20) * SR), tmp)
            if np.mean(teacher_probs(bed * 10 ** (TEACHER_DBFS / 20), len(bed) // 160) >= 0.5) <= 0.1:
                break
        y = colour(rng, bed) * 10 ** (rng.uniform(-50, -15) / 20)
        y = y + coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
        mixes.append(Mixture(y, [], Group(noises=("crowd",))))
        for _ in range(2):
            voice = voices[rng.integers(len(voices))]
            mixes.append(voice_mixture(rng, voice, int(rng.integers(1, 3)), [Noise(bed, "crowd", "crowd")], tmp, cfg))
    return mixes


def texture_mixtures(cfg, rng):
    """--textures textures (see `texture`), each alone at three levels and under one voice of the training
    pool at -5...25 dB SNR (also three times). Their own generator, so the other mixtures stay the same."""
    voices = pool_voices(cfg.paths.shared)
    pkg = "texture"
    mixes = []
    for k in bar(range(cfg.material.textures), desc="textures", unit="texture"):
        nz = texture(rng, int(rng.uniform(10, 25) * SR))
        for variant in range(3):
            y = colour(rng, nz) * 10 ** (rng.uniform(-55, -15) / 20)
            y = y + coloured(rng, len(y), rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
            mixes.append(Mixture(y, [], Group(noises=(pkg,))))
        for variant in range(3):
            voice = voices[rng.integers(len(voices))]
            y, lab = (speed(rng, voice.signal, voice.labels) if rng.random() < 0.3 else (voice.signal, voice.labels))
            y = colour(rng, y)
            level = rng.uniform(-42, -18)
            y = at_level(y, lab, level)
            nn = colour(rng, fit_loop(rng, nz, len(y)))
            nn = at_snr(nn, y, lab, rng.uniform(-5, 25))
            mixes.append(Mixture(y + nn, lab, Group(voice.name, (pkg,)), None, teacher_gain(level)))
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
    noise = pool_noises(cfg.paths.shared) + more_noises(cfg)
    kinds = [k for k in SYNTHETIC if k not in ("silence", "clicks")]
    choices = [("file", k) for k in range(len(noise))] + [("synthetic", k) for k in kinds]
    weight = np.array([3.0 if (noise[k].category if c == "file" else k) in STEADY else 1.0 for c, k in choices])
    voices = pool_voices(cfg.paths.shared) + more_voices(cfg)
    mixes = []
    for _ in bar(range(cfg.material.long_sessions), desc="long sessions", unit="session"):
        n = int(rng.uniform(90, 240) * SR)
        c, k = choices[rng.choice(len(choices), p=weight / weight.sum())]
        if c == "file":
            nz, pkg = noise[k].signal, noise[k].package
        else:
            nz, pkg = synthetic_noise(rng, int(rng.uniform(20, 60) * SR), k), f"synthetic-{k}"
        start = int(rng.integers(len(nz)))   # played whole, again and again, from anywhere in it
        bed = colour(rng, np.tile(nz, n // len(nz) + 2)[start:start + n])
        level = rng.uniform(-55, -25)
        bed = bed * 10 ** (level / 20) / rms(bed)
        y = bed + coloured(rng, n, rng.uniform(0, 2)) * 10 ** (rng.uniform(-90, -62) / 20)
        labels, group, gain = [], Group(noises=(pkg,)), None
        if rng.random() < 0.5:
            voice = voices[rng.integers(len(voices))].name
            mine = [v for v in voices if v.name == voice]
            at = rng.uniform(20, 60)
            snr = rng.uniform(0, min(20, -14 - level))   # the voice at most -14 dBFS (active RMS)
            for _ in range(int(rng.integers(1, 4))):
                chosen = mine[rng.integers(len(mine))]
                x, lab = chosen.signal, chosen.labels
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
                group, gain = Group(voice, (pkg,)), teacher_gain(level + snr)
        mixes.append(Mixture(y.astype(np.float32), labels, group, None, gain))
    return mixes
