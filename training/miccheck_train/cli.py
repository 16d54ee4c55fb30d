"""The commands' shell: a command's `run(argv)` may raise `TrainingError`; `main` turns it into its message
on stderr and its exit status, as `sys.exit(message)` did."""
import sys

from .errors import TrainingError


def main(run, argv=None):
    """`run(argv)`'s exit status: 0, or a `TrainingError`'s status after its message on stderr."""
    try:
        run(argv)
    except TrainingError as e:
        print(e, file=sys.stderr)
        return e.status
    return 0
