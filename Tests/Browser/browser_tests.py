#!/usr/bin/env python3
"""The browser tests: headless Chromium (Debian's chromium and chromium-driver, driven by Selenium) against
`miccheck serve`, with a WAV file as each browser's microphone and Chromium's synthetic camera. Run by
scripts/test.sh through scripts/browser-tests.sh, which installs what it needs.

usage: browser_tests.py MICCHECK_BINARY [--screenshots DIR] [--figures FILE] [unittest arguments]

The modules: page_tests (the lobby and the call), call_tests (invitations, two nodes), fixes_tests (what
a person hit before the page was rebuilt on the client), embed_tests (the client and components on another
origin), components_tests (each component alone), a11y_tests (axe-core, the phone width, screenshots),
device_tests (the microphone analysed in the page: no audio sent; a static page with no server), janus_tests
(Janus's own VideoRoom page with MicCheck added, eight people in one room of a private Janus)."""
import argparse
import shutil
import sys
import tempfile
import time
import unittest

import harness
from harness import Run

MODULES = ["page_tests", "call_tests", "fixes_tests", "embed_tests", "components_tests", "a11y_tests",
           "microphone_test_tests", "mute_tests", "device_tests", "janus_tests"]


class TimedResult(unittest.TextTestResult):
    """Says how long each test took after its verdict (where a CI log shows which tests its time went to), and
    the time since the previous test ended where a class's set-up or tear-down (browsers, servers) added to it."""
    _ended = time.monotonic()

    def startTest(self, test):
        self._started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        now = time.monotonic()
        took, since = now - self._started, now - TimedResult._ended
        TimedResult._ended = now
        extra = f", {since:.1f} s with set-up" if since - took > 1 else ""
        self.stream.writeln(f"  ({took:.1f} s{extra})")
        self.stream.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--screenshots")
    parser.add_argument("--figures")
    args, rest = parser.parse_known_args()
    Run.binary, Run.screenshots, Run.figures = args.binary, args.screenshots, args.figures
    Run.work = tempfile.mkdtemp(prefix="miccheck-browser-")
    Run.speech, Run.silent = harness.make_files(Run.work)
    server, Run.base = harness.serve()
    try:
        loader = unittest.TestLoader()
        names = [n for n in rest if not n.startswith("-")]
        suite = loader.loadTestsFromNames(names) if names else unittest.TestSuite(
            loader.loadTestsFromName(m) for m in MODULES)
        result = unittest.TextTestRunner(verbosity=2, resultclass=TimedResult).run(suite)
    finally:
        harness.stop(server)
        shutil.rmtree(Run.work, ignore_errors=True)
    failed = len(result.failures) + len(result.errors)
    print(f"browser: {result.testsRun - failed} passed, {failed} failed")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
