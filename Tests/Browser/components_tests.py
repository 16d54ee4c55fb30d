#!/usr/bin/env python3
"""MicCheck's web components (Web/sdk/components) in headless Chromium, on
the demo page Tests/Browser/components.html, served from the repository's root by a server of this file's own
that sends `miccheck serve`'s Content-Security-Policy. Needs no miccheck binary.

usage: components_tests.py [-v] [--screenshots DIR]     (.build/browser-venv/bin/python has selenium)
"""
import argparse
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading
import time
import unittest

from harness import contrast
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The policy of Sources/MicCheckServer/PageGuards.swift.
POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
          "media-src 'self' blob: mediastream:; connect-src 'self'; worker-src 'self'; frame-ancestors 'none'; "
          "base-uri 'none'; form-action 'self'; object-src 'none'")
NOT_WORKING = "Your microphone doesn't seem to be working. Make sure you have all permissions accepted."
BASE = None
WORK = None
SCREENSHOTS = None


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Content-Security-Policy", POLICY)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


def serve():
    handler = functools.partial(Handler, directory=ROOT)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser(width=1280, height=900):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
                 "--autoplay-policy=no-user-gesture-required", f"--user-data-dir={tempfile.mkdtemp(dir=WORK)}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(20)
    return driver


def viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def wait(driver, condition, seconds=10, what="the page", *args):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = driver.execute_script(condition, *args)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s ({condition})")


def open_demo(driver, query="still"):
    driver.get(f"{BASE}/Tests/Browser/components.html?{query}")
    wait(driver, "return window.demo && window.demo.ready", what="the demo page")


def shot(driver, name):
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        driver.save_screenshot(os.path.join(SCREENSHOTS, name))


def part(driver, host, name):
    """The element of `part` `name` in the shadow root of the element `host` (a JS expression)."""
    return driver.execute_script(f"return ({host}).shadowRoot.querySelector('[part~=\"{name}\"]')")


def events(driver, kind):
    return [e for e in driver.execute_script("return window.demoEvents") if e["type"] == kind]


COLOURS = """const s = getComputedStyle(arguments[0]);
const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
return [rgb(s.color), rgb(s.backgroundColor)];"""


