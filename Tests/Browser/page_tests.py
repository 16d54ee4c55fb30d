"""MicCheck's own lobby and call page (Web/app, on the client and the components) in headless
Chromium: the lobby's preview and meter, the silent-microphone warning, two browsers in a call with video,
speaking borders and the muted notice, a refused permission, invitations, and one call across two nodes."""
import json
import sys
import time
import unittest

from harness import (CONTROLS, LOBBY, METER, MUTED, NOT_WORKING, NOTICE, PROMPT, TILES, Run, browser, click, js,
                     open_page, q, shot, text, wait)

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

# Records, in the page, when a tile's speaking ring comes on.
BORDERS = """
window.borders = [];
const grid = q('miccheck-call-grid');
new MutationObserver(() => {
  for (const t of q('miccheck-call-grid > miccheck-participant-tile', true)) {
    const on = t.hasAttribute('speaking');
    if (on && t.dataset.was !== 'on') window.borders.push([t.dataset.id, Date.now()]);
    t.dataset.was = on ? 'on' : 'off';
  }
}).observe(grid, {subtree: true, attributes: true, attributeFilter: ['speaking'], childList: true});
"""

TILE_COUNT = f"q('{TILES}', true).length"


def others_line(driver):
    return text(driver, f"{LOBBY} miccheck-participants-strip >> [part~=count]")


