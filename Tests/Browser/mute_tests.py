"""Push-to-talk, a host's mute, the typing notice and a microphone plugged in, in MicCheck's page in headless
Chromium, as a person would meet them: Space held to talk with no "You are muted." while it is up; a host
(an invitation with role host) muting a speaker, on one node and across two sharing presence; a microphone
that types raising "Your typing can be heard." once; the offer of a new microphone."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from call_tests import SECRET, invited_call
from harness import (CONTROLS, LOBBY, MUTED, NOTICE, ROOT, TILES, Run, browser, click, free_port, js, open_page, q,
                     serve, shot, stop, text, wait)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

TYPING_WAV = "/work/shared/corpus/noise_00_typing_bucklespring.wav"
TYPING = "miccheck-typing-notice"
PTT = f"{CONTROLS} >> [part~=push-to-talk]"
PTT_STATUS = f"{CONTROLS} >> [part~=push-to-talk-status]"
BANNER = "#call-banner"
OTHER_MUTE = f"{TILES}:not([data-self]) >> [part~=mute]"
# Counts, in the page, every muted_notice with show true that MicCheck's analysis makes, before the client's own
# rules: from the server, or from the page's own kernel (the analysis worklet).
RAW_NOTICES = """
const Native = window.WebSocket;
window.__notices = 0;
window.WebSocket = function (...args) {
  const ws = new Native(...args);
  ws.addEventListener('message', (e) => {
    if (typeof e.data !== 'string' || !e.data.includes('muted_notice')) return;
    const m = JSON.parse(e.data);
    if (m.type === 'muted_notice' && m.show === true) window.__notices += 1;
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
// Decided on the device, the notices come from the analysis worklet's port instead, as the kernel's bytes.
const port = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
Object.defineProperty(MessagePort.prototype, 'onmessage', {
  get() { return port.get.call(this); },
  set(handler) {
    port.set.call(this, (e) => {
      if (e.data && e.data.messages) {
        for (const line of new TextDecoder().decode(e.data.messages).split('\\n')) {
          if (line.includes('"muted_notice"') && line.includes('"show": true')) window.__notices += 1;
        }
      }
      handler(e);
    });
  },
});
"""
NOTICE_SHOWN = f"const n = q('{NOTICE} >> [part~=notice]'); return !!n && !n.hidden && n.textContent"


def join(d):
    click(d, f"{LOBBY} >> [part~=join]")
    wait(d, "return window.miccheck.client.joined && !document.getElementById('call-screen').hidden",
         what="the call screen")


def wait_text(d, path, expected, seconds=10):
    return wait(d, f"const e = q({path!r}); return !!e && e.textContent.trim() === {expected!r}", seconds,
                what=f"{expected!r} at {path}")


def two_nodes_with_invitations():
    """Two `miccheck serve --presence` nodes on a private PostgreSQL, with invitations on: their addresses,
    a link maker (node index, name, role) and a function that stops it all."""
    pg = tempfile.mkdtemp(prefix="miccheck-browser-pg-")
    script = os.path.join(ROOT, "scripts", "postgres-server.sh")
    subprocess.run(["bash", script, "start", pg, str(free_port())], check=True)
    url = subprocess.run(["bash", script, "url", pg], check=True, capture_output=True, text=True).stdout.strip()
    env = dict(os.environ, MICCHECK_TOKEN_SECRET=SECRET)
    nodes, bases = [], []

    def stop_all():
        for node in nodes:
            stop(node)
        subprocess.run(["bash", script, "stop", pg], check=False)
        shutil.rmtree(pg, ignore_errors=True)
    try:
        for _ in range(2):
            node, base = serve("--presence", url, env=env)
            nodes.append(node)
            bases.append(base)
    except Exception:
        stop_all()
        raise

    def link(i, call, name, role):
        token = subprocess.run([Run.binary, "token", "--call", call, "--name", name, "--role", role], env=env,
                               check=True, capture_output=True, text=True).stdout.strip()
        return f"{bases[i]}/?call={call}&token={token}&audio_processing=off"
    return link, stop_all


class MuteTests(unittest.TestCase):
    def test_1_push_to_talk(self):
        """With push-to-talk on and someone speaking into the microphone, the server sends no muted notice
        and none shows for 8 s; holding Space talks (the microphone live, "Talking"), releasing it mutes."""
        d = browser(Run.speech)
        try:
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RAW_NOTICES})
            open_page(d, "ptt", "Pat")
            join(d)
            self.assertEqual(text(d, PTT_STATUS), "")
            click(d, PTT)
            self.assertEqual(q(d, PTT).get_attribute("aria-pressed"), "true")
            wait_text(d, PTT_STATUS, "Push-to-talk: hold Space to talk")
            client = "window.miccheck.client"
            js(d, f"window.__spoke = false; {client}.addEventListener('speaking', (e) => {{"
                  " if (e.detail.speaking) window.__spoke = true; })")
            self.assertEqual(js(d, f"return [{client}.muted, {client}.muteCause]"), [True, "push-to-talk"])
            self.assertEqual(q(d, f"{CONTROLS} >> [part~=toggle-audio]").get_attribute("aria-pressed"), "true",
                             "the microphone toggle stays on: push-to-talk mutes between presses")
            deadline = time.time() + 8
            while time.time() < deadline:
                self.assertFalse(js(d, NOTICE_SHOWN), "no muted notice while the key is up")
                time.sleep(0.2)
            self.assertEqual(js(d, "return window.__notices"), 0, "the server sent none either")
            self.assertTrue(js(d, "return window.__spoke"), "MicCheck heard speech meanwhile")
            ActionChains(d).key_down(Keys.SPACE).perform()
            wait_text(d, PTT_STATUS, "Talking", 3)
            self.assertEqual(js(d, f"return [{client}.muted, {client}.muteCause]"), [False, None])
            wait(d, f"return q('{TILES}[data-self]').getAttribute('aria-label').includes('speaking')", 10,
                 what="the page speaking while Space is held")
            shot(d, "serve-push-to-talk.png")
            ActionChains(d).key_up(Keys.SPACE).perform()
            wait_text(d, PTT_STATUS, "Push-to-talk: hold Space to talk", 3)
            self.assertEqual(js(d, f"return [{client}.muted, {client}.muteCause]"), [True, "push-to-talk"])
            self.assertEqual(q(d, PTT).get_attribute("aria-pressed"), "true", "Space did not press the focused toggle")
            # Space typed in a field is not a press.
            js(d, "const i = document.createElement('input'); i.id = 'field'; document.body.append(i); i.focus();")
            ActionChains(d).key_down(Keys.SPACE).perform()
            time.sleep(0.3)
            self.assertEqual(js(d, f"return {client}.muted"), True)
            ActionChains(d).key_up(Keys.SPACE).perform()
            js(d, "document.getElementById('field').remove()")
            # Off again: the microphone is on as the toggle says, and the status line goes.
            click(d, PTT)
            wait_text(d, PTT_STATUS, "", 3)
            self.assertEqual(js(d, f"return {client}.muted"), False)
            # The same speech muted by the user's own toggle: the notice comes (and the count above can count).
            click(d, f"{CONTROLS} >> [part~=toggle-audio]")
            self.assertIn(MUTED, wait(d, NOTICE_SHOWN, 15, what="You are muted. once muted by hand"))
            self.assertGreater(js(d, "return window.__notices"), 0)
        finally:
            d.quit()

    def _host_mutes(self, grace, bob, where):
        """Grace (host) and Bob (speaker) in the call: Grace mutes Bob from his tile."""
        wait(grace, f"return q('{TILES}', true).length === 2 && !!q('{OTHER_MUTE}') && !q('{OTHER_MUTE}').hidden",
             15, what=f"the Mute button on Bob's tile ({where})")
        button = q(grace, OTHER_MUTE)
        self.assertEqual(button.get_attribute("aria-label"), "Mute Bob")
        self.assertIsNone(q(grace, f"{TILES}[data-self] >> [part~=mute]:not([hidden])"), "no Mute on one's own")
        self.assertTrue(js(bob, f"return q('{TILES}', true).length === 2 && q('{TILES} >> [part~=mute]', true)"
                                ".every((b) => b.hidden)"), "a speaker sees no Mute button")
        shot(grace, f"serve-host-mute{where}.png")
        button.click()
        wait_text(bob, BANNER, "Grace muted you.", 10)
        wait(bob, f"return q('{CONTROLS} >> [part~=toggle-audio]').getAttribute('aria-pressed') === 'false'",
             what="Bob's microphone toggle off")
        self.assertEqual(js(bob, "return window.miccheck.client.muteCause"), "host")
        wait(grace, f"return q('{TILES}:not([data-self]) >> [part~=label]').textContent.endsWith('· muted')"
                    f" && q('{OTHER_MUTE}').hidden", 10, what="Bob muted on Grace's screen, no Mute button")
        # Bob speaks on: "You are muted.", under who muted him, with its action, without "don't show again".
        shown = wait(bob, NOTICE_SHOWN, 15, what="You are muted. on Bob's page")
        self.assertIn(MUTED, shown)
        self.assertEqual(text(bob, f"{NOTICE} >> [part~=announcement]"), "Grace muted you.")
        self.assertEqual(text(bob, f"{NOTICE} >> [part~=action]"), "Unmute (m)")
        self.assertTrue(js(bob, f"return q('{NOTICE} >> [part~=off]').hidden"))
        shot(bob, f"serve-muted-by-host{where}.png")
        # Bob turns his microphone on again: the banner goes, Grace sees him unmuted and may mute again.
        click(bob, f"{CONTROLS} >> [part~=toggle-audio]")
        wait_text(bob, BANNER, "", 5)
        wait(grace, f"return !q('{OTHER_MUTE}').hidden", 10, what="Mute offered again")

    def test_2_host_mutes_a_speaker(self):
        server, link = invited_call("all-hands")
        grace, bob = browser(Run.silent), browser(Run.speech)  # Grace listens: no notice of her own
        try:
            for d, name, role in ((grace, "Grace", "host"), (bob, "Bob", "speaker")):
                d.get(link(name, role))
                wait(d, "return window.miccheck.client.state === 'open' && !!window.miccheck.client.me",
                     what=f"{name}'s lobby")
            self.assertTrue(js(grace, "return window.miccheck.client.may('mute-users')"))
            self.assertFalse(js(bob, "return window.miccheck.client.may('mute-users')"))
            click(grace, f"{LOBBY} >> [part~=toggle-audio]")  # Grace listens
            join(grace)
            join(bob)
            refused = js(bob, "try { window.miccheck.client.muteParticipant(window.miccheck.client.others()[0].id);"
                              " return 'sent'; } catch (e) { return e.code + ': ' + e.message; }")
            self.assertEqual(refused, "not-allowed: only a host may mute others; this participant's role may not")
            self._host_mutes(grace, bob, "")
        finally:
            grace.quit()
            bob.quit()
            stop(server)

    def test_3_host_mutes_across_two_nodes(self):
        link, stop_all = two_nodes_with_invitations()
        grace = bob = None
        try:
            grace, bob = browser(Run.silent), browser(Run.speech)
            grace.get(link(0, "across-mute", "Grace", "host"))
            bob.get(link(1, "across-mute", "Bob", "speaker"))
            for d in (grace, bob):
                wait(d, "return window.miccheck.client.state === 'open' && !!window.miccheck.client.me",
                     what="the lobby")
            click(grace, f"{LOBBY} >> [part~=toggle-audio]")
            join(grace)
            join(bob)
            self._host_mutes(grace, bob, "-two-nodes")
        finally:
            for d in (grace, bob):
                if d:
                    d.quit()
            stop_all()

    @unittest.skipUnless(os.path.exists(TYPING_WAV), "the public corpus' typing recording is not here")
    def test_4_typing_notice(self):
        """A microphone that types (a keyboard recorded, no voice): "Your typing can be heard." once, whose
        Mute turns the microphone off."""
        d = browser(TYPING_WAV)
        try:
            open_page(d, "typing", "Tess")
            js(d, "window.__typing = []; window.miccheck.client.addEventListener('typingnotice',"
                  " (e) => window.__typing.push(e.detail.show))")
            join(d)
            shown = wait(d, f"const n = q('{TYPING} >> [part~=notice]'); return !!n && !n.hidden && n.textContent",
                         40, what="Your typing can be heard.")
            self.assertIn("Your typing can be heard.", shown)
            self.assertEqual(text(d, f"{TYPING} >> [part~=action]"), "Mute (m)")
            self.assertEqual(q(d, TYPING).get_attribute("role"), "status")
            shot(d, "serve-typing-notice.png")
            time.sleep(8)
            self.assertEqual(js(d, "return window.__typing.filter((s) => s).length"), 1, "shown once")
            js(d, f"const n = q('{TYPING}'); if (!n.open) n.show({{durationMs: 0}});")
            click(d, f"{TYPING} >> [part~=action]")
            wait(d, f"return q('{CONTROLS} >> [part~=toggle-audio]').getAttribute('aria-pressed') === 'false'"
                    " && window.miccheck.client.muted", 5, what="the microphone off by the notice's Mute")
            self.assertFalse(js(d, f"return q('{TYPING}').open"))
        finally:
            d.quit()

    def test_5_new_microphone_offered(self):
        """Chromium's fake devices cannot be plugged in: the page's enumerateDevices is given one more
        microphone and `devicechange` fires, as when one is plugged in. The offer names it; Ignore keeps the
        microphone in use and does not offer it again; Switch opens the new one (gone here, so the page falls
        back to the default and says so)."""
        d = browser(Run.speech)
        try:
            open_page(d, "plugged", "Uma")
            wait(d, "return window.miccheck.devices.listed", what="the first listing")
            plug = """
                const media = navigator.mediaDevices, list = media.enumerateDevices.bind(media);
                media.enumerateDevices = async () => [...await list(), ...(window.__extra || [])];
                window.__extra = [{deviceId: arguments[0], kind: 'audioinput', label: arguments[1], groupId: 'g'}];
                media.dispatchEvent(new Event('devicechange'));"""
            js(d, plug, "usb-1", "USB Headset")
            offer = wait(d, "const o = document.querySelector('.device-offer'); return !o.hidden && o.textContent",
                         5, what="the offer")
            self.assertIn("A new microphone is available: USB Headset. Switch?", offer)
            shot(d, "serve-new-microphone.png")
            js(d, "[...document.querySelectorAll('.device-offer button')].find((b) => b.textContent === 'Ignore')"
                  ".click()")
            self.assertTrue(js(d, "return document.querySelector('.device-offer').hidden"))
            # Unplugged and plugged in again: ignored on this page, not offered again.
            change = "window.__extra = arguments[0]; navigator.mediaDevices.dispatchEvent(new Event('devicechange'))"
            extra = js(d, "return window.__extra")
            js(d, change, [])
            wait(d, "return !window.miccheck.devices.lists.audioinput.some((m) => m.deviceId === 'usb-1')", 5,
                 what="the headset unplugged")
            js(d, change, extra)
            wait(d, "return window.miccheck.devices.lists.audioinput.some((m) => m.deviceId === 'usb-1')", 5,
                 what="the headset plugged in again")
            time.sleep(0.3)
            self.assertTrue(js(d, "return document.querySelector('.device-offer').hidden"), "ignored: not again")
            join(d)
            js(d, "window.__extra = [...window.__extra, {deviceId: 'usb-2', kind: 'audioinput',"
                  " label: 'Desk Microphone', groupId: 'h'}]; navigator.mediaDevices.dispatchEvent("
                  "new Event('devicechange'))")
            wait(d, "const o = document.querySelector('.device-offer'); return !o.hidden && "
                    "o.textContent.includes('Desk Microphone')", 5, what="the offer in the call")
            js(d, "[...document.querySelectorAll('.device-offer button')].find((b) => b.textContent === 'Switch')"
                  ".click()")
            wait(d, "return document.getElementById('call-status').textContent === 'The microphone you chose "
                    "before is not connected: using the default one.'", 10, what="the fallback's note")
            self.assertTrue(js(d, "return !!window.miccheck.client.stream"), "still a microphone")
        finally:
            d.quit()
