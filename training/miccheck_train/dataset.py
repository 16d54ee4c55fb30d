"""The data set of a run: every kind of mixture the configuration asks for, analysed into features, labels,
validation groups and the teacher's probabilities (kept in --cache files), and the validation split that
holds out whole voices and noise packages."""
import json, logging, os, shutil, tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
import numpy as np

from .config import AUX_BANDS, FEATURES, FOLDS, SR
from .errors import ConfigError, DataError, ToolError
from .features import features, frame_labels, teacher_probs, write_wav
from .mixtures import (babble_mixtures, corpus_mixtures, corpus_voice_labels, effort_mixtures, flite_mixtures,
                       formant_mixtures, long_session_mixtures, make_mixtures, more_noises, noisy_speech_mixtures,
                       pool_noises, texture_mixtures, TRANSIENTS)
from .model import model_probs, start_model
from .progress import bar
from .records import Group

log = logging.getLogger(__name__)


def checked(cfg):
    """`cfg` checked (`Config.checked`: its ranges), then against the files and programs it names: the
    --teachers model files, the --corpus-voices corpus and its --corpus-hold sources, flite for --flite,
    the --more-speech and --more-noise folders and the --init model's shape. Raises a `TrainingError`
    naming the first that does not fit (before any audio is made: that takes minutes)."""
    cfg.checked()
    m, mo, p = cfg.material, cfg.model, cfg.paths
    missing = [t for t in cfg.teacher.teachers or [] if not os.path.isfile(t)]
    if missing:
        raise DataError(f"--teachers: no such model file: {', '.join(missing)}")
    if m.corpus_voices > 0:
        known = {lab.get("speech_source") for _, lab in corpus_voice_labels(cfg.corpus_for_voices)}
        if not known:
            raise DataError(f"--corpus-voices: no clean or quiet speech in {cfg.corpus_for_voices}")
        if set(m.hold) - known:
            raise DataError(f"--corpus-hold: no such speech source in {cfg.corpus_for_voices}: "
                            f"{', '.join(sorted(set(m.hold) - known))} (there are: {', '.join(sorted(known))})")
    if m.flite > 0 and shutil.which("flite") is None:
        raise ToolError("--flite needs flite (apt-get install flite)")
    for name, folder, sub in (("--more-speech", p.more_speech, "speech"), ("--more-noise", p.more_noise, "noise")):
        if folder != "none" and not os.path.isdir(os.path.join(folder, sub)):
            recipe = name.removeprefix("--").replace("-", "_")
            shared = p.shared or "../shared"
            raise DataError(f"{name}: {folder} holds no {sub}/ folder: build it with python3 {shared}/training/"
                            f"{recipe}/build.py --out {folder} (or give {name} none)")
    if mo.init:
        start = start_model(cfg)
        shape = (start["features"], start["dense"]["outputs"], start["gru"]["hidden"], start["lookahead"])
        if shape[3] != mo.lookahead or any(have > want for have, want in
                                           zip(shape, (mo.features, mo.dense, mo.hidden))):
            raise ConfigError(f"--init: {mo.init} has {shape[0]} features, {shape[1]} dense units, {shape[2]} GRU "
                              f"units and a look-ahead of {shape[3]}; give the same --lookahead and at least as many "
                              f"--features, --dense and --hidden (more widen the model: the new units start without "
                              f"effect)")
    return cfg


@dataclass
class Dataset:
    """Per mixture: X (every feature `miccheck features` writes, a row per frame), Y (frame labels), G (its
    validation `Group`: the voice and the noises' packages), teacher (Silero's probabilities, None without
    --distill) and aux (with --aux-snr, `voice_snr`); `held`, the sources validation holds out."""
    X: list
    Y: list
    G: list
    teacher: list | None
    aux: list = field(default_factory=list)
    held: set = field(default_factory=set)

    def split(self, no_validation):
        """The indices of the training mixtures and of the held-out ones."""
        val = [False] * len(self.G) if no_validation else [any(p in self.held for p in g.parts) for g in self.G]
        return [i for i, v in enumerate(val) if not v], [i for i, v in enumerate(val) if v]


