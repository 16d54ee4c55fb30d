"""MicCheck in a real SFU call: Janus's own VideoRoom demo page (Debian's janus-demos) with MicCheck added by
Examples/janus-videoroom, eight people in one room of a private Janus (scripts/janus-server.sh), each page a
headless Chromium with its own microphone file. No MicCheck server runs: each page analyses its own microphone
(miccheck.wasm) and says whether it speaks over Janus's data channels; the audio goes only through Janus.

Skipped, with the reason, where Janus or its demos are not installed (scripts/browser-tests.sh installs them)."""
import os
import time
import unittest

from selenium.common.exceptions import WebDriverException

from harness import MUTED, NOT_WORKING, Run, js, shot, wait
from janus_room import Room, delays, missing, percentile, room_files

# The eight: who speaks, who types, who is muted, whose microphone is dead, and four in a quiet room.
PEOPLE = [("talker", "talker"), ("reader", "reader"), ("muted", "talker"), ("typist", "typist"), ("dead", "dead"),
          ("quiet1", "quiet"), ("quiet2", "quiet"), ("quiet3", "quiet")]
SPEAKERS = {"talker", "reader"}
READER_RINGS = "return (window.__rings || []).some(([who, on]) => who === 'reader' && on)"
# The pages whose rings are watched first, with all eight running; they are stopped for the measured part.
FIRST = ["typist", "dead", "quiet2", "quiet3"]
MUTED_NOTICE = "miccheck-muted-notice"
TYPING_NOTICE = "miccheck-typing-notice"
NOTICE_SHOWN = f"return window.__shown.find((s) => s[0] === '{MUTED_NOTICE}')?.[1]"
TYPING_SHOWN = f"return window.__shown.find((s) => s[0] === '{TYPING_NOTICE}')?.[1]"
WARNING = "const w = document.querySelector('miccheck-meter').shadowRoot.querySelector('[part~=warning]'); " \
          "return !!w && !w.hidden && w.textContent"
# The inbound audio energy of each remote feed, by its name (RTCInboundRtpStreamStats.totalAudioEnergy).
ENERGY = """
const done = arguments[arguments.length - 1];
const out = {};
Promise.all((window.feeds || []).filter((f) => f).map(async (f) => {
  const stats = await f.webrtcStuff.pc.getStats();
  stats.forEach((s) => {
    if (s.type === 'inbound-rtp' && s.kind === 'audio') out[f.rfdisplay] = s.totalAudioEnergy || 0;
  });
})).then(() => done(out), (e) => done({ error: String(e) }));
"""


def room_or_skip():
    """The room's microphone files and a private Janus with the page, or a skip that says what is missing."""
    why = missing()
    if why:
        raise unittest.SkipTest(why)
    return room_files(Run.work), Room(Run.work)


class MicrophoneTestBeforeJoiningTests(unittest.TestCase):
    """The microphone test before joining: one page, Started but not in the room."""

    @classmethod
    def setUpClass(cls):
        cls.files, cls.room = room_or_skip()

    @classmethod
    def tearDownClass(cls):
        cls.room.close()

    def test_the_verdict_before_joining(self):
        d = self.room.open("tester", self.files["talker"], join=False)
        js(d, """window.steps = [];
                 window.miccheckJanus.client.addEventListener('microphonetest', (e) => window.steps.push(e.detail));""")
        wait(d, "return Number(document.querySelector('miccheck-meter').shadowRoot.querySelector('[role=meter]')"
                ".getAttribute('aria-valuenow')) > 0.3", 15, what="the meter moving before joining")
        wait(d, "return document.querySelector('miccheck-microphone-test').available === true", 10,
             what="the test offered before joining")
        js(d, "document.querySelector('miccheck-microphone-test').shadowRoot.querySelector('[part~=start]').click()")
        done = wait(d, "return window.steps.find((s) => s.state === 'done' || s.state === 'failed')", 30,
                    what="the microphone test's verdict")
        self.assertEqual(done["state"], "done", done)
        self.assertIn(done["verdict"], ("clear", "too_quiet", "noisy"), done)
        shot(d, "janus-before-joining.png")


