#!/usr/bin/env python3
"""Figures of MicCheck's analysis in the page (miccheck.wasm in the SDK's AudioWorklet), in headless Chromium:

1. CPU: the CPU time of Chromium's real-time AudioWorklet thread (its renderer's "Realtime AudioWorklet"
   thread, read from /proc) over --seconds of a voice as the microphone, as % of one core: the no-server
   page (Examples/web-embed/no-server.html: the kernel decides everything) against, in the same run, MicCheck's
   own page with `analysis=server` (its worklet only converts to 16 kHz and sends), the peer, and Chromium's
   floor: a page whose AudioWorklet does nothing with the same microphone (the thread renders the context's
   whole graph, the microphone's source included).
2. Onset delay: a WAV of a quiet room then the package's test voice is played into a MediaStream (Web Audio:
   an AudioBufferSourceNode into a MediaStreamAudioDestinationNode) that the client listens to; the delay is
   from the moment the voice file starts playing to the client's `speaking` event, less the time `miccheck
   analyze` gives the file's first speech_started: what the page adds beyond the detector, the figure
   `scripts/measure-listen.py` gives for live capture. The source's start is mapped to performance.now()
   through the AudioContext's clock (a render quantum, 2.7 ms, of uncertainty). The first trial includes the
   kernel's start on a new track; the steady figure is over the rest.

Run from the repository (after `bash scripts/build-wasm.sh` and `swift build`; Chromium and its driver as
scripts/browser-tests.sh installs them):
  .build/browser-venv/bin/python scripts/measure-page-analysis.py .build/debug/miccheck [--seconds 60] [--trials 12]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import wave

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
import harness  # noqa: E402
from harness import Run, browser, free_port, wait  # noqa: E402

WORKLET_THREAD = "Realtime AudioW"  # /proc's comm keeps 15 characters of "Realtime AudioWorklet…"
TICKS = os.sysconf("SC_CLK_TCK")

ONSET_PAGE = """<!doctype html><meta charset="utf-8"><title>onset</title>
<script type="module">
import { MicCheckClient } from './sdk/miccheck.js';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
window.trials = async (count, decidedAt) => {
  const ctx = new AudioContext({ sampleRate: 48000 });
  const buffer = await ctx.decodeAudioData(await (await fetch('onset.wav')).arrayBuffer());
  const destination = ctx.createMediaStreamDestination();
  const client = new MicCheckClient({ endpoint: 'none', stream: destination.stream });
  let heard = null;
  client.addEventListener('speaking', (e) => {
    if (e.detail.speaking && heard) { heard(performance.now()); heard = null; }
  });
  await client.start();
  client.resume();
  await ctx.resume();
  const delays = [];
  for (let i = 0; i < count; i++) {
    while (client.speaking) await sleep(50);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(destination);
    const ended = new Promise((r) => { source.onended = r; });
    const spoken = new Promise((r) => { heard = r; });
    const [now, contextNow] = [performance.now(), ctx.currentTime];
    const start = contextNow + 0.25;
    source.start(start);
    const at = await Promise.race([spoken, sleep(buffer.duration * 1000 + 1000).then(() => null)]);
    heard = null;
    delays.push(at === null ? null : at - (now + (start - contextNow) * 1000) - decidedAt * 1000);
    await ended;
    await sleep(1000);
  }
  client.close();
  return delays;
};
window.ready = true;
</script>"""

FLOOR_PAGE = """<!doctype html><meta charset="utf-8"><title>floor</title>
<script type="module">
const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
const ctx = new AudioContext();
await ctx.audioWorklet.addModule('floor-worklet.js');
ctx.createMediaStreamSource(stream).connect(new AudioWorkletNode(ctx, 'floor'));
window.ready = true;
</script>"""
FLOOR_WORKLET = "registerProcessor('floor', class extends AudioWorkletProcessor { process() { return true; } });\n"


def onset_wav(path):
    """A quiet room (2 s), the package's test voice, a quiet room (1.5 s), 16 kHz mono."""
    with wave.open(os.path.join(ROOT, "Sources", "MicCheckTesting", "Resources", "voice.wav")) as w:
        rate, voice = w.getframerate(), w.readframes(w.getnframes())
    import array
    import math
    quiet = array.array("h", (int(10 * math.sin(i * 0.37)) for i in range(rate * 2)))
    tail = array.array("h", quiet[: int(rate * 1.5)])
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(quiet.tobytes() + voice + tail.tobytes())


def first_start(binary, path):
    """The file's first speech_started as `miccheck analyze` gives it (seconds)."""
    lines = subprocess.run([binary, "analyze", "--format", "jsonl", path], check=True, capture_output=True,
                           text=True).stdout.splitlines()
    for line in lines:
        record = json.loads(line)
        if record.get("event") == "speech_started":
            return record["t"]
    raise SystemExit(f"analyze found no speech in {path}")


