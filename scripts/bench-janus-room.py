#!/usr/bin/env python3
"""Figures for MicCheck in Janus's own VideoRoom (Examples/janus-videoroom): a room of N headless Chromium pages
on a private Janus, two of them speaking (a sentence every 4 s, and a reader), the others in a quiet room.

For each size it measures, over --seconds:
- the CPU of each page's Chromium (every process of it), in % of one core, with MicCheck and with Debian's page
  as it is (`page.sh --plain`, the same room without MicCheck): the difference is MicCheck's share;
- the speaking ring's delay: the talker's onset (its own audio, as it reaches its page) to the ring on each other
  page, on one clock (Date.now() in pages of one machine): median and p90.

With --threads, where each page's CPU goes over the same window: by Chromium process (the renderer, the audio
service, the network service, the GPU process, the browser) and by thread name, with MicCheck and without, per
page; Janus's threads for the whole server.

usage: .build/browser-venv/bin/python scripts/bench-janus-room.py [--sizes 8,12] [--seconds 30] [--threads]
(scripts/browser-tests.sh makes the virtual environment and installs Janus.)"""
import argparse
import collections
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from harness import Run  # noqa: E402
from janus_room import Room, cpu_ticks, delays, missing, percentile, room_files  # noqa: E402


def role(pid):
    """Which of a page's Chromium processes `pid` is, from its command line and its threads' names."""
    try:
        with open(f"/proc/{pid}/cmdline") as f:
            command = f.read()
        threads = set()
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                threads.add(f.read().strip())
    except OSError:
        return None
    if os.path.basename(command.split("\0")[0]) == "chromedriver":
        return "chromedriver"
    if "--renderer-client-id" in command:
        return "renderer"
    if "--gpu-preferences" in command:
        return "GPU process"
    if threads & {"AudioProcessing", "FakeAudioInput", "AudioOutputDevi"}:
        return "audio service"
    if "--shared-files" in command:
        return "network service"
    return "browser"  # the browser process itself (and its zygotes, which do nothing here)


def thread_ticks(pids, janus):
    """CPU ticks so far of every thread of `pids` (and of the room's Janus, pid `janus`), by (pid, tid): role,
    name."""
    out = {}
    for pid in [*pids, janus]:
        kind = "Janus" if pid == janus else role(pid)
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    # One name for a pool's threads (Janus's "hloop 785769894", one a handle).
                    name = re.sub(r" \d+$", "", f.read().strip())
                out[(pid, tid)] = (kind, name, cpu_ticks(f"/proc/{pid}/task/{tid}/stat"))
        except (OSError, IndexError):
            pass
    return out


def breakdown(before, after, elapsed, pages):
    """% of one core per page by role and by (role, thread name); Janus's for the whole server."""
    hz = os.sysconf("SC_CLK_TCK")
    roles, threads = collections.Counter(), collections.Counter()
    for key, (kind, name, ticks) in after.items():
        share = 100 * (ticks - before.get(key, (kind, name, ticks))[2]) / hz / elapsed
        share /= 1 if kind == "Janus" else pages
        roles[kind] += share
        threads[(kind, name)] += share
    return roles, threads


def print_breakdown(size, with_parts, plain_parts):
    (roles, threads), (plain_roles, plain_threads) = with_parts, plain_parts
    print(f"  where a page's CPU goes (room of {size}; % of one core per page, with MicCheck / Debian's page / "
          "difference; Janus: the whole server)")
    for kind in sorted(set(roles) | set(plain_roles), key=lambda k: -roles[k]):
        print(f"    {kind}: {roles[kind]:.1f} / {plain_roles[kind]:.1f} / {roles[kind] - plain_roles[kind]:+.1f}")
    print("    threads:")
    for key in sorted(set(threads) | set(plain_threads), key=lambda k: -max(threads[k], plain_threads[k]))[:20]:
        print(f"      {key[0]} / {key[1]}: {threads[key]:.1f} / {plain_threads[key]:.1f} / "
              f"{threads[key] - plain_threads[key]:+.1f}")


def measure(size, seconds, plain, files, by_thread):
    """A room of `size`: each page's CPU (% of one core), the rings' delays, and, with `by_thread`, where the
    CPU went (breakdown's parts; None without)."""
    Run.work = tempfile.mkdtemp(prefix="miccheck-janus-bench-")
    room = Room(Run.work, plain=plain)
    try:
        names = ["talker", "reader"] + [f"quiet{i}" for i in range(1, size - 1)]
        room.gather([(name, files[name if name in ("talker", "reader") else "quiet"]) for name in names])
        room.wait_for_everybody()
        time.sleep(5)
        # The CPU first, with nothing of the measurement's own in the pages; then the rings, logged.
        if by_thread:
            pids = {pid for n in names for pid in room.processes(n)}
            janus = room.janus_pid()
            threads = thread_ticks(pids, janus)
        start = {n: room.cpu_seconds(n) for n in names}
        t0 = time.time()
        time.sleep(seconds)
        elapsed = time.time() - t0
        cpu = [100 * (room.cpu_seconds(n) - start[n]) / elapsed for n in names]
        parts = breakdown(threads, thread_ticks(pids, janus), elapsed, size) if by_thread else None
        measured = []
        if not plain:
            for name in names[1:]:
                room.watch_rings(name)
            room.watch_onsets("talker")
            time.sleep(seconds)
            onsets = room.onsets("talker")
            for name in names[1:]:
                measured += delays(onsets, room.rings(name), "talker")
        return cpu, measured, parts
    finally:
        room.close()
        shutil.rmtree(Run.work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8,12")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--threads", action="store_true", help="where each page's CPU goes, by process and thread")
    args = parser.parse_args()
    why = missing()
    if why:
        raise SystemExit(f"bench-janus-room: {why}")
    Run.work = tempfile.mkdtemp(prefix="miccheck-janus-files-")
    files = room_files(Run.work)
    print(f"{os.cpu_count()} cores; {args.seconds:.0f} s a room; CPU in % of one core per page (mean, max)")
    for size in (int(s) for s in args.sizes.split(",")):
        with_cpu, measured, with_parts = measure(size, args.seconds, False, files, args.threads)
        plain_cpu, _, plain_parts = measure(size, args.seconds, True, files, args.threads)
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
        if args.threads:
            print_breakdown(size, with_parts, plain_parts)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