class JanusRoomTests(unittest.TestCase):
    """Eight pages in one room. The tests run in order on the same room; the last freezes a page. Eight Chromiums
    overfill this machine: where a test measures time, it stops pages it has done with (Room.only)."""

    @classmethod
    def setUpClass(cls):
        cls.files, cls.room = room_or_skip()
        try:
            cls.room.gather([(name, cls.files[audio]) for name, audio in PEOPLE])
            # Janus's own Mute button, on the page of the one who speaks while muted.
            js(cls.room.pages["muted"], "document.getElementById('mute').click()")
            cls.room.wait_for_everybody()
            # A statement from before the mute holds no longer than this.
            time.sleep(2)
        except Exception:
            cls.room.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.room.close()

    def test_1_every_page_rings_the_speakers_only(self):
        """Every page logs the remote rings: the two speakers ring on all seven other pages, nobody else on any (the
        muted one, the typist, the dead microphone and the quiet room never). The delay from the talker's onset
        (its page's own audio, found on its audio thread) to the ring on the others' pages is measured on one
        clock.

        With all eight running, this machine runs every page seconds late (a WebDriver script has taken 17 s; a
        watch measured 5 rings within 3 s of an onset in 541 s). So the watch has two parts. First, all eight
        running, until the logs of the typist, the dead microphone and two of the quiet room hold both speakers'
        rings (late or not: up to 300 s). Then those four are stopped (Room.only) and the four left run in real
        time for the measured part: once the reader rings on each (they catch up), 12 s, and up to 30 s more until
        the talker's page has seen two onsets and the others' pages seven rings that follow one. A page stopped
        and continued shows the others' statements again only tens of seconds later, so the four stopped are
        those whose rings are not watched again."""
        room = self.room
        rings = {}
        for name in FIRST:
            room.watch_rings(name)
        deadline = time.time() + 300
        while True:
            rings.update({name: room.rings(name) for name in FIRST})
            if all(SPEAKERS <= {who for who, on, _ in rings[name] if on} for name in FIRST) or time.time() > deadline:
                break
            time.sleep(2)
        watched = [name for name, _ in PEOPLE if name not in FIRST]
        with room.only(watched):
            # Each page, having run late, first catches up: the reader, who speaks without a long pause, rings on it.
            for name in watched:
                if name != "reader":
                    room.watch_rings(name)
                    wait(room.pages[name], READER_RINGS, 90, what=f"the reader's ring on {name}'s page")
                room.watch_rings(name)
            room.watch_onsets("talker")
            time.sleep(12)
            # A ring more than 3 s after the onset, or one that stays on from the last sentence, measures nothing.
            deadline = time.time() + 30
            while True:
                onsets = room.onsets("talker")
                rings.update({name: room.rings(name) for name in watched})
                measured = [d for name in watched if name != "talker" for d in delays(onsets, rings[name], "talker")]
                if (len(onsets) >= 2 and len(measured) >= 7) or time.time() > deadline:
                    break
                time.sleep(2)
            room.unwatch_onsets("talker")
            shot(room.pages["quiet1"], "janus-room.png")
        self.assertGreaterEqual(len(onsets), 2, "the talker's onsets (a sentence every 4 s)")
        for name, _ in PEOPLE:
            rang = {who for who, on, _ in rings[name] if on}
            self.assertEqual(rang, SPEAKERS - {name}, f"{name}'s page rang {sorted(rang)}")
        self.assertGreaterEqual(len(measured), 7, measured)
        median, p90 = percentile(measured, 50), percentile(measured, 90)
        print(f"\n  ring delay (talker's onset to the ring on {len(watched) - 1} pages): median {median} ms, p90 {p90} "
              f"ms, {len(measured)} rings", flush=True)
        # The four run nearly in real time here (median 467 ms, p90 640 ms on 2026-12-03); the bound leaves room
        # for a loaded CI machine.
        self.assertLess(median, 4000, measured)
        if Run.figures:
            with open(Run.figures, "a") as f:
                f.write(f"janus room of 8: ring delay median {median} ms, p90 {p90} ms ({len(measured)} rings)\n")

    def test_2_the_muted_speaker_sees_the_notice_and_nobody_hears_them(self):
        room = self.room
        shown = wait(room.pages["muted"], NOTICE_SHOWN, 20, what="\"You are muted.\" on the muted page")
        self.assertIn(MUTED, shown)
        self.assertTrue(js(room.pages["muted"], "return window.miccheckJanus.client.muted"))
        self.assertFalse(js(room.pages["muted"], "return window.miccheckJanus.track.enabled"),
                         "Janus's own mute disabled the track it sends")
        listener = room.pages["quiet1"]
        before = listener.execute_async_script(ENERGY)
        time.sleep(4)
        after = listener.execute_async_script(ENERGY)
        heard = {k: after[k] - before.get(k, 0) for k in after}
        self.assertGreater(heard["talker"], 1e-4, heard)
        self.assertLess(heard["muted"], heard["talker"] / 1000, heard)
        for name in ("talker", "quiet1", "typist", "dead"):
            self.assertEqual(room.shown(name, MUTED_NOTICE), [], f"no muted notice on {name}'s page")

    def test_3_the_typist_sees_the_typing_notice(self):
        shown = wait(self.room.pages["typist"], TYPING_SHOWN, 30, what="the typing notice on the typist's page")
        self.assertIn("Your typing can be heard.", shown)
        for name in ("quiet2", "talker", "dead"):
            self.assertEqual(self.room.shown(name, TYPING_NOTICE), [], f"no typing notice on {name}'s page")

    def test_4_the_dead_microphone_is_not_working(self):
        said = wait(self.room.pages["dead"], WARNING, 20, what="\"not working\" on the dead microphone's page")
        self.assertIn(NOT_WORKING, said)
        # quiet1: a quiet room whose page was never stopped (test 1 stops quiet3's).
        for name in ("talker", "quiet1"):
            self.assertFalse(js(self.room.pages[name], WARNING), f"{name}'s microphone works")

    def test_5_a_frozen_page_stops_speaking_on_the_others_within_3_s(self):
        """The reader speaks without a long pause; while it rings on another page its Chromium is stopped (SIGSTOP).
        5 s later it rings on none of the others (each page's log of its ring: the last change for the reader is
        "off"), and on each page where it rang at the stop, the ring went within 3 s of the stop, less what the
        machine made the page lose: how late its event loop ran when the ring went, and how late the fastest of
        the reader's recent statements reached its code (the SDK cannot tell a page's own lateness from a late
        statement's age). Four pages that only listen (the typist, the dead microphone, two of the quiet room) are
        stopped for the test (Room.only): on CI's loaded run with all eight running the reader rang on none of the
        seven in 100 s, so there was no ring to watch go."""
        room = self.room
        others = ["talker", "muted", "quiet1"]
        with room.only(["reader", *others]):
            for name in others:
                room.watch_rings(name)
                room.watch_lateness(name)
                room.watch_statements(name)
            try:
                # The stop comes while the reader rings on one page (asked one page at a time, which is quick), and
                # again if by then it rang on none.
                for attempt in range(3):
                    went = self.freeze_while_ringing(room, others)
                    if went:
                        break
                    print(f"\n  the reader rang on none of the pages at the stop (attempt {attempt + 1})", end="")
            finally:
                for name in others:
                    room.unwatch_lateness(name)
        print("\n  the frozen reader's ring went, ms after the stop (the page's event loop late by, its fastest "
              f"statement late by): {sorted(went.values())}", flush=True)
        self.assertTrue(went, "the reader rang on none of the pages at the stop, three times")
        for name, (after, late, lag) in went.items():
            self.assertLess(after - late - lag, 3000, f"{name}: the ring went {after} ms after the stop, its page "
                                                      f"{late} ms late, the fastest statement {lag} ms")

    def freeze_while_ringing(self, room, others):
        """Stops the reader while it rings on one of `others`' pages, waits 5 s, asserts that it rings on none, and
        lets it go on. Returns, for each page where it rang at the stop: when its ring went (ms after the stop), how
        late the page's event loop ran then (the most within 250 ms of it), and the least lag (arrival − at) of the
        last 32 statements the page heard from the reader, which is what the SDK learns of the reader's clock."""
        start = time.time()
        asked = 0
        # One page asked at a time, in turn: the stop follows the answer that it rings there.
        while not room.ringing(others[asked % len(others)], "reader"):
            asked += 1
            self.assertLess(time.time() - start, 120, f"the reader rang on none of {others}'s pages in 120 s "
                                                      f"({asked} asked)")
            time.sleep(0.1)
        frozen = room.freeze("reader")
        try:
            time.sleep(5)
            went = {}
            for name in others:
                changes = [(on, t - frozen) for who, on, t in room.rings(name) if who == "reader"]
                on, after = changes[-1] if changes else (False, 0)
                self.assertFalse(on, f"the frozen reader still rings on {name}'s page")
                before = [on for on, t in changes if t < 0]
                if before and before[-1]:
                    off = frozen + after
                    # As the SDK learns it: the least lag of the last 32 statements heard (LAGS in statements.js).
                    lags = [arrived - at for at, arrived in room.statements(name, "reader")][-32:]
                    went[name] = (round(after), round(room.lateness(name, off - 250, off + 250)),
                                  round(max(0, min(lags, default=0))))
                    # MICCHECK_JANUS_DEBUG=1: what each page heard and rang around the stop, and when it ran late.
                    if os.environ.get("MICCHECK_JANUS_DEBUG"):
                        said = [(round(at - frozen), round(arrived - frozen))
                                for at, arrived in room.statements(name, "reader")][-8:]
                        rang = [(on, round(t)) for on, t in changes if t > -3000]
                        late = [(round(t - frozen), round(x)) for t, x in room.late_log(name)
                                if -500 < t - frozen < after + 500 and x > 100]
                        print(f"\n  {name}: statements (at, arrived) {said}; rings {rang}; late {late}", end="")
            return went
        finally:
            room.freeze("reader", on=False)


