"""Calls with invitations and across nodes, in headless Chromium: a listener's page cannot turn on what its
role forbids, nor send media behind the page's back, nor slip a sending description past the server in a form
Chromium reads as sending; a refused invitation says why once; a listener who joins late receives; one call
spans two `miccheck serve` nodes sharing presence through PostgreSQL."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from urllib.parse import parse_qs, urlparse

from harness import (LOBBY, ROOT, TILES, Run, browser, click, free_port, js, q, serve, shot, stop, wait)

SECRET = "s" * 40
COUNT = f"{LOBBY} miccheck-participants-strip >> [part~=count]"
ONE_MORE = f"return q('{COUNT}') && q('{COUNT}').textContent === 'There is 1 more person in the call.'"
REMOTE_VIDEO = f"""const t = q('{TILES}:not([data-self])', true);
  return t.length === 1 && t[0].dataset.video === 'true' && q('{TILES}:not([data-self]) >> video').videoWidth > 0"""


def invited_call(call):
    """A server of its own with invitations on, and a function giving a participant's link to `call`."""
    env = dict(os.environ, MICCHECK_TOKEN_SECRET=SECRET)
    server, base = serve(env=env)

    def link(name, role, *extra):
        token = subprocess.run([Run.binary, "token", "--call", call, "--name", name, "--role", role, *extra],
                               env=env, check=True, capture_output=True, text=True).stdout.strip()
        return f"{base}/?call={call}&token={token}&audio_processing=off"
    return server, link


def peer_receiving(host_id, kind="video"):
    return f"""const p = window.miccheck.peers.get({json.dumps(host_id)});
        return p && p.pc.connectionState === 'connected'
          && p.received.getTracks().some((t) => t.kind === '{kind}' && !t.muted)"""


def with_direction(sdp, line):
    """`sdp` (one m=audio section that says a=sendrecv) with that line replaced by `line`."""
    head, audio = sdp.split("m=audio", 1)
    assert "a=sendrecv\r\n" in audio
    return head + "m=audio" + audio.replace("a=sendrecv\r\n", line + "\r\n", 1)


def session_level_recvonly(sdp):
    """No direction in the m=audio section, and a session-level a=recvonly before it."""
    head, audio = sdp.split("m=audio", 1)
    return head + "a=recvonly\r\nm=audio" + audio.replace("a=sendrecv\r\n", "", 1)


# Spec 59 item 1's five variants of a listener's offer, and the server's reason for each.
SDP_VARIANTS = {
    "a=inactive and a TAB": lambda s: with_direction(s, "a=inactive\t"),
    "a=inactive, then a=sendrecv:x": lambda s: with_direction(s, "a=inactive\r\na=sendrecv:x"),
    "a=x-foo CR a=inactive on one line": lambda s: with_direction(s, "a=x-foo\ra=inactive"),
    "a=x-foo U+2028 a=inactive": lambda s: with_direction(s, "a=x-foo\u2028a=inactive"),
    "a session-level a=recvonly": session_level_recvonly,
}
CONTROL = "a description's sdp may hold only printable ASCII, in lines that end in LF or CR LF"
SDP_REFUSALS = {
    "a=inactive and a TAB": CONTROL,
    "a=inactive, then a=sendrecv:x": "this participant may not send audio: its description's m=audio section sends",
    "a=x-foo CR a=inactive on one line": CONTROL,
    "a=x-foo U+2028 a=inactive": CONTROL,
    "a session-level a=recvonly": "this participant may not send audio: its description's m=audio section does not "
                                  "say recvonly or inactive",
}

# The page's microphone on an RTCPeerConnection: its offer (sendrecv audio).
MICROPHONE_OFFER = """
const done = arguments[0];
(async () => {
  const mic = await navigator.mediaDevices.getUserMedia({audio: true});
  const pc = new RTCPeerConnection();
  pc.addTrack(mic.getAudioTracks()[0], mic);
  const offer = await pc.createOffer();
  pc.close();
  mic.getTracks().forEach((t) => t.stop());
  done(offer.sdp);
})().catch((e) => done('failed: ' + e));"""

