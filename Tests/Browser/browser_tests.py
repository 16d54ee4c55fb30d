#!/usr/bin/env python3
"""The lobby and the call in real browsers: headless Chromium (Debian's chromium and chromium-driver, driven
by Selenium) against `miccheck serve`, with a WAV file as each browser's microphone and Chromium's synthetic
camera. Run by scripts/test.sh through scripts/browser-tests.sh, which installs what it needs.

usage: browser_tests.py MICCHECK_BINARY [--screenshots DIR] [--figures FILE]
"""
import argparse
import json
import math
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import wave

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VOICE = os.path.join(ROOT, "Sources", "MicCheckTesting", "Resources", "voice.wav")
ARGS = None
WORK = None
SERVER = None
BASE = None

MUTED = "You are muted."
NOT_WORKING = "Your microphone doesn't seem to be working. Make sure you have all permissions accepted."


def write_wav(path, samples, rate=16000):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<h", max(-32768, min(32767, int(round(x * 32767))))) for x in samples))


def make_files():
    """A microphone that says a sentence every 4 s (1.5 s of near-silence, the voice, quiet again), and a
    dead one (digital zeros)."""
    with wave.open(VOICE) as w:
        raw = w.readframes(w.getnframes())
    voice = [v / 32768 for v in struct.unpack(f"<{len(raw) // 2}h", raw)][: int(2.0 * 16000)]
    quiet = [0.0003 * math.sin(i * 0.37) for i in range(int(1.5 * 16000))]
    cycle = quiet + voice + quiet[: int(0.5 * 16000)]
    speech = os.path.join(WORK, "speech.wav")
    write_wav(speech, cycle * 8)
    silent = os.path.join(WORK, "silent.wav")
    write_wav(silent, [0.0] * (16000 * 30))
    return speech, silent


def browser(audio_file, deny=False):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,800",
                 "--use-fake-device-for-media-stream", "--autoplay-policy=no-user-gesture-required",
                 f"--user-data-dir={tempfile.mkdtemp(dir=WORK)}"]:
        options.add_argument(flag)
    options.add_argument("--use-fake-ui-for-media-stream=deny" if deny else "--use-fake-ui-for-media-stream")
    if audio_file:
        options.add_argument(f"--use-file-for-fake-audio-capture={audio_file}")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(30)
    return driver


def wait(driver, condition, seconds=10, what="the page"):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = driver.execute_script(condition)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s ({condition})")


def shot(driver, name):
    if ARGS.screenshots:
        os.makedirs(ARGS.screenshots, exist_ok=True)
        driver.save_screenshot(os.path.join(ARGS.screenshots, name))


def open_page(driver, call, name):
    driver.get(f"{BASE}/?call={call}&name={name}&audio_processing=off")
    wait(driver, "return document.getElementById('count').textContent.length > 0", what="the lobby's presence line")


# Records, in the page, when its microphone starts a sentence (its level rises after a quiet stretch),
# on the wall clock that every browser on this machine shares.
ONSETS = """
const ctx = new AudioContext();
const stream = window.miccheck.stream;  // the very stream the page sends (another capture may start the file elsewhere)
const an = ctx.createAnalyser(); an.fftSize = 512;
ctx.createMediaStreamSource(stream).connect(an);
const buf = new Float32Array(512); window.onsets = []; let quietSince = performance.now();
setInterval(() => {
  an.getFloatTimeDomainData(buf); let s = 0; for (const x of buf) s += x * x;
  const db = 10 * Math.log10(s / buf.length + 1e-12), now = Date.now();
  if (db < -50) { quietSince = quietSince || now; }
  else if (db > -40 && quietSince && now - quietSince > 800) { window.onsets.push(now); quietSince = 0; }
}, 5);
"""

# Records, in the page, when a tile's speaking border comes on.
BORDERS = """
window.borders = [];
new MutationObserver(() => {
  for (const t of document.querySelectorAll('.tile')) {
    const on = t.classList.contains('speaking');
    if (on && t.dataset.was !== 'on') window.borders.push([t.dataset.id, Date.now()]);
    t.dataset.was = on ? 'on' : 'off';
  }
}).observe(document.getElementById('tiles'), {subtree: true, attributes: true, attributeFilter: ['class'], childList: true});
"""


