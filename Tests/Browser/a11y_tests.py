"""The lobby and the call for everyone: axe-core (the copy that PyPI's axe-selenium-python bundles) finds no
serious or critical violation in the lobby, the call with two people, or the lobby under the permissions
prompt; at a phone's width (390 and 360 px) nothing makes the page scroll sideways and Join Call and every
call control lie inside the screen; Tab from the top of the lobby reaches the name, every toggle and Join
Call. Screenshots at a phone's width when the run asks for them."""
import os
import sys
import unittest

import axe_selenium_python
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import CONTROLS, LOBBY, PROMPT, TILES, Run, browser, click, js, open_page, q, shot, wait

AXE = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
BAD = ("serious", "critical")
# axe-core 3.1.1 (the copy axe-selenium-python 2.1.6 bundles, the newest release pip finds here) predates WAI-ARIA
# 1.2's `meter` role, which the microphone meter has: teach it the role as axe-core 4 defines it (a
# structure with a value, aria-valuenow required) rather than have it call the role invalid.
METER_ROLE = """
if (!axe.commons.aria.lookupTable.role.meter) {
  axe.commons.aria.lookupTable.role.meter = {
    type: 'structure', attributes: {allowed: ['aria-valuetext', 'aria-valuemax', 'aria-valuemin'],
                                    required: ['aria-valuenow']},
    owned: null, nameFrom: ['author'], context: null, implicit: ['meter'], unsupported: false};
}
"""
PHONES = [(390, 844), (360, 740)]

# Where a box lies against the viewport, and whether the page is wider than it.
FITS = """
const r = arguments[0].getBoundingClientRect();
return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: innerWidth, height: innerHeight,
        inside: r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth
                && r.bottom <= innerHeight,
        scrollWidth: document.documentElement.scrollWidth};
"""

# The focused element, looking into shadow roots: the path of hosts to it, and what names it.
FOCUSED = """
const path = [];
let el = document.activeElement;
while (el) {
  path.push(el.localName);
  if (!(el.shadowRoot && el.shadowRoot.activeElement)) break;
  el = el.shadowRoot.activeElement;
}
return {path: path.join(' >> '), id: el ? el.id : '', part: el ? (el.getAttribute('part') || '') : '',
        tag: el ? el.localName : ''};
"""


def axe(driver):
    """axe-core's violations on the whole page (open shadow roots included)."""
    if not driver.execute_script("return !!window.axe"):
        with open(AXE) as f:
            driver.execute_script(f.read())
        driver.execute_script(METER_ROLE)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        "  .then((r) => done({violations: r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,"
        "    nodes: v.nodes.map((n) => ({target: n.target, summary: n.failureSummary}))}))}))"
        "  .catch((e) => done({error: String(e)}));")
    if "error" in result:
        raise AssertionError(f"axe-core failed: {result['error']}")
    return result["violations"]


def phone(width, height):
    """A browser with a phone's viewport. Chromium's --headless=new keeps its window at least 500 px wide
    whatever --window-size says, so the viewport is set as DevTools' device mode sets it: a mobile one
    (the page's meta viewport applies, scrollbars overlay the page as on a phone)."""
    driver = browser(Run.speech, width=width, height=height)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    except BaseException:
        driver.quit()
        raise
    return driver


def call_controls(driver):
    return js(driver, f"return q('{CONTROLS} >> button', true);")


