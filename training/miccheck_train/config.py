"""The constants of MicCheck's voice model and a run's settings (`Config`), which the command line fills.

A run's settings come in six groups, each a dataclass that `Config` holds: `paths` (what the run reads and
writes), `material` (the mixtures: what is mixed, how many of each and through which channels), `validation`
(what is held out and what the run is scored on), `teacher` (the targets: the labels blended with a
teacher), `model` (the network's shape and start) and `training` (the optimisation). Every option of
`train_vad.py` is a field of one of them, with its default and help text beside it: the parser is made
from the fields, an argument group each, so a run can also be set up in Python (`Config(training=
Training(epochs=2))`, or by the options' names, `Config.of(epochs=2)`) and checked the same way
(`Config.checked()`; `dataset.checked` also checks it against the files and programs it names).

No default lies where the code is: --shared, --binary and --out (and the other commands' paths) default to
places in the MicCheck checkout that `find_checkout` finds at run time (--checkout, $MICCHECK_CHECKOUT, or
the nearest folder at or above the current one with MicCheck's Package.swift), which `Config.resolved`
fills in; so the installed package runs from anywhere. It imports nothing of the package but `errors`
(which imports nothing), so every module may import it.
"""
import dataclasses, os
from dataclasses import dataclass, field

from .errors import ConfigError

SR = 16000
FEATURES = 50   # columns `miccheck features` writes (VoiceFeatureExtractor.count)
CORE_FEATURES = 47   # before the articulation features (VoiceFeatureExtractor.coreCount)
TEACHER_DBFS = -26   # the voice's level in what Silero hears with --teacher-hears clean or level
QUIET_DBFS = (-55, -38)   # the default voice level (active RMS) in quiet mixtures (--quiet-dbfs)
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
# Where ../shared/training's recipes build their material (more_speech/build.py, more_noise/build.py).
RECIPES = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "miccheck-training")
# The validation folds: what each holds out, by the start of a voice folder of more_speech (groups of
# voices: a package in one language, or all of a package's models, which share actors) and by noise
# package (a file and its telephone twin share their package, so they are held out together). Every
# fold's sources are ones the model before more_speech and more_noise never heard.
FOLDS = {
    "A": ["drascula-it-", "kajongg-female", "openarena-", "btanks-data", "qabcs-data", "wesnoth-1.16-data"],
    "B": ["fillets-nl-", "nexuiz-", "warzone-", "kajongg-male", "unknown-horizons", "trigger-rally-data",
          "cube2-data", "boswars-data"],
}


# The MicCheck checkout: where the paths' defaults lie (`find_checkout`), and those paths within it.
CHECKOUT_ENV = "MICCHECK_CHECKOUT"
CHECKOUT_HELP = (f"the MicCheck checkout whose files are the defaults of the other paths (default: ${CHECKOUT_ENV}, "
                 "or the nearest folder at or above the current one that holds MicCheck's Package.swift)")
SHARED = ("..", "shared")   # the shared folder beside the checkout
BINARY = (".build", "release", "miccheck")
BUNDLED_MODEL = ("Sources", "MicCheck", "Resources", "VoiceActivityModel.json")
IN_CHECKOUT = {"shared": SHARED, "binary": BINARY, "out": BUNDLED_MODEL}   # train_vad.py's paths there


def is_checkout(folder):
    """Whether `folder` holds MicCheck's Package.swift (the Swift package named MicCheck)."""
    try:
        with open(os.path.join(folder, "Package.swift"), encoding="utf-8") as f:
            return 'name: "MicCheck"' in f.read()
    except OSError:
        return False


