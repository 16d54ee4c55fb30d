"""MicCheck's voice model training, as a package: `config` (a run's settings, in groups, and the constants
shared with the Swift side), `records` (the material's records: voices, noises, mixtures and their groups),
`synth` (audio made here), `mixtures` (the training material), `features` (MicCheck's features, labels and
the teacher), `dataset` (a run's analysed data and its validation split), `model` (the network and the
model file), `train`, `evaluate` and `progress` (tqdm bars). The library logs through `logging` (the logger
"miccheck_train" and its children) and prints nothing; the commands (`commands`, run by
`training/train_vad.py` and the others) set the log up on stderr (`cli`)."""
