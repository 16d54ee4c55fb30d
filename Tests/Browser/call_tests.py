"""Calls with invitations and across nodes, in headless Chromium: a listener's page cannot turn on what its
role forbids, nor send media behind the page's back; a refused invitation says why once; a listener who joins
late receives; one call spans two `miccheck serve` nodes sharing presence through PostgreSQL."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

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


class InvitationTests(unittest.TestCase):
    def test_5_invitations_in_the_page(self):
        server, link = invited_call("town-hall")
        d = browser(Run.speech)
        try:
            d.get(link("Lin Listener", "listener"))
            wait(d, f"const b = q('{LOBBY} >> [part~=toggle-audio]'); return b && b.disabled",
                 what="the listener's microphone toggle")
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
