#!/usr/bin/env python3
"""Soak test of live capture: `miccheck listen --format jsonl` on a private PulseAudio server for a long
time, with speech and noise playing into its virtual microphone, while the server is killed and restarted
and the microphone's source is unloaded and loaded again.

Every --fault-every seconds one fault, in turn:
  - kill: the server is killed (SIGKILL), then started again 1-3 s later;
  - stop: the server is stopped (SIGTERM), then started again;
  - unplug: the virtual microphone's module is unloaded, then loaded again 2 s later (listen falls back
    to the default source).

Checks, each printed with its figure; the script exits 1 when one fails:
  - every server outage is followed by a `reconnected` notice, and every unplug by a fallback notice;
  - `t` strictly increasing, and within 1 s of the wall clock since capture began;
  - no frame lost outside the outages: a step in `t` over 10 ms that no fault explains is counted, and
    listen's own count of dropped frames (its summary) is read;
  - resident memory flat after warm-up: the least-squares slope of RSS over time (MiB an hour), and the
    growth from the first to the last quarter;
  - CPU time per second of audio stable: in each stretch between faults, the last quarter against the first;
  - the analysis kept running: speech heard in every window of a few minutes.

Usage: python3 scripts/soak.py [--minutes M] [--fault-every S] [--binary PATH] [--json OUT]
Default: 60 minutes, a fault every 150 s, .build/release/miccheck.
"""
import argparse, json, os, random, shutil, signal, statistics, struct, subprocess, sys, tempfile, threading, time
import wave

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PULSE = os.path.join(ROOT, "scripts/pulse-server.sh")
SAMPLE = os.path.join(ROOT, "Sources/MicCheckLive/Resources/sample.wav")
PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


def noise_wav(path, seconds=20, rate=16000, level=0.02):
    """Brown-ish background noise (a room, a fan), quiet enough that the speech stays the speech."""
    rng = random.Random(7)
    x, out = 0.0, bytearray()
    for _ in range(seconds * rate):
        x = 0.98 * x + rng.uniform(-1, 1) * 0.2
        out += struct.pack("<h", int(max(-1, min(1, x * level * 5)) * 32767))
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate); w.writeframes(bytes(out))


class Server:
    def __init__(self, folder):
        self.dir = folder
        self.env = dict(os.environ, XDG_RUNTIME_DIR=folder, PULSE_RUNTIME_PATH=folder + "/pulse")
        self.env.pop("PULSE_SERVER", None)
        self.players = []

    def run(self, *args, check=True):
        return subprocess.run(list(args), env=self.env, check=check, capture_output=True, text=True)

    def start(self):
        self.run("bash", PULSE, "start", self.dir)

    def stop(self):
        self.run("bash", PULSE, "stop", self.dir)

    def kill(self):
        """SIGKILL, then the stale pid file goes once the process has (a daemon refuses to start beside one
        whose process is still there, as a killed one is until it is reaped)."""
        try:
            pid = int(open(self.dir + "/pulse/pid").read().strip())
            os.kill(pid, signal.SIGKILL)
            for _ in range(250):
                os.kill(pid, 0)
                time.sleep(0.02)
        except (OSError, ValueError):
            pass
        try:
            os.unlink(self.dir + "/pulse/pid")
        except OSError:
            pass

    def play(self, files):
        """Each file looped into the virtual microphone (paplay dies with the server; play() again)."""
        self.stop_players()
        for f in files:
            self.players.append(subprocess.Popen(
                ["bash", "-c", f'while paplay -d micsink "{f}"; do :; done'], env=self.env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))

    def stop_players(self):
        for p in self.players:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
        self.players = []

    def unplug(self):
        modules = self.run("pactl", "list", "short", "modules").stdout.splitlines()
        for m in modules:
            if "module-remap-source" in m and "virtmic" in m:
                self.run("pactl", "unload-module", m.split()[0])

    def plug(self):
        self.run("pactl", "load-module", "module-remap-source", "master=micsink.monitor", "source_name=virtmic",
                 "source_properties=device.description=VirtualMic")
        self.run("pactl", "set-default-source", "virtmic")