class AllComponents(unittest.TestCase):
    """The demo page with every component, at 1280 × 900."""

    @classmethod
    def setUpClass(cls):
        cls.d = browser()
        cls.addClassCleanup(cls.d.quit)
        open_demo(cls.d)

    def setUp(self):
        self.d.execute_script("window.demoEvents.length = 0")

    def test_01_every_component_renders_within_the_policy(self):
        d = self.d
        for tag in ["miccheck-meter", "miccheck-microphone-test", "miccheck-muted-notice", "miccheck-participant-tile",
                    "miccheck-typing-notice", "miccheck-participants-strip", "miccheck-permissions-prompt", "miccheck-call-grid",
                    "miccheck-call-controls", "miccheck-lobby"]:
            self.assertTrue(d.execute_script(
                f"const e = document.querySelector('{tag}'); return !!e && !!e.shadowRoot"
                f" && e.shadowRoot.adoptedStyleSheets.length > 0"), tag)
        time.sleep(0.5)
        self.assertEqual(d.execute_script("return window.cspViolations"), [], "no breach of the page's policy")
        self.assertEqual(d.execute_script(
            "return [...document.querySelectorAll('*')].filter(e => e.shadowRoot)"
            ".flatMap(e => [...e.shadowRoot.querySelectorAll('style')]).length"), 0,
            "no <style> element in a shadow root")
        shot(d, "components-all.png")

    def test_02_meter(self):
        d = self.d
        bar = part(d, "demo.meter", "bar")
        self.assertEqual(bar.get_attribute("role"), "meter")
        self.assertEqual(bar.get_attribute("aria-label"), "Microphone level")
        d.execute_script("demo.meter.state = {on: true, levelDb: -29, display: 0.42, notWorking: null, warnings: []}")
        self.assertEqual(bar.get_attribute("aria-valuenow"), "0.42")
        self.assertEqual(bar.get_attribute("aria-valuetext"), "42 %, -29 dBFS", "a reader hears words, not 0.42")
        self.assertEqual(d.execute_script("return demo.meter.dataset.levelDb"), "-29")
        self.assertFalse(part(d, "demo.meter", "warning").is_displayed())
        d.execute_script("demo.meter.state = {on: false, levelDb: -29, display: 0.42, notWorking: null, warnings: []}")
        self.assertEqual(bar.get_attribute("aria-valuenow"), "0", "0 while the microphone is off")
        self.assertEqual(bar.get_attribute("aria-valuetext"), "Microphone off")
        d.execute_script("demo.meter.state = {on: true, levelDb: -160, display: 0, notWorking: arguments[0],"
                         " warnings: ['Your microphone is noisy.']}", NOT_WORKING)
        warning = part(d, "demo.meter", "warning")
        self.assertTrue(warning.is_displayed())
        self.assertEqual(warning.text, NOT_WORKING)
        self.assertTrue(d.execute_script("return demo.meter.hasAttribute('data-not-working')"))
        self.assertEqual(part(d, "demo.meter", "warnings").text, "Your microphone is noisy.")
        self.assertEqual(part(d, "demo.meter", "alerts").get_attribute("aria-live"), "polite")

    def test_03_muted_notice(self):
        d = self.d
        self.assertEqual(d.execute_script("return demo.notice.getAttribute('role')"), "status")
        self.assertEqual(d.execute_script("return demo.notice.getAttribute('aria-live')"), "polite")
        self.assertFalse(d.execute_script("return demo.notice.open"))
        d.execute_script("demo.notice.show({durationMs: 600})")
        self.assertTrue(part(d, "demo.notice", "notice").is_displayed())
        self.assertEqual(part(d, "demo.notice", "text").text, "You are muted.")
        self.assertEqual(part(d, "demo.notice", "action").text, "Unmute (m)")
        self.assertEqual(part(d, "demo.notice", "off").text, "Don't show again for this call")
        self.assertEqual(part(d, "demo.notice", "close").get_attribute("aria-label"), "Close")
        wait(d, "return !demo.notice.open", 3, what="the notice hiding itself")
        self.assertTrue(d.execute_script("return document.contains(demo.notice)"), "still in the DOM")
        d.execute_script("demo.notice.show()")
        part(d, "demo.notice", "action").click()
        self.assertEqual(len(events(d, "miccheck-unmute")), 1)
        self.assertFalse(d.execute_script("return demo.notice.open"))
        d.execute_script("demo.notice.show({action: null})")
        self.assertFalse(part(d, "demo.notice", "action").is_displayed(), "no action when none is given")
        part(d, "demo.notice", "off").click()
        self.assertEqual(len(events(d, "miccheck-muted-notice-off")), 1)
        d.execute_script("demo.notice.show()")
        part(d, "demo.notice", "close").click()
        self.assertEqual(len(events(d, "miccheck-close")), 1)

    def test_04_participant_tiles(self):
        d = self.d
        wait(d, "return demo.tiles.self.dataset.video === 'true'", what="the canvas camera in the self tile")
        self.assertTrue(part(d, "demo.tiles.self", "video").is_displayed())
        self.assertFalse(part(d, "demo.tiles.self", "fallback").is_displayed())
        self.assertTrue(d.execute_script("const v = demo.tiles.self.shadowRoot.querySelector('video');"
                                         " return v.muted && getComputedStyle(v).transform !== 'none'"),
                        "one's own video is muted and mirrored")
        self.assertEqual(part(d, "demo.tiles.self", "label").text, "Ada Lovelace (you)")
        self.assertEqual(d.execute_script("return demo.tiles.self.getAttribute('role')"), "group")
        # Camera off: the initials.
        d.execute_script("demo.tiles.self.participant = {...demo.people[0], self: true, video: false}")
        self.assertEqual(d.execute_script("return demo.tiles.self.dataset.video"), "false")
        self.assertEqual(part(d, "demo.tiles.self", "initials").text, "AL")
        d.execute_script("demo.tiles.self.participant = {...demo.people[0], self: true}")
        self.assertEqual(d.execute_script("return demo.tiles.self.dataset.video"), "true")
        self.assertEqual(part(d, "demo.tiles.fox", "initials").text, "🦊F")
        self.assertEqual(part(d, "demo.tiles.fox", "label").text, "🦊 Fox · muted")
        self.assertEqual(d.execute_script("return demo.tiles.remote.dataset.video"), "false", "no stream: initials")
        self.assertEqual(part(d, "demo.tiles.remote", "initials").text, "AT")
        # Speaking: the ring, and the accessible name says so.
        d.execute_script("demo.tiles.remote.participant = {...demo.people[1], speaking: true}")
        self.assertIn("speaking", d.execute_script("return demo.tiles.remote.getAttribute('aria-label')"))
        self.assertTrue(d.execute_script("return demo.tiles.remote.hasAttribute('speaking')"))
        self.assertEqual(d.execute_script("return demo.tiles.remote.dataset.speaking"), "true")
        d.execute_script("demo.tiles.remote.showSpeaking = false")
        self.assertFalse(d.execute_script("return demo.tiles.remote.hasAttribute('speaking')"), "alone: no ring")
        d.execute_script("demo.tiles.remote.showSpeaking = true;"
                         " demo.tiles.remote.participant = {...demo.people[1], speaking: false, audio: false}")
        self.assertEqual(d.execute_script("return demo.tiles.remote.getAttribute('aria-label')"),
                         "Alan Turing, microphone off")
        d.execute_script("demo.tiles.remote.participant = {...demo.people[1], video: false, speaking: false}")
        self.assertEqual(d.execute_script("return demo.tiles.remote.getAttribute('aria-label')"),
                         "Alan Turing, camera off")
        self.assertFalse(d.execute_script("return demo.tiles.remote.hasAttribute('speaking')"))

    def test_05_permissions_prompt(self):
        d = self.d
        opener = d.find_element(By.ID, "open-microphone")
        opener.click()
        wait(d, "return demo.prompt.open", what="the prompt")
        self.assertEqual(part(d, "demo.prompt", "title").text, "Microphone access required")
        dialog = part(d, "demo.prompt", "dialog")
        self.assertEqual(dialog.get_attribute("aria-modal"), "true")
        self.assertEqual(d.execute_script(
            "const r = demo.prompt.shadowRoot; const t = r.querySelector('[part~=dialog]').getAttribute('aria-labelledby');"
            " return r.getElementById(t).textContent"), "Microphone access required")
        self.assertEqual(d.execute_script("return demo.prompt.shadowRoot.activeElement.textContent"), "Open Settings",
                         "the prompt takes the focus")
        # Tab goes round the prompt's buttons.
        for _ in range(5):
            ActionChains(d).send_keys(Keys.TAB).perform()
            self.assertTrue(d.execute_script("return document.activeElement === demo.prompt"), "focus stays inside")
        ActionChains(d).send_keys(Keys.ESCAPE).perform()
        wait(d, "return !demo.prompt.open", 3, what="Esc closing the prompt")
        self.assertEqual(d.execute_script("return document.activeElement.id"), "open-microphone", "focus restored")
        self.assertEqual([e["detail"] for e in events(d, "miccheck-dismiss")], [{"kind": "microphone"}])
        # Open Settings shows the steps; Dismiss closes it and says which prompt.
        d.find_element(By.ID, "open-camera-and-microphone").click()
        self.assertEqual(part(d, "demo.prompt", "title").text, "Camera and microphone access required")
        settings = part(d, "demo.prompt", "settings")
        self.assertEqual(settings.get_attribute("aria-expanded"), "false")
        self.assertFalse(part(d, "demo.prompt", "steps").is_displayed())
        settings.click()
        self.assertEqual(settings.get_attribute("aria-expanded"), "true")
        steps = part(d, "demo.prompt", "steps").text
        for word in ["Chromium", "Firefox", "pactl info"]:
            self.assertIn(word, steps)
        shot(d, "components-prompt.png")
        part(d, "demo.prompt", "dismiss").click()
        self.assertFalse(d.execute_script("return demo.prompt.open"))
        self.assertEqual([e["detail"] for e in events(d, "miccheck-dismiss")][-1], {"kind": "camera-and-microphone"})
        self.assertEqual(d.execute_script("return document.activeElement.id"), "open-camera-and-microphone")
        d.execute_script("demo.prompt.show('camera')")
        part(d, "demo.prompt", "close").click()
        self.assertEqual([e["detail"] for e in events(d, "miccheck-dismiss")][-1], {"kind": "camera"})

    def test_06_participants_strip(self):
        d = self.d
        self.assertEqual(part(d, "demo.strip", "count").text, "There are 2 more people in the call.")
        self.assertEqual(d.execute_script(
            "return [...demo.strip.shadowRoot.querySelectorAll('[part~=avatar]')].map(a => a.getAttribute('title'))"),
            ["Alan Turing", "🦊 Fox"])
        d.execute_script("demo.strip.participants = [demo.people[0]]")
        self.assertEqual(part(d, "demo.strip", "count").text, "There is 1 more person in the call.")
        self.assertEqual(part(d, "demo.strip", "avatar").get_attribute("aria-label"), "Ada Lovelace")
        d.execute_script("demo.strip.participants = []")
        self.assertEqual(part(d, "demo.strip", "count").text, "Nobody else is in the call yet.")

    def test_07_grid_keeps_tiles_and_uses_the_factory(self):
        d = self.d
        self.assertEqual(d.execute_script("return [...demo.grid.children].map(t => t.localName + ':' + t.dataset.id)"),
                         ["miccheck-participant-tile:ada", "miccheck-participant-tile:alan",
                          "miccheck-participant-tile:fox"])
        kept = d.execute_script("""
            const before = demo.grid.tiles.get('alan');
            demo.grid.update([demo.people[1], demo.people[0]], demo.gridOptions);
            return before === demo.grid.tiles.get('alan') && before === demo.grid.children[0];""")
        self.assertTrue(kept, "the same tile, moved")
        self.assertEqual(d.execute_script("return demo.grid.children.length"), 2, "the one who left has no tile")
        self.assertTrue(d.execute_script("return demo.grid.tiles.get('alan').hasAttribute('speaking')"))
        d.execute_script("demo.grid.update([{...demo.people[1], speaking: true}], demo.gridOptions)")
        self.assertFalse(d.execute_script("return demo.grid.tiles.get('alan').hasAttribute('speaking')"),
                         "no speaking ring for a participant alone")
        d.execute_script("demo.grid.update(demo.people, demo.gridOptions)")
        self.assertEqual(d.execute_script("return demo.grid.tiles.get('ada').dataset.self"), "")
        # The overridden factory method makes the tiles, in the grid and in the lobby; the rest stays stock.
        self.assertEqual(d.execute_script("return [...demo.customGrid.children].map(t => t.localName)"),
                         ["demo-tile"] * 3)
        self.assertTrue(d.execute_script("return demo.customGrid.tiles.get('ada').participant.self"))
        self.assertEqual(d.execute_script(
            "const p = demo.customLobby.pieces; return [p.preview, p.meter, p.strip].map(e => e.localName)"),
            ["demo-tile", "miccheck-meter", "miccheck-participants-strip"])
        self.assertEqual(d.execute_script(
            "const f = demo.customFactory; return [f.makeMeterView(), f.makeMutedNoticeView(),"
            " f.makeParticipantsStripView(), f.makePermissionsPromptView(), f.makeCallGridView(),"
            " f.makeCallControlsView(), f.makeLobbyView()].map(e => e.localName + ':' + (e.factory === undefined"
            " || e.factory === f))"),
            ["miccheck-meter:true", "miccheck-muted-notice:true", "miccheck-participants-strip:true",
             "miccheck-permissions-prompt:true", "miccheck-call-grid:true", "miccheck-call-controls:true",
             "miccheck-lobby:true"])
        self.assertEqual(d.execute_async_script(
            "const done = arguments[0]; import('/Web/sdk/components.js').then((m) => {"
            " try { m.createViewFactory({makeTile() {}}); done('accepted'); } catch (e) { done(e.name); } })"),
            "TypeError", "a name that is not a factory method is refused")

    def test_08_call_controls(self):
        d = self.d
        audio = part(d, "demo.controls", "toggle-audio")
        self.assertEqual(audio.get_attribute("aria-pressed"), "true")
        self.assertIn("Microphone", audio.text)
        audio.click()
        self.assertEqual([e["detail"] for e in events(d, "miccheck-toggle")], [{"kind": "audio"}])
        self.assertEqual(audio.get_attribute("aria-pressed"), "false")
        part(d, "demo.controls", "leave").click()
        self.assertEqual(len(events(d, "miccheck-leave")), 1)
        d.execute_script("demo.controls.state = {audio: true, video: true, speaker: true,"
                         " allowed: {audio: false, video: true}}")
        self.assertTrue(audio.get_attribute("disabled"))
        self.assertEqual(audio.get_attribute("aria-pressed"), "false")
        self.assertEqual(audio.get_attribute("title"), "Your invitation does not let you send audio.")
        fg, bg = d.execute_script(COLOURS, part(d, "demo.controls", "leave"))
        self.assertGreaterEqual(contrast(fg, bg), 4.5, f"Leave's text contrast {fg} on {bg}")

    def test_09_lobby(self):
        d = self.d
        lobby = "demo.lobby"
        self.assertEqual(part(d, lobby, "title").text, "Before Joining")
        self.assertEqual(part(d, lobby, "subtitle").text, "Setup your audio and video")
        self.assertEqual(part(d, lobby, "about").text, "You are about to join a call.")
        self.assertEqual(part(d, lobby, "call").text, "Call: team-standup")
        self.assertEqual(d.execute_script("return demo.lobby.pieces.strip.shadowRoot.textContent.trim()"
                                          ".startsWith('There are 2 more people in the call.')"), True)
        join = part(d, lobby, "join")
        self.assertEqual(join.text, "Join Call")
        fg, bg = d.execute_script(COLOURS, join)
        self.assertGreaterEqual(contrast(fg, bg), 4.5, f"Join Call's text contrast {fg} on {bg}")
        self.assertEqual(part(d, lobby, "privacy").text[:60],
                         "While your microphone is off in the call, MicCheck keeps lis")
        # The name: typed, cut at 64 with a note, Enter joins.
        name = part(d, lobby, "name")
        self.assertEqual(name.get_attribute("value"), "Ada Lovelace")
        name.clear()
        name.send_keys("Grace Hopper")
        self.assertEqual(events(d, "miccheck-name")[-1]["detail"], {"name": "Grace Hopper"})
        self.assertEqual(d.execute_script("return demo.lobby.pieces.preview.participant.name"), "Grace Hopper")
        d.execute_script("const i = arguments[0]; i.value = 'x'.repeat(70);"
                         " i.dispatchEvent(new InputEvent('input', {bubbles: true}))", name)
        self.assertEqual(len(name.get_attribute("value")), 64)
        self.assertEqual(part(d, lobby, "name-note").text, "Names are at most 64 characters; yours was shortened.")
        name.clear()
        name.send_keys("Grace Hopper", Keys.ENTER)
        self.assertEqual(events(d, "miccheck-join")[-1]["detail"], {"name": "Grace Hopper"})
        self.assertEqual(part(d, lobby, "name-note").text, "")
        # The toggles, the devices, what the app says.
        part(d, lobby, "toggle-video").click()
        self.assertEqual(events(d, "miccheck-toggle")[-1]["detail"], {"kind": "video"})
        self.assertEqual(part(d, lobby, "toggle-video").get_attribute("aria-pressed"), "false")
        self.assertEqual(d.execute_script("return demo.lobby.pieces.preview.dataset.video"), "false")
        d.execute_script("const s = arguments[0]; s.value = 'mic1'; s.dispatchEvent(new Event('change'))",
                         part(d, lobby, "device-audioinput"))
        self.assertEqual(events(d, "miccheck-choose-device")[-1]["detail"], {"kind": "audioinput", "deviceId": "mic1"})
        self.assertEqual(d.execute_script(
            "return [...demo.lobby.shadowRoot.querySelectorAll('[part~=device-label] > span')].map(s => s.textContent)"),
            ["Microphone", "Camera", "Speaker"])
        d.execute_script("demo.lobby.state = {deviceNote: 'A device you chose before is not connected: using the"
                         " default one.', status: 'Disconnected from the server. Reconnecting in 4 s…',"
                         " joinDisabled: true, nameLocked: true}")
        self.assertIn("not connected", part(d, lobby, "device-note").text)
        self.assertEqual(part(d, lobby, "status").get_attribute("role"), "status")
        self.assertTrue(join.get_attribute("disabled"))
        self.assertTrue(name.get_attribute("readonly"))
        d.execute_script("demo.lobby.microphone = {on: true, levelDb: -10, display: 0.8, notWorking: null,"
                         " warnings: []}")
        self.assertEqual(d.execute_script(
            "return demo.lobby.pieces.meter.shadowRoot.querySelector('[role=meter]').getAttribute('aria-valuenow')"),
            "0.8")
        # Every control shows a focus ring when reached by keyboard.
        d.execute_script("demo.lobby.state = {joinDisabled: false}")
        d.execute_script("arguments[0].focus()", part(d, lobby, "toggle-audio"))
        ActionChains(d).send_keys(Keys.TAB).perform()
        self.assertEqual(d.execute_script(
            "const e = demo.lobby.shadowRoot.activeElement; const s = getComputedStyle(e);"
            " return e.matches(':focus-visible') && s.outlineStyle + ' ' + parseFloat(s.outlineWidth)"), "solid 3")

    def test_10_microphone_test(self):
        d = self.d
        view = "demo.microphoneTest"
        button = part(d, view, "start")
        region = part(d, view, "status")
        self.assertEqual((region.get_attribute("role"), region.get_attribute("aria-live")), ("status", "polite"))
        self.assertEqual((button.text, button.get_attribute("type")), ("Test your microphone", "button"))
        self.assertEqual(part(d, view, "message").text, "")
        button.click()
        self.assertEqual([e["target"] for e in events(d, "miccheck-test-microphone")], ["miccheck-microphone-test"])
        d.execute_script(f"{view}.state = {{state: 'recording', seconds: 5, secondsLeft: 4}}")
        self.assertEqual(part(d, view, "message").text, "Recording: say a sentence or two as you would in the call.")
        self.assertEqual(part(d, view, "seconds-left").text, "4 s left.")
        self.assertFalse(region.find_elements(By.CSS_SELECTOR, "[part~=seconds-left]"),
                         "the seconds left are not spoken every second")
        self.assertEqual(button.get_attribute("aria-disabled"), "true")
        button.click()
        self.assertEqual(len(events(d, "miccheck-test-microphone")), 1, "no second test while one records")
        sentence = "Your voice came through clearly: -23.7 dBFS while you spoke."
        d.execute_script(f"{view}.state = {{state: 'playing', seconds: 5, verdict: 'clear', sentence: arguments[0]}}",
                         sentence)
        self.assertEqual(part(d, view, "message").text, "Playing back your recording…")
        self.assertEqual(part(d, view, "verdict").text, sentence)
        self.assertFalse(part(d, view, "seconds-left").is_displayed())
        d.execute_script(f"{view}.state = {{state: 'done', seconds: 5, verdict: 'clear', sentence: arguments[0]}}",
                         sentence)
        self.assertEqual((part(d, view, "message").text, button.text), ("", "Test again"))
        self.assertIsNone(button.get_attribute("aria-disabled"))
        self.assertEqual(d.execute_script(f"return {view}.dataset.verdict"), "clear")
        colour = "return getComputedStyle(arguments[0]).color"
        self.assertEqual(d.execute_script(colour, part(d, view, "verdict")), "rgb(53, 208, 127)", "green when clear")
        d.execute_script(f"{view}.state = {{state: 'done', seconds: 5, verdict: 'noisy', sentence: 'Noisy.'}}")
        self.assertEqual(d.execute_script(colour, part(d, view, "verdict")), "rgb(245, 185, 66)", "amber otherwise")
        d.execute_script(f"{view}.state = {{state: 'failed', seconds: 5, message: 'The connection was lost.'}}")
        self.assertEqual((part(d, view, "message").text, part(d, view, "verdict").text, button.text),
                         ("The connection was lost.", "", "Test again"))
        # The microphone off: a click says why, and starts nothing.
        d.execute_script(f"{view}.state = null; {view}.available = false")
        self.assertEqual(button.text, "Test your microphone")
        button.click()
        self.assertEqual(part(d, view, "message").text, "Turn your microphone on to test it.")
        self.assertEqual(len(events(d, "miccheck-test-microphone")), 1)
        d.execute_script(f"{view}.available = true")
        self.assertEqual(part(d, view, "message").text, "")
        # In the lobby, under the device menus, made by the factory; the lobby forwards the client's event.
        self.assertEqual(d.execute_script("return demo.lobby.pieces.microphoneTest.localName"),
                         "miccheck-microphone-test")
        d.execute_script("demo.lobby.microphoneTest = {state: 'recording', seconds: 5, secondsLeft: 2}")
        self.assertEqual(d.execute_script(
            "return demo.lobby.pieces.microphoneTest.shadowRoot.querySelector('[part~=seconds-left]').textContent"),
            "2 s left.")
        self.assertTrue(d.execute_script(
            "const s = demo.lobby.pieces.microphoneTest.assignedSlot;"
            " return !!s && s.previousElementSibling.matches('[part~=devices]')"))
        d.execute_script("demo.lobby.state = {settings: {audio: false, video: true, speaker: true}}")
        self.assertFalse(d.execute_script("return demo.lobby.pieces.microphoneTest.available"))
        d.execute_script("demo.lobby.state = {settings: {audio: true, video: true, speaker: true}};"
                         " demo.lobby.microphoneTest = null")

    def test_11_moderation_pieces(self):
        """A host's Mute on a tile, the muted notice after a host's mute, the typing notice, push-to-talk."""
        d = self.d
        mute = part(d, "demo.tiles.remote", "mute")
        self.assertFalse(mute.is_displayed(), "no Mute unless the local user may mute others")
        d.execute_script("demo.tiles.remote.participant = {...demo.people[1], audio: true}; "
                         "demo.tiles.remote.mayMute = true; demo.tiles.self.mayMute = true; "
                         "demo.tiles.fox.mayMute = true")
        self.assertTrue(mute.is_displayed())
        self.assertEqual(mute.get_attribute("aria-label"), "Mute Alan Turing")
        self.assertFalse(part(d, "demo.tiles.self", "mute").is_displayed(), "not on one's own tile")
        self.assertFalse(part(d, "demo.tiles.fox", "mute").is_displayed(), "not on a muted participant's")
        mute.click()
        self.assertEqual([e["detail"] for e in events(d, "miccheck-mute-participant")],
                         [{"id": "alan", "name": "Alan Turing"}])
        d.execute_script("demo.grid.update(demo.people, {...demo.gridOptions, mayMute: true})")
        self.assertTrue(d.execute_script("return demo.grid.tiles.get('alan').mayMute"), "the grid passes it on")
        d.execute_script("demo.grid.update(demo.people, demo.gridOptions);"
                         " for (const t of Object.values(demo.tiles)) t.mayMute = false")
        d.execute_script("demo.notice.show({announcement: 'Grace muted you.', durationMs: 0})")
        self.assertEqual(part(d, "demo.notice", "announcement").text, "Grace muted you.")
        self.assertEqual(part(d, "demo.notice", "action").text, "Unmute (m)")
        self.assertFalse(part(d, "demo.notice", "off").is_displayed(), "a host's mute is not silenced")
        d.execute_script("demo.notice.show({durationMs: 0})")
        self.assertFalse(part(d, "demo.notice", "announcement").is_displayed())
        self.assertTrue(part(d, "demo.notice", "off").is_displayed())
        d.execute_script("demo.notice.hide()")
        self.assertEqual(d.execute_script("return demo.typing.getAttribute('role')"), "status")
        self.assertFalse(d.execute_script("return demo.typing.open"))
        d.execute_script("demo.typing.show({durationMs: 0})")
        self.assertEqual(part(d, "demo.typing", "text").text, "Your typing can be heard.")
        self.assertEqual(part(d, "demo.typing", "action").text, "Mute (m)")
        fg, bg = d.execute_script(COLOURS, part(d, "demo.typing", "action"))
        self.assertGreaterEqual(contrast(fg, bg), 4.5, f"Mute's text contrast {fg} on {bg}")
        shot(d, "components-typing-notice.png")
        part(d, "demo.typing", "action").click()
        self.assertEqual(len(events(d, "miccheck-mute")), 1)
        self.assertFalse(d.execute_script("return demo.typing.open"))
        ptt = part(d, "demo.controls", "push-to-talk")
        d.execute_script("demo.controls.state = {audio: true, video: true, speaker: true,"
                         " allowed: {audio: false, video: true}}")
        self.assertTrue(ptt.get_attribute("disabled"), "no push-to-talk for a role that may not send audio")
        d.execute_script("demo.controls.state = {audio: true, video: true, speaker: true,"
                         " allowed: {audio: true, video: true}}")
        self.assertEqual(ptt.get_attribute("aria-pressed"), "false")
        self.assertEqual(part(d, "demo.controls", "push-to-talk-status").text, "")
        ptt.click()
        self.assertEqual([e["detail"] for e in events(d, "miccheck-push-to-talk")], [{"on": True}])
        d.execute_script("demo.controls.state = {...demo.controls.state, pushToTalk: true}")
        self.assertEqual(ptt.get_attribute("aria-pressed"), "true")
        self.assertEqual(part(d, "demo.controls", "push-to-talk-status").text, "Push-to-talk: hold Space to talk")
        d.execute_script("demo.controls.state = {...demo.controls.state, talking: true}")
        self.assertEqual(part(d, "demo.controls", "push-to-talk-status").text, "Talking")
        d.execute_script("demo.controls.state = {...demo.controls.state, pushToTalk: false, talking: false}")

    def test_12_light_theme(self):
        """A light theme from the documented custom properties alone: fields, menus and buttons light with dark
        text, the radius reaching the buttons and fields, and a tile's label still white on its dark chip."""
        d = self.d
        theme = {"--miccheck-panel": "#ffffff", "--miccheck-text": "#1a1c22", "--miccheck-muted-text": "#50535c",
                 "--miccheck-control": "#eef0f4", "--miccheck-field": "#ffffff", "--miccheck-surface": "#dfe3ea",
                 "--miccheck-border": "#b8bcc6", "--miccheck-radius": "18px"}
        set_theme = "for (const [k, v] of Object.entries(arguments[0])) document.documentElement.style.setProperty(k, v)"
        d.execute_script(set_theme, theme)
        try:
            dark = [26, 28, 34]
            for host, name in [("demo.lobby", "name"), ("demo.lobby", "device-audioinput"),
                               ("demo.lobby", "toggle-audio"), ("demo.controls", "leave")]:
                element = part(d, host, name)
                fg, bg = d.execute_script(COLOURS, element)
                if name != "leave":
                    self.assertEqual(fg, dark, f"{name}'s text in the theme's colour")
                    self.assertGreater(min(bg), 200, f"{name}'s background is light: {bg}")
                self.assertGreaterEqual(contrast(fg, bg), 4.5, f"{name}: {fg} on {bg}")
                radius = d.execute_script("return getComputedStyle(arguments[0]).borderTopLeftRadius", element)
                self.assertEqual(radius, "9px" if name in ("name", "device-audioinput") else "12px", name)
            fg, bg = d.execute_script(COLOURS, part(d, "demo.tiles.remote", "label"))
            self.assertEqual(fg, [255, 255, 255], "a tile's label stays white over its video or initials")
            self.assertEqual(bg, [0, 0, 0])
            self.assertEqual(d.execute_script("return getComputedStyle(arguments[0]).backgroundColor",
                                              part(d, "demo.tiles.remote", "tile")), "rgb(223, 227, 234)")
            shot(d, "components-light-theme.png")
        finally:
            d.execute_script("for (const k of arguments[0]) document.documentElement.style.removeProperty(k)",
                             list(theme))