def find_checkout(given=None, start=None):
    """The MicCheck checkout (an absolute path): `given` (--checkout), else $MICCHECK_CHECKOUT, else the nearest
    folder at or above `start` (default: the current folder) that holds MicCheck's Package.swift; None where
    there is none. A named folder that is not a checkout is a `ConfigError`."""
    named = given or os.environ.get(CHECKOUT_ENV)
    if named:
        if not is_checkout(named):
            raise ConfigError(f"{'--checkout' if given else '$' + CHECKOUT_ENV}: {named} holds no MicCheck "
                              f"Package.swift")
        return os.path.abspath(named)
    folder = os.path.abspath(start or os.getcwd())
    while not is_checkout(folder):
        if os.path.dirname(folder) == folder:
            return None
        folder = os.path.dirname(folder)
    return folder


def in_checkout(value, option, checkout, parts):
    """`value` (the option `option` as given), or where `parts` lie in the checkout `checkout`; a `ConfigError`
    naming the option when neither is there."""
    if value is not None:
        return value
    if checkout is None:
        raise ConfigError(f"{option} was not given, and no MicCheck checkout is at or above {os.getcwd()} to take its "
                          f"default from: give {option}, or name the checkout (--checkout DIR or ${CHECKOUT_ENV})")
    return os.path.join(checkout, *parts)


def option(default, help, **argparse_kwargs):
    """A field of a group of `Config` and its command-line option (the field's name with dashes)."""
    factory = (lambda: list(default)) if isinstance(default, list) else None
    kwargs = {"default_factory": factory} if factory else {"default": default}
    return field(metadata={"help": help, **argparse_kwargs}, **kwargs)


@dataclass
class Paths:
    """What the run reads and writes: the checkout, the shared folder, the binary, the recipes' folders, the
    cache and the model files."""
    checkout: str | None = option(None, CHECKOUT_HELP, metavar="DIR")
    shared: str | None = option(None, "the shared folder (training pool, corpus) (default: ../shared beside the "
                                      "checkout)")
    binary: str | None = option(None, "the miccheck binary whose `features` the model is trained on (default: the "
                                      "checkout's .build/release/miccheck)")
    more_speech: str = option(os.path.join(RECIPES, "more_speech"),
                              "the folder ../shared/training/more_speech/build.py builds (real acted, shouted, "
                              "quiet and radio voices in five languages), or none")
    more_noise: str = option(os.path.join(RECIPES, "more_noise"),
                             "the folder ../shared/training/more_noise/build.py builds (real machines, ambience, "
                             "music, impacts, clicks, some as telephone-band twins), or none")
    cache: str | None = option(None, "keep the dataset in this .npz and reuse it")
    keep_epochs: str | None = option(None, "also write each epoch's model into this folder (epoch-N.json)")
    out: str | None = option(None, "the model file to write (after every epoch) (default: the checkout's bundled "
                                   "model, Sources/MicCheck/Resources/VoiceActivityModel.json)")