class A11yTests(unittest.TestCase):
    def check_axe(self, driver, page):
        violations = axe(driver)
        bad = [v for v in violations if v["impact"] in BAD]
        minor = [v for v in violations if v["impact"] not in BAD]
        print(f"\naxe-core {driver.execute_script('return axe.version')}, {page}: {len(minor)} minor/moderate "
              f"violation(s)" + "".join(f"\n  {v['id']} ({v['impact']}): {v['help']}: "
                                         + "; ".join(f"{n['target']}: {' '.join(n['summary'].split()[1:])}" for n in v["nodes"])
                                         for v in minor),
              file=sys.stderr)
        detail = "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n" + "\n".join(
            f"    {n['target']}: {n['summary']}" for n in v["nodes"]) for v in bad)
        self.assertEqual(bad, [], f"serious or critical violations on {page}:\n{detail}")

    def test_1_axe_lobby(self):
        d = browser(Run.speech)
        try:
            open_page(d, "a11y-lobby", "Ada Lovelace")
            wait(d, f"return q('{LOBBY} miccheck-participant-tile')", what="the preview tile")
            self.check_axe(d, "the lobby")
        finally:
            d.quit()

    def test_2_axe_call_with_two(self):
        a, b = browser(Run.speech), browser(Run.speech)
        try:
            open_page(a, "a11y-call", "Ada Lovelace")
            open_page(b, "a11y-call", "Alan Turing")
            click(a, f"{LOBBY} >> [part~=join]")
            click(b, f"{LOBBY} >> [part~=join]")
            for d in (a, b):
                wait(d, f"return q('{TILES}', true).length === 2", 15, what="two tiles")
            self.check_axe(a, "the call with two people")
        finally:
            a.quit()
            b.quit()

    def test_3_axe_permissions_prompt(self):
        d = browser(Run.speech, deny=True)
        try:
            open_page(d, "a11y-deny", "Ada")
            wait(d, f"return q('{PROMPT}').hasAttribute('open')", what="the permissions prompt")
            self.check_axe(d, "the lobby under the permissions prompt")
            click(d, f"{PROMPT} >> [part~=settings]")
            wait(d, f"return !q('{PROMPT} >> [part~=steps]').hidden", what="the settings steps")
            self.check_axe(d, "the permissions prompt with its settings steps")
        finally:
            d.quit()

    def test_6_focus_after_the_permissions_prompt(self):
        """The prompt closed by Close, Esc or Dismiss leaves the focus somewhere useful, never on <body>: the
        name field after the prompt the page opened with, the toggle that opened it in the lobby and the call."""
        d = browser(Run.speech, deny=True)
        try:
            open_page(d, "a11y-focus", "Ada")
            wait(d, f"return q('{PROMPT}').hasAttribute('open')", what="the permissions prompt at the start")
            click(d, f"{PROMPT} >> [part~=close]")
            focused = wait(d, f"const f = (() => {{ {FOCUSED} }})(); return f.part === 'name' && f", 3,
                           what="the name field focused after the prompt the page opened with")
            self.assertEqual(focused["path"], "miccheck-lobby >> input")
            for opener, close in [(f"{LOBBY} >> [part~=toggle-audio]", "esc"),
                                  (f"{CONTROLS} >> [part~=toggle-audio]", "dismiss"),
                                  (f"{CONTROLS} >> [part~=toggle-audio]", "close")]:
                if opener.startswith(CONTROLS) and not js(d, "return window.miccheck.client.joined"):
                    click(d, f"{LOBBY} >> [part~=join]")
                    wait(d, "return window.miccheck.client.joined", what="the call")
                click(d, opener)
                wait(d, f"return q('{PROMPT}').hasAttribute('open')", what=f"the prompt from {opener}")
                if close == "esc":
                    ActionChains(d).send_keys(Keys.ESCAPE).perform()
                else:
                    click(d, f"{PROMPT} >> [part~={close}]")
                wait(d, f"return !q('{PROMPT}').hasAttribute('open')", what="the prompt closed")
                focused = d.execute_script(FOCUSED)
                self.assertEqual(focused["part"], "toggle toggle-audio", f"{close} after {opener}: {focused}")
                self.assertEqual(focused["path"].split(" >> ")[0], opener.split(" >> ")[0])
        finally:
            d.quit()

    def check_fits(self, driver, path, what):
        element = q(driver, path)
        self.assertIsNotNone(element, f"{what} ({path})")
        box = driver.execute_script(FITS, element)
        self.assertTrue(box["inside"], f"{what} inside the {box['width']}x{box['height']} viewport: {box}")
        self.assertLessEqual(box["scrollWidth"], box["width"], "the page does not scroll sideways")

    def test_4_phone_width(self):
        for width, height in PHONES:
            with self.subTest(width=width):
                a = phone(width, height)
                b = None
                try:
                    call = f"a11y-phone-{width}"
                    open_page(a, call, "Ada Lovelace")
                    self.assertEqual(a.execute_script("return [innerWidth, innerHeight]"), [width, height],
                                     "a viewport the size of a phone's (not zoomed out to fit a wider page)")
                    wait(a, f"const v = q('{LOBBY} miccheck-participant-tile >> video'); return v && v.videoWidth > 0",
                         what="the camera preview")
                    self.check_fits(a, f"{LOBBY} >> [part~=join]", "Join Call")
                    if width == 390:
                        shot(a, "serve-lobby-phone.png")
                    b = browser(Run.speech)
                    open_page(b, call, "Alan Turing")
                    click(a, f"{LOBBY} >> [part~=join]")
                    click(b, f"{LOBBY} >> [part~=join]")
                    wait(a, f"return q('{TILES}', true).length === 2", 15, what="two tiles")
                    buttons = call_controls(a)
                    self.assertGreaterEqual(len(buttons), 4, "the toggles and Leave")
                    for button in buttons:
                        box = a.execute_script(FITS, button)
                        label = a.execute_script("return arguments[0].getAttribute('part')", button)
                        self.assertTrue(box["inside"], f"{label} inside the {width}x{height} viewport: {box}")
                    self.assertLessEqual(a.execute_script("return document.documentElement.scrollWidth"), width,
                                         "the call does not scroll sideways")
                    a.execute_script("scrollTo(100, 0)")
                    self.assertEqual(a.execute_script("return scrollX"), 0, "nothing to scroll sideways to")
                    if width == 390:
                        wait(a, f"const v = q('{TILES}:not([data-self]) >> video'); return v && v.videoWidth > 0", 20,
                             what="the other's video")
                        shot(a, "serve-call-phone.png")
                finally:
                    a.quit()
                    if b:
                        b.quit()

    def test_5_keyboard_reaches_the_lobby(self):
        d = browser(Run.speech)
        try:
            open_page(d, "a11y-keys", "Ada")
            wait(d, f"return q('{LOBBY} >> [part~=join]')", what="the lobby")
            # From the top: nothing has the focus yet (the page gives it to nobody), then Tab through the page
            # until the focus comes round again.
            self.assertTrue(d.execute_script("return document.activeElement === document.body"), "the page's top")
            reached = []
            for _ in range(40):
                ActionChains(d).send_keys(Keys.TAB).perform()
                focused = d.execute_script(FOCUSED)
                if reached and focused == reached[0]:
                    break
                reached.append(focused)
            parts = [f["part"] for f in reached]
            print("\nTab order in the lobby: " + ", ".join(f"{f['tag']}[{f['part'] or f['id']}]" for f in reached),
                  file=sys.stderr)
            wanted = ["name", "toggle toggle-audio", "toggle toggle-video", "toggle toggle-speaker", "join"]
            for part in wanted:
                self.assertIn(part, parts, f"Tab reaches [part={part}]")
            for f in reached:
                if f["part"] in wanted:
                    self.assertEqual(f["path"].split(" >> ")[0], LOBBY, f"{f['part']} is the lobby's")
        finally:
            d.quit()


if __name__ == "__main__":
    unittest.main()