class Narrow(unittest.TestCase):
    """The lobby and the call's controls on phones: 390 × 844 and 360 × 740."""

    @classmethod
    def setUpClass(cls):
        cls.d = browser(400, 900)
        cls.addClassCleanup(cls.d.quit)

    def check_fits(self, width, height, view):
        d = self.d
        viewport(d, width, height)
        open_demo(d, f"still&view={view}")
        time.sleep(0.3)
        self.assertEqual(d.execute_script("return innerWidth"), width)
        self.assertLessEqual(d.execute_script("return document.documentElement.scrollWidth"), width,
                             f"no horizontal scroll at {width} px")
        self.assertEqual(d.execute_script("return window.cspViolations"), [])
        shot(d, f"components-{view}-{width}.png")

    def test_lobby(self):
        for width, height in [(390, 844), (360, 740)]:
            with self.subTest(width=width):
                self.check_fits(width, height, "lobby")
                rect = self.d.execute_script(
                    "return demo.lobby.shadowRoot.querySelector('[part~=join]').getBoundingClientRect().toJSON()")
                self.assertGreaterEqual(rect["top"], 0)
                self.assertLessEqual(rect["bottom"], height, f"Join Call within the viewport at {width} px: {rect}")
                self.assertLessEqual(rect["right"], width)
                overflow = self.d.execute_script(
                    "return [...demo.lobby.shadowRoot.querySelectorAll('button, input, select')]"
                    ".map(e => e.getBoundingClientRect()).filter(r => r.left < 0 || r.right > innerWidth).length")
                self.assertEqual(overflow, 0, "every control within the width")

    def test_controls(self):
        for width, height in [(390, 844), (360, 740)]:
            with self.subTest(width=width):
                self.check_fits(width, height, "controls")
                rects = self.d.execute_script(
                    "return [...demo.controls.shadowRoot.querySelectorAll('button')]"
                    ".map(b => ({...b.getBoundingClientRect().toJSON(), text: b.textContent,"
                    " clipped: [...b.querySelectorAll('.label')].some(l => l.scrollWidth > l.clientWidth)}))")
                self.assertEqual(len(rects), 5)  # the toggles, Push-to-talk (a row of its own) and Leave
                for r in rects:
                    self.assertGreaterEqual(r["left"], 0, r)
                    self.assertLessEqual(r["right"], width, r)
                    self.assertGreaterEqual(r["top"], 0, r)
                    self.assertLessEqual(r["bottom"], height, r)
                    self.assertFalse(r["clipped"], f"a label cut short: {r}")


_SERVER = None


def setUpModule():
    """Run by browser_tests.py (whose main() sets nothing here): a static server of this module's own."""
    global BASE, WORK, SCREENSHOTS, _SERVER
    if BASE is not None:
        return
    from harness import Run
    SCREENSHOTS = SCREENSHOTS or Run.screenshots
    WORK = tempfile.mkdtemp(prefix="miccheck-components-")
    _SERVER = serve()
    BASE = f"http://127.0.0.1:{_SERVER.server_address[1]}"


def tearDownModule():
    global BASE, _SERVER
    if _SERVER is None:
        return
    _SERVER.shutdown()
    _SERVER.server_close()
    shutil.rmtree(WORK, ignore_errors=True)
    BASE, _SERVER = None, None


def main():
    global BASE, WORK, SCREENSHOTS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--screenshots")
    args, rest = parser.parse_known_args()
    SCREENSHOTS = args.screenshots
    WORK = tempfile.mkdtemp(prefix="miccheck-components-")
    server = serve()
    BASE = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        program = unittest.main(argv=[sys.argv[0]] + rest, exit=False)
        return 0 if program.result.wasSuccessful() else 1
    finally:
        server.shutdown()
        server.server_close()
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
