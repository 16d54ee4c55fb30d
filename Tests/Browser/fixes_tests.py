"""What a person hit in the page before it was rebuilt on the client and the components, each checked in
headless Chromium: joining before the camera opened gave no media; a frozen participant stayed "speaking";
the page never said which call it was, and a bare address put everyone in one call; half an emoji as
initials; a long name cut silently; weak contrast on Join and Leave; focus lost after Join; no favicon."""
import os
import signal
import subprocess
import time
import unittest
import urllib.request

from harness import (CONTROLS, LOBBY, METER, NOT_WORKING, TILES, Run, browser, click, contrast, dead_microphone_files,
                     js, open_page, q, text, wait)

# Delays the camera by 4 s in the page (a slow camera, or a permission prompt answered late).
SLOW_CAMERA = """
const native = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
navigator.mediaDevices.getUserMedia = async (c) => {
  if (c && c.video) await new Promise((r) => setTimeout(r, 4000));
  return native(c);
};
"""

REMOTE = f"{TILES}:not([data-self])"


def chromium_pids(driver):
    """The processes of one headless Chromium: every process started with its own profile folder."""
    folder = driver.capabilities["chrome"]["userDataDir"]
    out = subprocess.run(["pgrep", "-f", f"user-data-dir={folder}"], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


COLORS = """const s = getComputedStyle(q(arguments[0]));
  const rgb = (v) => v.match(/\\d+/g).slice(0, 3).map(Number);
  return [rgb(s.color), rgb(s.backgroundColor)];"""


class FixesTests(unittest.TestCase):
    def test_9_joining_before_the_camera_opens_still_sends_it(self):
        a, b = browser(Run.speech), browser(Run.speech)
        try:
            open_page(b, "slow-camera", "Bob")
            click(b, f"{LOBBY} >> [part~=join]")
            a.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SLOW_CAMERA})
            open_page(a, "slow-camera", "Ada")
            self.assertFalse(js(a, "return !!window.miccheck.devices.camera"), "the camera is not open yet")
            click(a, f"{LOBBY} >> [part~=join]")
            wait(b, f"const t = q('{REMOTE}'); return t && t.dataset.video === 'true' && "
                    f"q('{REMOTE} >> video').videoWidth > 0", 25, what="Ada's late camera at Bob's")
            wait(a, f"const t = q('{REMOTE}'); return t && t.dataset.video === 'true'", 20,
                 what="Bob's video at Ada's, who joined before her camera opened")
            wait(b, f"""const p = window.miccheck.peers.get(q('{REMOTE}').dataset.id);
                 return p && p.received.getAudioTracks().some((t) => !t.muted)""", 10, what="Ada's audio at Bob's")
        finally:
            a.quit()
            b.quit()

    def test_10_a_frozen_participant_stops_speaking_and_leaves(self):
        """Ada's browser is stopped (SIGSTOP, as a closed lid would) while she speaks: Bob sees her ring go
        within 3 s and her tile go within 15 s (the server's idle timeout is 10 s)."""
        a, b = browser(Run.speech), browser(Run.speech)
        frozen = []
        try:
            open_page(a, "frozen", "Ada")
            open_page(b, "frozen", "Bob")
            click(a, f"{LOBBY} >> [part~=join]")
            click(b, f"{LOBBY} >> [part~=toggle-audio]")
            click(b, f"{LOBBY} >> [part~=join]")
            wait(b, f"return !!q('{REMOTE}[speaking]')", 20, what="Ada speaking")
            frozen = chromium_pids(a)
            self.assertTrue(frozen)
            for pid in frozen:
                os.kill(pid, signal.SIGSTOP)
            start = time.time()
            wait(b, f"return !q('{REMOTE}[speaking]')", 3, what="Ada's ring gone")
            quiet = time.time() - start
            wait(b, f"return q('{TILES}', true).length === 1", 15, what="Ada gone")
            print(f"frozen participant: not speaking after {quiet:.1f} s, gone after {time.time() - start:.1f} s")
        finally:
            for pid in frozen:
                try:
                    os.kill(pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
            a.quit()
            b.quit()

    def test_11_the_page_names_its_call_and_a_bare_address_starts_a_new_one(self):
        d = browser(Run.speech)
        try:
            d.get(f"{Run.base}/")
            call = wait(d, "return new URLSearchParams(location.search).get('call')", what="a call in the address")
            self.assertRegex(call, r"^call-[a-z2-9]{8}$")
            wait(d, f"return q('{LOBBY} >> [part~=call]') && !q('{LOBBY} >> [part~=call]').hidden")
            self.assertIn(call, text(d, f"{LOBBY} >> [part~=call]"))
            self.assertIn("share", wait(d, f"return q('{LOBBY} >> [part~=status]').textContent"))
            d.get(f"{Run.base}/")
            self.assertNotEqual(wait(d, "return new URLSearchParams(location.search).get('call')"), call)
            with urllib.request.urlopen(f"{Run.base}/favicon.svg") as r:
                self.assertEqual(r.status, 200)
                self.assertIn("svg", r.headers["Content-Type"])
            self.assertEqual(js(d, "return document.querySelector('link[rel=icon]').getAttribute('href')"),
                             "/favicon.svg")
        finally:
            d.quit()

    def test_12_names_initials_contrast_and_focus(self):
        d = browser(Run.speech)
        try:
            open_page(d, "names", "%F0%9F%A6%8A%20Fox")  # "🦊 Fox"
            click(d, f"{LOBBY} >> [part~=toggle-video]")
            wait(d, f"return q('{LOBBY} miccheck-participant-tile >> [part~=initials]').textContent === '🦊F'",
                 what="the emoji's whole grapheme in the initials")
            name = q(d, f"{LOBBY} >> [part~=name]")
            name.clear()
            js(d, f"const i = q('{LOBBY} >> [part~=name]'); i.value = 'x'.repeat(300);"
                  "i.dispatchEvent(new Event('input', {bubbles: true}));")
            note = wait(d, f"return q('{LOBBY} >> [part~=name-note]').textContent", what="the note on a long name")
            self.assertIn("64", note)
            self.assertEqual(len(q(d, f"{LOBBY} >> [part~=name]").get_attribute("value")), 64)
            ratio = contrast(*js(d, "return (" + "() => {" + COLORS + "})()", f"{LOBBY} >> [part~=join]"))
            self.assertGreaterEqual(ratio, 4.5, "Join Call's text")
            click(d, f"{LOBBY} >> [part~=join]")
            self.assertEqual(js(d, "return document.activeElement.id"), "call-title", "focus after Join")
            self.assertIn("names", text(d, "#call-title"))
            ratio = contrast(*js(d, "return (" + "() => {" + COLORS + "})()", f"{CONTROLS} >> [part~=leave]"))
            self.assertGreaterEqual(ratio, 4.5, "Leave's text")
        finally:
            d.quit()

    def test_13_a_microphone_unplugged_mid_call_falls_back_and_says_so(self):
        """The track in use ends (as when a USB microphone is pulled; Chromium's fake device cannot be
        unplugged, so the test fires the track's `ended`): the client opens the default microphone, the call
        says so, and the meter goes on."""
        d = browser(Run.speech)
        try:
            open_page(d, "unplugged", "Ada")
            click(d, f"{LOBBY} >> [part~=join]")
            js(d, "window.__first = window.miccheck.client.stream;"
                  "window.__first.getAudioTracks()[0].dispatchEvent(new Event('ended'));")
            note = wait(d, "return document.getElementById('call-status').textContent", 10, what="the fallback note")
            self.assertRegex(note, r"^The microphone .+ was disconnected: using the default one\.$")
            wait(d, "const s = window.miccheck.client.stream; return s && s !== window.__first && "
                    "s.getAudioTracks()[0].readyState === 'live'", what="the default microphone in use")
            wait(d, "const m = window.miccheck.client.microphone; return m && m.display > 0.3", 10,
                 what="levels from the default microphone")
        finally:
            d.quit()

    def test_14_a_dead_microphone_is_reported_with_the_browsers_processing_on(self):
        """An idle converter (zeros with sparse ±1) through Chromium's default processing (echo cancellation,
        noise suppression, gain control): "Your microphone doesn't seem to be working" within 6 s of the
        lobby opening, and still shown 10 s later."""
        dither, _ = dead_microphone_files(Run.work)
        d = browser(dither)
        try:
            open_page(d, "dead-processed", "Grace", extra="")
            warning = f"const w = q('{METER} >> [part~=warning]'); return w && !w.hidden && w.textContent"
            self.assertEqual(wait(d, warning, 6, what="the not-working warning"), NOT_WORKING)
            time.sleep(10)
            self.assertEqual(js(d, warning), NOT_WORKING, "still shown")
        finally:
            d.quit()

    def test_15_a_microphone_that_gates_its_pauses_is_not_called_dead(self):
        """Room tone, then sentences with 4 s of digital silence after each (a microphone or a browser that
        gates its pauses), as the page sends it: the warning never shows in 30 s (before the fix it showed for
        3 s of the first pause)."""
        _, gated = dead_microphone_files(Run.work)
        d = browser(gated)
        try:
            open_page(d, "gated", "Grace")
            shown, loudest = [], 0
            deadline = time.time() + 30
            while time.time() < deadline:
                if q(d, METER).get_attribute("data-not-working") is not None:
                    shown.append(round(30 - (deadline - time.time()), 1))
                loudest = max(loudest, js(d, "return window.miccheck.client.microphone?.display ?? 0"))
                time.sleep(0.2)
            self.assertEqual(shown, [], "the not-working warning showed at these seconds")
            self.assertGreater(loudest, 0.3, "the sentences reached the meter")
        finally:
            d.quit()
