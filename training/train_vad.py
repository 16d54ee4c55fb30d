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

The code is the package miccheck_train beside this file, whose Config holds every option.
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from miccheck_train.config import from_command_line   # noqa: E402
from miccheck_train.train import train   # noqa: E402


def main(argv=None):
    train(from_command_line(argv, description=__doc__))


if __name__ == "__main__":
    main()
