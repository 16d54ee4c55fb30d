"""A room of Janus's own VideoRoom demo pages with MicCheck (Examples/janus-videoroom), each a headless Chromium
with a WAV file as its microphone: the private Janus (scripts/janus-server.sh), the page (page.sh) under a static
server, the pages joined, and what a test or a measurement reads of them. Used by janus_tests.py and
scripts/bench-janus-room.py."""
import contextlib
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time

from selenium.common.exceptions import TimeoutException

from harness import ROOT, Run, browser, free_port, js, voice, wait, write_wav

JANUS = os.path.join(ROOT, "scripts", "janus-server.sh")
PAGE = os.path.join(ROOT, "Examples", "janus-videoroom", "page.sh")
# Janus's page logs every event (`debug: "all"`); what a page logs travels to chromedriver.
QUIET_CONSOLE = "for (const k of ['log', 'debug', 'info', 'trace', 'dir']) console[k] = () => {};"
# Logs each time a notice appears, [tag, text, Date.now()] (a notice shows for a few seconds, and at most once
# in two minutes for typing: a test that looks later still sees it happened).
NOTICES = """
window.__shown = [];
for (const tag of ['miccheck-muted-notice', 'miccheck-typing-notice']) {
  const part = document.querySelector(tag).shadowRoot.querySelector('[part~=notice]');
  new MutationObserver(() => { if (!part.hidden) window.__shown.push([tag, part.textContent, Date.now()]); })
    .observe(part, { attributes: true, attributeFilter: ['hidden'] });
}"""
# Each page's camera is a 32x24 canvas that changes once a second: eight pages each encoding Chromium's 640x480
# synthetic camera and decoding seven others' ask more than this 2-core machine has (Guides/Figures.md), and
# what the room tests is the audio. The page's microphone is still Chromium's, the WAV file.
CANVAS_CAMERA = """
const gum = MediaDevices.prototype.getUserMedia;
MediaDevices.prototype.getUserMedia = async function (c) {
  if (!c || !c.video) return gum.call(this, c);
  const stream = await gum.call(this, { ...c, video: false });
  const canvas = Object.assign(document.createElement('canvas'), { width: 32, height: 24 });
  const g = canvas.getContext('2d');
  g.fillStyle = '#3a6';
  g.fillRect(0, 0, 32, 24);
  setInterval(() => {
    g.fillStyle = g.fillStyle === '#33aa66' ? '#3366aa' : '#33aa66';
    g.fillRect(0, 0, 32, 24);
  }, 1000);
  for (const t of canvas.captureStream(1).getVideoTracks()) stream.addTrack(t);
  return stream;
};"""


def missing():
    """Why the room cannot run here (Janus or its demos not installed), or None."""
    if not os.path.exists("/usr/bin/janus"):
        return "Janus is not installed (bash scripts/setup.sh janus janus-demos libjs-janus-gateway)"
    if not os.path.exists("/usr/share/janus/demos/videoroomtest.js"):
        return "Janus's demos are not installed (bash scripts/setup.sh janus-demos)"
    return None


