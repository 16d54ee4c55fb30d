"""Trains MicCheck's voice activity model and writes Sources/MicCheck/Resources/VoiceActivityModel.json.

Material (never other recorded audio, and by default never the evaluation corpus; --corpus-voices, off,
would add its clean and quiet voices): ../shared/training (real voices and real noise) and what its
more_speech and more_noise recipes build (--more-speech, --more-noise: real acted, shouted, quiet and radio
voices in five languages; machines, ambience, music, impacts, clicks and their telephone-band twins), and
audio synthesised here (espeak-ng speech in many voices and languages, and with --flite flite's; white,
pink, brown noise, hum, fans, a bladed fan, breathing, click trains). Mixtures: speech at -55...-14 dBFS
over a faint floor or a noise file at -5...30 dB SNR, with random colouring, speed and reverb; every noise
file alone at several levels and colourings, impacts up to -1 dBFS peak; a share of all of them through a
telephone line (--telephone) or an 11 kHz channel (--lofi). Features come from the Swift binary
(`miccheck features`), so the model is trained on exactly what runs in MicCheck.

Validation holds out a named fold of whole voices and noise packages (--fold A or B; --fold-corpus writes
it as a labelled corpus for ../shared/bench/score.py), never other stretches of files that were trained on.

The model: features standardised, a dense tanh layer, one GRU, a sigmoid output (see
Guides/VoiceActivityDetection.md). Targets are the labels blended with Silero VAD's per-frame
probability (--distill 0.5; Silero runs here only, never in MicCheck, and hears each speech mixture
brought to where its voice is at -26 dBFS: --teacher-hears level), and the output after frame n is
trained on frame n - 3 (--lookahead 3: the model hears 30 ms past the frame it decides). A third of the
voices get an effect (--voice-effects 0.3: saturation, ring modulation, a pitch shift, a tremolo).

usage: bash scripts/training-env.sh   (then its python as below)
       python3 ../shared/training/more_speech/build.py && python3 ../shared/training/more_noise/build.py
       swift build -c release --product miccheck
       python3 training/train_vad.py --epochs 20 --fold-corpus training/work/foldA-corpus --out training/work/A1.json
       (run A1, the bundled model: fold A held out; --fold B --out training/work/B1.json is the recipe's
        second fold; the runs before 2026-11-25 are in Guides/TrainingRunLog.md)

--shared, --binary and --out default to places in the MicCheck checkout: --checkout DIR, $MICCHECK_CHECKOUT,
or the nearest folder at or above the current one with MicCheck's Package.swift. Progress goes to stderr
(-q: warnings only; -v: debugging too), with bars on a terminal.

The code is the package miccheck_train (training/miccheck_train), whose Config holds every option, in the
groups below.
"""
import sys

from .. import cli
from ..config import IN_CHECKOUT, from_arguments, parser
from ..dataset import checked
from ..train import train


def run(argv=None):
    args = cli.logging_options(parser(__doc__)).parse_args(argv)
    cli.start_logging(args)
    train(checked(from_arguments(args).checked().resolved(*IN_CHECKOUT)))


def main(argv=None):
    """The command's exit status (0, or 1 after a sentence on stderr saying what stopped it)."""
    return cli.main(run, argv)


if __name__ == "__main__":
    sys.exit(main())