# What Chromium makes of an offer: whether the remote sends audio (a `track` event; the answer receives).
CHROMIUM_READING = """
const [sdp, done] = arguments;
(async () => {
  const pc = new RTCPeerConnection();
  const kinds = [];
  pc.addEventListener('track', (e) => kinds.push(e.track.kind));
  try {
    await pc.setRemoteDescription({type: 'offer', sdp});
  } catch (e) {
    pc.close();
    return done({error: String(e)});
  }
  await new Promise((r) => setTimeout(r, 50));
  const answer = await pc.createAnswer();
  const m = /m=audio[^]*?a=(sendrecv|sendonly|recvonly|inactive)\\r\\n/.exec(answer.sdp);
  pc.close();
  done({track: kinds.includes('audio'), answer: m ? m[1] : null});
})().catch((e) => done({error: String(e)}));"""

# An honest listener's offer: receive-only audio and video, as the page makes it.
RECEIVE_ONLY_OFFER = """
const done = arguments[0];
(async () => {
  const pc = new RTCPeerConnection();
  pc.addTransceiver('audio', {direction: 'recvonly'});
  pc.addTransceiver('video', {direction: 'recvonly'});
  const offer = await pc.createOffer();
  pc.close();
  done(offer.sdp);
})().catch((e) => done('failed: ' + e));"""

# A host joins the call on a WebSocket of the page's own; then for each offer a listener connects, joins and
# sends it to the host: how its connection ended (null: still open 2 s later) and whether the host got it.
LISTENER_OFFERS = """
const [call, hostToken, listenerToken, offers, done] = arguments;
const until = async (test, ms) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    const v = test();
    if (v) return v;
  }
  return null;
};
const connect = (token) => new Promise((resolve, reject) => {
  const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/v1/call?call=${call}&token=${token}`);
  const c = {ws, messages: [], closed: null};
  ws.onmessage = (e) => { if (typeof e.data === 'string') c.messages.push(JSON.parse(e.data)); };
  ws.onclose = (e) => { c.closed = {code: e.code, reason: e.reason}; reject(new Error('closed: ' + e.reason)); };
  ws.onopen = () => resolve(c);
});
const inCall = async (c, name) => {
  const id = (await until(() => c.messages.find((m) => m.type === 'welcome'), 5000) || {}).id;
  if (!id) throw new Error('no welcome');
  c.ws.send(JSON.stringify({type: 'join', name}));
  const joined = await until(() => c.messages.some((m) => (m.type === 'joined' && m.participant.id === id)
    || (m.type === 'presence' && m.participants.some((p) => p.id === id))), 5000);
  if (!joined) throw new Error(name + ' did not join: ' + JSON.stringify(c.messages));
  return id;
};
(async () => {
  const host = await connect(hostToken);
  const hostId = await inCall(host, 'Hal Host');
  const alive = setInterval(() => host.ws.send('{"type":"keep_alive"}'), 3000);
  const out = [];
  for (const sdp of offers) {
    const l = await connect(listenerToken);
    l.ws.onclose = (e) => { l.closed = {code: e.code, reason: e.reason}; };
    const id = await inCall(l, 'Lin Listener');
    l.ws.send(JSON.stringify({type: 'signal', to: hostId, data: {description: {type: 'offer', sdp}}}));
    await until(() => l.closed, 2000);
    const delivered = host.messages.some((m) => m.type === 'signal' && m.from === id);
    out.push({closed: l.closed, delivered});
    if (!l.closed) l.ws.close(1000);
  }
  clearInterval(alive);
  host.ws.close(1000);
  done(out);
})().catch((e) => done({error: String(e)}));"""