@dataclass
class Material:
    """The mixtures: the kinds of voices and noises mixed, how many of each, and the channels they go through."""
    espeak: int = option(160, "espeak-ng phrase sets to synthesise")
    espeak_short: int = option(0, "espeak-ng sets of short utterances (letters, syllables, one-word answers) to "
                                  "synthesise")
    textures: int = option(0, "synthetic applause/rain/crackle textures to add, each alone and under voices")
    noisy_speech: int = option(0, "mixtures to add of each real voice of the pool over a noise (-5...20 dB SNR)")
    raise_pitch: float = option(0.0, "with --noisy-speech, the share of its voices raised 600-1300 cents first (a "
                                     "child's or an excited speaker's pitch)")
    babble: int = option(0, "crowds to add (8-16 of the pool's voices talking at once, often with applause), each "
                            "alone and under two voices of the pool")
    flite: int = option(0, "N phrase sets by flite (another synthesiser, pitch and pace drawn per phrase), each as "
                           "the four main mixtures (needs flite)", metavar="N")
    formants: int = option(0, "mixtures to add of each real voice of the pool with its formants moved (0.8...1.25: "
                              "other speakers at the same pitch), made as the main mixtures (off)")
    effort: int = option(0, "mixtures to add of each real voice of the pool said with more vocal effort (brighter, "
                            "150-450 cents higher, mildly driven), made as the main mixtures (off)")
    corpus_voices: int = option(0, "mixtures to add of each voice of the public corpus's clean and quiet files (and "
                                   "of the speech before a dead microphone's zeros), made as the main mixtures; its "
                                   "noisy files are never used")
    corpus_voices_from: str | None = option(None, "the corpus whose voices --corpus-voices uses (default: the public "
                                                  "corpus in --shared)")
    corpus_hold: list | None = option(None, "with --corpus-voices, speech sources (the labels' speech_source) to "
                                            "leave out, so that the corpus's files of those voices score a model "
                                            "that never heard them", nargs="+", metavar="SOURCE", type=str)
    more_speech_mixtures: int = option(2, "mixtures of each more_speech file (the main mixtures' variants in turn)")
    more_noise_variants: int = option(4, "mixtures of each more_noise file alone, made as --noise-variants' are")
    nonverbal: bool = option(False, "also train on more_speech's cries, grunts and laughs as speech (off: they are "
                                    "left out, neither speech nor noise)", action="store_true")
    telephone: float = option(0.12, "share of all mixtures (speech and noise alike) sent through a telephone channel: "
                                    "300-3400 Hz, 8 kHz, mu-law, A-law or GSM")
    lofi: float = option(0.08, "share of all mixtures sent through an 11 kHz channel, half of them 8-bit (as most "
                               "more_speech voices were recorded)")
    long_sessions: int = option(0, "N long sessions to add (1.5-4 minutes of one noise recording in a loop, half "
                                   "of them with a voice over it after 20 s or more), trained as streams "
                                   "(--stream-frames) (off: 0)", metavar="N")
    redraw: int = option(0, "N more draws of the main mixtures (new espeak-ng sets, levels, SNRs, noises, effects), "
                            "each with its own generator (off: 0)", metavar="N")
    quiet_dbfs: list = option(list(QUIET_DBFS), "the range of the voice's level (active RMS, dBFS) in the quiet "
                                                "mixtures, a quarter of the speech mixtures (default: %(default)s); "
                                                "another range draws the same mixtures with other levels, so give "
                                                "it another --cache", type=float, nargs=2, metavar=("LO", "HI"))
    noise_variants: int = option(6, "mixtures made of each noise file alone (from the fourth on, played 0.8-1.25x as "
                                    "fast)")
    voice_effects: float = option(0.3, "share of the speech mixtures (not the quiet ones) given a voice effect: "
                                       "saturation, ring modulation, a pitch shift or a tremolo")

    @property
    def hold(self):
        """--corpus-hold, sorted."""
        return sorted(self.corpus_hold or [])


@dataclass
class Validation:
    """What validation holds out (and the seed of that split and of the mixtures), and what the run is scored on
    after every epoch."""
    fold: str = option("A", "the validation fold: the sources it holds out "
                            f"({'; '.join(f'{k}: ' + ', '.join(v) for k, v in FOLDS.items())}), "
                            "or random (a twelfth of all sources, drawn by --split-seed, as before more_speech)",
                       choices=[*FOLDS, "random"])
    fold_corpus: str | None = option(None, "write the held-out mixtures of the main set into this folder as a "
                                           "labelled corpus (WAV and JSON, as ../shared/corpus), for "
                                           "../shared/bench/score.py to score any detector on them")
    corpus: str | None = option(None, "also report frame F1 and AUC on this labelled corpus after every epoch "
                                      "(monitoring only)")
    no_validation: bool = option(False, "train on every group (the final model)", action="store_true")
    split_seed: int = option(7, "seed of the validation split and of the mixtures; fixed, runs with other --seed "
                                "values differ only in their initialisation and chunk order, not in what they "
                                "train on")