def room_files(work):
    """The microphones of a room: a sentence every 4 s, a reader who speaks without a long pause, typing in a
    quiet room, a quiet room, and a dead microphone (zeros); 16 kHz."""
    rate = 16000
    rng = random.Random(5)
    room = [0.0003 * math.sin(i * 0.37) + rng.gauss(0, 0.0002) for i in range(rate * 30)]
    files = {}
    quiet = room[: int(1.5 * rate)]
    files["talker"] = quiet + voice() + quiet[: rate // 2]
    files["reader"] = voice(6.5) + quiet[: rate // 5]
    # Keystrokes 80 to 300 ms apart, peaks at -20 dBFS ± 6 dB: a noise burst with a 1 ms attack and a 6 ms
    # decay through a resonance at 1.2 kHz (MicCheckTesting's Signals.keystroke).
    typing = list(room)
    r = math.exp(-math.pi * 2000 / rate)
    a1, a2 = 2 * r * math.cos(2 * math.pi * 1200 / rate), -r * r
    t = 1.0
    while t < 29.5:
        n = int(0.05 * rate)
        x1 = y1 = y2 = 0.0
        key = []
        for i in range(n):
            env = min(1, i / 16) * math.exp(-i / (0.006 * rate))
            x = rng.uniform(-1, 1) * env
            y = x - x1 + a1 * y1 + a2 * y2
            x1, y2, y1 = x, y1, y
            key.append(y)
        peak = max(abs(v) for v in key)
        gain = 10 ** ((-20 + rng.uniform(-6, 6)) / 20) / peak
        at = int(t * rate)
        for i, v in enumerate(key):
            typing[at + i] += v * gain
        t += 0.08 + 0.22 * rng.random()
    files["typist"] = typing
    files["quiet"] = room
    files["dead"] = [0.0] * (rate * 30)
    paths = {}
    for name, samples in files.items():
        paths[name] = os.path.join(work, f"janus-{name}.wav")
        write_wav(paths[name], samples)
    return paths


class Room:
    """A private Janus, the example's page served from a folder of its own, and the pages that join it."""

    def __init__(self, work, plain=False):
        """`plain`: Debian's page as it is, without MicCheck (for measuring what MicCheck adds)."""
        self.plain = plain
        self.dir = tempfile.mkdtemp(dir=work, prefix="janus-")
        self.port = free_port()
        subprocess.run(["bash", JANUS, "start", self.dir, str(self.port)], check=True)
        self.url = subprocess.run(["bash", JANUS, "url", self.dir], check=True, capture_output=True,
                                  text=True).stdout.strip()
        page = os.path.join(self.dir, "page")
        subprocess.run(["bash", PAGE, *(["--plain"] if plain else []), page, self.url], check=True)
        self.static_port = free_port()
        self.static = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.static_port), "--bind", "127.0.0.1", "--directory", page],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.static_port), 1).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.pages = {}

    def open(self, name, audio, join=True):
        """A page with `audio` as its microphone: Start (MicCheck opens the microphone for the meter and the
        test), then, with `join`, Janus's own "Join the room" under `name`."""
        d = browser(audio, width=1000, height=700)
        # Eight Chromiums ask about 3.5 cores of this 2-core machine: a page's main thread, queued behind the
        # others, has been seen to take more than 30 s (the harness's limit) to run a one-line script. A slow
        # answer is still an answer: the room's pages get 100 s (under the WebDriver client's own 120).
        d.set_script_timeout(100)
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": QUIET_CONSOLE + CANVAS_CAMERA})
        self.pages[name] = d
        self.start(name)
        if join:
            self.join(name)
        return self.pages[name]

    def start(self, name, load=True):
        """The page loaded (unless `load` is false: it reloaded by itself), and Janus's Start pressed."""
        d = self.pages[name]
        if load:
            d.get(f"http://127.0.0.1:{self.static_port}/videoroomtest.html")
        ready = "!!document.getElementById('start') && !!window.Janus"
        ready += "" if self.plain else " && !!window.miccheckJanus"
        wait(d, f"return {ready}", 15, what=f"{name}'s page")
        js(d, "document.getElementById('start').click()")
        wait(d, "const r = document.getElementById('registernow'); return !!r && !r.classList.contains('hide')", 20,
             what=f"{name}'s Janus session")
        if not self.plain:
            js(d, NOTICES)

    def join(self, name, published=True):
        """Janus's "Join the room" under `name`; with `published`, until the page publishes its microphone."""
        d = self.pages[name]
        js(d, "document.getElementById('username').value = arguments[0]; document.getElementById('register').click()",
           name)
        if published:
            self.published(name)

    def published(self, name, seconds=90):
        condition = "window.myid !== null && window.myid !== undefined" if self.plain else \
            "window.miccheckJanus.client.joined && !!window.miccheckJanus.track"
        wait(self.pages[name], f"return {condition}", seconds, what=f"{name} publishing in the room")

    def gather(self, people):
        """A room of `people` ([name, audio file]): every page opened and Started, then all join at once (on a
        loaded machine a join that waits for the one before takes minutes), until each page publishes."""
        for name, audio in people:
            self.open(name, audio, join=False)
        for name, _ in people:
            self.join(name, published=False)
        for name, _ in people:
            self.published(name, seconds=180)

    def wait_for_everybody(self, seconds=180):
        """Until every page has a panel for each of the others; an AssertionError names what each page has."""
        # Debian's page as it is has five remote panels: it shows five others at most.
        others = min(len(self.pages) - 1, 5) if self.plain else len(self.pages) - 1
        deadline = time.time() + seconds
        while True:
            seen = {n: self.remote_feeds(d) for n, d in self.pages.items()}
            if all(count == others for count in seen.values()):
                return
            if time.time() > deadline:
                raise AssertionError(f"not every page sees the {others} others within {seconds} s: {seen}")
            time.sleep(1)

    @staticmethod
    def remote_feeds(d):
        """How many others the page has a panel for; None while the page is too busy to answer (its script timed
        out: eight Chromiums on two cores), which is not an answer yet."""
        try:
            return js(d, "return (window.feeds || []).filter((f) => f && f.rfindex).length")
        except TimeoutException:
            return None

    def shown(self, name, tag):
        """The texts of the notice `tag` each time it appeared on the page."""
        return [text for t, text, _ in js(self.pages[name], "return window.__shown") if t == tag]

    def watch_rings(self, name):
        """From now on the page logs each remote panel's ring change: [who, on, Date.now()] (a MutationObserver:
        nothing runs while nothing changes; the rings on at the start are logged first)."""
        js(self.pages[name], """
          window.__ringObserver?.disconnect();
          window.__rings = [];
          const who = (panel) => {
            const index = Number((panel.querySelector('.panel-body')?.id || '').replace('videoremote', ''));
            return index ? (window.feeds || [])[index]?.rfdisplay : undefined;
          };
          for (const panel of document.querySelectorAll('#videos .panel[data-speaking=true]')) {
            if (who(panel)) window.__rings.push([who(panel), true, Date.now()]);
          }
          window.__ringObserver = new MutationObserver((records) => {
            for (const r of records) {
              const name = who(r.target);
              if (name && r.oldValue !== r.target.dataset.speaking) {
                window.__rings.push([name, r.target.dataset.speaking === 'true', Date.now()]);
              }
            }
          });
          window.__ringObserver.observe(document.getElementById('videos'),
            { subtree: true, attributes: true, attributeFilter: ['data-speaking'], attributeOldValue: true });""")

    def rings(self, name):
        return js(self.pages[name], "return window.__rings || []")

    def ringing(self, name, who):
        """Whether `who` rings on the page now (the last change for `who` in its log, see watch_rings)."""
        changes = [on for person, on, _ in self.rings(name) if person == who]
        return bool(changes) and changes[-1]

    def watch_lateness(self, name):
        """From now on the page logs how late its own event loop runs: a timer due every 50 ms (each set when the
        last ran) logs [Date.now(), ms after it was due]. A page that runs late takes its rings down late, however
        right the rule that decides when."""
        js(self.pages[name], """
          clearTimeout(window.__lateTimer);
          window.__late = [];
          let due = Date.now() + 50;
          const tick = () => {
            const now = Date.now();
            window.__late.push([now, now - due]);
            due = now + 50;
            window.__lateTimer = setTimeout(tick, 50);
          };
          window.__lateTimer = setTimeout(tick, 50);""")

    def unwatch_lateness(self, name):
        js(self.pages[name], "clearTimeout(window.__lateTimer); window.__late = [];")

    def watch_statements(self, name):
        """From now on the page logs each speaking statement it hears: [sender, at, Date.now()] (`at`: the sender's
        clock, Date.now()'s on one machine), through its RemoteSpeaking (the glue's `others`)."""
        js(self.pages[name], """
          window.__said = [];
          const others = window.miccheckJanus.others;
          if (!others.__heard) {
            others.__heard = others.heard.bind(others);
            others.heard = (id, text) => {
              try {
                const s = JSON.parse(text);
                const who = (window.feeds || []).find((f) => f && f.rfid === id)?.rfdisplay;
                if (who && typeof s.at === 'number') window.__said.push([who, s.at, Date.now()]);
              } catch { /* not a statement: the SDK says so */ }
              return others.__heard(id, text);
            };
          }""")

    def statements(self, name, who):
        """The statements from `who` that the page heard since watch_statements: (at, arrived), ms."""
        return [(at, arrived) for sender, at, arrived in js(self.pages[name], "return window.__said || []")
                if sender == who]

    def late_log(self, name):
        """The page's log of its event loop's lateness: [Date.now(), ms late] (see watch_lateness)."""
        return js(self.pages[name], "return window.__late || []")

    def lateness(self, name, start, end):
        """The most the page's event loop ran late between `start` and `end` (ms on `Date.now()`; see
        watch_lateness)."""
        return max([late for t, late in self.late_log(name) if start <= t <= end], default=0)

    def watch_onsets(self, name):
        """From now on the page logs the onsets of its own microphone (the track Janus sends, as it reaches the
        page): a 10 ms block above -40 dBFS after at least 300 ms below -55 dBFS, in Date.now() ms. The blocks are
        measured on the audio thread (an AudioWorklet sees every sample) and dated there (Date.now() when the quantum
        that holds the block is rendered, less the samples after the block), so a page whose main thread runs
        seconds late on a saturated machine still sees each pause and dates each onset right."""
        js(self.pages[name], """
          window.__onsets = [];
          window.__onsetError = undefined;
          window.__onsetContext?.close();
          const ctx = window.__onsetContext = new AudioContext();
          const code = `registerProcessor('onset-watch', class extends AudioWorkletProcessor {
            constructor() { super(); this.sum = 0; this.n = 0; this.quietSince = null; }
            process(inputs) {
              const x = inputs[0] && inputs[0][0];
              if (!x) return true;
              const block = Math.round(sampleRate / 100);
              for (let i = 0; i < x.length; i++) {
                this.sum += x[i] * x[i];
                if (++this.n < block) continue;
                const db = 10 * Math.log10(this.sum / block + 1e-20);
                // The block's start on Date.now(), taking the quantum being rendered to end now.
                const at = Date.now() - (x.length - (i + 1 - block)) / sampleRate * 1000;
                this.sum = 0; this.n = 0;
                if (db < -55) { if (this.quietSince === null) this.quietSince = at; }
                else if (db > -40) {
                  if (this.quietSince !== null && at - this.quietSince >= 300) this.port.postMessage(at);
                  this.quietSince = null;
                }
              }
              return true;
            }
          });`;
          const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
          ctx.audioWorklet.addModule(url).then(() => {
            const source = ctx.createMediaStreamSource(new MediaStream([window.miccheckJanus.track.clone()]));
            const node = new AudioWorkletNode(ctx, 'onset-watch');
            // The worklet needs a path to the output to run; it writes nothing to it.
            const sink = ctx.createGain();
            sink.gain.value = 0;
            source.connect(node).connect(sink).connect(ctx.destination);
            node.port.onmessage = (e) => window.__onsets.push(Math.round(e.data));
          }).catch((e) => { window.__onsetError = String(e); });""")

    def onsets(self, name):
        error = js(self.pages[name], "return window.__onsetError")
        if error:
            raise AssertionError(f"{name}'s onset watch did not start: {error}")
        return js(self.pages[name], "return window.__onsets || []")

    def unwatch_onsets(self, name):
        """Ends watch_onsets: its audio context and its worklet go (the log stays)."""
        js(self.pages[name], "window.__onsetContext?.close(); window.__onsetContext = undefined;")

    def processes(self, name):
        """The pids of the page's Chromium (every process under its chromedriver)."""
        root = self.pages[name].service.process.pid
        out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout.split()
        children = {}
        for pid, ppid in zip(out[::2], out[1::2]):
            children.setdefault(int(ppid), []).append(int(pid))
        found, todo = [], list(children.get(root, []))
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo.extend(children.get(pid, []))
        return found

    def freeze(self, name, on=True):
        """Stops (SIGSTOP) or continues every process of the page's Chromium; returns when the signals went, ms on
        time.time() (after the processes are listed, which on a loaded machine takes a good part of a second)."""
        pids = self.processes(name)
        sent = time.time() * 1000
        for pid in pids:
            try:
                os.kill(pid, signal.SIGSTOP if on else signal.SIGCONT)
            except ProcessLookupError:
                pass
        return sent

    @contextlib.contextmanager
    def only(self, names, settle=2):
        """Runs only the pages of `names` for the block: every other page's Chromium is stopped (SIGSTOP) and
        continued after, then `settle` seconds for them to catch up. Eight Chromiums ask about 3.5 cores of this
        2-core machine and then run seconds late (a WebDriver script has taken 17 s to answer, and a page's rings
        came seconds after the speech); four keep time (ring delay median 0.35–0.47 s in three runs), as people's
        pages each do on their own computer. The room stays eight participants: Janus keeps forwarding to a
        stopped page. A page stopped for a while and continued shows the others' statements again only tens of
        seconds later (seen here), and one of the quiet room then once said its microphone was not working: stop
        only pages whose rings and warnings are not looked at again."""
        resting = [name for name in self.pages if name not in names]
        for name in resting:
            self.freeze(name)
        try:
            yield
        finally:
            for name in resting:
                self.freeze(name, on=False)
            if resting:
                time.sleep(settle)

    def cpu_seconds(self, name):
        """User and system CPU seconds of the page's Chromium so far."""
        total = 0
        for pid in self.processes(name):
            try:
                total += cpu_ticks(f"/proc/{pid}/stat")
            except (OSError, IndexError):
                pass
        return total / os.sysconf("SC_CLK_TCK")

    def janus_pid(self):
        """The pid of the room's own Janus (scripts/janus-server.sh keeps it beside its configuration)."""
        with open(os.path.join(self.dir, "janus.pid")) as f:
            return int(f.read())

    def restart_janus(self):
        """Janus killed (as a crash would) and started again on the same port."""
        subprocess.run(["bash", JANUS, "kill", self.dir], check=True)
        subprocess.run(["bash", JANUS, "start", self.dir], check=True)

    def close(self):
        for name, d in self.pages.items():
            self.freeze(name, on=False)
            try:
                d.quit()
            except Exception:
                pass
        self.pages = {}
        self.static.terminate()
        self.static.wait(10)
        subprocess.run(["bash", JANUS, "stop", self.dir], check=False)


def cpu_ticks(stat):
    """User and system CPU ticks so far of a process or thread, from its /proc stat file (`stat`, a path)."""
    with open(stat) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def delays(onsets, rings, who):
    """Each ring turning on for `who`, less the speaker's latest onset before it (ms)."""
    out = []
    for name, on, t in rings:
        if name != who or not on:
            continue
        before = [o for o in onsets if o <= t]
        if before and t - before[-1] < 3000:
            out.append(t - before[-1])
    return out


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else None


__all__ = ["Room", "Run", "cpu_ticks", "delays", "missing", "percentile", "room_files"]