def reloaded(d, name, seconds=20):
    """Waits for the page to have reloaded (a script run mid-navigation may fail: it is tried again)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if js(d, "return !window.__beforeReload && document.readyState === 'complete'"):
                return
        except WebDriverException:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{name}'s page did not reload within {seconds} s")


class JanusRestartTests(unittest.TestCase):
    """Janus restarts mid-call: its page reloads, as Janus's own page does (its alert, then a reload), and the
    person who was muted is muted again, with "You are muted." when they speak."""

    def test_a_restart_keeps_the_mute_and_the_notice(self):
        files, room = room_or_skip()
        try:
            ada = room.open("ada", files["talker"])
            bob = room.open("bob", files["quiet"])
            wait(bob, "return (window.feeds || []).some((f) => f && f.rfdisplay === 'ada')", 30,
                 what="ada on bob's page")
            js(ada, "document.getElementById('mute').click()")
            wait(ada, NOTICE_SHOWN, 20, what="\"You are muted.\" before the restart")
            room.restart_janus()
            for name, d in (("ada", ada), ("bob", bob)):
                wait(d, "return !!document.querySelector('.bootbox')", 60, what=f"Janus's alert on {name}'s page")
                js(d, "window.__beforeReload = true; document.querySelector('.bootbox button').click()")
                reloaded(d, name)
                room.start(name, load=False)
                room.join(name)
            wait(ada, "return window.miccheckJanus.client.muted && !window.miccheckJanus.track.enabled", 10,
                 what="ada muted again after the reload")
            self.assertEqual(js(ada, "return document.getElementById('mute').textContent"), "Unmute")
            shown = wait(ada, NOTICE_SHOWN, 20, what="\"You are muted.\" after the restart")
            self.assertIn(MUTED, shown)
            wait(bob, "return (window.feeds || []).some((f) => f && f.rfdisplay === 'ada')", 30,
                 what="ada on bob's page after the restart")
            room.watch_rings("bob")
            time.sleep(5)
            self.assertEqual([r for r in room.rings("bob") if r[1]], [], "the muted ada rang on bob's page")
        finally:
            room.close()
