"""What the browser tests share: headless Chromium (Debian's chromium and chromium-driver, driven by Selenium)
with a WAV file as its microphone and Chromium's synthetic camera, `miccheck serve` processes, waiting on a
condition in the page, and finding elements inside the components' shadow roots."""
import math
import os
import re
import shutil
import struct
import subprocess
import tempfile
import time
import wave

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VOICE = os.path.join(ROOT, "Sources", "MicCheckTesting", "Resources", "voice.wav")

MUTED = "You are muted."
NOT_WORKING = "Your microphone doesn't seem to be working. Make sure you have all permissions accepted."


class Run:
    """The run's settings and shared files: set once by browser_tests.main()."""
    binary = None
    screenshots = None
    figures = None
    work = None
    base = None
    speech = None
    silent = None


def write_wav(path, samples, rate=16000):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<h", max(-32768, min(32767, int(round(x * 32767))))) for x in samples))


def voice(seconds=2.0):
    with wave.open(VOICE) as w:
        raw = w.readframes(w.getnframes())
    return [v / 32768 for v in struct.unpack(f"<{len(raw) // 2}h", raw)][: int(seconds * 16000)]


def make_files(work):
    """A microphone that says a sentence every 4 s (1.5 s of near-silence, the voice, quiet again), and a
    dead one (digital zeros)."""
    quiet = [0.0003 * math.sin(i * 0.37) for i in range(int(1.5 * 16000))]
    cycle = quiet + voice() + quiet[: int(0.5 * 16000)]
    speech = os.path.join(work, "speech.wav")
    write_wav(speech, cycle * 8)
    silent = os.path.join(work, "silent.wav")
    write_wav(silent, [0.0] * (16000 * 30))
    return speech, silent


def dead_microphone_files(work):
    """At 48 kHz, what a page's microphone may send: an idle converter (zeros with about a quarter of its
    samples at ±1, as sox writes silence), and a working microphone that gates its pauses (room tone until
    the first word, then each sentence followed by 4 s of exact zeros)."""
    import random
    rate = 48000

    def write(path, samples):
        with wave.open(path, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    rng = random.Random(48)
    dither = os.path.join(work, "dither.wav")
    write(dither, [round(rng.uniform(-.5, .5) + rng.uniform(-.5, .5)) for _ in range(rate * 30)])
    # Pink noise at -60 dBFS (Paul Kellet's filter) under the voice and before it: the room.
    noise, b = random.Random(7), [0.0, 0.0, 0.0]

    def pink():
        x = noise.gauss(0, 1)
        b[0] = .99765 * b[0] + x * .099046
        b[1] = .963 * b[1] + x * .2965164
        b[2] = .57 * b[2] + x * 1.0526913
        return b[0] + b[1] + b[2] + x * .1848
    spoken = [x * 32767 for x in voice(7.0) for _ in range(3)]
    room = [pink() for _ in range(rate * 2 + len(spoken))]
    k = 32768 * 10 ** (-60 / 20) / (sum(x * x for x in room) / len(room)) ** .5
    sentence = [max(-32768, min(32767, round(v + x * k))) for v, x in zip(spoken, room[rate * 2:])]
    gated = os.path.join(work, "gated.wav")
    write(gated, [round(x * k) for x in room[: rate * 2]] + (sentence + [0] * (rate * 4)) * 5)
    return dither, gated


def browser(audio_file, deny=False, width=1280, height=800):
    """Headless Chromium with `audio_file` as its microphone (looped) and the synthetic camera."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
                 "--use-fake-device-for-media-stream", "--autoplay-policy=no-user-gesture-required",
                 f"--user-data-dir={tempfile.mkdtemp(dir=Run.work)}"]:
        options.add_argument(flag)
    options.add_argument("--use-fake-ui-for-media-stream=deny" if deny else "--use-fake-ui-for-media-stream")
    if audio_file:
        options.add_argument(f"--use-file-for-fake-audio-capture={audio_file}")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(30)
    return driver


# Finds an element through shadow roots: "miccheck-lobby >> #join" is #join inside <miccheck-lobby>'s shadow
# root; each step searches the previous element's shadow root (or the element itself when it has none).
QUERY = """
const q = (path, all) => {
  let nodes = [document];
  for (const sel of path.split(' >> ')) {
    nodes = nodes.flatMap((n) => [...(n.shadowRoot || n).querySelectorAll(sel)]);
  }
  return all ? nodes : (nodes[0] || null);
};
"""


def js(driver, body, *args):
    """Runs `body` in the page with q(path) and q(path, true) defined."""
    return driver.execute_script(QUERY + body, *args)


def q(driver, path):
    return js(driver, "return q(arguments[0]);", path)


def text(driver, path):
    return js(driver, "const e = q(arguments[0]); return e ? e.textContent.trim() : null;", path)


def click(driver, path):
    element = q(driver, path)
    if element is None:
        raise AssertionError(f"nothing at {path}")
    element.click()


def wait(driver, condition, seconds=10, what="the page"):
    """Until `condition` (a script's body) returns something true, asked every 50 ms. A page so busy that the
    script timed out (30 s: eight Chromiums on two cores) has not answered yet; the deadline still holds."""
    deadline = time.time() + seconds
    timeouts = 0
    while time.time() < deadline:
        try:
            value = js(driver, condition)
        except TimeoutException:
            timeouts += 1
            continue
        if value:
            return value
        time.sleep(0.05)
    busy = f"; the page's script timed out {timeouts} times" if timeouts else ""
    raise AssertionError(f"{what}: not within {seconds} s ({condition}){busy}")


def shot(driver, name):
    if Run.screenshots:
        os.makedirs(Run.screenshots, exist_ok=True)
        driver.save_screenshot(os.path.join(Run.screenshots, name))


def serve(*args, env=None):
    """A `miccheck serve --port 0` of its own, and its address."""
    server = subprocess.Popen([Run.binary, "serve", "--port", "0", *args], stdout=subprocess.PIPE, text=True,
                              env=env)
    line = server.stdout.readline()
    match = re.search(r"http://[^ ]+:(\d+)/", line)
    if not match:
        server.kill()
        raise AssertionError(f"the server did not start: {line!r}")
    return server, f"http://127.0.0.1:{match.group(1)}"


def stop(server):
    """Stops a server a test started, and closes its output."""
    server.terminate()
    server.wait(10)
    server.stdout.close()


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Page paths (inside the components' shadow roots).
LOBBY = "miccheck-lobby"
METER = f"{LOBBY} miccheck-meter"
TILES = "miccheck-call-grid > miccheck-participant-tile"
CONTROLS = "miccheck-call-controls"
NOTICE = "miccheck-muted-notice"
PROMPT = "miccheck-permissions-prompt"


def open_page(driver, call, name, base=None, extra="&audio_processing=off"):
    driver.get(f"{base or Run.base}/?call={call}&name={name}{extra}")
    wait(driver, "return window.miccheck && window.miccheck.client.state === 'open' && !!window.miccheck.client.me",
         what="the page's connection")


def luminance(rgb):
    """WCAG's relative luminance of an sRGB colour (0-255 channels)."""
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    """WCAG's contrast ratio of two colours (4.5 is the least for body text)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
