"""The microphone decided on the device: MicCheck's page runs its analysis as WebAssembly (miccheck.wasm) in
its AudioWorklet. A WebSocket hook counts what the page sends: in a minute of a call, unmuted and muted, no
byte of audio, while the meter, the speaking ring, "You are muted." and "not working" still come. A page whose
kernel cannot load (its address blocked) falls back to the server's analysis and says so. With no server at
all, a static page (Examples/web-embed/no-server.html under `python3 -m http.server`) gets the same."""
import math
import os
import shutil
import socket
import subprocess
import sys
import time
import unittest

from harness import (CONTROLS, LOBBY, METER, NOTICE, NOT_WORKING, ROOT, TILES, Run, browser, click, free_port, js,
                     open_page, shot, voice, wait, write_wav)


def upsample(samples, factor):
    """Linear interpolation by an integer factor (a voice at 16 kHz made 48 kHz before it is cut flat)."""
    out = []
    for a, b in zip(samples, samples[1:] + samples[-1:]):
        out.extend(a + (b - a) * k / factor for k in range(factor))
    return out

# Counts, in the page, the bytes of every binary message the page sends (audio) and the types of its texts.
SENT = """
window.__audioBytes = 0;
window.__sentTypes = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (typeof data === 'string') {
    try { window.__sentTypes.push(JSON.parse(data).type); } catch (e) { window.__sentTypes.push('?'); }
  } else {
    window.__audioBytes += data.byteLength ?? data.size ?? 0;
  }
  return send.call(this, data);
};
"""
# Counts the WebSockets a page makes.
SOCKETS = """
window.__sockets = 0;
const Socket = window.WebSocket;
window.WebSocket = function (...args) { window.__sockets += 1; return new Socket(...args); };
"""
# The own tile appears once the call is joined: until then the condition is false, not an error.
SELF_SPEAKING = (f"const t = q('{TILES}[data-self]'); "
                 "return !!t && (t.getAttribute('aria-label') || '').includes('speaking')")
NOTICE_SHOWN = f"const n = q('{NOTICE} >> [part~=notice]'); return !!n && !n.hidden && n.textContent"


def join(d):
    click(d, f"{LOBBY} >> [part~=join]")
    wait(d, "return window.miccheck.client.joined && !document.getElementById('call-screen').hidden",
         what="the call screen")


class DeviceTests(unittest.TestCase):
    def test_1_a_minute_of_call_sends_no_audio(self):
        """A minute in the lobby and the call, unmuted then muted: the meter moves, the ring turns on within
        the sentence, "You are muted." appears while muted, and the page's WebSocket carries no audio at all."""
        d = browser(Run.speech)
        try:
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SENT})
            open_page(d, "device", "Dev")
            self.assertEqual(js(d, "return window.miccheck.client.analysis"), "device")
            start = time.time()
            wait(d, f"return Number(q('{METER} >> [role=meter]').getAttribute('aria-valuenow')) > 0.3", 10,
                 what="the meter moving with the voice")
            join(d)
            wait(d, SELF_SPEAKING, 10, what="the speaking ring, decided in the page")
            self.assertIn("speaking", js(d, "return window.__sentTypes"), "the page states its speaking")
            click(d, f"{CONTROLS} >> [part~=toggle-audio]")
            wait(d, NOTICE_SHOWN, 10, what="\"You are muted.\" while muted")
            shot(d, "device-muted-notice.png")
            click(d, f"{CONTROLS} >> [part~=toggle-audio]")
            while time.time() - start < 60:
                time.sleep(1)
            self.assertEqual(js(d, "return window.__audioBytes"), 0, "no audio left the page in a minute")
            self.assertEqual(js(d, "return window.miccheck.client.analysis"), "device")
        finally:
            d.quit()

    def test_2_dead_microphone_on_the_device(self):
        """Zeros as the microphone: the lobby says the microphone doesn't seem to be working, from the page's
        own analysis, with no audio sent; and the call says it too, above the tiles (it used to show nothing
        there, though the client held the sentence)."""
        d = browser(Run.silent)
        try:
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SENT})
            open_page(d, "device-dead", "Zed")
            wait(d, "const m = window.miccheck.client.microphone; return !!m && !!m.notWorking", 12,
                 what="\"not working\" from the page's analysis")
            self.assertIn("doesn't seem to be working", js(d, "return window.miccheck.client.microphone.notWorking"))
            join(d)
            said = wait(d, "const s = document.getElementById('call-status'); return !s.hidden && s.textContent", 8,
                        what="\"not working\" in the call")
            self.assertIn("doesn't seem to be working", said)
            self.assertEqual(js(d, "return window.__audioBytes"), 0)
        finally:
            d.quit()

    def test_3_kernel_blocked_falls_back_to_the_server(self):
        """miccheck.wasm blocked: the page says the server analyses its microphone, streams it, and the
        speaking ring still comes."""
        d = browser(Run.speech)
        try:
            d.execute_cdp_cmd("Network.enable", {})
            d.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*miccheck.wasm"]})
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SENT})
            open_page(d, "device-fallback", "Fay")
            self.assertEqual(js(d, "return window.miccheck.client.analysis"), "server")
            join(d)
            wait(d, SELF_SPEAKING, 12, what="the speaking ring, decided by the server")
            self.assertGreater(js(d, "return window.__audioBytes"), 0, "the microphone went to the server")
        finally:
            d.quit()

    def test_4_clipping_judged_at_the_capture_rate(self):
        """A voice pushed up 30 dB and cut flat, at 48 kHz as the microphone delivers it: the page's analysis
        judges it at the capture's own rate, so the lobby warns of clipping and the microphone test says so
        (judged after a conversion to 16 kHz, the flat tops were smoothed away and it said "clearly")."""
        rate = 48000
        quiet = [0.0003 * math.sin(i * 0.37) for i in range(rate)]
        loud = [max(-1.0, min(1.0, 31.6 * x)) for x in upsample(voice(4.0), 3)]
        path = os.path.join(Run.work, "clipped-48k.wav")
        write_wav(path, (quiet + loud) * 6, rate=rate)
        d = browser(path)
        try:
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SENT})
            open_page(d, "device-clipping", "Cleo")
            warned = wait(d, "const m = window.miccheck.client.microphone;"
                             " return !!m && (m.warnings || []).find((w) => /clipping|too loud/i.test(w))", 15,
                          what="a clipping warning in the lobby")
            self.assertTrue(warned)
            js(d, "window.steps = []; window.miccheck.client.addEventListener('microphonetest',"
                  " (e) => window.steps.push(e.detail));")
            click(d, f"{LOBBY} miccheck-microphone-test >> [part~=start]")
            done = wait(d, "return window.steps.find((s) => s.state === 'done' || s.state === 'failed')", 20,
                        what="the microphone test's verdict")
            self.assertEqual(done.get("verdict"), "clipping", done)
            self.assertEqual(js(d, "return window.__audioBytes"), 0)
        finally:
            d.quit()


