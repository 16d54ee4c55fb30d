"""Progress on the long steps (building mixtures, features over many files, epochs): tqdm bars on stderr,
shown only where stderr is a terminal and the package logs at INFO (the commands' default; --quiet and a
package used as a library without logging set up show none). Bars never draw random numbers, so they
change no result."""
import logging, sys

from tqdm import tqdm

log = logging.getLogger("miccheck_train")


def shown():
    """Whether bars are drawn: stderr is a terminal and the package's INFO messages are shown."""
    return sys.stderr.isatty() and log.isEnabledFor(logging.INFO)


def bar(iterable=None, **kwargs):
    """`tqdm(iterable, **kwargs)` on stderr, or where `shown()` is false the same object drawing nothing."""
    return tqdm(iterable, file=sys.stderr, disable=not shown(), dynamic_ncols=True, **kwargs)