@dataclass
class Teacher:
    """The targets: the labels, blended with Silero VAD's probabilities (and earlier models') frame by frame."""
    distill: float = option(0.5, "blend this share of Silero VAD's probability into every frame's target (training "
                                 "only)")
    distill_speech: float | None = option(None, "the share blended into frames labelled speech instead (default: "
                                                "--distill); lower keeps the teacher's doubt about quiet and noisy "
                                                "speech out of the targets", type=float)
    distill_silence: float | None = option(None, "the share blended into frames labelled not speech instead "
                                                 "(default: --distill); lower keeps the teacher's lingering after "
                                                 "each utterance out of the targets", type=float)
    teachers: list | None = option(None, "models (of earlier runs with other seeds) whose mean probability joins "
                                         "Silero's as the teacher: an ensemble distilled into one model",
                                   nargs="+", metavar="MODEL.json", type=str)
    teacher_share: float = option(0.5, "with --teachers, the models' share of the teacher's part of each target "
                                       "(Silero keeps the rest)")
    label_onsets: int = option(0, "frames at the start of each labelled utterance whose target is the label alone "
                                  "(Silero rises over the first 50-80 ms of a word, and a blend teaches that delay)")
    label_offsets: int = option(0, "frames after the end of each labelled utterance whose target is the label alone "
                                   "(Silero lingers after a word, and a blend teaches that tail) (off)")
    teacher_hears: str = option("level", "what Silero judges for --distill: the mixture; (speech mixtures) the voice "
                                         "alone at -26 dBFS; or (speech mixtures) the whole mixture brought to where "
                                         "its voice is at -26 dBFS, so that the targets keep Silero's judgement of "
                                         "the noise but not its doubt about quiet voices",
                                choices=["mix", "clean", "level"])

    @property
    def on_speech(self):
        """The teacher's share of the targets of frames labelled speech."""
        return self.distill if self.distill_speech is None else self.distill_speech

    @property
    def on_silence(self):
        """The teacher's share of the targets of frames labelled not speech."""
        return self.distill if self.distill_silence is None else self.distill_silence


@dataclass
class Model:
    """The network: the features it reads, its layers' sizes, its look-ahead, and the model it starts from."""
    init: str | None = option(None, "start from this model's weights and input standardisation (fine-tuning) "
                                    "instead of at random; with more --dense or --hidden units (or --features 50 "
                                    "from a 47-feature model) it is widened, the new units starting without effect "
                                    "on its output", metavar="MODEL.json")
    lookahead: int = option(3, "frames (10 ms) of audio after a frame that the model hears before deciding it (at "
                               "most 3)")
    features: int = option(FEATURES, f"features the model reads: all {FEATURES}, or the first {CORE_FEATURES} "
                                     "(without the articulation features 47-49, as the model before them)")
    dense: int = option(32, "units of the dense layer")
    hidden: int = option(48, "units of the GRU")


@dataclass
class Training:
    """The optimisation: seeds, threads, epochs, the learning rate, the loss's weights and the chunks'
    augmentations."""
    seed: int = option(8, "the model's initialisation and chunk order")
    threads: int = option(1, "PyTorch threads (1: as fast as 2 for this small model, and the bundled model's setting)")
    epochs: int = option(20, "passes over the training chunks (run A1, the bundled model: 20)")
    lr: float = option(3e-3, "Adam's learning rate at the start (a cosine schedule takes it to 0)")
    floor_shrink: float = option(0.0, "share of training chunks whose levels over the noise floor (features 1-3, "
                                      "10-17, 23, 24) are scaled by a factor drawn from 0.25...1, as if the floor "
                                      "stood higher (off)")
    group_dropout: float = option(0.0, "in every training chunk, each group of features (FEATURE_GROUPS) is hidden "
                                       "(set to its training mean) with probability P, so that no one group decides "
                                       "alone (off: 0)", metavar="P")
    aux_snr: float = option(0.0, "a second output, used in training only, learns how far the voice stands over the "
                                 "rest in three bands (voice_snr), with this weight beside the speech loss (off: 0)",
                            metavar="WEIGHT")
    stream_frames: int = option(3000, "mixtures of at least this many frames are trained as streams: whole, in "
                                      "consecutive chunks with the GRU's state carried from one to the next, so "
                                      "that what the model says after minutes of the same sound is trained, not "
                                      "extrapolated (shorter ones: random chunks from a zero state)", metavar="FRAMES")
    level_jitter: float = option(0.0, "shift the level (feature 0, the only one a gain changes) of every training "
                                      "chunk by -DB...+DB dB, as if heard through another gain, the labels unchanged "
                                      "(off)", metavar="DB")
    hard_negatives: float = option(0.0, "frames that are not speech weigh 1 + K p^2 more, p the model's speech "
                                        "probability")
    noise_weight: float = option(3.0, "loss weight of frames in noise-only mixtures (each one above threshold is a "
                                      "false alert)")


