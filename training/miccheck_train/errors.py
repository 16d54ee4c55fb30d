"""What goes wrong in a run, as exceptions: the package raises them, and the commands (`miccheck_train.cli`)
turn them into a sentence on stderr and an exit status (1, as the commands always gave)."""


class TrainingError(Exception):
    """A run cannot go on; the message says why and, where it can, what to do. `status` is the exit status
    a command gives for it."""
    status = 1


class ConfigError(TrainingError):
    """An option out of range, or options that do not go together."""


class DataError(TrainingError):
    """A file the run reads (a corpus, a cache, a model file, a recipe's folder) is missing or does not
    hold what the options ask of it."""


class ToolError(TrainingError):
    """A program or package the run needs (the miccheck binary, flite, Silero VAD) is missing or does not
    match this code."""