def descendants(root):
    """The processes under `root` (its own id included): the browser a driver started, and nobody else's."""
    children = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                parent = f.read().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        children.setdefault(parent, []).append(pid)
    out, todo = set(), [str(root)]
    while todo:
        pid = todo.pop()
        out.add(pid)
        todo.extend(children.get(pid, []))
    return out


def worklet_ticks(root):
    """The CPU ticks of the real-time AudioWorklet threads of the browser under process `root`, by thread id."""
    out = {}
    for pid in descendants(root):
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    if f.read().strip() != WORKLET_THREAD:
                        continue
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            out[tid] = int(fields[11]) + int(fields[12])
    return out


def worklet_cpu(url, ready, seconds):
    """% of one core the page's AudioWorklet thread used over `seconds`, after 5 s to settle."""
    d = browser(Run.speech)
    try:
        d.get(url)
        wait(d, ready, 20, what="the page's microphone")
        time.sleep(5)
        root = d.service.process.pid
        before, t0 = worklet_ticks(root), time.time()
        time.sleep(seconds)
        after, t1 = worklet_ticks(root), time.time()
        used = sum(after[t] - before.get(t, 0) for t in after)
        if not after:
            raise SystemExit("no AudioWorklet thread found")
        return 100 * used / TICKS / (t1 - t0)
    finally:
        d.quit()


def cpu(page, base, seconds):
    """Part 1: the three pages' AudioWorklet threads, one after another."""
    device = worklet_cpu(f"{page}/no-server.html", "return window.acme && !!window.acme.client.stream", seconds)
    pcm = worklet_cpu(f"{base}/?call=cpu&name=Ada&analysis=server",
                      "return window.miccheck && window.miccheck.client.state === 'open'", seconds)
    floor = worklet_cpu(f"{page}/floor.html", "return window.ready === true", seconds)
    print(f"AudioWorklet thread over {seconds:.0f} s of a voice, % of one core:")
    print(f"  the kernel deciding in the page (no-server.html): {device:.2f} %")
    print(f"  the server's analysis (the page converts and sends; peer): {pcm:.2f} %")
    print(f"  Chromium's floor (a worklet that does nothing): {floor:.2f} %")
    print(f"  above the floor: the kernel {device - floor:.2f} %, the peer {pcm - floor:.2f} %", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("binary")
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--trials", type=int, default=12)
    p.add_argument("--onset-only", action="store_true", help="the onset delay alone")
    args = p.parse_args()
    Run.binary = args.binary
    Run.work = tempfile.mkdtemp(prefix="miccheck-page-figures-")
    Run.speech, Run.silent = harness.make_files(Run.work)
    folder = os.path.join(Run.work, "static")
    shutil.copytree(os.path.join(ROOT, "Examples", "web-embed"), folder)
    shutil.copytree(os.path.join(ROOT, "Web", "sdk"),
                    os.path.join(folder, "sdk"), dirs_exist_ok=True)
    for name, text in [("onset.html", ONSET_PAGE), ("floor.html", FLOOR_PAGE), ("floor-worklet.js", FLOOR_WORKLET)]:
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    onset_wav(os.path.join(folder, "onset.wav"))
    decided = first_start(args.binary, os.path.join(folder, "onset.wav"))
    port = free_port()
    static = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server, base = harness.serve()
    try:
        time.sleep(1)
        page = f"http://127.0.0.1:{port}"
        if not args.onset_only:
            cpu(page, base, args.seconds)
        d = browser(None)
        try:
            d.get(f"{page}/onset.html")
            wait(d, "return window.ready === true", 10, what="the onset page")
            d.execute_script("window.trials(arguments[0], arguments[1]).then((r) => { window.result = r; },"
                             " (e) => { window.result = String(e); });", args.trials, decided)
            delays = wait(d, "return window.result", args.trials * 15 + 30, what="the onset trials")
        finally:
            d.quit()
        if isinstance(delays, str):
            raise SystemExit(f"the onset page failed: {delays}")
        print(f"onset delay beyond the detector (analyze's speech_started at {decided:.3f} s), {args.trials} trials:")
        print("  each, ms: " + ", ".join("missed" if x is None else f"{x:.0f}" for x in delays))
        steady = [x for x in delays[1:] if x is not None]
        if steady:
            print(f"  steady (after the first): median {statistics.median(steady):.0f} ms, "
                  f"range {min(steady):.0f} to {max(steady):.0f} ms, {len(delays) - 1 - len(steady)} missed")
    finally:
        static.terminate()
        harness.stop(server)
        shutil.rmtree(Run.work, ignore_errors=True)


if __name__ == "__main__":
    main()