class StaticPageTests(unittest.TestCase):
    """No MicCheck server: Examples/web-embed with MicCheck's SDK folder copied beside it, served by
    `python3 -m http.server` alone, as its README says."""

    def setUp(self):
        self.folder = os.path.join(Run.work, "static")
        shutil.copytree(os.path.join(ROOT, "Examples", "web-embed"), self.folder, dirs_exist_ok=True)
        shutil.copytree(os.path.join(ROOT, "Web", "sdk"),
                        os.path.join(self.folder, "sdk"), dirs_exist_ok=True)
        port = free_port()
        self.static = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", self.folder],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(self.static.wait, 10)
        self.addCleanup(self.static.terminate)
        self.page = f"http://127.0.0.1:{port}/no-server.html"
        deadline = time.time() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)

    def open(self, audio):
        d = browser(audio)
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOCKETS})
        d.get(self.page)
        wait(d, "return window.acme && !!window.acme.client.stream", 15, what="the page's microphone")
        js(d, """window.steps = [];
                 window.acme.client.addEventListener('microphonetest', (e) => window.steps.push(e.detail));""")
        return d

    def test_1_meter_speaking_test_and_notice(self):
        """A voice: the meter moves, "Speaking", the microphone test's verdict, and in the page's call, muted,
        "You are muted."; no WebSocket is made, and nothing is fetched but the page's own files."""
        d = self.open(Run.speech)
        try:
            self.assertEqual(js(d, "return window.acme.client.analysis"), "device")
            wait(d, "return Number(q('miccheck-meter >> [role=meter]').getAttribute('aria-valuenow')) > 0.3", 10,
                 what="the meter moving")
            wait(d, "return document.getElementById('speaking').textContent === 'Speaking'", 10, what="speaking")
            click(d, "miccheck-microphone-test >> [part~=start]")
            done = wait(d, "return window.steps.find((s) => s.state === 'done' || s.state === 'failed')", 20,
                        what="the microphone test's verdict")
            self.assertEqual(done["state"], "done", done)
            self.assertIn(done["verdict"], ("clear", "too_quiet", "noisy"), done)
            self.assertTrue(done["sentence"], done)
            click(d, "#call")
            click(d, "#mute")
            shown = wait(d, f"const n = q('{NOTICE} >> [part~=notice]'); return !!n && !n.hidden && n.textContent",
                         15, what="\"You are muted.\" in the page's call")
            self.assertIn("You are muted.", shown)
            shot(d, "no-server.png")
            self.assertEqual(js(d, "return window.__sockets"), 0)
            origin = self.page.rsplit("/", 1)[0]
            fetched = js(d, "return performance.getEntriesByType('resource').map((r) => r.name)")
            self.assertTrue(any(u.endswith("/sdk/miccheck.wasm") for u in fetched), fetched)
            self.assertEqual([u for u in fetched if not u.startswith(origin + "/")], [])
        finally:
            d.quit()

    def test_2_dead_microphone(self):
        """Zeros as the microphone: the meter says the microphone doesn't seem to be working."""
        d = self.open(Run.silent)
        try:
            said = wait(d, "const w = q('miccheck-meter >> [part~=warning]'); return !!w && w.textContent", 15,
                        what="\"not working\" on the meter")
            self.assertIn(NOT_WORKING, said)
            self.assertEqual(js(d, "return window.__sockets"), 0)
        finally:
            d.quit()
