"""The constants of MicCheck's voice model and a run's settings (`Config`), which the command line fills.

Every option of `train_vad.py` is a field of `Config`, with its default and help text beside it: the
parser is made from the fields, so a run can also be set up in Python (`Config(epochs=2, ...)`) and
checked the same way (`Config.checked()`; `dataset.checked` also checks it against the files and programs it
names). It imports nothing of the package but `errors` (which imports nothing), so every module may import it.
"""
import dataclasses, os
from dataclasses import dataclass, field

from .errors import ConfigError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # the repository
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


def option(default, help, **argparse_kwargs):
    """A field of `Config` and its command-line option (the field's name with dashes)."""
    factory = (lambda: list(default)) if isinstance(default, list) else None
    kwargs = {"default_factory": factory} if factory else {"default": default}
    return field(metadata={"help": help, **argparse_kwargs}, **kwargs)


@dataclass
class Config:
    shared: str = option(os.path.join(ROOT, "..", "shared"), "the shared folder (training pool, corpus)")
    binary: str = option(os.path.join(ROOT, ".build", "release", "miccheck"),
                         "the miccheck binary whose `features` the model is trained on")
    seed: int = option(8, "the model's initialisation and chunk order")
    threads: int = option(1, "PyTorch threads (1: as fast as 2 for this small model, and the bundled model's setting)")
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
    more_speech: str = option(os.path.join(RECIPES, "more_speech"),
                              "the folder ../shared/training/more_speech/build.py builds (real acted, shouted, "
                              "quiet and radio voices in five languages), or none")
    more_noise: str = option(os.path.join(RECIPES, "more_noise"),
                             "the folder ../shared/training/more_noise/build.py builds (real machines, ambience, "
                             "music, impacts, clicks, some as telephone-band twins), or none")
    more_speech_mixtures: int = option(2, "mixtures of each more_speech file (the main mixtures' variants in turn)")
    more_noise_variants: int = option(4, "mixtures of each more_noise file alone, made as --noise-variants' are")
    nonverbal: bool = option(False, "also train on more_speech's cries, grunts and laughs as speech (off: they are "
                                    "left out, neither speech nor noise)", action="store_true")
    telephone: float = option(0.12, "share of all mixtures (speech and noise alike) sent through a telephone channel: "
                                    "300-3400 Hz, 8 kHz, mu-law, A-law or GSM")
    lofi: float = option(0.08, "share of all mixtures sent through an 11 kHz channel, half of them 8-bit (as most "
                               "more_speech voices were recorded)")
    fold: str = option("A", "the validation fold: the sources it holds out "
                            f"({'; '.join(f'{k}: ' + ', '.join(v) for k, v in FOLDS.items())}), "
                            "or random (a twelfth of all sources, drawn by --split-seed, as before more_speech)",
                       choices=[*FOLDS, "random"])
    fold_corpus: str | None = option(None, "write the held-out mixtures of the main set into this folder as a "
                                           "labelled corpus (WAV and JSON, as ../shared/corpus), for "
                                           "../shared/bench/score.py to score any detector on them")
    epochs: int = option(20, "passes over the training chunks (run A1, the bundled model: 20)")
    lr: float = option(3e-3, "Adam's learning rate at the start (a cosine schedule takes it to 0)")
    init: str | None = option(None, "start from this model's weights and input standardisation (fine-tuning) "
                                    "instead of at random; with more --dense or --hidden units (or --features 50 "
                                    "from a 47-feature model) it is widened, the new units starting without effect "
                                    "on its output", metavar="MODEL.json")
    floor_shrink: float = option(0.0, "share of training chunks whose levels over the noise floor (features 1-3, "
                                      "10-17, 23, 24) are scaled by a factor drawn from 0.25...1, as if the floor "
                                      "stood higher (off)")
    group_dropout: float = option(0.0, "in every training chunk, each group of features (FEATURE_GROUPS) is hidden "
                                       "(set to its training mean) with probability P, so that no one group decides "
                                       "alone (off: 0)", metavar="P")
    aux_snr: float = option(0.0, "a second output, used in training only, learns how far the voice stands over the "
                                 "rest in three bands (voice_snr), with this weight beside the speech loss (off: 0)",
                            metavar="WEIGHT")
    long_sessions: int = option(0, "N long sessions to add (1.5-4 minutes of one noise recording in a loop, half "
                                   "of them with a voice over it after 20 s or more), trained as streams "
                                   "(--stream-frames) (off: 0)", metavar="N")
    stream_frames: int = option(3000, "mixtures of at least this many frames are trained as streams: whole, in "
                                      "consecutive chunks with the GRU's state carried from one to the next, so "
                                      "that what the model says after minutes of the same sound is trained, not "
                                      "extrapolated (shorter ones: random chunks from a zero state)", metavar="FRAMES")
    redraw: int = option(0, "N more draws of the main mixtures (new espeak-ng sets, levels, SNRs, noises, effects), "
                            "each with its own generator (off: 0)", metavar="N")
    level_jitter: float = option(0.0, "shift the level (feature 0, the only one a gain changes) of every training "
                                      "chunk by -DB...+DB dB, as if heard through another gain, the labels unchanged "
                                      "(off)", metavar="DB")
    quiet_dbfs: list = option(list(QUIET_DBFS), "the range of the voice's level (active RMS, dBFS) in the quiet "
                                                "mixtures, a quarter of the speech mixtures (default: %(default)s); "
                                                "another range draws the same mixtures with other levels, so give "
                                                "it another --cache", type=float, nargs=2, metavar=("LO", "HI"))
    noise_variants: int = option(6, "mixtures made of each noise file alone (from the fourth on, played 0.8-1.25x as "
                                    "fast)")
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
    voice_effects: float = option(0.3, "share of the speech mixtures (not the quiet ones) given a voice effect: "
                                       "saturation, ring modulation, a pitch shift or a tremolo")
    teacher_hears: str = option("level", "what Silero judges for --distill: the mixture; (speech mixtures) the voice "
                                         "alone at -26 dBFS; or (speech mixtures) the whole mixture brought to where "
                                         "its voice is at -26 dBFS, so that the targets keep Silero's judgement of "
                                         "the noise but not its doubt about quiet voices",
                                choices=["mix", "clean", "level"])
    hard_negatives: float = option(0.0, "frames that are not speech weigh 1 + K p^2 more, p the model's speech "
                                        "probability")
    noise_weight: float = option(3.0, "loss weight of frames in noise-only mixtures (each one above threshold is a "
                                      "false alert)")
    lookahead: int = option(3, "frames (10 ms) of audio after a frame that the model hears before deciding it (at "
                               "most 3)")
    features: int = option(FEATURES, f"features the model reads: all {FEATURES}, or the first {CORE_FEATURES} "
                                     "(without the articulation features 47-49, as the model before them)")
    dense: int = option(32, "units of the dense layer")
    hidden: int = option(48, "units of the GRU")
    corpus: str | None = option(None, "also report frame F1 and AUC on this labelled corpus after every epoch "
                                      "(monitoring only)")
    cache: str | None = option(None, "keep the dataset in this .npz and reuse it")
    no_validation: bool = option(False, "train on every group (the final model)", action="store_true")
    split_seed: int = option(7, "seed of the validation split and of the mixtures; fixed, runs with other --seed "
                                "values differ only in their initialisation and chunk order, not in what they "
                                "train on")
    keep_epochs: str | None = option(None, "also write each epoch's model into this folder (epoch-N.json)")
    out: str = option(os.path.join(ROOT, "Sources", "MicCheck", "Resources", "VoiceActivityModel.json"),
                      "the model file to write (after every epoch)")

    @property
    def on_speech(self):
        """The teacher's share of the targets of frames labelled speech."""
        return self.distill if self.distill_speech is None else self.distill_speech

    @property
    def on_silence(self):
        """The teacher's share of the targets of frames labelled not speech."""
        return self.distill if self.distill_silence is None else self.distill_silence

    @property
    def corpus_for_voices(self):
        """The corpus whose voices --corpus-voices uses."""
        return self.corpus_voices_from or os.path.join(self.shared, "corpus")

    @property
    def hold(self):
        """--corpus-hold, sorted."""
        return sorted(self.corpus_hold or [])

    def checked(self):
        """This configuration, or a `ConfigError` naming the first option out of range (before any audio is
        made: that takes minutes). It reads no file: `dataset.checked` checks the files and programs the
        options name."""
        def fail(message):
            raise ConfigError(message)
        if not all(0 <= v <= 1 for v in (self.distill, self.on_speech, self.on_silence)):
            fail("--distill, --distill-speech and --distill-silence must be 0...1")
        if (self.distill_speech is not None or self.distill_silence is not None) and self.distill <= 0:
            fail("--distill-speech and --distill-silence need --distill above 0 (without it there is no teacher to "
                 "blend)")
        if self.teachers and (self.distill <= 0 or not 0 <= self.teacher_share <= 1):
            fail("--teachers needs --distill above 0 (their share is of the teacher's part) and --teacher-share 0...1")
        if not 0 <= self.raise_pitch <= 1 or (self.raise_pitch > 0 and self.noisy_speech <= 0):
            fail("--raise-pitch is a share (0...1) of the --noisy-speech mixtures, and needs --noisy-speech")
        if self.corpus_hold and self.corpus_voices <= 0:
            fail("--corpus-hold names voices to leave out of --corpus-voices, and needs it")
        if self.label_onsets < 0 or self.label_offsets < 0:
            fail("--label-onsets and --label-offsets must be 0 or more frames")
        if self.effort < 0 or self.formants < 0:
            fail("--effort and --formants are counts of mixtures (0 or more)")
        if not 0 <= self.level_jitter <= 40:
            fail("--level-jitter is in dB (0...40)")
        if not 0 <= self.group_dropout < 1:
            fail("--group-dropout is a probability (0...1, below 1)")
        if self.aux_snr < 0:
            fail("--aux-snr is a weight (0 or more)")
        if self.flite < 0:
            fail("--flite is a count of phrase sets (0 or more)")
        if self.redraw < 0:
            fail("--redraw is a count of draws (0 or more)")
        if self.long_sessions < 0 or self.stream_frames < 1:
            fail("--long-sessions is a count of sessions (0 or more), --stream-frames a count of frames (1 or more)")
        if not 0 <= self.floor_shrink <= 1:
            fail("--floor-shrink is a share of the training chunks (0...1)")
        if not (0 <= self.telephone and 0 <= self.lofi and self.telephone + self.lofi <= 1):
            fail("--telephone and --lofi are shares of the mixtures (0...1, together at most 1)")
        if self.more_speech_mixtures < 0 or self.more_noise_variants < 0:
            fail("--more-speech-mixtures and --more-noise-variants are counts (0 or more)")
        if not self.lr > 0:
            fail("--lr must be above 0")
        if self.features not in (CORE_FEATURES, FEATURES):
            fail(f"--features must be {FEATURES}, or {CORE_FEATURES} without the articulation features")
        if not -90 <= self.quiet_dbfs[0] < self.quiet_dbfs[1] <= -20:
            fail("--quiet-dbfs: give LO < HI within -90...-20 dBFS")
        if not 0 <= self.lookahead <= 3:
            fail("--lookahead must be 0...3 frames (the detector may look at most 30 ms ahead)")
        return self


def parser(description=None):
    """The command line of `train_vad.py`, one option per field of `Config`."""
    import argparse
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    for f in dataclasses.fields(Config):
        kwargs = dict(f.metadata)
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        if "action" not in kwargs and "type" not in kwargs and default is not None:
            kwargs["type"] = type(default)
        ap.add_argument("--" + f.name.replace("_", "-"), default=default, **kwargs)
    return ap


def from_command_line(argv=None, description=None):
    """The `Config` the command line `argv` (default: sys.argv) gives, checked (`Config.checked`: its ranges,
    not yet the files it names)."""
    return Config(**vars(parser(description).parse_args(argv))).checked()