class BrowserTests(unittest.TestCase):
    def test_1_lobby_preview_and_meter(self):
        d = browser(SPEECH)
        try:
            open_page(d, "lobby-test", "Ada Lovelace")
            wait(d, "const v = document.getElementById('preview'); return !v.hidden && v.videoWidth > 0", what="the camera preview")
            levels = []
            deadline = time.time() + 8
            while time.time() < deadline:
                levels.append(float(d.find_element(By.ID, "meter").get_attribute("aria-valuenow")))
                time.sleep(0.1)
            self.assertGreater(max(levels), 0.3, "the meter moves with the voice")
            self.assertLess(min(levels), 0.1, "and falls back between sentences")
            self.assertFalse(d.find_element(By.ID, "mic-warning").is_displayed())
            self.assertEqual(d.find_element(By.ID, "about").text, "You are about to join a call.")
            self.assertEqual(d.find_element(By.TAG_NAME, "h1").text, "Before Joining")
            shot(d, "serve-lobby.png")
            # Camera off: the fallback tile with initials; remembered after a reload.
            d.find_element(By.ID, "toggle-video").click()
            wait(d, "return document.getElementById('preview').hidden && !document.getElementById('preview-fallback').hidden")
            self.assertEqual(d.find_element(By.CSS_SELECTOR, "#preview-fallback .initials").text, "AL")
            d.refresh()
            wait(d, "return document.getElementById('toggle-video').getAttribute('aria-pressed') === 'false'",
                 what="the camera choice after a reload")
        finally:
            d.quit()

    def test_2_silent_microphone_warns(self):
        d = browser(SILENT)
        try:
            open_page(d, "silent-test", "Grace")
            text = wait(d, "const w = document.getElementById('mic-warning'); return !w.hidden && w.textContent", 12,
                        what="the not-working warning")
            self.assertEqual(text, NOT_WORKING)
        finally:
            d.quit()

    def test_3_two_browsers_video_speaking_and_muted(self):
        a, b = browser(SPEECH), browser(SPEECH)
        try:
            open_page(a, "call-test", "Ada Lovelace")
            open_page(b, "call-test", "Alan Turing")
            a.find_element(By.ID, "join").click()
            wait(b, "return document.getElementById('count').textContent === 'There is 1 more person in the call.'",
                 what="the lobby's count of the others")
            # B listens only, so that the speaking border on its screen is A's.
            b.find_element(By.ID, "toggle-audio").click()
            b.find_element(By.ID, "join").click()
            for d in (a, b):
                wait(d, "return document.querySelectorAll('.tile').length === 2", what="two tiles")
                wait(d, """const t = [...document.querySelectorAll('.tile video.remote')];
                          return t.length === 1 && t[0].videoWidth > 0 && t[0].closest('.tile').dataset.video === 'true'""",
                     20, what="the other's video over WebRTC")
            a_id = a.execute_script("return [...document.querySelectorAll('.tile')].find(t => t.querySelector('video.self')).dataset.id")
            a.execute_async_script("const done = arguments[0];" + ONSETS + "done();")
            b.execute_script(BORDERS)
            time.sleep(13)
            onsets = a.execute_script("return window.onsets")
            borders = [t for (i, t) in b.execute_script("return window.borders") if i == a_id]
            self.assertGreaterEqual(len(onsets), 2, "A spoke at least twice")
            # Onsets in the last 1.5 s may not have their border yet.
            end = b.execute_script("return Date.now()")
            onsets = [o for o in onsets if o < end - 1500]
            delays = []
            for onset in onsets:
                after = [t - onset for t in borders if t >= onset - 200]
                self.assertTrue(after, f"a speaking border after the onset at {onset}")
                delays.append(min(after))
            shot(b, "serve-call.png")
            self.assertLess(sorted(delays)[len(delays) // 2], 500, f"speaking border delays (ms): {delays}")
            if ARGS.figures:
                with open(ARGS.figures, "a") as f:
                    f.write(json.dumps({"speaking_border_delay_ms": delays}) + "\n")
            print(f"speaking border after the onset, ms: {delays}", file=sys.stderr)
            # Muted while speaking: the notice appears, then goes.
            a.find_element(By.ID, "call-audio").click()
            wait(a, f"const n = document.getElementById('muted-notice'); return !n.hidden && n.textContent.includes('{MUTED}')",
                 10, what="You are muted.")
            shot(a, "serve-muted.png")
            wait(a, "return document.getElementById('muted-notice').hidden", 5, what="the notice going")
            wait(b, "return [...document.querySelectorAll('.tile .label')].some(l => l.textContent.endsWith('· muted'))",
                 what="A shown muted")
            # A leaves: B sees one tile, nobody speaking.
            a.find_element(By.ID, "leave").click()
            wait(b, "return document.querySelectorAll('.tile').length === 1 && !document.querySelector('.tile.speaking')",
                 what="A gone")
        finally:
            a.quit()
            b.quit()

    def test_4_permission_refused(self):
        d = browser(SPEECH, deny=True)
        try:
            open_page(d, "deny-test", "Ada")
            wait(d, "return !document.getElementById('permission-prompt').hidden", what="the permissions prompt")
            self.assertEqual(d.find_element(By.ID, "prompt-title").text, "Camera and microphone access required")
            d.find_element(By.ID, "prompt-settings").click()
            self.assertIn("Chromium", d.find_element(By.ID, "prompt-steps").text)
            self.assertIn("Firefox", d.find_element(By.ID, "prompt-steps").text)
            shot(d, "serve-permissions.png")
            d.find_element(By.ID, "prompt-dismiss").click()
            d.refresh()
            open_page(d, "deny-test", "Ada")
            time.sleep(1.5)
            self.assertFalse(d.find_element(By.ID, "permission-prompt").is_displayed(), "dismissed for this call")
            open_page(d, "another-call", "Ada")
            wait(d, "return !document.getElementById('permission-prompt').hidden", what="the prompt in another call")
        finally:
            d.quit()


class TwoNodeTests(unittest.TestCase):
    """One call across two `miccheck serve` nodes sharing presence through a private PostgreSQL: each
    browser on its own node sees the other join, their video over WebRTC (signalled across the nodes),
    their speaking border and their leaving."""

    def test_6_one_call_across_two_nodes(self):
        pg = tempfile.mkdtemp(prefix="miccheck-browser-pg-")  # not under WORK: the cluster runs as postgres
        script = os.path.join(ROOT, "scripts", "postgres-server.sh")
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            port = free.getsockname()[1]
        subprocess.run(["bash", script, "start", pg, str(port)], check=True)
        url = subprocess.run(["bash", script, "url", pg], check=True, capture_output=True, text=True).stdout.strip()
        nodes, bases = [], []
        a = b = None
        try:
            for _ in range(2):
                node = subprocess.Popen([ARGS.binary, "serve", "--port", "0", "--presence", url], stdout=subprocess.PIPE, text=True)
                nodes.append(node)
                bases.append("http://127.0.0.1:" + re.search(r"http://[^ ]+:(\d+)/", node.stdout.readline()).group(1))
            a, b = browser(SPEECH), browser(SPEECH)
            a.get(f"{bases[0]}/?call=across&name=Ada&audio_processing=off")
            b.get(f"{bases[1]}/?call=across&name=Bob&audio_processing=off")
            for d in (a, b):
                wait(d, "return document.getElementById('count').textContent.length > 0", what="the lobby")
            a.find_element(By.ID, "join").click()
            wait(b, "return document.getElementById('count').textContent === 'There is 1 more person in the call.'",
                 what="the lobby's count, from the other node")
            b.find_element(By.ID, "toggle-audio").click()  # Bob listens: the border on his screen is Ada's
            b.find_element(By.ID, "join").click()
            for d in (a, b):
                wait(d, """const t = [...document.querySelectorAll('.tile video.remote')];
                          return t.length === 1 && t[0].videoWidth > 0""", 20, what="the other node's video over WebRTC")
            wait(b, "return !!document.querySelector('.tile.speaking')", 15, what="Ada speaking, seen on the other node")
            shot(b, "serve-two-nodes.png")
            a.find_element(By.ID, "leave").click()
            wait(b, "return document.querySelectorAll('.tile').length === 1 && !document.querySelector('.tile.speaking')",
                 what="Ada gone from the other node's call")
        finally:
            for d in (a, b):
                if d:
                    d.quit()
            for node in nodes:
                node.terminate()
                node.wait(15)
                node.stdout.close()
            subprocess.run(["bash", script, "stop", pg])
            shutil.rmtree(pg, ignore_errors=True)


def stop(server):
    """Stops a server a test started, and closes its output."""
    server.terminate()
    server.wait(10)
    server.stdout.close()


def invited_call(call):
    """A server of its own with invitations on, and a function giving a participant's link to `call`."""
    env = dict(os.environ, MICCHECK_TOKEN_SECRET="s" * 40)
    server = subprocess.Popen([ARGS.binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True, env=env)
    base = "http://127.0.0.1:" + re.search(r"http://[^ ]+:(\d+)/", server.stdout.readline()).group(1)

    def link(name, role):
        token = subprocess.run([ARGS.binary, "token", "--call", call, "--name", name, "--role", role], env=env,
                               check=True, capture_output=True, text=True).stdout.strip()
        return f"{base}/?call={call}&token={token}&audio_processing=off"
    return server, link


class InvitationTests(unittest.TestCase):
    """A server whose calls need a join token: a listener's page cannot turn on what its role forbids, and a
    refused invitation says why once instead of retrying."""

    def test_5_invitations_in_the_page(self):
        env = dict(os.environ, MICCHECK_TOKEN_SECRET="s" * 40)
        server = subprocess.Popen([ARGS.binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True, env=env)
        base = "http://127.0.0.1:" + re.search(r"http://[^ ]+:(\d+)/", server.stdout.readline()).group(1)

        def token(*extra):
            return subprocess.run([ARGS.binary, "token", "--call", "town-hall", *extra], env=env, check=True,
                                  capture_output=True, text=True).stdout.strip()
        d = browser(SPEECH)
        try:
            d.get(f"{base}/?call=town-hall&token={token('--name', 'Lin Listener', '--role', 'listener')}")
            wait(d, "return document.getElementById('toggle-audio').disabled", what="the listener's microphone toggle")
            self.assertTrue(d.find_element(By.ID, "toggle-video").get_attribute("disabled"))
            self.assertEqual(d.find_element(By.ID, "toggle-audio").get_attribute("aria-pressed"), "false")
            self.assertEqual(d.find_element(By.ID, "name").get_attribute("value"), "Lin Listener")
            d.find_element(By.ID, "toggle-audio").click()  # disabled: nothing happens
            self.assertEqual(d.find_element(By.ID, "toggle-audio").get_attribute("aria-pressed"), "false")
            shot(d, "serve-listener.png")
            d.get(f"{base}/?call=town-hall&token={token('--name', 'Ada', '--expires-in', '1')}")
            time.sleep(1.2)
            d.refresh()
            wait(d, "return document.getElementById('connection').textContent.includes('This invitation cannot be used')",
                 what="the expired invitation's reason")
            self.assertIn("expired", d.find_element(By.ID, "connection").text)
            self.assertTrue(d.find_element(By.ID, "join").get_attribute("disabled"))
            shot(d, "serve-invitation-refused.png")
        finally:
            d.quit()
            stop(server)

    def test_7_listener_cannot_send_media(self):
        """A listener's page that takes the microphone anyway, adds it to its peer connection and sends the
        renegotiated offer itself (the page's own code would not) is closed by the server with 1008, and the
        host never receives audio from it.

        The host's page records every RTCPeerConnection it makes and every track they receive (an init
        script, before the page's own): the check is that no `track` event of kind audio ever fires there,
        and that no connection of the host counts inbound audio bytes. Both would show the listener's
        microphone had the offer been relayed (applying an offer whose m=audio section sends fires `track`
        at once), and neither depends on which tiles the host still shows once the listener is gone. The
        host sends the listener its video, so the listener's page receiving it shows the call was really
        connected."""
        server, link = invited_call("stage")
        listener, host = browser(SPEECH), browser(SPEECH)
        try:
            host.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
                const Native = window.RTCPeerConnection;
                window.__pcs = []; window.__tracks = [];
                window.RTCPeerConnection = function (...args) {
                  const pc = new Native(...args);
                  window.__pcs.push(pc);
                  pc.addEventListener('track', (e) => window.__tracks.push(e.track.kind));
                  return pc;
                };
                window.RTCPeerConnection.prototype = Native.prototype;"""})
            # The listener joins first, so that the host's offer gives their connection audio and video sections.
            listener.get(link("Lin Listener", "listener"))
            wait(listener, "return document.getElementById('toggle-audio').disabled && !document.getElementById('join').disabled",
                 what="the listener's lobby")
            listener.find_element(By.ID, "join").click()
            host.get(link("Hal Host", "host"))
            wait(host, "return document.getElementById('count').textContent === 'There is 1 more person in the call.'",
                 what="the host's lobby")
            # The page offers what it has when it joins: its camera and microphone first.
            wait(host, "const s = window.miccheck.stream; return !!s && s.getVideoTracks().length > 0 && s.getAudioTracks().length > 0",
                 what="the host's camera and microphone")
            host.find_element(By.ID, "join").click()
            host_id = host.execute_script("return window.miccheck.me")
            wait(listener, f"""const p = window.miccheck.peers.get({json.dumps(host_id)});
                               return p && p.pc.connectionState === 'connected' && p.stream.getVideoTracks().length > 0""",
                 20, what="the host's video at the listener")
            sdp = listener.execute_async_script("""
                const done = arguments[0], state = window.miccheck;
                state.ws.addEventListener('close', (e) => { window.__closed = {code: e.code, reason: e.reason}; });
                (async () => {
                  const mic = await navigator.mediaDevices.getUserMedia({audio: true});
                  let sdp = '';
                  for (const [id, p] of state.peers) {
                    p.pc.addTrack(mic.getAudioTracks()[0], mic);
                    await p.pc.setLocalDescription(await p.pc.createOffer());
                    sdp = p.pc.localDescription.sdp;
                    state.ws.send(JSON.stringify({type: 'signal', to: id,
                      data: {description: {type: p.pc.localDescription.type, sdp}}}));
                  }
                  done(sdp);
                })().catch((e) => done('failed: ' + e));""")
            self.assertRegex(sdp, r"m=audio [^\r\n]*\r?\n(?:(?!m=)[^\r\n]*\r?\n)*a=sendrecv", "an offer that sends audio")
            closed = wait(listener, "return window.__closed", what="the listener's connection closed by the server")
            self.assertEqual(closed["code"], 1008)
            self.assertEqual(closed["reason"], "this participant may not send audio: its description's m=audio section sends")
            wait(listener, "return document.getElementById('connection').textContent.startsWith("
                           "'Disconnected from the server: this participant may not send audio')", what="the page's reason")
            time.sleep(3)  # time for audio to arrive, had the offer gone through
            received = host.execute_async_script("""
                const done = arguments[0];
                (async () => {
                  let bytes = 0;
                  for (const pc of window.__pcs) {
                    if (pc.connectionState === 'closed') continue;
                    for (const r of (await pc.getStats()).values())
                      if (r.type === 'inbound-rtp' && r.kind === 'audio') bytes += r.bytesReceived || 0;
                  }
                  done({tracks: window.__tracks, bytes, connections: window.__pcs.length});
                })().catch((e) => done({error: String(e)}));""")
            self.assertNotIn("error", received)
            self.assertGreater(received["connections"], 0, "the host connected to the listener")
            self.assertNotIn("audio", received["tracks"], "the host received no audio track")
            self.assertEqual(received["bytes"], 0, "nor any audio bytes")
        finally:
            listener.quit()
            host.quit()
            stop(server)

    def test_8_listener_joining_after_the_host_receives(self):
        """A listener who joins after the host makes the offers, with no tracks of its own: its page offers
        receive-only audio and video, so the host's answer sends both and the listener sees the host's video."""
        server, link = invited_call("late")
        host, listener = browser(SPEECH), browser(SPEECH)
        try:
            host.get(link("Hal Host", "host"))
            wait(host, "const s = window.miccheck.stream; return !!s && s.getVideoTracks().length > 0",
                 what="the host's camera")
            host.find_element(By.ID, "join").click()
            host_id = host.execute_script("return window.miccheck.me")
            listener.get(link("Lin Listener", "listener"))
            wait(listener, "return document.getElementById('count').textContent === 'There is 1 more person in the call.'",
                 what="the listener's lobby")
            listener.find_element(By.ID, "join").click()
            offered = wait(listener, f"""const p = window.miccheck.peers.get({json.dumps(host_id)});
                                         return p && p.pc.localDescription && p.pc.localDescription.sdp""",
                           what="the listener's offer")
            self.assertNotRegex(offered, r"a=send(recv|only)", "the listener's offer sends nothing")
            self.assertIn("m=video", offered)
            wait(listener, f"""const p = window.miccheck.peers.get({json.dumps(host_id)});
                               return p && p.pc.connectionState === 'connected' && p.stream.getVideoTracks().length > 0""",
                 20, what="the host's video at the listener")
        finally:
            listener.quit()
            host.quit()
            stop(server)


def main():
    global ARGS, WORK, SERVER, BASE, SPEECH, SILENT
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--screenshots")
    parser.add_argument("--figures")
    ARGS, rest = parser.parse_known_args()
    WORK = tempfile.mkdtemp(prefix="miccheck-browser-")
    SPEECH, SILENT = make_files()
    SERVER = subprocess.Popen([ARGS.binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = SERVER.stdout.readline()
    match = re.search(r"http://[^ ]+:(\d+)/", line)
    if not match:
        print(f"browser tests: the server did not start: {line!r}", file=sys.stderr)
        return 1
    BASE = f"http://127.0.0.1:{match.group(1)}"
    try:
        result = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2).result
    finally:
        SERVER.terminate()
        SERVER.wait(10)
        shutil.rmtree(WORK, ignore_errors=True)
    failed = len(result.failures) + len(result.errors)
    print(f"browser: {result.testsRun - failed} passed, {failed} failed")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