def build(cfg):
    """The run's `Dataset`: the main mixtures (with the split's seed), the split, then each added kind with its
    own generator and cache file, so that the main mixtures and the split stay as they are."""
    m, p, v = cfg.material, cfg.paths, cfg.validation
    split_seed = v.split_seed
    aux = []   # with --aux-snr: each mixture's voice_snr, in X's order

    def loaded(path, seed, make):
        """(X, Y, G, teacher) of the mixtures `make(rng, tmp)` builds with the generator of `seed`, kept in
        the cache file `path` (and with --aux-snr their voice_snr added to `aux`, kept beside it)."""
        def build_them():
            with tempfile.TemporaryDirectory() as tmp:
                return analysed(cfg, make(np.random.default_rng(seed), tmp))
        data = cached(cfg, path, build_them)
        if cfg.training.aux_snr > 0:
            aux.extend(cached_voice_snr(path and path.removesuffix(".npz") + "-voice-snr.npz",
                                        lambda tmp: make(np.random.default_rng(seed), tmp), data))
        return data

    if v.fold_corpus and p.cache and os.path.exists(p.cache) and not os.path.isdir(v.fold_corpus):
        raise ConfigError(f"--fold-corpus is written while the main mixtures are built, and {p.cache} holds them "
                          f"already: give another --cache, or leave --fold-corpus out")

    def main_mixtures(rng, tmp):
        mixes = make_mixtures(cfg, rng, tmp)
        if v.fold_corpus:
            held = held_parts(cfg, [mix.group for mix in mixes])
            write_fold_corpus(v.fold_corpus, mixes, held)
            write_fold_recordings(v.fold_corpus, cfg, held)
        return mixes

    X, Y, G, teacher = loaded(p.cache, split_seed, main_mixtures)
    # Hold out whole voices and noise packages (of the main mixtures, so that adding textures keeps the split).
    held = held_parts(cfg, G)

    def added(suffix, seed, make):
        """The data joined with the mixtures `make(rng, tmp)` builds, with their own generator (`seed`) and
        cache file (beside --cache, with `suffix`): the main mixtures stay exactly as they are."""
        return joined((X, Y, G, teacher), loaded(cache_beside(cfg, suffix), seed, make))

    # The extra voices are only those that validation does not hold out (except --noisy-speech's), and their
    # generators are the split's seed's (so that seeds compared on one split hear the same mixtures), except
    # the textures', which are the model seed's.
    kept_out = set() if v.no_validation else held
    for k in range(m.redraw):
        X, Y, G, teacher = added(f"-redraw{k + 1}", split_seed + 7000 + k,
                                 lambda rng, tmp: make_mixtures(cfg, rng, tmp))
    if m.textures > 0:
        X, Y, G, teacher = added(f"-textures{m.textures}", cfg.training.seed + 1000,
                                 lambda rng, tmp: texture_mixtures(cfg, rng))
    if m.noisy_speech > 0:
        X, Y, G, teacher = added(f"-noisy{m.noisy_speech}"
                                 + (f"-raised{m.raise_pitch:g}" if m.raise_pitch > 0 else ""),
                                 split_seed + 2000, lambda rng, tmp: noisy_speech_mixtures(cfg, rng, tmp))
    if m.babble > 0:
        X, Y, G, teacher = added(f"-babble{m.babble}", split_seed + 4000,
                                 lambda rng, tmp: babble_mixtures(cfg, kept_out, rng, tmp))
    if m.flite > 0:
        X, Y, G, teacher = added(f"-flite{m.flite}", split_seed + 8000,
                                 lambda rng, tmp: flite_mixtures(cfg, rng, tmp))
    if m.formants > 0:
        X, Y, G, teacher = added(f"-formants{m.formants}", split_seed + 5000,
                                 lambda rng, tmp: formant_mixtures(cfg, kept_out, rng, tmp))
    if m.effort > 0:
        X, Y, G, teacher = added(f"-effort{m.effort}", split_seed + 6000,
                                 lambda rng, tmp: effort_mixtures(cfg, kept_out, rng, tmp))
    if m.long_sessions > 0:
        X, Y, G, teacher = added(f"-long{m.long_sessions}", split_seed + 9000,
                                 lambda rng, tmp: long_session_mixtures(cfg, rng, tmp))
    if m.corpus_voices > 0:
        before = len(X)
        X, Y, G, teacher = added(f"-corpus{m.corpus_voices}" + "".join("-without-" + h for h in m.hold),
                                 split_seed + 3000, lambda rng, tmp: corpus_mixtures(cfg, rng, tmp))
        log.info(f"corpus voices: {len(X) - before} mixtures of {len({g.voice for g in G[before:]})} speech "
                 f"sources" + (f", without {', '.join(m.hold)}" if m.hold else ""))
    t = cfg.teacher
    if t.teachers:
        # The models' mean, blended with Silero: the teacher's part of every target.
        ensemble = np.mean([np.concatenate(model_probs(path, X)) for path in t.teachers], axis=0)
        bounds = np.cumsum([0] + [len(x) for x in X])
        teacher = [(1 - t.teacher_share) * probs + t.teacher_share * ensemble[bounds[i]:bounds[i + 1]]
                   for i, probs in enumerate(teacher)]
        log.info(f"teachers: Silero and the mean of {len(t.teachers)} models ({t.teacher_share:.2f} of it)")
    return Dataset(X, Y, G, teacher, aux, held)