@dataclass
class Config:
    """A run's settings, in groups (each field a group, each group's fields options of the command line)."""
    paths: Paths = field(default_factory=Paths)
    material: Material = field(default_factory=Material)
    validation: Validation = field(default_factory=Validation)
    teacher: Teacher = field(default_factory=Teacher)
    model: Model = field(default_factory=Model)
    training: Training = field(default_factory=Training)

    @classmethod
    def of(cls, **options):
        """The configuration with `options` by their names (the command line's, with underscores), each put
        into its group; the rest keep their defaults. An unknown name is a TypeError."""
        where = option_groups()
        unknown = sorted(set(options) - set(where))
        if unknown:
            raise TypeError(f"Config has no option {', '.join(unknown)}")
        return cls(**{g.name: g.default_factory(**{k: v for k, v in options.items() if where[k] == g.name})
                      for g in dataclasses.fields(cls)})

    def options(self):
        """Every option's value by its name (the command line's, with underscores): `Config.of`'s inverse."""
        return {f.name: getattr(getattr(self, g.name), f.name) for g in dataclasses.fields(self)
                for f in dataclasses.fields(getattr(self, g.name))}

    @property
    def corpus_for_voices(self):
        """The corpus whose voices --corpus-voices uses."""
        return self.material.corpus_voices_from or os.path.join(self.paths.shared, "corpus")

    def resolved(self, *needed):
        """A copy with the MicCheck checkout (`find_checkout`) in `paths.checkout` and the defaults of --shared,
        --binary and --out that were not given filled in from it. One of the `needed` paths ("shared",
        "binary", "out") that was not given while no checkout is found is a `ConfigError` naming its option;
        the others stay None."""
        p = self.paths
        checkout = find_checkout(p.checkout)
        filled = {name: getattr(p, name) for name in IN_CHECKOUT}
        for name, parts in IN_CHECKOUT.items():
            if filled[name] is None and (checkout is not None or name in needed):
                filled[name] = in_checkout(None, "--" + name, checkout, parts)
        return dataclasses.replace(self, paths=dataclasses.replace(p, checkout=checkout, **filled))

    def checked(self):
        """This configuration, or a `ConfigError` naming the first option out of range (before any audio is
        made: that takes minutes). It reads no file: `dataset.checked` checks the files and programs the
        options name."""
        def fail(message):
            raise ConfigError(message)
        m, t, mo, tr = self.material, self.teacher, self.model, self.training
        if not all(0 <= v <= 1 for v in (t.distill, t.on_speech, t.on_silence)):
            fail("--distill, --distill-speech and --distill-silence must be 0...1")
        if (t.distill_speech is not None or t.distill_silence is not None) and t.distill <= 0:
            fail("--distill-speech and --distill-silence need --distill above 0 (without it there is no teacher to "
                 "blend)")
        if t.teachers and (t.distill <= 0 or not 0 <= t.teacher_share <= 1):
            fail("--teachers needs --distill above 0 (their share is of the teacher's part) and --teacher-share 0...1")
        if not 0 <= m.raise_pitch <= 1 or (m.raise_pitch > 0 and m.noisy_speech <= 0):
            fail("--raise-pitch is a share (0...1) of the --noisy-speech mixtures, and needs --noisy-speech")
        if m.corpus_hold and m.corpus_voices <= 0:
            fail("--corpus-hold names voices to leave out of --corpus-voices, and needs it")
        if t.label_onsets < 0 or t.label_offsets < 0:
            fail("--label-onsets and --label-offsets must be 0 or more frames")
        if m.effort < 0 or m.formants < 0:
            fail("--effort and --formants are counts of mixtures (0 or more)")
        if not 0 <= tr.level_jitter <= 40:
            fail("--level-jitter is in dB (0...40)")
        if not 0 <= tr.group_dropout < 1:
            fail("--group-dropout is a probability (0...1, below 1)")
        if tr.aux_snr < 0:
            fail("--aux-snr is a weight (0 or more)")
        if m.flite < 0:
            fail("--flite is a count of phrase sets (0 or more)")
        if m.redraw < 0:
            fail("--redraw is a count of draws (0 or more)")
        if m.long_sessions < 0 or tr.stream_frames < 1:
            fail("--long-sessions is a count of sessions (0 or more), --stream-frames a count of frames (1 or more)")
        if not 0 <= tr.floor_shrink <= 1:
            fail("--floor-shrink is a share of the training chunks (0...1)")
        if not (0 <= m.telephone and 0 <= m.lofi and m.telephone + m.lofi <= 1):
            fail("--telephone and --lofi are shares of the mixtures (0...1, together at most 1)")
        if m.more_speech_mixtures < 0 or m.more_noise_variants < 0:
            fail("--more-speech-mixtures and --more-noise-variants are counts (0 or more)")
        if not tr.lr > 0:
            fail("--lr must be above 0")
        if mo.features not in (CORE_FEATURES, FEATURES):
            fail(f"--features must be {FEATURES}, or {CORE_FEATURES} without the articulation features")
        if not -90 <= m.quiet_dbfs[0] < m.quiet_dbfs[1] <= -20:
            fail("--quiet-dbfs: give LO < HI within -90...-20 dBFS")
        if not 0 <= mo.lookahead <= 3:
            fail("--lookahead must be 0...3 frames (the detector may look at most 30 ms ahead)")
        return self


