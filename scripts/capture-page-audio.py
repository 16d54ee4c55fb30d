#!/usr/bin/env python3
"""Records what a browser page sends to `miccheck serve`: a relay in front of a running server that serves the
pages from a folder and passes each WebSocket (/v1/call, /v1/vad) through to the server, writing the page's
binary PCM (16 kHz, 16-bit, mono) to one WAV file per connection and the server's answers, with the time since
the connection opened, to a JSON Lines file beside it. Used to see what the browser's audio processing
(echoCancellation, noiseSuppression, autoGainControl) makes of a fake microphone's file.

    miccheck serve --port 8080 &
    python scripts/capture-page-audio.py --upstream 127.0.0.1:8080 --port 8090 --out /tmp/capture
    chromium ... 'http://127.0.0.1:8090/?call=x&name=T'    # then /tmp/capture/001-v1-call.wav, .jsonl

Needs `websockets` (the security tests' venv has it: .build/security-venv). Pages come from --web (the
package's Web by default); the pages' other requests (/v1/calls/ID) are
passed to the server over HTTP.
"""
import argparse
import asyncio
import itertools
import json
import mimetypes
import os
import time
import urllib.error
import urllib.request
import wave

import websockets
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "Web")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", required=True, help="the running server, HOST:PORT")
    parser.add_argument("--port", type=int, default=8090, help="where the relay listens (127.0.0.1)")
    parser.add_argument("--out", default="capture", help="folder for the WAV and JSON Lines files")
    parser.add_argument("--web", default=WEB, help="folder of the pages")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    asyncio.run(relay(args))


async def relay(args):
    numbers = itertools.count(1)

    def page(connection, request):
        path = request.path.split("?", 1)[0]
        if path.startswith("/v1/") and request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        if path.startswith("/v1/"):
            return passed(args.upstream, request)
        file = os.path.normpath(os.path.join(args.web, path.lstrip("/")))
        if os.path.isdir(file):
            file = os.path.join(file, "index.html")
        if not file.startswith(os.path.abspath(args.web)) or not os.path.isfile(file):
            return connection.respond(404, "not found\n")
        with open(file, "rb") as f:
            body = f.read()
        kind = mimetypes.guess_type(file)[0] or "application/octet-stream"
        if file.endswith((".js", ".mjs")):
            kind = "text/javascript"
        headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body))), ("Cache-Control", "no-cache")])
        return Response(200, "OK", headers, body)

    async def handler(page_socket):
        number = next(numbers)
        path = page_socket.request.path
        name = f"{number:03d}-{path.split('?', 1)[0].strip('/').replace('/', '-')}"
        opened = time.monotonic()
        audio = wave.open(os.path.join(args.out, name + ".wav"), "wb")
        audio.setnchannels(1)
        audio.setsampwidth(2)
        audio.setframerate(16000)
        log = open(os.path.join(args.out, name + ".jsonl"), "w")
        print(f"{name}: {path}", flush=True)
        try:
            async with connect(f"ws://{args.upstream}{path}", max_size=1 << 22) as server:
                async def down():
                    async for message in server:
                        if isinstance(message, str):
                            log.write(json.dumps({"t": round(time.monotonic() - opened, 3),
                                                  "message": json.loads(message)}) + "\n")
                            log.flush()
                        await page_socket.send(message)

                async def up():
                    async for message in page_socket:
                        if isinstance(message, bytes):
                            audio.writeframes(message)
                        await server.send(message)
                tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                for task in tasks:
                    task.cancel()
        except websockets.ConnectionClosed:
            pass
        finally:
            audio.close()
            log.close()
            print(f"{name}: closed after {time.monotonic() - opened:.1f} s", flush=True)

    async with serve(handler, "127.0.0.1", args.port, process_request=page, max_size=1 << 22):
        print(f"relaying http://127.0.0.1:{args.port}/ to {args.upstream}, writing {args.out}", flush=True)
        await asyncio.get_running_loop().create_future()


def passed(upstream, request):
    """A plain request for the server (GET /v1/calls/ID), passed on and answered as it answered."""
    try:
        with urllib.request.urlopen(f"http://{upstream}{request.path}", timeout=10) as r:
            status, body, kind = r.status, r.read(), r.headers.get("Content-Type", "application/json")
    except urllib.error.HTTPError as e:
        status, body, kind = e.code, e.read(), e.headers.get("Content-Type", "application/json")
    headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body)))])
    return Response(status, "", headers, body)


if __name__ == "__main__":
    main()
