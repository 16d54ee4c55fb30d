""""Test your microphone" in MicCheck's own lobby, in headless Chromium against `miccheck serve`, as a person
goes through it: the button, "Recording: …" with the seconds left, "Playing back your recording…" through the
speaker chosen in the lobby, then the verdict: a voice that comes through clearly in green, the same voice
30 dB down (too quiet) in amber; the microphone turned off refuses or cancels a test; leaving the page mid-recording
leaves the server serving the next page's test."""
import json
import os
import re
import unittest
import wave

from harness import LOBBY, Run, browser, click, js, open_page, q, shot, text, wait

TEST = f"{LOBBY} miccheck-microphone-test"
BUTTON = f"{TEST} >> [part~=start]"
RECORDING = "Recording: say a sentence or two as you would in the call."
PLAYING = "Playing back your recording…"
GREEN = [53, 208, 127]
AMBER = [245, 185, 66]

# Records the client's microphonetest events, and each output the page plays through.
STEPS = """
window.steps = [];
window.miccheck.client.addEventListener('microphonetest', (e) => {
  window.steps.push({...e.detail, at: performance.now()});
});
window.sinks = [];
const setSinkId = AudioContext.prototype.setSinkId;
AudioContext.prototype.setSinkId = function (id) {
  window.sinks.push(id);
  return setSinkId.call(this, id);
};
"""
STATES = "return window.steps.map((s) => s.state)"
COLOUR = """const s = getComputedStyle(q(arguments[0]));
return s.color.match(/[\\d.]+/g).slice(0, 3).map(Number);"""

QUIET = None


def setUpModule():
    """The harness's speech file, 30 dB down: the same voice, too quiet."""
    global QUIET
    with wave.open(Run.speech) as w:
        params, raw = w.getparams(), w.readframes(w.getnframes())
    samples = memoryview(bytearray(raw)).cast("h")
    factor = 10 ** (-30 / 20)
    for i in range(len(samples)):
        samples[i] = int(round(samples[i] * factor))
    QUIET = os.path.join(Run.work, "quiet-speech.wav")
    with wave.open(QUIET, "wb") as w:
        w.setparams(params)
        w.writeframes(samples.tobytes())


def status(driver):
    return {
        "message": text(driver, f"{TEST} >> [part~=message]"),
        "verdict": text(driver, f"{TEST} >> [part~=verdict]"),
        "left": text(driver, f"{TEST} >> [part~=seconds-left]"),
        "button": text(driver, BUTTON),
        "disabled": q(driver, BUTTON).get_attribute("aria-disabled"),
    }


def step(driver, state, seconds=20):
    return wait(driver, f"return window.steps.find((s) => s.state === '{state}')", seconds,
                what=f"the microphone test's '{state}'")