class InvitationTests(unittest.TestCase):
    def test_5_invitations_in_the_page(self):
        server, link = invited_call("town-hall")
        d = browser(Run.speech)
        try:
            # Counts what the page asks of the devices: a listener's page asks nothing.
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
                window.__asked = [];
                const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
                navigator.mediaDevices.getUserMedia = (c) => { window.__asked.push(Object.keys(c)); return open(c); };"""})
            d.get(link("Lin Listener", "listener"))
            wait(d, f"const b = q('{LOBBY} >> [part~=toggle-audio]'); return b && b.disabled && "
                    "!!window.miccheck.client.me", what="the listener's microphone toggle")
            self.assertEqual(js(d, "return window.__asked"), [], "a listener's page opens no microphone or camera")
            self.assertIsNone(js(d, "return window.miccheck.client.stream"))
            self.assertIsNone(js(d, "return window.miccheck.devices.camera"))
            self.assertFalse(q(d, f"{LOBBY} miccheck-microphone-test").is_displayed(),
                             "no \"Test your microphone\" for a listener")
            self.assertTrue(q(d, f"{LOBBY} >> [part~=toggle-video]").get_attribute("disabled"))
            self.assertEqual(q(d, f"{LOBBY} >> [part~=toggle-audio]").get_attribute("aria-pressed"), "false")
            self.assertEqual(q(d, f"{LOBBY} >> [part~=name]").get_attribute("value"), "Lin Listener")
            js(d, f"q('{LOBBY} >> [part~=toggle-audio]').click()")  # disabled: nothing happens
            self.assertEqual(q(d, f"{LOBBY} >> [part~=toggle-audio]").get_attribute("aria-pressed"), "false")
            shot(d, "serve-listener.png")
            d.get(link("Ada", "speaker", "--expires-in", "1"))
            time.sleep(1.2)
            d.refresh()
            shown = wait(d, f"const s = q('{LOBBY} >> [part~=status]'); "
                            "return s && s.textContent.includes('This invitation cannot be used') && s.textContent",
                         what="the expired invitation's reason")
            self.assertIn("expired", shown)
            self.assertTrue(q(d, f"{LOBBY} >> [part~=join]").get_attribute("disabled"))
            shot(d, "serve-invitation-refused.png")
        finally:
            d.quit()
            stop(server)

    def test_7_listener_cannot_send_media(self):
        """A listener's page that takes the microphone anyway, adds it to its peer connection and sends the
        renegotiated offer itself (the page's own code would not) is closed by the server with 1008, and the
        host never receives audio from it: no `track` event of kind audio fires in the host's page (an init
        script records them) and no connection of the host counts inbound audio bytes."""
        server, link = invited_call("stage")
        listener, host = browser(Run.speech), browser(Run.speech)
        try:
            host.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
                const Native = window.RTCPeerConnection;
                window.__pcs = []; window.__tracks = [];
                window.RTCPeerConnection = function (...args) {
                  const pc = new Native(...args);
                  window.__pcs.push(pc);
                  pc.addEventListener('track', (e) => { if (!e.track.muted) window.__tracks.push(e.track.kind);
                    e.track.addEventListener('unmute', () => window.__tracks.push(e.track.kind)); });
                  return pc;
                };
                window.RTCPeerConnection.prototype = Native.prototype;"""})
            listener.get(link("Lin Listener", "listener"))
            wait(listener, f"const b = q('{LOBBY} >> [part~=toggle-audio]'); return b && b.disabled && "
                           "window.miccheck.client.state === 'open'", what="the listener's lobby")
            click(listener, f"{LOBBY} >> [part~=join]")
            host.get(link("Hal Host", "host"))
            wait(host, ONE_MORE, what="the host's lobby")
            click(host, f"{LOBBY} >> [part~=join]")
            host_id = wait(host, "return window.miccheck.me")
            wait(listener, peer_receiving(host_id), 20, what="the host's video at the listener")
            sdp = listener.execute_async_script("""
                const done = arguments[0], page = window.miccheck;
                page.client.addEventListener('connection', (e) => { window.__closed = e.detail; });
                (async () => {
                  const mic = await navigator.mediaDevices.getUserMedia({audio: true});
                  let sdp = '';
                  for (const [id, p] of page.peers) {
                    p.pc.addTrack(mic.getAudioTracks()[0], mic);
                    await p.pc.setLocalDescription(await p.pc.createOffer());
                    sdp = p.pc.localDescription.sdp;
                    page.client.signal(id, {description: {type: p.pc.localDescription.type, sdp}});
                  }
                  done(sdp);
                })().catch((e) => done('failed: ' + e));""")
            self.assertRegex(sdp, r"m=audio [^\r\n]*\r?\n(?:(?!m=)[^\r\n]*\r?\n)*a=sendrecv", "an offer that sends audio")
            closed = wait(listener, "return window.__closed && window.__closed.code && window.__closed",
                          what="the listener's connection closed by the server")
            self.assertEqual(closed["code"], 1008)
            self.assertTrue(closed["message"].startswith(
                "Disconnected from the server: this participant may not send audio: its description's m=audio "
                "section sends."), closed["message"])
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
            self.assertNotIn("audio", received["tracks"], "the host received no live audio track")
            self.assertEqual(received["bytes"], 0, "nor any audio bytes")
        finally:
            listener.quit()
            host.quit()
            stop(server)

    def test_7b_listener_descriptions_chromium_reads_as_sending(self):
        """Spec 59 item 1: five ways to write a listener's offer so that a check reading it differently from
        libwebrtc would let audio through. (a) Chromium's own reading: a page's offer with its microphone
        (sendrecv) rewritten into each variant and given to a second RTCPeerConnection, which says whether the
        remote sends audio (a `track` event, and an answer that receives: `a=recvonly`, where a remote that does
        not send is answered `a=inactive`). (b) The server: a listener's connection that sends it as its offer
        to a host in the call is closed with 1008 and the reason, and the host gets nothing. The honest forms,
        Chromium's own offer with receive-only transceivers and a section that says `a=inactive`, go through."""
        server, link = invited_call("sdp")
        d = browser(Run.speech)
        try:
            d.set_script_timeout(120)
            d.get(link("Lin Listener", "listener"))
            wait(d, "return window.miccheck && window.miccheck.client.state === 'open'", what="the page")
            d.execute_script("window.miccheck.client.close();")  # the page's own connection plays no part
            offer = d.execute_async_script(MICROPHONE_OFFER)
            self.assertNotIn("failed", offer)
            self.assertEqual(offer.count("\nm="), 1, "one m= section, audio")
            self.assertIn("a=sendrecv\r\n", offer)
            forms = {name: make(offer) for name, make in SDP_VARIANTS.items()}
            forms["honest: a=inactive"] = with_direction(offer, "a=inactive")
            readings = {name: d.execute_async_script(CHROMIUM_READING, sdp) for name, sdp in forms.items()}
            readings["unchanged: a=sendrecv"] = d.execute_async_script(CHROMIUM_READING, offer)
            for name, r in readings.items():
                print(f"\n  Chromium reads {name!r}: {json.dumps(r)}", file=sys.stderr, end="")
            print(file=sys.stderr)
            self.assertEqual(readings["unchanged: a=sendrecv"], {"track": True, "answer": "recvonly"},
                             "the reading: an offer that sends audio")
            self.assertEqual(readings["honest: a=inactive"], {"track": False, "answer": "inactive"},
                             "the reading: an offer that does not")
            for name in SDP_VARIANTS:
                self.assertEqual(readings[name], {"track": True, "answer": "recvonly"},
                                 f"Chromium reads {name!r} as sending audio")

            tokens = {role: parse_qs(urlparse(link(f"{role} of sdp", role)).query)["token"][0]
                      for role in ("host", "listener")}
            honest = d.execute_async_script(RECEIVE_ONLY_OFFER)
            self.assertRegex(honest, r"m=audio")
            self.assertNotRegex(honest, r"a=send(recv|only)")
            sent = list(forms.items()) + [("honest: Chromium's receive-only offer", honest)]
            answers = d.execute_async_script(LISTENER_OFFERS, "sdp", tokens["host"], tokens["listener"],
                                             [sdp for _, sdp in sent])
            self.assertNotIn("error", answers, answers)
            answered = dict(zip([name for name, _ in sent], answers))
            for name, a in answered.items():
                print(f"  the server answers {name!r}: {json.dumps(a)}", file=sys.stderr)
            for name, reason in SDP_REFUSALS.items():
                self.assertEqual(answered[name]["closed"], {"code": 1008, "reason": reason}, name)
                self.assertFalse(answered[name]["delivered"], f"{name}: the host got nothing")
            for name in ("honest: a=inactive", "honest: Chromium's receive-only offer"):
                self.assertIsNone(answered[name]["closed"], f"{name}: the listener stays connected")
                self.assertTrue(answered[name]["delivered"], f"{name}: the host got the offer")
            if Run.figures:
                with open(Run.figures, "a") as f:
                    for name in SDP_VARIANTS:
                        f.write(f"listener offer {name}: Chromium reads {json.dumps(readings[name])}; "
                                f"the server: {json.dumps(answered[name]['closed'])}\n")
        finally:
            d.quit()
            stop(server)

    def test_7c_an_expiring_invitation_renewed_by_the_client(self):
        """Spec 59 item 3 from the SDK's side: the server closes a connection at its token's expiry with 4401.
        A client whose `token` is a function asks it for a new one, reconnects and is in the call again under
        a new id; a client given the same short token as a string shows the refusal, once, and stays out."""
        server, link = invited_call("renew")
        d = browser(Run.speech)
        try:
            d.get(link("Lin Listener", "listener"))
            wait(d, "return window.miccheck && window.miccheck.client.state === 'open'", what="the page")
            d.execute_script("window.miccheck.client.close();")

            def token(name, seconds):
                return parse_qs(urlparse(link(name, "speaker", "--expires-in", str(seconds))).query)["token"][0]
            short, renewed, fixed = token("Ada", 6), token("Ada", 600), token("Bob", 6)
            started = d.execute_async_script("""
                const [short, renewed, fixed, done] = arguments;
                import('/sdk/miccheck.js').then(async ({MicCheckClient}) => {
                  const given = [short, renewed];
                  window.__asked = 0;
                  const make = (token) => {
                    const c = new MicCheckClient({call: 'renew', token, microphone: {processing: false}});
                    c.states = [];
                    c.ids = [];
                    c.addEventListener('connection', (e) => c.states.push(e.detail));
                    c.addEventListener('presence', () => {
                      if (c.me && c.participants.has(c.me) && c.ids.at(-1) !== c.me) c.ids.push(c.me);
                    });
                    return c;
                  };
                  window.__renewing = make(async () => { window.__asked += 1; return given.shift(); });
                  window.__fixed = make(fixed);
                  for (const c of [window.__renewing, window.__fixed]) {
                    await c.start();
                    c.join(c === window.__fixed ? 'Bob' : 'Ada');
                  }
                  done('started');
                }).catch((e) => done('failed: ' + e));""", short, renewed, fixed)
            self.assertEqual(started, "started")
            ids = wait(d, "const c = window.__renewing; return c.ids.length === 2 && c.state === 'open' && c.ids", 20,
                       what="the renewing client in the call again")
            self.assertNotEqual(ids[0], ids[1], "a new connection, a new id")
            renewing = js(d, "return {states: window.__renewing.states, asked: window.__asked, "
                             "joined: window.__renewing.joined};")
            self.assertEqual(renewing["asked"], 2, "a token for each connection")
            self.assertTrue(renewing["joined"])
            expired = [s for s in renewing["states"] if s.get("code") == 4401]
            self.assertEqual(len(expired), 1, renewing["states"])
            self.assertEqual(expired[0]["state"], "reconnecting")
            self.assertTrue(expired[0]["message"].startswith(
                "Disconnected from the server: the invitation expired; reconnect with a new one. Reconnecting in"),
                expired[0]["message"])
            self.assertNotIn("refused", [s["state"] for s in renewing["states"]])
            fixed_states = wait(d, "const c = window.__fixed; return c.state === 'refused' && c.states", 10,
                                what="the refusal of the string token's client")
            self.assertEqual([s for s in fixed_states if s["state"] == "refused"], [{
                "state": "refused", "code": 4401,
                "message": "This invitation cannot be used: the invitation expired; reconnect with a new one. "
                           "Ask for a new link."}])
            time.sleep(2)
            self.assertEqual(js(d, "return window.__fixed.states.filter((s) => s.state === 'refused').length"), 1,
                             "said once, not retried")
            js(d, "window.__renewing.close(); window.__fixed.close();")
        finally:
            d.quit()
            stop(server)

    def test_8_listener_joining_after_the_host_receives(self):
        """A listener who joins after the host offers receive-only audio and video: the host's answer sends
        both and the listener sees the host's video."""
        server, link = invited_call("late")
        host, listener = browser(Run.speech), browser(Run.speech)
        try:
            host.get(link("Hal Host", "host"))
            wait(host, "return window.miccheck.client.state === 'open' && window.miccheck.devices.camera",
                 what="the host's camera")
            click(host, f"{LOBBY} >> [part~=join]")
            host_id = wait(host, "return window.miccheck.me")
            listener.get(link("Lin Listener", "listener"))
            wait(listener, ONE_MORE, what="the listener's lobby")
            click(listener, f"{LOBBY} >> [part~=join]")
            offered = wait(listener, f"""const p = window.miccheck.peers.get({json.dumps(host_id)});
                                         return p && p.pc.localDescription && p.pc.localDescription.sdp""",
                           what="the listener's offer")
            self.assertNotRegex(offered, r"a=send(recv|only)", "the listener's offer sends nothing")
            self.assertIn("m=video", offered)
            wait(listener, peer_receiving(host_id), 20, what="the host's video at the listener")
        finally:
            listener.quit()
            host.quit()
            stop(server)


