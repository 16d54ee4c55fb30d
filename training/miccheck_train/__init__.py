"""MicCheck's voice model training, as a package: `config` (a run's settings and the constants shared with
the Swift side), `synth` (audio made here), `mixtures` (the training material), `features` (MicCheck's
features, labels and the teacher), `dataset` (a run's analysed data and its validation split), `model`
(the network and the model file), `train` and `evaluate`. `training/train_vad.py` is its command."""