class MicrophoneTestTests(unittest.TestCase):
    def test_1_a_clear_voice_played_back_through_the_chosen_speaker(self):
        d = browser(Run.speech, height=1000)
        try:
            open_page(d, "mic-test-clear", "Ada")
            js(d, STEPS)
            region = q(d, f"{TEST} >> [part~=status]")
            self.assertEqual((region.get_attribute("role"), region.get_attribute("aria-live")), ("status", "polite"))
            self.assertEqual(status(d)["button"], "Test your microphone")
            self.assertEqual(q(d, BUTTON).accessible_name, "Test your microphone")
            # The lobby's Speaker menu: the second output Chromium's fake devices list.
            speaker = wait(d, f"const s = q('{LOBBY} >> [part~=device-audiooutput]');"
                              " return s && s.options.length > 1 && s.options[1].value", what="the outputs")
            js(d, f"const s = q('{LOBBY} >> [part~=device-audiooutput]'); s.value = arguments[0];"
                  " s.dispatchEvent(new Event('change', {bubbles: true}))", speaker)
            wait(d, "return JSON.parse(localStorage.getItem('miccheck.devices') || '{}').audiooutput === "
                 + json.dumps(speaker), what="the speaker chosen")
            click(d, BUTTON)
            step(d, "recording", 5)
            wait(d, "return window.steps.some((s) => s.state === 'recording' && s.secondsLeft === 3)", 6)
            now = status(d)
            self.assertEqual(now["message"], RECORDING)
            self.assertRegex(now["left"], r"^[1-3] s left\.$")
            self.assertEqual((now["button"], now["disabled"]), ("Test your microphone", "true"))
            shot(d, "browser-microphone-test-recording.png")
            playing = step(d, "playing", 10)
            self.assertEqual(text(d, f"{TEST} >> [part~=message]"), PLAYING)
            done = step(d, "done", 15)
            self.assertEqual(done["verdict"], "clear", done)
            self.assertTrue(done["playedBack"])
            self.assertGreater(done["at"] - playing["at"], 4500, "the 5 s recording played to its end")
            self.assertEqual(js(d, "return window.sinks"), [speaker], "played through the chosen speaker")
            now = status(d)
            self.assertTrue(now["verdict"].startswith("Your voice came through clearly: "), now)
            self.assertEqual(now["verdict"], done["sentence"])
            self.assertEqual((now["message"], now["left"], now["button"], now["disabled"]), ("", "", "Test again", None))
            self.assertEqual(q(d, TEST).get_attribute("data-verdict"), "clear")
            self.assertEqual(js(d, COLOUR, f"{TEST} >> [part~=verdict]"), GREEN)
            steps = js(d, STATES)
            self.assertEqual(steps[0], "recording")
            self.assertEqual(steps[-2:], ["playing", "done"])
            self.assertEqual([s["secondsLeft"] for s in js(d, "return window.steps") if s["state"] == "recording"],
                             [5, 4, 3, 2, 1, 0])
            shot(d, "browser-microphone-test-clear.png")
        finally:
            d.quit()

    def test_2_the_same_voice_30_db_down_is_not_clear(self):
        d = browser(QUIET, height=1000)
        try:
            open_page(d, "mic-test-quiet", "Grace")
            js(d, STEPS)
            click(d, BUTTON)
            done = step(d, "done", 25)
            self.assertEqual(done["verdict"], "too_quiet", done)
            self.assertTrue(done["sentence"].startswith("Your voice came through too quietly ("), done)
            self.assertLess(done["speechLevelDb"], -45, done)
            now = status(d)
            self.assertEqual(now["verdict"], done["sentence"])
            self.assertEqual(now["button"], "Test again")
            self.assertEqual(js(d, COLOUR, f"{TEST} >> [part~=verdict]"), AMBER)
            self.assertEqual(js(d, "return window.sinks"), [], "the default speaker: no output chosen")
            shot(d, "browser-microphone-test-quiet.png")
        finally:
            d.quit()

    def test_3_microphone_off_refuses_or_cancels_and_leaving_mid_test_leaves_the_server_fine(self):
        d = browser(Run.speech)
        try:
            open_page(d, "mic-test-leave", "Alan")
            js(d, STEPS)
            toggle = f"{LOBBY} >> [part~=toggle-audio]"
            click(d, toggle)
            wait(d, f"return q('{toggle}').getAttribute('aria-pressed') === 'false'")
            click(d, BUTTON)
            self.assertEqual(status(d)["message"], "Turn your microphone on to test it.")
            self.assertEqual(js(d, STATES), [], "no test while the microphone is off")
            click(d, toggle)
            wait(d, f"return q('{toggle}').getAttribute('aria-pressed') === 'true'")
            self.assertEqual(status(d)["message"], "")
            # Turned off mid-recording: cancelled, and the lobby offers the test again.
            click(d, BUTTON)
            step(d, "recording", 5)
            click(d, toggle)
            cancelled = step(d, "cancelled", 5)
            self.assertIn("turned off", cancelled["message"])
            self.assertEqual(status(d)["message"], "")
            self.assertEqual((status(d)["button"], status(d)["disabled"]), ("Test your microphone", "true"))
            click(d, toggle)
            wait(d, f"return q('{BUTTON}').getAttribute('aria-disabled') === null", what="the test offered again")
            # Leaving the page mid-recording; the next page's test is judged as ever.
            click(d, BUTTON)
            wait(d, "return window.steps.some((s) => s.state === 'recording' && s.secondsLeft === 3)", 8)
            d.get("about:blank")
            open_page(d, "mic-test-leave", "Alan")
            js(d, STEPS)
            click(d, BUTTON)
            done = step(d, "done", 25)
            self.assertEqual(done["verdict"], "clear", done)
            self.assertEqual(js(d, STATES)[-1], "done")
            self.assertTrue(re.match(r"^Your voice came through clearly", status(d)["verdict"]))
        finally:
            d.quit()
