"""The embedding example (Examples/web-embed) in headless Chromium: a page on another origin, served by a
plain static server, imports the client and the components from `miccheck serve` (allowed with
--allow-origin), gives the client a MediaStream it opened itself, shows the stock lobby with its own tile in
place of MicCheck's (and nothing else replaced), and its own muted toast."""
import functools
import http.server
import os
import threading
import unittest

from harness import LOBBY, METER, ROOT, Run, browser, click, js, open_page, q, serve, shot, stop, text, wait

EXAMPLE = os.path.join(ROOT, "Examples", "web-embed")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class EmbedTests(unittest.TestCase):
    def setUp(self):
        handler = functools.partial(Quiet, directory=EXAMPLE)
        self.static = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.static.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.static.server_address[1]}"
        self.server, self.base = serve("--allow-origin", self.origin)

    def tearDown(self):
        self.static.shutdown()
        self.static.server_close()
        stop(self.server)

    def test_embedded_on_another_origin(self):
        app, own = browser(Run.speech), browser(Run.speech)
        try:
            app.get(f"{self.origin}/?server={self.base}&call=acme")
            wait(app, "return window.acme && window.acme.client.state === 'open'", 15, what="the client connected")
            self.assertEqual(text(app, f"{LOBBY} >> h1"), "Before Joining")
            # One method of the factory replaced: the tile is Acme's, the meter and the strip MicCheck's.
            self.assertTrue(q(app, f"{LOBBY} acme-tile"), "Acme's tile in the lobby's preview")
            self.assertIsNone(q(app, f"{LOBBY} miccheck-participant-tile"))
            self.assertTrue(q(app, METER) and q(app, f"{LOBBY} miccheck-participants-strip"))
            wait(app, f"return Number(q('{METER} >> [role=meter]').getAttribute('aria-valuenow')) > 0.3", 10,
                 what="the meter moving with the app's own stream")
            # A stream without audio is refused with a clear error.
            error = app.execute_async_script("""
                const [server, done] = arguments;
                import(server + '/sdk/miccheck.js').then(async ({MicCheckClient}) => {
                  const video = await navigator.mediaDevices.getUserMedia({video: true});
                  try { await new MicCheckClient({server, call: 'x', stream: video}).start(); done(null); }
                  catch (e) { done([e.name, e.code, e.message]); }
                }).catch((e) => done(['import', String(e)]));""", self.base)
            self.assertEqual(error[:2], ["MicCheckError", "no-audio-track"])
            self.assertIn("audio track", error[2])
            shot(app, "embed-lobby.png")
            # In the call with MicCheck's own page: two of Acme's tiles, the other one speaking.
            click(app, f"{LOBBY} >> [part~=join]")
            open_page(own, "acme", "Olive", base=self.base)
            click(own, f"{LOBBY} >> [part~=join]")
            wait(app, "return document.querySelectorAll('#grid miccheck-call-grid > acme-tile').length === 2", 10,
                 what="two of Acme's tiles in the call")
            wait(app, "return !!document.querySelector('#grid acme-tile[speaking]')", 15,
                 what="the other participant speaking, on Acme's tile")
            self.assertTrue(js(app, "return document.querySelector('#grid acme-tile') instanceof customElements.get('acme-tile')"))
            self.assertIsNone(q(app, "miccheck-call-grid > miccheck-participant-tile"))
            # Muted while speaking: Acme's toast, not MicCheck's notice.
            js(app, "document.getElementById('mute').click()")
            wait(app, "const t = document.getElementById('acme-toast'); return !t.hidden && t.textContent", 12,
                 what="Acme's muted toast")
            self.assertIn("You are muted.", text(app, "#acme-toast"))
            self.assertIsNone(q(app, "miccheck-muted-notice"))
            shot(app, "embed-call.png")
        finally:
            app.quit()
            own.quit()
