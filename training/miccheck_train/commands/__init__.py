"""The commands: `train_vad`, `fold_corpus`, `tune_events`, `feature_auc` and `mix_probe`, each a `main(argv)`
that answers an exit status (`miccheck_train.cli`). `training/<name>.py` runs each, as do the console
scripts the installed package has (miccheck-train-vad, miccheck-fold-corpus, ...)."""
