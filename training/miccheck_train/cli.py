"""The commands' shell: a command's `run(argv)` may raise `TrainingError`; `main` turns it into its message
on stderr and its exit status, as `sys.exit(message)` did. The commands log their progress through the
package's loggers (`logging_options` and `start_logging`: stderr, INFO by default), the long steps with
tqdm bars (`progress`)."""
import logging, sys

from tqdm import tqdm

from .errors import TrainingError


def main(run, argv=None):
    """`run(argv)`'s exit status: 0, or a `TrainingError`'s status after its message on stderr."""
    try:
        run(argv)
    except TrainingError as e:
        print(e, file=sys.stderr)
        return e.status
    return 0


def logging_options(ap):
    """-q/--quiet and -v/--verbose on the command line `ap` (for `start_logging`)."""
    group = ap.add_argument_group("output")
    group.add_argument("-q", "--quiet", action="store_true",
                       help="no progress on stderr: only warnings and errors (results still go to stdout)")
    group.add_argument("-v", "--verbose", action="store_true", help="also the debugging messages on stderr")
    return ap


class StderrHandler(logging.Handler):
    """A log record as its message on stderr (whichever `sys.stderr` is when it is written), above any
    progress bar."""

    def emit(self, record):
        try:
            tqdm.write(self.format(record), file=sys.stderr)
        except Exception:
            self.handleError(record)


def start_logging(args):
    """The package's messages (the logger "miccheck_train" and its children) on stderr, as plain lines: INFO
    and above (the run's progress; tqdm bars on a terminal), WARNING and above with `args.quiet`, all with
    `args.verbose`. Called again, it replaces its handler."""
    log = logging.getLogger("miccheck_train")
    for h in [h for h in log.handlers if isinstance(h, StderrHandler)]:
        log.removeHandler(h)
    handler = StderrHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.WARNING if args.quiet else logging.DEBUG if args.verbose else logging.INFO)
