#!/usr/bin/env python3
"""Live figures for `miccheck listen` against a private PulseAudio server (scripts/pulse-server.sh):

1. latency: corpus speech files are played into the virtual microphone with paplay; the wall time from
   the start of playback to the arrival of the first `speech_started` line on listen's stdout, less the
   `t` that `miccheck analyze` reports for the same file, is what live capture adds;
2. CPU and memory: listen runs for --seconds while speech plays in a loop; CPU time from /proc/PID/stat
   over wall time, and resident memory sampled every few seconds.

Usage: python3 scripts/measure-listen.py [--files N] [--seconds S]   (after `swift build -c release`)
"""
import argparse, glob, json, os, statistics, subprocess, sys, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build/release/miccheck")
PA_DIR = "/tmp/miccheck-measure-pa"


def server(cmd):
    subprocess.run(["bash", os.path.join(ROOT, "scripts/pulse-server.sh"), cmd, PA_DIR], check=True)


ENV = dict(os.environ, XDG_RUNTIME_DIR=PA_DIR, PULSE_RUNTIME_PATH=PA_DIR + "/pulse")
ENV.pop("PULSE_SERVER", None)


class Listener:
    """`miccheck listen --format jsonl` with each stdout line stamped on arrival."""

    def __init__(self, args):
        self.p = subprocess.Popen([BIN, "listen", "--format", "jsonl"] + args, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=ENV, text=True, bufsize=1)
        self.lines = []
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.append((time.monotonic(), json.loads(line)))

    def wait_for(self, pred, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for stamp, rec in list(self.lines):
                if pred(rec):
                    return stamp, rec
            time.sleep(0.002)
        return None

    def stop(self):
        self.p.terminate()
        self.p.wait(10)


def offline_first_start(wav):
    out = subprocess.run([BIN, "analyze", "--format", "jsonl", wav], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        rec = json.loads(line)
        if rec.get("event") == "speech_started":
            return rec["t"]
    return None


def latency(files):
    rows = []
    for wav in files:
        t_off = offline_first_start(wav)
        if t_off is None:
            continue
        lst = Listener(["--duration", "60"])
        if not lst.wait_for(lambda r: "level_db" in r, 5):
            print("listen produced no frames", file=sys.stderr); sys.exit(1)
        time.sleep(0.3)
        played = time.monotonic()
        player = subprocess.Popen(["paplay", "-d", "micsink", wav], env=ENV)
        hit = lst.wait_for(lambda r: r.get("event") == "speech_started", t_off + 10)
        player.terminate(); player.wait()
        lst.stop()
        if hit is None:
            print(f"{os.path.basename(wav)}: no speech_started live", file=sys.stderr)
            continue
        live = hit[0] - played
        rows.append((os.path.basename(wav), t_off, live, live - t_off))
    return rows


def proc_stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def load(files, seconds):
    lst = Listener(["--duration", str(seconds + 30)])
    lst.wait_for(lambda r: "level_db" in r, 5)
    stop = threading.Event()

    def play():
        k = 0
        while not stop.is_set():
            subprocess.run(["paplay", "-d", "micsink", files[k % len(files)]], env=ENV)
            k += 1

    threading.Thread(target=play, daemon=True).start()
    pid = lst.p.pid
    start_cpu, start = proc_stat(pid), time.monotonic()
    samples = []
    while time.monotonic() - start < seconds:
        samples.append((time.monotonic() - start, rss_kib(pid)))
        time.sleep(5)
    cpu = (proc_stat(pid) - start_cpu) / (time.monotonic() - start)
    frames = sum(1 for _, r in lst.lines if "level_db" in r)
    stop.set()
    lst.stop()
    return cpu, samples, frames


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--seconds", type=int, default=120)
    args = ap.parse_args()
    corpus = os.path.join(os.path.dirname(ROOT), "shared/corpus")
    files = sorted(glob.glob(os.path.join(corpus, "clean_*.wav"))
                   + glob.glob(os.path.join(corpus, "quiet_*.wav")))[: args.files]
    if not files:
        sys.exit("no corpus files beside the repository")
    server("start")
    try:
        rows = latency(files)
        print("file | analyze speech_started (s) | live, from playback start (s) | live - analyze (ms)")
        for name, off, live, d in rows:
            print(f"{name} | {off:.2f} | {live:.3f} | {d * 1000:.0f}")
        if rows:
            print(f"median live - analyze: {statistics.median(r[3] for r in rows) * 1000:.0f} ms "
                  f"over {len(rows)} files")
        cpu, rss, frames = load(files, args.seconds)
        print(f"CPU: {cpu * 100:.2f}% of one core over {args.seconds} s ({frames} frames)")
        print("RSS (KiB) over time: " + ", ".join(f"{t:.0f}s={k}" for t, k in rss))
        print(f"RSS first {rss[0][1]} KiB, last {rss[-1][1]} KiB, growth after the first minute: "
              f"{rss[-1][1] - next((k for t, k in rss if t >= 60), rss[-1][1])} KiB")
    finally:
        server("stop")


if __name__ == "__main__":
    main()