def option_groups():
    """Every option's group: {option name (with underscores): the name of its group (a field of `Config`)}."""
    return {f.name: g.name for g in dataclasses.fields(Config) for f in dataclasses.fields(g.default_factory)}


def parser(description=None):
    """The command line of `train_vad.py`: one option per field of `Config`'s groups, an argument group each."""
    import argparse, inspect
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    for g in dataclasses.fields(Config):
        group = ap.add_argument_group(g.name, inspect.cleandoc(g.default_factory.__doc__))
        for f in dataclasses.fields(g.default_factory):
            kwargs = dict(f.metadata)
            default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            if "action" not in kwargs and "type" not in kwargs and default is not None:
                kwargs["type"] = type(default)
            group.add_argument("--" + f.name.replace("_", "-"), default=default, **kwargs)
    return ap


def from_arguments(args):
    """The `Config` of parsed arguments (`parser()`'s namespace; names that are not options are left out)."""
    where = option_groups()
    return Config.of(**{k: v for k, v in vars(args).items() if k in where})


def from_command_line(argv=None, description=None):
    """The `Config` the command line `argv` (default: sys.argv) gives, checked (`Config.checked`: its ranges,
    not yet the files it names) and resolved (`Config.resolved`: --shared, --binary and --out needed)."""
    return from_arguments(parser(description).parse_args(argv)).checked().resolved(*IN_CHECKOUT)