class Listener:
    """listen --format jsonl; each stdout record and stderr line stamped on arrival (monotonic clock)."""

    def __init__(self, binary, env):
        self.p = subprocess.Popen([binary, "listen", "--format", "jsonl", "--reconnect", "30"], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.frames = []      # (arrival, t)
        self.events = []      # (arrival, record)
        self.notices = []     # (arrival, line)
        self.bad = []
        threading.Thread(target=self._out, daemon=True).start()
        threading.Thread(target=self._err, daemon=True).start()

    def _out(self):
        for line in self.p.stdout:
            now = time.monotonic()
            try:
                r = json.loads(line)
            except ValueError:
                self.bad.append(line)
                continue
            if "event" in r:
                self.events.append((now, r))
            else:
                self.frames.append((now, r["t"]))

    def _err(self):
        for line in self.p.stderr:
            self.notices.append((time.monotonic(), line.rstrip("\n")))

    def sample(self):
        """(cpu seconds, rss bytes) from /proc."""
        with open(f"/proc/{self.p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        rss = int(fields[21]) * PAGE
        return cpu, rss

    def stop(self):
        self.p.send_signal(signal.SIGTERM)
        try:
            self.p.wait(15)
        except subprocess.TimeoutExpired:
            self.p.kill(); self.p.wait()
        time.sleep(0.5)


def slope(points):
    """Least-squares slope of (x, y) points."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--fault-every", type=float, default=150, help="seconds between faults")
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/miccheck"))
    ap.add_argument("--json", help="write the figures here too")
    args = ap.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"soak: {args.binary} is not built (swift build -c release)")

    folder = tempfile.mkdtemp(prefix="miccheck-soak-")
    server = Server(folder + "/pa")
    noise = folder + "/noise.wav"
    noise_wav(noise)
    server.start()
    server.play([SAMPLE, noise])
    time.sleep(0.5)
    listener = Listener(args.binary, server.env)
    began = time.monotonic()
    duration = args.minutes * 60
    faults = []          # (kind, start, end): the wall interval of each fault
    usage = []           # (elapsed, cpu, rss, audio t)
    kinds = ["kill", "unplug", "stop"]
    next_fault = args.fault_every
    rng = random.Random(1)
    try:
        while True:
            elapsed = time.monotonic() - began
            if elapsed >= duration or listener.p.poll() is not None:
                break
            # Sampled before a fault, so that a stretch's last sample is of the stretch, not of the fault after it.
            cpu, rss = listener.sample()
            t = listener.frames[-1][1] if listener.frames else 0.0
            usage.append((elapsed, cpu, rss, t))
            if elapsed >= next_fault and elapsed < duration - 20:
                kind = kinds[len(faults) % len(kinds)]
                start = time.monotonic()
                if kind == "unplug":
                    server.unplug(); time.sleep(2); server.plug()
                else:
                    server.stop_players()
                    server.kill() if kind == "kill" else server.stop()
                    time.sleep(rng.uniform(1, 3))
                    server.start()
                    server.play([SAMPLE, noise])
                faults.append((kind, start, time.monotonic()))
                next_fault += args.fault_every
            time.sleep(min(5.0, max(0.1, min(next_fault, duration) - (time.monotonic() - began))))
        crashed = listener.p.poll() is not None
    finally:
        listener.stop()
        server.stop_players()
        server.stop()
    wall = time.monotonic() - began
    results, failures = report(listener, faults, usage, began, wall, crashed)
    shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if failures:
        print("soak: FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("soak: passed")


def report(listener, faults, usage, began, wall, crashed):
    failures = []
    r = {"minutes": round(wall / 60, 1),
         "faults": {k: sum(1 for f in faults if f[0] == k) for k in ("kill", "stop", "unplug")}}
    print(f"soak: {r['minutes']} min of listen, {len(listener.frames)} frames, {len(faults)} faults {r['faults']}")
    if crashed:
        failures.append(f"listen exited with {listener.p.returncode} before the end")
    if listener.bad:
        failures.append(f"{len(listener.bad)} lines on stdout that are not JSON")

    # Each fault is answered: a server outage by `reconnected`, an unplug by the fallback to the default source.
    lost = [n for n in listener.notices if "went away" in n[1]]
    back = [n for n in listener.notices if "reconnected after" in n[1]]
    fell = [n for n in listener.notices if "disappeared; listening to the default source" in n[1]]
    unanswered = []
    for kind, start, end in faults:
        answers = fell if kind == "unplug" else back
        if not any(start <= a <= end + 15 for a, _ in answers):
            unanswered.append(f"{kind} at {start - began:.0f} s")
    outages = sum(1 for f in faults if f[0] != "unplug")
    r["reconnections"] = len(back)
    r["server_lost_notices"] = len(lost)
    r["fallbacks"] = len(fell)
    print(f"  reconnections: {len(back)} for {outages} server outages ({len(lost)} 'went away' notices); "
          f"fallbacks to the default source: {len(fell)} for {len(faults) - outages} unplugs")
    if unanswered:
        failures.append("faults with no reconnection or fallback: " + ", ".join(unanswered))

    # t: strictly increasing, on the wall clock, and no step over a frame that no fault explains.
    frames = listener.frames
    backwards = sum(1 for a, b in zip(frames, frames[1:]) if b[1] <= a[1])
    gaps_explained, lost_frames, worst_gap = 0, 0, 0.0
    for (a_arr, a_t), (b_arr, b_t) in zip(frames, frames[1:]):
        step = b_t - a_t
        if step > 0.0151:
            if any(start - 1 <= b_arr and a_arr <= end + 15 for _, start, end in faults):
                gaps_explained += 1
            else:
                lost_frames += round(step / 0.01) - 1
                worst_gap = max(worst_gap, step)
    # t's clock against the wall's: a frame's lateness is when it arrived less when its t says it was captured.
    # A loaded machine may deliver a burst of frames late (a stall of the reader, then its backlog); that is
    # not t drifting. So each 10 s of arrivals counts its most punctual frame, against the first 10 s's.
    first_arrival = frames[0][0] if frames else began
    punctual = {}
    for arr, t in frames:
        window = int((arr - first_arrival) // 10)
        punctual[window] = min(punctual.get(window, float("inf")), (arr - first_arrival) - (t - frames[0][1]))
    drift = max((abs(v - punctual[0]) for v in punctual.values()), default=0.0)
    summary = [line for _, line in listener.notices if "frames dropped" in line or "frame dropped" in line]
    dropped = None
    if summary:
        words = summary[-1].split(";")
        for w in words:
            if "dropped" in w:
                dropped = int(w.split()[0])
    r.update(t_backwards=backwards, gaps_at_faults=gaps_explained, frames_lost_outside_faults=lost_frames,
             worst_unexplained_gap_s=round(worst_gap, 3), max_drift_from_wall_s=round(drift, 3),
             frames_dropped_by_listen=dropped)
    print(f"  t: {backwards} steps backwards; {gaps_explained} gaps, all at faults; "
          f"{lost_frames} frames lost outside faults (worst gap {worst_gap:.3f} s); "
          f"t within {drift:.3f} s of the wall clock (each 10 s's most punctual frame); "
          f"listen's own count of dropped frames: {dropped}")
    if backwards:
        failures.append(f"t went backwards {backwards} times")
    if lost_frames:
        failures.append(f"{lost_frames} frames lost outside the faults")
    if drift > 1.0:
        failures.append(f"t drifted {drift:.2f} s from the wall clock")
    if dropped is None:
        failures.append("listen's summary (frames dropped) was not seen")
    elif dropped:
        failures.append(f"listen dropped {dropped} frames")

    # Memory after warm-up (the first fifth, at least a minute): slope and growth.
    warm = max(60.0, wall / 5)
    after = [(e, rss) for e, _, rss, _ in usage if e >= warm]
    if len(after) >= 8:
        mib = [(e / 3600, rss / 2**20) for e, rss in after]
        per_hour = slope(mib)
        q = max(1, len(after) // 4)
        growth = statistics.median(m for _, m in mib[-q:]) - statistics.median(m for _, m in mib[:q])
        r.update(rss_mib_start=round(mib[0][1], 1), rss_mib_end=round(mib[-1][1], 1),
                 rss_slope_mib_per_hour=round(per_hour, 2), rss_growth_mib=round(growth, 2))
        print(f"  memory: RSS {mib[0][1]:.1f} MiB after warm-up, {mib[-1][1]:.1f} MiB at the end; "
              f"slope {per_hour:+.2f} MiB an hour; first to last quarter {growth:+.2f} MiB")
        if growth > 4.0:
            failures.append(f"RSS grew {growth:.1f} MiB after warm-up")
    else:
        failures.append("too short to judge memory")

    # CPU per second of audio, in each stretch between faults (from 10 s after one to the next).
    edges = [10.0] + [x for _, start, end in faults for x in (start - began, end - began + 10)] + [wall]
    per_stretch = []
    for lo, hi in zip(edges[::2], edges[1::2]):
        w = [u for u in usage if lo <= u[0] <= hi]
        if len(w) >= 2 and w[-1][3] - w[0][3] > 20:
            per_stretch.append((w[-1][1] - w[0][1]) / (w[-1][3] - w[0][3]))
    if len(per_stretch) >= 2:
        q = max(1, len(per_stretch) // 4)
        first, last = statistics.median(per_stretch[:q]), statistics.median(per_stretch[-q:])
        r.update(cpu_ms_per_audio_s_first=round(first * 1000, 2), cpu_ms_per_audio_s_last=round(last * 1000, 2),
                 cpu_ms_per_audio_s_max=round(max(per_stretch) * 1000, 2), cpu_stretches=len(per_stretch))
        print(f"  CPU per second of audio: {first * 1000:.2f} ms in the first quarter, "
              f"{last * 1000:.2f} ms in the last "
              f"(max {max(per_stretch) * 1000:.2f} ms; {len(per_stretch)} stretches between faults)")
        if last > 1.5 * first + 0.002:
            failures.append(f"CPU per second of audio rose from {first * 1000:.2f} to {last * 1000:.2f} ms")
    else:
        failures.append("too few stretches between faults to compare CPU")

    # While the server is away, listen waits between attempts to reconnect: over each outage (from the sample
    # before it to the first after it), the CPU beyond what its listening took (the stretches' median per second
    # of audio) stays low. A wait cut short spins a core.
    listening = statistics.median(per_stretch) if per_stretch else 0.0
    spent = []
    for kind, start, end in faults:
        before = [u for u in usage if u[0] <= start - began]
        after = [u for u in usage if u[0] >= end - began]
        if kind != "unplug" and before and after and after[0][0] > before[-1][0]:
            (w0, c0, _, t0), (w1, c1, _, t1) = before[-1], after[0]
            spent.append(max(0.0, c1 - c0 - listening * (t1 - t0)) / (w1 - w0))
    if spent:
        r["cpu_ms_per_s_in_outages_max"] = round(max(spent) * 1000, 2)
        print(f"  CPU per second of an outage, beyond listening: at most {max(spent) * 1000:.0f} ms")
        if max(spent) > 0.2:
            failures.append(f"listen spent {max(spent) * 1000:.0f} ms of CPU a second while the server was away")

    # The analysis kept working: speech heard in every stretch of 3 minutes (the sample speaks every 10 s).
    starts = [arr - began for arr, e in listener.events if e.get("event") == "speech_started"]
    silent_stretches = []
    s = 0.0
    while s + 180 <= wall:
        if not any(s <= x < s + 180 for x in starts):
            silent_stretches.append(f"{s:.0f}-{s + 180:.0f} s")
        s += 180
    r["speech_started"] = len(starts)
    print(f"  speech_started: {len(starts)} ({len(starts) / max(wall / 60, 1e-9):.1f} a minute)")
    if not starts or silent_stretches:
        failures.append("no speech heard in " + (", ".join(silent_stretches) or "the whole run"))
    return r, failures


if __name__ == "__main__":
    main()