class PageTests(unittest.TestCase):
    def test_1_lobby_preview_and_meter(self):
        d = browser(Run.speech)
        try:
            open_page(d, "lobby-test", "Ada Lovelace")
            wait(d, f"const t = q('{LOBBY} miccheck-participant-tile'); const v = t && q('{LOBBY} "
                    "miccheck-participant-tile >> video'); return t && t.dataset.video === 'true' && v.videoWidth > 0",
                 what="the camera preview")
            levels = []
            deadline = time.time() + 8
            while time.time() < deadline:
                levels.append(float(q(d, f"{METER} >> [role=meter]").get_attribute("aria-valuenow")))
                time.sleep(0.1)
            self.assertGreater(max(levels), 0.3, "the meter moves with the voice")
            self.assertLess(min(levels), 0.1, "and falls back between sentences")
            self.assertFalse(q(d, METER).get_attribute("data-not-working"))
            self.assertEqual(text(d, f"{LOBBY} >> [part~=about]"), "You are about to join a call.")
            self.assertEqual(text(d, f"{LOBBY} >> h1"), "Before Joining")
            shot(d, "serve-lobby.png")
            # Camera off: the fallback tile with initials; remembered after a reload.
            click(d, f"{LOBBY} >> [part~=toggle-video]")
            wait(d, f"return q('{LOBBY} miccheck-participant-tile').dataset.video === 'false'")
            self.assertEqual(text(d, f"{LOBBY} miccheck-participant-tile >> [part~=initials]"), "AL")
            d.refresh()
            wait(d, f"const b = q('{LOBBY} >> [part~=toggle-video]'); return b && b.getAttribute('aria-pressed') === 'false'",
                 what="the camera choice after a reload")
        finally:
            d.quit()

    def test_2_silent_microphone_warns(self):
        d = browser(Run.silent)
        try:
            open_page(d, "silent-test", "Grace")
            shown = wait(d, f"const w = q('{METER} >> [part~=warning]'); return w && !w.hidden && w.textContent", 12,
                         what="the not-working warning")
            self.assertEqual(shown, NOT_WORKING)
        finally:
            d.quit()

    def test_3_two_browsers_video_speaking_and_muted(self):
        a, b = browser(Run.speech), browser(Run.speech)
        try:
            open_page(a, "call-test", "Ada Lovelace")
            open_page(b, "call-test", "Alan Turing")
            click(a, f"{LOBBY} >> [part~=join]")
            wait(b, f"return q('{LOBBY} miccheck-participants-strip >> [part~=count]').textContent === "
                    "'There is 1 more person in the call.'", what="the lobby's count of the others")
            # B listens only, so that the speaking ring on its screen is A's.
            click(b, f"{LOBBY} >> [part~=toggle-audio]")
            click(b, f"{LOBBY} >> [part~=join]")
            for d in (a, b):
                wait(d, f"return {TILE_COUNT} === 2", what="two tiles")
                wait(d, f"""const t = q('{TILES}', true).filter((t) => !t.hasAttribute('data-self'));
                           const v = t[0] && q('{TILES}:not([data-self]) >> video');
                           return t.length === 1 && t[0].dataset.video === 'true' && v.videoWidth > 0""",
                     20, what="the other's video over WebRTC")
            a_id = js(a, f"return q('{TILES}[data-self]').dataset.id")
            a.execute_async_script("const done = arguments[0];" + ONSETS + "done();")
            js(b, BORDERS)
            time.sleep(13)
            onsets = a.execute_script("return window.onsets")
            borders = [t for (i, t) in b.execute_script("return window.borders") if i == a_id]
            self.assertGreaterEqual(len(onsets), 2, "A spoke at least twice")
            # Onsets in the last 1.5 s may not have their ring yet.
            end = b.execute_script("return Date.now()")
            onsets = [o for o in onsets if o < end - 1500]
            delays = []
            for onset in onsets:
                after = [t - onset for t in borders if t >= onset - 200]
                self.assertTrue(after, f"a speaking ring after the onset at {onset}")
                delays.append(min(after))
            shot(b, "serve-call.png")
            self.assertLess(sorted(delays)[len(delays) // 2], 500, f"speaking ring delays (ms): {delays}")
            if Run.figures:
                with open(Run.figures, "a") as f:
                    f.write(json.dumps({"speaking_border_delay_ms": delays}) + "\n")
            print(f"speaking ring after the onset, ms: {delays}", file=sys.stderr)
            # The tile says who speaks in words too (its accessible name).
            wait(b, f"return q('{TILES}:not([data-self])').getAttribute('aria-label').includes('speaking')", 8,
                 what="'speaking' in the tile's accessible name")
            # Muted while speaking: the notice appears, with its action, then goes.
            click(a, f"{CONTROLS} >> [part~=toggle-audio]")
            wait(a, f"const n = q('{NOTICE} >> [part~=notice]'); return !n.hidden && n.textContent.includes('{MUTED}')",
                 10, what="You are muted.")
            self.assertEqual(q(a, NOTICE).get_attribute("role"), "status")
            shot(a, "serve-muted.png")
            wait(a, f"return q('{NOTICE} >> [part~=notice]').hidden", 5, what="the notice going")
            wait(b, f"return q('{TILES}:not([data-self]) >> [part~=label]').textContent.endsWith('· muted')",
                 what="A shown muted")
            # A leaves: B sees one tile, nobody speaking; focus is on A's way back, not the page's body.
            click(a, f"{CONTROLS} >> [part~=leave]")
            self.assertEqual(a.execute_script("return document.activeElement.id"), "rejoin")
            wait(b, f"return {TILE_COUNT} === 1 && !q('{TILES}[speaking]')", what="A gone")
        finally:
            a.quit()
            b.quit()

    def test_4_permission_refused(self):
        """Both refused: the prompt takes focus and closes on Esc; the toggles read off, and the others see
        this participant muted with no video."""
        d, other = browser(Run.speech, deny=True), browser(Run.speech)
        try:
            open_page(d, "deny-test", "Ada")
            wait(d, f"return q('{PROMPT}').hasAttribute('open')", what="the permissions prompt")
            self.assertEqual(text(d, f"{PROMPT} >> [part~=title]"), "Camera and microphone access required")
            self.assertEqual(js(d, f"return document.activeElement === q('{PROMPT}')"), True, "the prompt has focus")
            for kind in ("audio", "video"):
                self.assertEqual(q(d, f"{LOBBY} >> [part~=toggle-{kind}]").get_attribute("aria-pressed"), "false")
            click(d, f"{PROMPT} >> [part~=settings]")
            steps = text(d, f"{PROMPT} >> [part~=steps]")
            self.assertIn("Chromium", steps)
            self.assertIn("Firefox", steps)
            shot(d, "serve-permissions.png")
            q(d, f"{PROMPT} >> [part~=settings]").send_keys("\ue00c")  # Esc
            wait(d, f"return !q('{PROMPT}').hasAttribute('open')", what="the prompt closed by Esc")
            open_page(other, "deny-test", "Bob")
            click(d, f"{LOBBY} >> [part~=join]")
            click(other, f"{LOBBY} >> [part~=join]")
            wait(other, f"""const t = q('{TILES}:not([data-self])');
                 return t && t.getAttribute('aria-label').includes('microphone off') && t.dataset.video === 'false'""",
                 10, what="the refused participant shown muted, with no video")
            d.refresh()
            open_page(d, "deny-test", "Ada")
            time.sleep(1.5)
            self.assertFalse(q(d, PROMPT).get_attribute("open"), "dismissed (Esc) for this call")
            open_page(d, "another-call", "Ada")
            wait(d, f"return q('{PROMPT}').hasAttribute('open')", what="the prompt in another call")
        finally:
            d.quit()
            other.quit()