def held_parts(cfg, G):
    """The sources (voices and noise packages, the parts of the `Group`s `G`) that validation holds out: those
    --fold names, or with --fold random a twelfth of all, drawn by --split-seed (its own generator, so
    that the split is the same with or without --cache)."""
    parts = sorted({p for g in G for p in g.parts})
    v = cfg.validation
    if v.fold == "random":
        return set(np.random.default_rng(v.split_seed).choice(parts, size=max(2, len(parts) // 12), replace=False))
    return {p for p in parts if any(p.startswith(h) for h in FOLDS[v.fold])}


def write_fold_corpus(folder, mixes, held):
    """Every `Mixture` of `mixes` with a held-out source, as a 16-bit WAV and labels (its speech, scenario and
    music_vocals, as ../shared/corpus's), into `folder`: the fold as a corpus any detector can be
    scored on with ../shared/bench/score.py."""
    os.makedirs(folder, exist_ok=True)
    count = 0
    for k, m in enumerate(mixes):
        if not any(p in held for p in m.group.parts):
            continue
        write_labelled(folder, f"{m.scenario}_{k:05d}_{'+'.join(m.group.parts)}", m.signal, m.scenario,
                       m.music_vocals, m.group.name, m.labels)
        count += 1
    log.info(f"fold corpus: {count} mixtures of held-out sources in {folder}")


def write_labelled(folder, name, x, scenario, music_vocals, group, speech):
    """`x` as `name`.wav (16-bit) in `folder`, with its labels as ../shared/corpus has them (`name`.json:
    the speech segments, scenario and music_vocals, and the validation group's name)."""
    samples = write_wav(os.path.join(folder, name + ".wav"), x)
    label = {"file": name + ".wav", "duration_s": round(samples / SR, 3), "scenario": scenario,
             "music_vocals": music_vocals, "group": group, "speech": [[round(a, 3), round(b, 3)] for a, b in speech]}
    with open(os.path.join(folder, name + ".json"), "w") as f:
        json.dump(label, f)


def write_fold_recordings(folder, cfg, held):
    """Every noise recording (the pool's and more_noise's) of a package the fold holds out, whole and as it
    was recorded, into `folder` beside the fold's mixtures: a fan or a machine as a call hears it for
    minutes, which ../shared/bench/score.py --loop-noise plays in a loop (the mixtures are a few seconds
    long and never asked it)."""
    os.makedirs(folder, exist_ok=True)
    count = 0
    for n in pool_noises(cfg.paths.shared) + more_noises(cfg):
        if n.package not in held:
            continue
        scenario = "transients" if n.category in TRANSIENTS else "noise_only"
        write_labelled(folder, f"{scenario}_whole_{count:03d}_{n.category}_{n.package}", n.signal, scenario,
                       n.category == "music_vocals", n.package, [])
        count += 1
    log.info(f"fold corpus: {count} whole recordings of held-out noise packages in {folder}")


def analysed(cfg, mixes):
    """Features, frame labels, groups and (with --distill) teacher probabilities of the `Mixture`s `mixes`."""
    with tempfile.TemporaryDirectory() as tmp:
        # A copy of the binary, so that a rebuild during training cannot replace it mid-run.
        binary = os.path.join(tmp, "miccheck")
        shutil.copy2(cfg.paths.binary, binary)
        log.info(f"{len(mixes)} mixtures, {sum(len(m.signal) for m in mixes) / SR / 3600:.2f} h")
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            feats = list(bar(ex.map(lambda km: features(binary, km[1].signal, os.path.join(tmp, str(km[0]))),
                                    enumerate(mixes)), total=len(mixes), desc="features", unit="mix"))
        teacher = None
        hears = cfg.teacher.teacher_hears
        if cfg.teacher.distill > 0:
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
                def heard(m):
                    if hears == "clean" and m.clean is not None:
                        return m.clean
                    if hears == "level" and m.gain is not None:
                        return m.signal * m.gain
                    return m.signal
                teacher = list(bar(ex.map(lambda mf: teacher_probs(heard(mf[0]), len(mf[1])), zip(mixes, feats)),
                                   total=len(mixes), desc="teacher", unit="mix"))
    X = [f.astype(np.float32) for f in feats]
    Y = [frame_labels(m.labels, len(f)).astype(np.float32) for m, f in zip(mixes, feats)]
    G = [m.group for m in mixes]
    return X, Y, G, teacher


def cached(cfg, path, build):
    """`build()`'s (X, Y, G, teacher), kept in the .npz `path` (if given) and read back from it. The groups
    are kept as their names and whether each has a voice (V; a cache without it, from before, had its voice
    first where the mixture holds speech)."""
    if path and os.path.exists(path):
        z = np.load(path, allow_pickle=True)
        teacher = list(z["T"]) if "T" in z else None
        if cfg.teacher.distill > 0 and teacher is None:
            raise DataError(f"{path} holds no teacher probabilities: give another --cache to build one with --distill")
        X = list(z["X"])
        if X and X[0].shape[1] != FEATURES:
            raise DataError(f"{path} holds {X[0].shape[1]} features a frame where `miccheck features` now writes "
                            f"{FEATURES}: give another --cache to build one")
        Y = list(z["Y"])
        voiced = z["V"] if "V" in z else [bool(y.any()) for y in Y]
        return X, Y, [Group.named(str(g), bool(v)) for g, v in zip(z["G"], voiced)], teacher
    X, Y, G, teacher = build()
    if path:
        extra = {"T": np.array(teacher, dtype=object)} if teacher is not None else {}
        np.savez(path, X=np.array(X, dtype=object), Y=np.array(Y, dtype=object),
                 G=np.array([g.name for g in G], dtype=object), V=np.array([g.voice is not None for g in G]), **extra)
    return X, Y, G, teacher


def voice_snr(m, n):
    """For each of `n` 10 ms frames of the `Mixture` `m`, the voice's level over everything else in it (noise
    and floor) in dB, in each of AUX_BANDS, clamped to -10...30 dB and scaled to 0...1: how much voice
    there is to hear. Frames without voice (noise alone, pauses) are 0."""
    out = np.zeros((n, len(AUX_BANDS)), np.float32)
    if m.clean is None:
        return out
    x = m.signal; v = m.clean / m.gain   # the voice at its level in the mixture (see voice_mixture)
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
    cached: the same count, groups and labels, or it raises a `DataError`."""
    if path and os.path.exists(path):
        return list(np.load(path, allow_pickle=True)["S"])
    X, Y, G = data[0], data[1], data[2]
    with tempfile.TemporaryDirectory() as tmp:
        mixes = make(tmp)
    if len(mixes) != len(X) or any(m.group != g or not np.array_equal(frame_labels(m.labels, len(x)), y > 0)
                                   for m, x, y, g in zip(mixes, X, Y, G)):
        raise DataError("--aux-snr: the mixtures built again differ from the cached ones; build the cache again")
    S = [voice_snr(m, len(x)) for m, x in zip(mixes, X)]
    if path:
        np.savez(path, S=np.array(S, dtype=object))
    return S


def cache_beside(cfg, suffix):
    """The cache file of mixtures made by their own generator, beside --cache (None without it)."""
    cache = cfg.paths.cache
    return cache and cache.removesuffix(".npz") + suffix + ".npz"


def joined(data, extra):
    """(X, Y, G, teacher) of `data` with `extra`'s mixtures after them."""
    (X, Y, G, teacher), (eX, eY, eG, eT) = data, extra
    return X + eX, Y + eY, G + eG, (teacher + eT if teacher is not None else None)
