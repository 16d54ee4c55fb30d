#!/usr/bin/env python3
"""Figures for MicCheck in Janus's own VideoRoom (Examples/janus-videoroom): a room of N headless Chromium pages
on a private Janus, two of them speaking (a sentence every 4 s, and a reader), the others in a quiet room.

For each size it measures, over --seconds:
- the CPU of each page's Chromium (every process of it), in % of one core, with MicCheck and with Debian's page
  as it is (`page.sh --plain`, the same room without MicCheck): the difference is MicCheck's share;
- the speaking ring's delay: the talker's onset (its own audio, as it reaches its page) to the ring on each other
  page, on one clock (Date.now() in pages of one machine): median and p90.

usage: .build/browser-venv/bin/python scripts/bench-janus-room.py [--sizes 8,12] [--seconds 30]
(scripts/browser-tests.sh makes the virtual environment and installs Janus.)"""
import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from harness import Run  # noqa: E402
from janus_room import Room, delays, missing, percentile, room_files  # noqa: E402


def measure(size, seconds, plain, files):
    Run.work = tempfile.mkdtemp(prefix="miccheck-janus-bench-")
    room = Room(Run.work, plain=plain)
    try:
        names = ["talker", "reader"] + [f"quiet{i}" for i in range(1, size - 1)]
        room.gather([(name, files[name if name in ("talker", "reader") else "quiet"]) for name in names])
        room.wait_for_everybody()
        time.sleep(5)
        # The CPU first, with nothing of the measurement's own in the pages; then the rings, logged.
        start = {n: room.cpu_seconds(n) for n in names}
        t0 = time.time()
        time.sleep(seconds)
        elapsed = time.time() - t0
        cpu = [100 * (room.cpu_seconds(n) - start[n]) / elapsed for n in names]
        measured = []
        if not plain:
            for name in names[1:]:
                room.watch_rings(name)
            room.watch_onsets("talker")
            time.sleep(seconds)
            onsets = room.onsets("talker")
            for name in names[1:]:
                measured += delays(onsets, room.rings(name), "talker")
        return cpu, measured
    finally:
        room.close()
        shutil.rmtree(Run.work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8,12")
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    why = missing()
    if why:
        raise SystemExit(f"bench-janus-room: {why}")
    Run.work = tempfile.mkdtemp(prefix="miccheck-janus-files-")
    files = room_files(Run.work)
    print(f"{os.cpu_count()} cores; {args.seconds:.0f} s a room; CPU in % of one core per page (mean, max)")
    for size in (int(s) for s in args.sizes.split(",")):
        with_cpu, measured = measure(size, args.seconds, False, files)
        plain_cpu, _ = measure(size, args.seconds, True, files)
        mean = sum(with_cpu) / len(with_cpu)
        plain = sum(plain_cpu) / len(plain_cpu)
        print(f"room of {size}: with MicCheck {mean:.1f} % (max {max(with_cpu):.1f}); Debian's page "
              f"{plain:.1f} % (max {max(plain_cpu):.1f}); MicCheck's share {mean - plain:+.1f} points "
              f"({100 * (mean - plain) / mean:.0f} % of the page)")
        if measured:
            print(f"  ring delay: median {percentile(measured, 50)} ms, p90 {percentile(measured, 90)} ms, "
                  f"{len(measured)} rings on {size - 1} pages")
        else:
            print("  ring delay: no ring measured")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