class TwoNodeTests(unittest.TestCase):
    def test_6_one_call_across_two_nodes(self):
        """Each browser on its own node sees the other join, their video over WebRTC (signalled across the
        nodes), their speaking ring and their leaving."""
        pg = tempfile.mkdtemp(prefix="miccheck-browser-pg-")  # not under Run.work: the cluster runs as postgres
        script = os.path.join(ROOT, "scripts", "postgres-server.sh")
        subprocess.run(["bash", script, "start", pg, str(free_port())], check=True)
        url = subprocess.run(["bash", script, "url", pg], check=True, capture_output=True, text=True).stdout.strip()
        nodes, bases = [], []
        a = b = None
        try:
            for _ in range(2):
                node, base = serve("--presence", url)
                nodes.append(node)
                bases.append(base)
            a, b = browser(Run.speech), browser(Run.speech)
            a.get(f"{bases[0]}/?call=across&name=Ada&audio_processing=off")
            b.get(f"{bases[1]}/?call=across&name=Bob&audio_processing=off")
            for d in (a, b):
                wait(d, "return window.miccheck && window.miccheck.client.state === 'open'", what="the lobby")
            click(a, f"{LOBBY} >> [part~=join]")
            wait(b, ONE_MORE, what="the lobby's count, from the other node")
            click(b, f"{LOBBY} >> [part~=toggle-audio]")  # Bob listens: the ring on his screen is Ada's
            click(b, f"{LOBBY} >> [part~=join]")
            for d in (a, b):
                wait(d, REMOTE_VIDEO, 20, what="the other node's video over WebRTC")
            wait(b, f"return !!q('{TILES}[speaking]')", 15, what="Ada speaking, seen on the other node")
            shot(b, "serve-two-nodes.png")
            click(a, "miccheck-call-controls >> [part~=leave]")
            wait(b, f"return q('{TILES}', true).length === 1 && !q('{TILES}[speaking]')",
                 what="Ada gone from the other node's call")
        finally:
            for d in (a, b):
                if d:
                    d.quit()
            for node in nodes:
                stop(node)
            subprocess.run(["bash", script, "stop", pg])
            shutil.rmtree(pg, ignore_errors=True)
