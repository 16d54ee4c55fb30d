#!/usr/bin/env python3
"""Attacks on `miccheck serve`'s WebSockets, each against a server of its own (`--port 0`), asserting what the
server answers today: the close code and reason, and what the attack costs it (resident memory from
/proc/PID/status, CPU time from /proc/PID/stat) or costs an honest client beside it.

Protocol clients use `websockets` from PyPI; the attacks that need frames no client library would send (empty
continuations, invalid UTF-8, a continuation with nothing to continue, a client that never reads) use a plain
socket and the minimal RFC 6455 framing below: masked frames, any opcode, fin or not, every payload length form.

usage: attacks.py MICCHECK_BINARY [unittest options]
"""
import asyncio
import base64
import hashlib
import hmac
import itertools
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import wave

import websockets

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PG = os.path.join(ROOT, "scripts", "postgres-server.sh")
# The honest stream's speech: the public corpus beside the repo.
WAV = os.path.join(ROOT, "..", "shared", "corpus", "clean_01_asterisk-en-allison.wav")
# A speaker's voice at 16 kHz (two sentences, scripts/make_test_voice.py).
VOICE = os.path.join(ROOT, "Sources", "MicCheckTesting", "Resources", "voice.wav")
BINARY = None
MB = 1024 * 1024

TEXT, BINARY_FRAME, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def started(process):
    """The lines a starting `miccheck serve` printed up to its address, and its port. The address is not always the
    first line: with presence in PostgreSQL the store's log line (which names the database's port) may come first."""
    lines = []
    for line in process.stdout:
        lines.append(line)
        match = re.search(r"serving http://[^ ]+:(\d+)/", line)
        if match:
            return lines, int(match.group(1))
    raise AssertionError(f"serve did not start: {''.join(lines)!r}")


class Server:
    """One `miccheck serve --port 0` with `options`; its output is kept (a thread drains it)."""

    def __init__(self, *options, env=None):
        self.process = subprocess.Popen([BINARY, "serve", "--port", "0", *options], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, env=env)
        self.lines, self.port = started(self.process)
        self.pid = self.process.pid
        self.drain = threading.Thread(target=self._drain, daemon=True)
        self.drain.start()

    def _drain(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def rss(self):
        """Resident memory in bytes."""
        with open(f"/proc/{self.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) * 1024

    def cpu(self):
        """User and system CPU time in seconds."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.drain.join(5)
        self.process.stdout.close()

    def log(self):
        return "".join(self.lines)


def frame(opcode, payload=b"", fin=True, mask=True):
    """One client frame (RFC 6455 5.2): masked unless told, in the shortest length form."""
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 1 << 16:
        head += bytes([bit | 126]) + struct.pack(">H", n)
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    if n:
        payload = bytes(b ^ key[i & 3] for i, b in enumerate(payload)) if n < 4096 else _mask(payload, key)
    return head + key + payload


def _mask(payload, key):
    whole = (key * (len(payload) // 4 + 1))[:len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(whole, "big")).to_bytes(len(payload), "big")


class RawSocket:
    """A WebSocket client on a plain socket: the upgrade, frames out as given, frames in as they come."""

    def __init__(self, port, path, rcvbuf=None, timeout=10.0, headers=""):
        """`headers`: more header lines, each ending in CR LF (an `Origin:`)."""
        self.sock = socket.socket()
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Sec-WebSocket-Version: 13\r\n{headers}\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise AssertionError(f"no upgrade: {self.buffer!r}")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise AssertionError(f"no upgrade: {head!r}")
        self.texts = []

    def send(self, data):
        self.sock.sendall(data)

    def send_text(self, text):
        self.sock.sendall(frame(TEXT, text.encode()))

    def _exact(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def read_frame(self):
        """(fin, opcode, payload) of the server's next frame (servers do not mask)."""
        b0, b1 = self._exact(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self._exact(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self._exact(8))[0]
        key = self._exact(4) if b1 & 0x80 else None
        payload = self._exact(n)
        if key:
            payload = _mask(payload, key)
        return bool(b0 & 0x80), b0 & 0x0F, payload

    def read_text(self):
        while True:
            _, opcode, payload = self.read_frame()
            if opcode == TEXT:
                return json.loads(payload)
            if opcode == CLOSE:
                raise AssertionError(f"closed: {payload!r}")

    def read_close(self):
        """The close frame's (code, reason), texts before it kept; None when the connection ends without one."""
        try:
            while True:
                _, opcode, payload = self.read_frame()
                if opcode == CLOSE:
                    return (struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None), payload[2:].decode()
                if opcode == TEXT:
                    self.texts.append(payload)
        except (EOFError, ConnectionResetError):
            return None

    def read_to_end(self):
        """Reads until EOF or a reset: how the connection ended ('eof' or 'reset')."""
        try:
            while self.sock.recv(1 << 20):
                pass
            return "eof"
        except ConnectionResetError:
            return "reset"

    def close(self):
        self.sock.close()


async def closed_with(ws):
    """Reads until the server closes `ws`; its (code, reason)."""
    try:
        async for _ in ws:
            pass
    except websockets.ConnectionClosed:
        pass
    return ws.close_code, ws.close_reason


async def honest_stream(port, seconds, levels):
    """A /v1/vad client that streams the WAV file in real time, in 20 ms messages; each level's arrival time
    goes to `levels`."""
    with wave.open(WAV) as w:
        rate, pcm = w.getframerate(), w.readframes(w.getnframes())
    block = rate // 50 * 2
    async with websockets.connect(f"ws://127.0.0.1:{port}/v1/vad?sample_rate={rate}", max_size=1 << 20) as ws:
        await ws.recv()

        async def reader():
            async for message in ws:
                if json.loads(message)["type"] == "level":
                    levels.append(time.monotonic())
        task = asyncio.ensure_future(reader())
        start = time.monotonic()
        levels.append(start)
        for i in range(int(seconds * 50)):
            await ws.send(pcm[(i * block) % len(pcm):(i * block) % len(pcm) + block])
            await asyncio.sleep(max(0.0, start + (i + 1) * 0.02 - time.monotonic()))
        await ws.send(json.dumps({"type": "close_stream"}))
        await task


async def refused_by(server, message, clients, each):
    """`clients` clients at once, each opening `each` /v1/vad connections in turn that send `message` and read
    until the server closes them: the (code, reason) of every close, and the server CPU they cost."""
    closes = []

    async def client():
        for _ in range(each):
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/v1/vad") as ws:
                await ws.send(message)
                closes.append(await closed_with(ws))

    cpu = server.cpu()
    await asyncio.gather(*(client() for _ in range(clients)))
    return closes, server.cpu() - cpu


FIGURES = []


def note(line):
    """A figure worth seeing beside the verdict (printed at the end)."""
    FIGURES.append(line)


# MARK: invitations

SECRET = "s" * 32


def token_env():
    """The environment of a server with invitations on (and of `miccheck token`)."""
    return dict(os.environ, MICCHECK_TOKEN_SECRET=SECRET)


def mint(*options):
    """A token from `miccheck token OPTIONS` under `token_env()`."""
    return subprocess.run([BINARY, "token", *options], env=token_env(), check=True, capture_output=True,
                          text=True).stdout.strip()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def signed(claims, secret=SECRET):
    """An HS256 JWT of `claims`, signed with `secret`, made here (claims `miccheck token` would not write)."""
    body = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64url(json.dumps(claims).encode())
    return body + "." + b64url(hmac.new(secret.encode(), body.encode(), hashlib.sha256).digest())


def claims_of(token):
    """A token's claims (its `exp`, in whole seconds)."""
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


# MARK: session descriptions

def description(audio=("a=recvonly",), video=("a=recvonly",), session=()):
    """An offer as a browser writes it (CR LF lines, BUNDLE, an audio and a video section) with `audio` and
    `video` as the lines that give each section's direction and `session` at the session level."""
    lines = ["v=0", "o=- 4611731400430051336 2 IN IP4 127.0.0.1", "s=-", "t=0 0", *session,
             "a=group:BUNDLE 0 1", "a=msid-semantic: WMS",
             "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=rtcp:9 IN IP4 0.0.0.0",
             "a=ice-ufrag:Qp2t", "a=ice-pwd:mC6ZlHbW3f0LQ2YvNw0d8B1x", "a=setup:actpass", "a=mid:0",
             *audio, "a=rtcp-mux", "a=rtpmap:111 opus/48000/2",
             "m=video 9 UDP/TLS/RTP/SAVPF 96", "c=IN IP4 0.0.0.0", "a=rtcp:9 IN IP4 0.0.0.0",
             "a=ice-ufrag:Qp2t", "a=ice-pwd:mC6ZlHbW3f0LQ2YvNw0d8B1x", "a=setup:actpass", "a=mid:1",
             *video, "a=rtcp-mux", "a=rtpmap:96 VP8/90000"]
    return "\r\n".join(lines) + "\r\n"


def offer(to, sdp):
    return json.dumps({"type": "signal", "to": to, "data": {"description": {"type": "offer", "sdp": sdp}}})


def padded_sdp():
    """A description of exactly 32 KiB, the most a signal may carry."""
    sdp = ("v=0\r\n" + ("a=x-padding:" + "p" * 60 + "\r\n") * 500)[:32768]
    assert len(sdp.encode()) == 32768
    return sdp


# MARK: HTTP answers

def read_answer(sock):
    """One HTTP answer from `sock`: (status, headers with lowercased names, body); None when the connection
    ends before a whole head. A timeout is the socket's."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return None
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()

    def more():
        try:
            return sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            return b""
    if "content-length" in headers:
        while len(body) < int(headers["content-length"]):
            chunk = more()
            if not chunk:
                break
            body += chunk
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while not body.endswith(b"0\r\n\r\n"):
            chunk = more()
            if not chunk:
                break
            body += chunk
        whole, rest = b"", body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size.split(b";")[0] or b"0", 16)
            if n == 0:
                break
            whole, rest = whole + rest[:n], rest[n + 2:]
        body = whole
    return status, headers, body


def ask(port, request, timeout=10.0, source=None):
    """Sends `request` on a new connection (from the address `source`, if given) and reads one answer."""
    with socket.socket() as sock:
        if source:
            sock.bind((source, 0))
        sock.settimeout(timeout)
        sock.connect(("127.0.0.1", port))
        sock.sendall(request)
        return read_answer(sock)


def strings_in(value):
    """Every string in a decoded JSON value (an error answer's reason, wherever the body keeps it)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []


class Attacks(unittest.TestCase):
    def setUp(self):
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            s.stop()
        if any(test is self for test, _ in self._outcome.result.failures + self._outcome.result.errors) \
                if hasattr(self._outcome, "result") else False:
            for s in self.servers:
                print(f"--- serve's log\n{s.log()[-4000:]}", file=sys.stderr)

    def serve(self, *options, env=None):
        server = Server(*options, env=env)
        self.servers.append(server)
        return server

    def run_async(self, coroutine, timeout=60):
        return asyncio.run(asyncio.wait_for(coroutine, timeout))

    # MARK: frames

    def test_empty_continuation_frames(self):
        """A text frame left open, then 100,000 empty continuation frames (each 6 bytes on the wire, no payload):
        the server counts frames, not only bytes, and closes with 1009 "a message in more than 64 frames" at
        the 65th; its memory grows by less than 30 MB while the flood lasts and is back near the start once
        the client has gone."""
        server = self.serve()
        time.sleep(0.3)
        before = server.rss()
        raw = RawSocket(server.port, "/v1/vad", timeout=2)
        raw.send(frame(TEXT, b'{"type":', fin=False))
        empty = frame(CONTINUATION, b"", fin=False)
        peak, sent = before, 0
        try:
            for _ in range(100):
                raw.send(empty * 1000)
                sent += 1000
                peak = max(peak, server.rss())
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            pass  # the server closed, or stopped reading, mid-way
        raw.sock.settimeout(5)
        closing = raw.read_close()
        peak = max(peak, server.rss())
        raw.close()
        self.assertEqual(closing, (1009, "a message in more than 64 frames"), f"after {sent} empty frames")
        time.sleep(1.0)
        after = server.rss()
        note(f"empty continuations: closed after {sent} sent; RSS {before / MB:.1f} MB, "
             f"peak +{(peak - before) / MB:.1f} MB, after +{(after - before) / MB:.1f} MB")
        self.assertLess(peak - before, 30 * MB, "memory while the flood lasted")
        self.assertLess(after - before, 10 * MB, "memory once the client has gone")

    def test_invalid_utf8_text(self):
        """A text frame whose payload is not UTF-8 (a lone continuation byte, an overlong encoding) closes the
        connection with 1007 (RFC 6455 8.1), on both endpoints."""
        server = self.serve()
        for path in ("/v1/vad", "/v1/call?call=x"):
            raw = RawSocket(server.port, path)
            raw.send(frame(TEXT, b'{"type": "keep_alive", "x": "\x80\xc0\xaf"}'))
            code = raw.read_close()
            raw.close()
            self.assertEqual(code and code[0], 1007, f"{path}: {code}")

    def test_continuation_with_nothing_to_continue(self):
        """A continuation frame (fin set) when no message is open closes the connection with 1002, the protocol
        error; so does a new text frame while a message is still open."""
        server = self.serve()
        raw = RawSocket(server.port, "/v1/vad")
        raw.send(frame(CONTINUATION, b'{"type": "keep_alive"}'))
        code = raw.read_close()
        raw.close()
        self.assertEqual(code, (1002, "a continuation frame with no message to continue"))
        raw = RawSocket(server.port, "/v1/vad")
        raw.send(frame(TEXT, b'{"type":', fin=False) + frame(TEXT, b'{"type": "keep_alive"}'))
        code = raw.read_close()
        raw.close()
        self.assertEqual(code, (1002, "a new message before the last one ended"))

    # MARK: nested JSON

    def test_nested_json(self):
        """A keep_alive carrying 510 nested arrays closes with 1008 "a text message may nest objects and arrays
        8 deep at most", found by counting brackets before any decoding: 8 clients sending 46 such messages
        each, reconnecting after each close (368 connections), cost the server under 1 s of CPU more than the
        same 368 connections each refused for a flat unknown message, and an honest real-time /v1/vad stream
        beside both receives every level (one per 100 ms of audio) with no gap over 500 ms. (The connections
        themselves are not free: about 5 ms of CPU each in a debug build, noted with the figures.)"""
        if not os.path.exists(WAV):
            self.skipTest(f"the honest stream's speech: {WAV} is missing (the public corpus beside the repo)")
        server = self.serve()
        nested = '{"type":"keep_alive","a":' + "[" * 510 + "]" * 510 + "}"
        flat = '{"type":"nope"}'
        reason = "a text message may nest objects and arrays 8 deep at most"
        seconds = 10.0

        async def attack(message):
            return await refused_by(server, message, clients=8, each=46)

        async def body():
            levels = []
            honest = asyncio.ensure_future(honest_stream(server.port, seconds, levels))
            await asyncio.sleep(0.5)
            flat_closes, flat_cpu = await attack(flat)
            nested_closes, nested_cpu = await attack(nested)
            await honest
            return levels, flat_closes, flat_cpu, nested_closes, nested_cpu

        levels, flat_closes, flat_cpu, closes, spent = self.run_async(body())
        self.assertEqual(len(closes), 368)
        self.assertEqual(set(closes), {(1008, reason)})
        self.assertEqual({code for code, _ in flat_closes}, {1008})
        self.assertEqual(len(levels) - 1, int(seconds * 10), "every level of the honest stream")
        gap = max(b - a for a, b in zip(levels, levels[1:]))
        self.assertLess(gap, 0.5, "the longest wait for a level")
        note(f"nested JSON: 368 connections cost {spent:.2f} s of server CPU nested, {flat_cpu:.2f} s flat; "
             f"the honest stream's longest wait for a level {gap * 1000:.0f} ms")
        self.assertLess(spent - flat_cpu, 1.0, "server CPU for 368 nested messages beyond 368 flat ones")

    # MARK: a client that never reads

    def test_never_reading_call_client(self):
        """A /v1/call participant whose socket has a tiny receive buffer and never reads after its welcome,
        while another participant sends it 32 KiB session descriptions as fast as it can: the server drops
        the reader's TCP connection within --idle-timeout + 4 s (the sender sees it leave; the reader's socket
        ends in EOF or a reset), its memory stays under +60 MB meanwhile, and SIGTERM with such a reader
        connected still ends the server within 10 s."""
        idle = 3.0
        server = self.serve("--idle-timeout", str(int(idle)))
        time.sleep(0.3)
        before = server.rss()
        sdp = "v=0\r\n" + ("a=x-padding:" + "p" * 60 + "\r\n") * 500
        sdp = sdp[:32768]
        self.assertEqual(len(sdp.encode()), 32768)

        def reader_joins(call):
            raw = RawSocket(server.port, f"/v1/call?call={call}", rcvbuf=4096)
            welcome = raw.read_text()
            self.assertEqual(welcome["type"], "welcome")
            raw.send_text(json.dumps({"type": "join", "name": "Reader"}))
            while True:  # its own join, then it stops reading
                m = raw.read_text()
                if m["type"] == "joined" and m["participant"]["id"] == welcome["id"]:
                    return raw, welcome["id"]

        def keep_sending(raw, stop):
            """The reader keeps sending silence, so only its not reading is wrong."""
            try:
                while not stop.is_set():
                    raw.send(frame(BINARY_FRAME, b"\0" * 640))
                    time.sleep(0.2)
            except OSError:
                pass

        async def flood(call, target, until):
            """Sends `target` descriptions until `until()` or its `left`; returns the time it left (or None)."""
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/v1/call?call={call}", max_size=1 << 22) as ws:
                left = []

                async def read():
                    async for message in ws:
                        m = json.loads(message)
                        if m["type"] == "left" and m["id"] == target:
                            left.append(time.monotonic())
                task = asyncio.ensure_future(read())
                await ws.send(json.dumps({"type": "join", "name": "Sender"}))
                signal_text = json.dumps({"type": "signal", "to": target,
                                          "data": {"description": {"type": "offer", "sdp": sdp}}})
                self.sent = 0
                try:
                    while not left and not until():
                        await ws.send(signal_text)
                        self.sent += 1
                        self.peak = max(self.peak, server.rss())
                        await asyncio.sleep(0.002)
                except websockets.ConnectionClosed:  # the server stopping
                    pass
                task.cancel()
                return left[0] if left else None

        self.peak = before
        raw, target = reader_joins("x")
        stop = threading.Event()
        threading.Thread(target=keep_sending, args=(raw, stop), daemon=True).start()
        stopped_reading = time.monotonic()
        deadline = stopped_reading + idle + 8
        left_at = self.run_async(flood("x", target, lambda: time.monotonic() > deadline), timeout=30)
        stop.set()
        self.assertIsNotNone(left_at, f"the reader never left ({self.sent} descriptions sent)")
        raw.sock.settimeout(10)
        ending = raw.read_to_end()
        raw.close()
        note(f"never-reading reader: dropped {left_at - stopped_reading:.1f} s after it stopped reading ({ending}), "
             f"{self.sent} descriptions sent; RSS peak +{(self.peak - before) / MB:.1f} MB")
        self.assertLess(left_at - stopped_reading, idle + 4, "the reader dropped")
        self.assertIn(ending, ("eof", "reset"))
        self.assertLess(self.peak - before, 60 * MB, "server memory while descriptions piled up")

        # SIGTERM with a reader that never reads, a description flood under way.
        raw, target = reader_joins("y")
        ended = lambda: server.process.poll() is not None  # noqa: E731
        def flood_until_stopped():
            """The flood runs into the server's end: whatever its socket raises then is that end, not a failure."""
            try:
                asyncio.run(flood("y", target, ended))
            except Exception:  # noqa: BLE001 (websockets may fail inside its own abort once the peer is gone)
                pass
        flooding = threading.Thread(target=flood_until_stopped, daemon=True)
        flooding.start()
        time.sleep(1.0)
        term = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(10)
        except subprocess.TimeoutExpired:
            self.fail("serve did not end within 10 s of SIGTERM with a reader that never reads")
        note(f"never-reading reader: SIGTERM ended serve in {time.monotonic() - term:.1f} s "
             f"(status {server.process.returncode})")
        raw.close()
        flooding.join(5)

    def test_frozen_participant(self):
        """A /v1/call participant frozen mid-sentence (SIGSTOP, a closed lid, a lost network): it stops sending
        and reading but its TCP connection stays open. Another participant of the call sees it stop speaking
        within 3 s (the server ends speaking 1 s after the audio stops) and leave within the idle timeout
        (10 s, the default) + the 2 s close grace + 1 s."""
        server = self.serve()
        with wave.open(VOICE) as w:
            self.assertEqual((w.getframerate(), w.getnchannels(), w.getsampwidth()), (16000, 1, 2))
            pcm = w.readframes(w.getnframes())
        block = 640  # 20 ms of 16 kHz 16-bit PCM

        speaker = RawSocket(server.port, "/v1/call?call=x")
        welcome = speaker.read_text()
        target = welcome["id"]
        speaker.send_text(json.dumps({"type": "join", "name": "Frozen"}))
        frozen = threading.Event()

        def read_until_frozen():
            """The speaker's page reads what it is sent until it freezes; then nothing reads its socket."""
            speaker.sock.settimeout(0.1)
            while not frozen.is_set():
                try:
                    speaker.read_frame()
                except socket.timeout:
                    continue
                except (EOFError, OSError):
                    return
        reading = threading.Thread(target=read_until_frozen, daemon=True)

        async def listener():
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/v1/call?call=x") as ws:
                await ws.send(json.dumps({"type": "join", "name": "Listener"}))
                seen = {}

                async def read():
                    async for message in ws:
                        m = json.loads(message)
                        now = time.monotonic()
                        if m["type"] in ("joined", "updated") and m["participant"]["id"] == target:
                            key = "speaking" if m["participant"]["speaking"] else "quiet"
                            if key == "speaking" or "speaking" in seen:
                                seen.setdefault(key, now)
                        elif m["type"] == "left" and m["id"] == target:
                            seen["left"] = now
                            return
                task = asyncio.ensure_future(read())
                reading.start()
                # The speaker talks in real time until the listener sees it speaking, then freezes.
                start = time.monotonic()
                i = 0
                while "speaking" not in seen:
                    self.assertLess(i * 0.02, 20, "the listener never saw the speaker speaking")
                    offset = (i * block) % (len(pcm) - block)
                    speaker.send(frame(BINARY_FRAME, pcm[offset:offset + block]))
                    i += 1
                    await asyncio.sleep(max(0.0, start + i * 0.02 - time.monotonic()))
                frozen.set()
                froze = time.monotonic()
                while not task.done() and time.monotonic() - froze < 20:  # the listener's page is alive
                    await ws.send(json.dumps({"type": "keep_alive"}))
                    await asyncio.wait([task], timeout=1.0)
                return seen, froze

        seen, froze = self.run_async(listener(), timeout=40)
        reading.join(1)
        quiet = seen.get("quiet", float("nan")) - froze
        left = seen["left"] - froze
        speaker.close()
        note(f"frozen participant: the other saw it stop speaking {quiet:.2f} s and leave {left:.1f} s after it "
             "froze (idle timeout 10 s)")
        self.assertIn("quiet", seen, "the frozen speaker stayed speaking until it left")
        self.assertLess(quiet, 3.0, "speaking ended after the audio stopped")
        self.assertLess(left, 10 + 2 + 1, "the frozen speaker left")

    # MARK: names

    def join_refused(self, port, name):
        async def body():
            async with websockets.connect(f"ws://127.0.0.1:{port}/v1/call?call=names") as ws:
                welcome = json.loads(await ws.recv())
                self.assertEqual(welcome["type"], "welcome")
                await ws.send(json.dumps({"type": "join", "name": name}, ensure_ascii=False))
                return await closed_with(ws)
        return self.run_async(body())

    def test_names(self):
        """Names that no store or page could keep are refused at the join, with 1008 and why: a NUL (PostgreSQL's
        text cannot hold one), 64 characters carrying 200 combining marks each (12,864 code points), 300
        characters."""
        server = self.serve()
        self.assertEqual(self.join_refused(server.port, "Ada\u0000"),
                         (1008, "join needs a name without control characters"))
        code, reason = self.join_refused(server.port, ("a" + "\u0301" * 200) * 64)
        self.assertEqual(code, 1008)
        self.assertTrue(reason.startswith("join needs a name of at most 128 code points"), reason)
        self.assertEqual(self.join_refused(server.port, "x" * 300),
                         (1008, "join needs a name of at most 64 characters"))

    def test_bad_name_leaves_shared_presence_working(self):
        """With presence in PostgreSQL (a private cluster): after joins refused for a NUL and for a name heavy
        with combining marks, two honest participants on that node still see each other join and each
        other's toggles (`devices`) within 2 s: the bad names never reached the database."""
        pg = tempfile.mkdtemp(prefix="miccheck-sec-pg-")
        try:
            subprocess.run(["bash", PG, "start", pg, str(free_port())], check=True)
            url = subprocess.run(["bash", PG, "url", pg], check=True, capture_output=True, text=True).stdout.strip()
            server = self.serve("--presence", url)
            self.assertEqual(self.join_refused(server.port, "Ada\u0000")[0], 1008)
            self.assertEqual(self.join_refused(server.port, ("a" + "\u0301" * 200) * 64)[0], 1008)

            async def body():
                a = await websockets.connect(f"ws://127.0.0.1:{server.port}/v1/call?call=names")
                b = await websockets.connect(f"ws://127.0.0.1:{server.port}/v1/call?call=names")
                ida = json.loads(await a.recv())["id"]
                idb = json.loads(await b.recv())["id"]

                async def wait(ws, predicate, within=2.0):
                    deadline = time.monotonic() + within
                    while True:
                        m = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic())))
                        if predicate(m):
                            return m

                def about(kind, pid, **fields):
                    return lambda m: m["type"] == kind and m.get("participant", {}).get("id") == pid and \
                        all(m["participant"].get(k) == v for k, v in fields.items())
                await a.send(json.dumps({"type": "join", "name": "Ada"}))
                await b.send(json.dumps({"type": "join", "name": "Bob"}))
                await wait(a, about("joined", idb, name="Bob"))
                await wait(b, about("joined", ida, name="Ada"))
                # A page joins with its microphone and camera on: each turns one off.
                await a.send(json.dumps({"type": "devices", "audio": True, "video": False}))
                await wait(b, about("updated", ida, audio=True, video=False))
                await b.send(json.dumps({"type": "devices", "audio": False, "video": True}))
                await wait(a, about("updated", idb, audio=False, video=True))
                await a.close()
                await b.close()
            self.run_async(body())
        finally:
            for s in self.servers:
                s.stop()
            subprocess.run(["bash", PG, "stop", pg])
            shutil.rmtree(pg, ignore_errors=True)

    # MARK: issue 59: session descriptions, presence, invitations, slow readers, wide JSON, signals

    def test_descriptions_that_hide_a_send(self):
        """A listener's offer whose audio section only seems to say it receives is refused with 1008 and the
        reason, and never reaches the participant it was for: `a=inactive` then a TAB, `a=inactive` then
        `a=sendrecv:x`, `a=x-foo<CR>a=inactive` on one line (a bare CR), `a=x-foo` U+2028 `a=inactive`, and a
        session-level `a=recvonly` with no direction in the media sections; and a section hidden in the audio one
        behind `m=` and a joiner (U+200D), whose `a=inactive` a reader of characters would lend to the audio.
        Those with a control character or anything not ASCII are refused for a speaker too. A listener's honest
        offer (`a=recvonly` in each section) and a speaker's `sendrecv` one are relayed."""
        server = self.serve(env=token_env())
        host, listener, speaker = (mint("--call", "sdp", "--name", name, "--role", role)
                                   for name, role in [("Host", "host"), ("Lou", "listener"), ("Sam", "speaker")])
        control = "a description's sdp may hold only printable ASCII, in lines that end in LF or CR LF"
        audio = "this participant may not send audio: its description's m=audio section"
        sends, silent = audio + " sends", audio + " does not say recvonly or inactive"
        variants = [
            ("a=inactive then a TAB", description(audio=["a=inactive\t"]), {control}),
            ("a=inactive, then a=sendrecv:x", description(audio=["a=inactive", "a=sendrecv:x"]), {sends, silent}),
            ("a=x-foo CR a=inactive (a bare CR)", description(audio=["a=x-foo\ra=inactive"]), {control}),
            ("a=x-foo U+2028 a=inactive", description(audio=["a=x-foo\u2028a=inactive"]), {control}),
            ("a session-level a=recvonly", description(audio=[], video=[], session=["a=recvonly"]), {silent}),
            # libwebrtc reads `m=` and a joiner as a new section, which takes the a=inactive; a reader of
            # characters, not bytes, would have lent it to the audio section.
            ("m= U+200D: a section hidden in the audio one",
             description(audio=["m=\u200dx 0 UDP/TLS/RTP/SAVPF 0", "a=inactive"]), {control}),
        ]

        def url(token):
            return f"ws://127.0.0.1:{server.port}/v1/call?call=sdp&token={token}"

        async def body():
            target = await websockets.connect(url(host))
            tid = json.loads(await target.recv())["id"]
            relayed = []
            joined = asyncio.Event()

            async def read():
                async for message in target:
                    m = json.loads(message)
                    if m["type"] == "signal":
                        relayed.append(m["from"])
                    elif m["type"] == "joined" and m["participant"]["id"] == tid:
                        joined.set()
            reading = asyncio.ensure_future(read())
            await target.send(json.dumps({"type": "join", "name": "Host"}))
            await asyncio.wait_for(joined.wait(), 5)

            async def send(token, sdp):
                """The offer from a new participant: (its id, how its connection ended, or None if it is open)."""
                async with websockets.connect(url(token)) as ws:
                    me = json.loads(await ws.recv())["id"]
                    await ws.send(json.dumps({"type": "join", "name": "x"}))
                    await ws.send(offer(tid, sdp))
                    try:
                        return me, await asyncio.wait_for(closed_with(ws), 2.0)
                    except TimeoutError:
                        return me, None

            refused = {}
            for name, sdp, _ in variants:
                refused[name] = await send(listener, sdp)
            for name, sdp, reasons in variants:
                if reasons == {control}:
                    refused["a speaker's " + name] = await send(speaker, sdp)
            honest = [await send(listener, description()),
                      await send(speaker, description(audio=["a=sendrecv"], video=["a=sendrecv"]))]
            await asyncio.sleep(0.5)
            await target.close()
            reading.cancel()
            return refused, honest, relayed

        refused, honest, relayed = self.run_async(body())
        expected = {name: reasons for name, _, reasons in variants}
        expected.update(("a speaker's " + name, reasons) for name, _, reasons in variants if reasons == {control})
        for name, (me, ending) in refused.items():
            self.assertIsNotNone(ending, f"{name}: the connection stayed open")
            code, reason = ending
            self.assertEqual(code, 1008, f"{name}: {ending}")
            self.assertIn(reason, expected[name], name)
            self.assertNotIn(me, relayed, f"{name}: the offer reached the host")
        for me, ending in honest:
            self.assertIsNone(ending, "an honest offer was refused")
            self.assertIn(me, relayed, "an honest offer was not relayed")
        short = {control: "not printable ASCII", sends: "sends", silent: "does not say recvonly or inactive"}
        note("descriptions that hide a send, each closed 1008 and not relayed: " +
             "; ".join(f"{name}: {short.get(ending[1], ending[1])}" for name, (_, ending) in refused.items()) +
             "; 2 honest ones relayed")

    def test_presence_flood(self):
        """A speaker toggling its microphone (`devices`) 2,000 times as fast as its socket allows: another
        participant of the call sees at most the burst of 20 updates of it + 5 a second (+ 5 of slack) while
        the flood lasts and 2 s after, and the last state it sees is the last toggle's (audio off). That
        participant, speaking in real time, gets its meter (`microphone`) with no gap over 1 s meanwhile."""
        server = self.serve()
        with wave.open(VOICE) as w:
            pcm = w.readframes(w.getnframes())
        url = f"ws://127.0.0.1:{server.port}/v1/call?call=flood"
        toggles = 2000
        # The flooder is a plain socket driven from threads: the observer's loop must not wait on it.
        flooder = RawSocket(server.port, "/v1/call?call=flood")
        fid = flooder.read_text()["id"]
        flooder.send_text(json.dumps({"type": "join", "name": "Flooder"}))
        while True:
            m = flooder.read_text()
            if m["type"] == "joined" and m["participant"]["id"] == fid:
                break
        answered = threading.Event()
        times = {}

        def drain():
            """The flooder reads what it is sent; the `error` that answers its last message marks the flood
            handled."""
            flooder.sock.settimeout(30)
            try:
                while True:
                    _, opcode, payload = flooder.read_frame()
                    if opcode == CLOSE:
                        return
                    if opcode == TEXT and json.loads(payload)["type"] == "error" and not answered.is_set():
                        times["handled"] = time.monotonic()
                        answered.set()
            except (EOFError, OSError):
                return
        threading.Thread(target=drain, daemon=True).start()

        def flood(oid):
            # devices audio on, off, on, ... : the 2,000th (index 1999) turns it off.
            blob = b"".join(frame(TEXT, json.dumps({"type": "devices", "audio": i % 2 == 0}).encode())
                            for i in range(toggles))
            times["start"] = time.monotonic()
            flooder.send(blob)
            times["sent"] = time.monotonic()
            # Handled after every toggle: a speaker may not mute others, which an `error` says.
            flooder.send_text(json.dumps({"type": "mute", "id": oid}))
            return answered.wait(60)

        async def body():
            observer = await websockets.connect(url)
            oid = json.loads(await observer.recv())["id"]
            updates, meters, state = [], [], {}

            async def watch():
                async for message in observer:
                    m = json.loads(message)
                    now = time.monotonic()
                    if m["type"] == "microphone":
                        meters.append(now)
                    elif m["type"] in ("joined", "updated") and m["participant"]["id"] == fid:
                        state["audio"] = m["participant"]["audio"]
                        if m["type"] == "updated":
                            updates.append(now)
                    elif m["type"] == "presence":
                        for p in m["participants"]:
                            if p["id"] == fid:
                                state["audio"] = p["audio"]
            watching = asyncio.ensure_future(watch())
            await observer.send(json.dumps({"type": "join", "name": "Observer"}))
            stop = asyncio.Event()

            async def speak():
                start, i = time.monotonic(), 0
                while not stop.is_set():
                    offset = (i * 640) % (len(pcm) - 640)
                    await observer.send(pcm[offset:offset + 640])
                    i += 1
                    await asyncio.sleep(max(0.0, start + i * 0.02 - time.monotonic()))
            speaking = asyncio.ensure_future(speak())
            await asyncio.sleep(1.5)
            handled = await asyncio.to_thread(flood, oid)
            await asyncio.sleep(2.0)
            end = time.monotonic()
            stop.set()
            await speaking
            await observer.close()
            watching.cancel()
            return handled, updates, meters, state, end

        handled, updates, meters, state, end = self.run_async(body())
        flooder.close()
        self.assertTrue(handled, "the flood's last message was never answered")
        start = times["start"]
        seconds = end - start
        seen = [t for t in updates if t >= start]
        # The meter from the last one before the flood to the flood's end.
        before = max([t for t in meters if t < start], default=start)
        points = [before] + [t for t in meters if start <= t <= times["handled"]] + [times["handled"]]
        gap = max(b - a for a, b in itertools.pairwise(points))
        bound = 20 + 5 * seconds + 5
        note(f"presence flood: {toggles} toggles handled in {times['handled'] - start:.2f} s (sent in "
             f"{times['sent'] - start:.2f} s); the other saw {len(seen)} updates in {seconds:.1f} s (bound "
             f"{bound:.0f}), final audio {state.get('audio')}; its meter's longest gap {gap * 1000:.0f} ms")
        self.assertLessEqual(len(seen), bound, "updates of the flooder seen by the other participant")
        self.assertIs(state.get("audio"), False, "the last state seen is the last toggle's")
        self.assertLess(gap, 1.0, "the honest participant's meter during the flood")

    def test_join_leave_loop(self):
        """A listener that joins and leaves in a loop, as fast as each join is answered: after the burst of 4,
        the join past 12 a minute closes the connection with 1008 "more than 12 joins a minute"."""
        server = self.serve(env=token_env())
        token = mint("--call", "loop", "--name", "Lou", "--role", "listener")
        raw = RawSocket(server.port, f"/v1/call?call=loop&token={token}")
        me = raw.read_text()["id"]
        joins, ending = 0, None
        start = time.monotonic()
        for _ in range(12):
            raw.send_text(json.dumps({"type": "join", "name": "Lou"}))
            while True:  # its own `joined`, or the close
                _, opcode, payload = raw.read_frame()
                if opcode == CLOSE:
                    ending = struct.unpack(">H", payload[:2])[0], payload[2:].decode()
                    break
                if opcode == TEXT:
                    m = json.loads(payload)
                    if m["type"] == "joined" and m["participant"]["id"] == me:
                        joins += 1
                        break
            if ending:
                break
            raw.send_text(json.dumps({"type": "leave"}))
        raw.close()
        note(f"join/leave loop: {joins} joins, then {ending} after {time.monotonic() - start:.2f} s")
        self.assertEqual(ending, (1008, "more than 12 joins a minute"))
        self.assertIn(joins, (4, 5), "joins let through (a burst of 4)")

    def test_join_loop_that_connects_again(self):
        """A page that joins, leaves, and connects again to join again (past any one connection's budget): the
        joins into one call from one address are counted across its connections, and past a burst of 32 (then
        60 a minute) the join's connection is closed with 1008 "more than 60 joins a minute into this call from
        127.0.0.1"; an honest page from another address (127.0.0.2) still joins that call, and the looper's
        joins and leaves that reached it stop with the burst."""
        server = self.serve()
        url = f"ws://127.0.0.1:{server.port}/v1/call?call=churn"
        reason = "more than 60 joins a minute into this call from 127.0.0.1"

        async def body():
            honest = await websockets.connect(url, host="127.0.0.1", local_addr=("127.0.0.2", 0))
            await honest.recv()
            await honest.send(json.dumps({"type": "join", "name": "Hana"}))
            seen = []

            async def watch():
                async for message in honest:
                    m = json.loads(message)
                    if m["type"] in ("joined", "left"):
                        seen.append(m["type"])
            watching = asyncio.ensure_future(watch())
            joins, ending, start = 0, None, time.monotonic()
            while ending is None and joins < 100:
                async with websockets.connect(url) as ws:
                    me = json.loads(await ws.recv())["id"]
                    await ws.send(json.dumps({"type": "join", "name": "Lou"}))
                    try:
                        async for message in ws:
                            m = json.loads(message)
                            if m["type"] == "joined" and m["participant"]["id"] == me:
                                joins += 1
                                break
                    except websockets.ConnectionClosed:
                        pass
                    if ws.close_code is not None:
                        ending = (ws.close_code, ws.close_reason)
            elapsed = time.monotonic() - start
            await asyncio.sleep(0.5)
            await honest.close()
            watching.cancel()
            return joins, ending, elapsed, seen

        joins, ending, elapsed, seen = self.run_async(body())
        note(f"a join loop that connects again: {joins} joins in {elapsed:.2f} s, then {ending}; the honest page "
             f"saw {len(seen)} of its joins and leaves (itself included)")
        self.assertEqual(ending, (1008, reason))
        self.assertIn(joins, range(32, 36), "joins let through (a burst of 32, then one a second)")
        self.assertLessEqual(len(seen), 2 * 36 + 2, "the looper's joins and leaves the honest page saw")

    def test_invitation_expires_mid_call(self):
        """With invitations on, a /v1/call connection whose token expires (`miccheck token --expires-in 3`) is
        closed at its `exp` with 4401 "the invitation expired; reconnect with a new one" (within 1.5 s: the
        call's timer runs every 250 ms), and a /v1/vad stream (`--vad --expires-in 3`) with 4401 "the token
        expired; reconnect with a new one" (within 2 s: its timer runs every second). Both keep sending
        keep_alive, so they are not idle."""
        server = self.serve(env=token_env())
        call = mint("--call", "expiry", "--name", "Eve", "--expires-in", "3")
        vad = mint("--vad", "--expires-in", "3")

        async def hold(path, token, join):
            async with websockets.connect(f"ws://127.0.0.1:{server.port}{path}token={token}") as ws:
                await ws.recv()
                if join:
                    await ws.send(json.dumps({"type": "join", "name": "Eve"}))

                async def keep():
                    try:
                        while True:
                            await asyncio.sleep(0.5)
                            await ws.send(json.dumps({"type": "keep_alive"}))
                    except websockets.ConnectionClosed:
                        pass
                keeping = asyncio.ensure_future(keep())
                wait = claims_of(token)["exp"] - time.time() + 6
                try:
                    code, reason = await asyncio.wait_for(closed_with(ws), wait)
                except TimeoutError:
                    code, reason = None, "still open 6 s after the token's exp"
                closed = time.time()
                keeping.cancel()
                return code, reason, closed - claims_of(token)["exp"]

        async def body():
            return await asyncio.gather(hold("/v1/call?call=expiry&", call, True), hold("/v1/vad?", vad, False))

        (call_code, call_reason, call_after), (vad_code, vad_reason, vad_after) = self.run_async(body())
        note(f"expired tokens: /v1/call closed {call_after:+.2f} s after exp ({call_code}), /v1/vad "
             f"{vad_after:+.2f} s ({vad_code})")
        self.assertEqual((call_code, call_reason), (4401, "the invitation expired; reconnect with a new one"))
        self.assertEqual((vad_code, vad_reason), (4401, "the token expired; reconnect with a new one"))
        self.assertGreater(call_after, -0.2, "/v1/call closed before its token expired")
        self.assertLess(call_after, 1.5, "/v1/call closed after its token expired")
        self.assertGreater(vad_after, -0.2, "/v1/vad closed before its token expired")
        self.assertLess(vad_after, 2.0, "/v1/vad closed after its token expired")

    def test_slow_readers_share_one_bound(self):
        """Under `--max-queued-bytes 1048576` (1 MiB for all slow readers of the server), three /v1/call
        participants with a 4 KiB receive buffer that never read, sent 32 KiB session descriptions in a loop:
        each is closed with 1008 "the server holds 1 MiB for slow readers, its most" (read once the others see
        it leave), well before its own 4 MiB outbox is full; an honest participant beside them, sent a
        description every tenth round, reads them all and is not cut."""
        server = self.serve("--max-queued-bytes", str(MB), "--idle-timeout", "30")
        time.sleep(0.3)
        before = server.rss()
        reason = "the server holds 1 MiB for slow readers, its most"

        def joined(rcvbuf, name):
            raw = RawSocket(server.port, "/v1/call?call=slow", rcvbuf=rcvbuf)
            me = raw.read_text()["id"]
            raw.send_text(json.dumps({"type": "join", "name": name}))
            while True:
                m = raw.read_text()
                if m["type"] == "joined" and m["participant"]["id"] == me:
                    return me, raw

        readers = dict(joined(4096, f"Reader {i}") for i in range(3))
        hid, honest = joined(None, "Honest")
        closes, wake = {}, {rid: threading.Event() for rid in readers}

        def read_when_woken(rid):
            """A reader that has been seen to leave reads at last, to find the close frame behind its backlog."""
            if not wake[rid].wait(40):
                return
            raw = readers[rid]
            raw.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
            raw.sock.settimeout(10)
            try:
                closes[rid] = raw.read_close()
            except TimeoutError:
                closes[rid] = "no close within 10 s"
        woken = [threading.Thread(target=read_when_woken, args=(rid,), daemon=True) for rid in readers]
        for t in woken:
            t.start()
        got = {"signals": 0, "ending": None}

        def read_honest():
            honest.sock.settimeout(60)
            try:
                while True:
                    _, opcode, payload = honest.read_frame()
                    if opcode == CLOSE:
                        got["ending"] = payload
                        return
                    if opcode == TEXT and json.loads(payload)["type"] == "signal":
                        got["signals"] += 1
            except (EOFError, OSError) as e:
                got["ending"] = got["ending"] or repr(e)
        honest_reading = threading.Thread(target=read_honest, daemon=True)
        honest_reading.start()
        texts = {to: offer(to, padded_sdp()) for to in [*readers, hid]}
        self.peak = before

        async def flood():
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/v1/call?call=slow", max_size=1 << 22) as ws:
                present, left = set(readers), {}

                async def read():
                    async for message in ws:
                        m = json.loads(message)
                        if m["type"] == "left" and m["id"] in present:
                            present.discard(m["id"])
                            left[m["id"]] = time.monotonic()
                            wake[m["id"]].set()
                reading = asyncio.ensure_future(read())
                await ws.send(json.dumps({"type": "join", "name": "Sender"}))
                start = time.monotonic()
                sent = honest_sent = rounds = 0
                while present and time.monotonic() < start + 15:
                    for rid in list(present):
                        await ws.send(texts[rid])
                        sent += 1
                    rounds += 1
                    if rounds % 10 == 0:
                        await ws.send(texts[hid])
                        honest_sent += 1
                    self.peak = max(self.peak, server.rss())
                    await asyncio.sleep(0.003)
                reading.cancel()
                return start, left, sent, honest_sent

        start, left, sent, honest_sent = self.run_async(flood(), timeout=40)
        for t in woken:
            t.join(15)
        deadline = time.monotonic() + 5
        while got["signals"] < honest_sent and got["ending"] is None and time.monotonic() < deadline:
            time.sleep(0.05)
        ending = got["ending"]
        honest.sock.shutdown(socket.SHUT_RDWR)
        honest_reading.join(5)
        honest.close()
        for raw in readers.values():
            raw.close()
        cut = ", ".join(f"{left[rid] - start:.1f}" for rid in readers if rid in left)
        note(f"slow readers under a 1 MiB server-wide bound: cut at {cut} s into the flood ({sent} descriptions "
             f"sent to them), closes {sorted(set(map(str, closes.values())))}; the honest reader got "
             f"{got['signals']} of {honest_sent}; RSS peak +{(self.peak - before) / MB:.1f} MB")
        self.assertEqual(len(left), 3, "readers the others saw leave within 15 s")
        for rid in readers:
            self.assertEqual(closes.get(rid), (1008, reason), "a never-reading participant's close")
        self.assertIsNone(ending, "the honest reader was cut")
        self.assertEqual(got["signals"], honest_sent, "descriptions the honest reader got")

    def test_wide_json(self):
        """A 64 KB keep_alive carrying 21,000 empty objects (`"a":[{},{},…]`) closes with 1008 "a text message
        may hold 256 values at most", counted before decoding: 200 of them over 8 reconnecting clients cost the
        server no more than 1.5 times the CPU of 200 keep_alives of the same size whose `a` is one string (what
        is left is the 64 KB themselves: unmasking, UTF-8). 200 small refused messages are measured beside them
        for scale: the 64 KB cost 3 to 4 times as much as a small message and its connection, so a bound
        against those would measure the bytes, not the decoding. 260 numbers in an array are too many too; 240
        are refused for another reason."""
        server = self.serve()
        wide = '{"type":"keep_alive","a":[' + ",".join(["{}"] * 21000) + "]}"
        self.assertLessEqual(len(wide), 65536)
        small = '{"type":"nope"}'
        string = '{"type":"keep_alive","a":"' + "x" * (len(wide) - 30) + '"}'
        reason = "a text message may hold 256 values at most"

        async def refused(message):
            closes, _ = await refused_by(server, message, clients=1, each=1)
            return closes[0]

        async def attack(message):
            return await refused_by(server, message, clients=8, each=25)

        async def body():
            edges = [await refused('{"type":"keep_alive","a":[' + ",".join(["0"] * n) + "]}") for n in (240, 260)]
            small_closes, small_cpu = await attack(small)
            string_closes, string_cpu = await attack(string)
            wide_closes, wide_cpu = await attack(wide)
            return edges, small_closes, small_cpu, string_closes, string_cpu, wide_closes, wide_cpu

        edges, small_closes, small_cpu, string_closes, string_cpu, closes, spent = self.run_async(body(), timeout=120)
        note(f"wide JSON: 200 connections cost {spent:.2f} s of server CPU with 64 KB of {{}}, {small_cpu:.2f} s "
             f"with a small refused message, {string_cpu:.2f} s with 64 KB in one string")
        self.assertEqual(edges[0][0], 1008)
        self.assertNotEqual(edges[0][1], reason, "240 values are within the bound")
        self.assertEqual(edges[1], (1008, reason))
        self.assertEqual(len(closes), 200)
        self.assertEqual(set(closes), {(1008, reason)})
        self.assertEqual({code for code, _ in small_closes}, {1008})
        self.assertEqual({code for code, _ in string_closes}, {1008})
        self.assertLessEqual(spent, 1.5 * string_cpu, "server CPU of 200 wide messages against 200 as long")

    def test_signals_reach_only_joined(self):
        """A joined participant's offer to a participant connected but still in its lobby (never joined), and
        its offer and ICE candidate to one that joined and left, each get {"type": "error", "message": "no
        participant ID in the call"} and reach nobody; the same offer to a joined participant is relayed."""
        server = self.serve()
        url = f"ws://127.0.0.1:{server.port}/v1/call?call=lobby"
        candidate = json.dumps({"candidate": "candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host",
                                "sdpMid": "0", "sdpMLineIndex": 0})

        async def body():
            sockets = {}
            for name in ("sender", "lobby", "gone", "member"):
                ws = await websockets.connect(url)
                sockets[name] = (ws, json.loads(await ws.recv())["id"])
            ids = {name: pid for name, (_, pid) in sockets.items()}
            signals = {name: [] for name in sockets}
            errors = asyncio.Queue()
            members = {}

            async def read(name, ws):
                async for message in ws:
                    m = json.loads(message)
                    if m["type"] == "signal":
                        signals[name].append(m)
                    elif m["type"] == "error" and name == "sender":
                        errors.put_nowait(m)
                    elif m["type"] == "joined" and name == "sender":
                        members[m["participant"]["id"]] = True
                    elif m["type"] == "left" and name == "sender":
                        members[m["id"]] = False
            reading = [asyncio.ensure_future(read(name, ws)) for name, (ws, _) in sockets.items()]

            async def until(predicate):
                for _ in range(500):
                    if predicate():
                        return
                    await asyncio.sleep(0.01)
                raise AssertionError("presence did not settle")
            for name in ("sender", "gone", "member"):
                await sockets[name][0].send(json.dumps({"type": "join", "name": name}))
            await until(lambda: all(members.get(ids[n]) for n in ("sender", "gone", "member")))
            await sockets["gone"][0].send(json.dumps({"type": "leave"}))
            await until(lambda: members.get(ids["gone"]) is False)
            sender = sockets["sender"][0]
            answers = []
            for to, text in [("lobby", offer(ids["lobby"], description())), ("gone", offer(ids["gone"], description())),
                             ("gone", f'{{"type":"signal","to":"{ids["gone"]}","data":{{"candidate":{candidate}}}}}')]:
                await sender.send(text)
                answers.append((to, await asyncio.wait_for(errors.get(), 5)))
            await sender.send(offer(ids["member"], description()))
            await until(lambda: signals["member"])
            await asyncio.sleep(0.5)
            for ws, _ in sockets.values():
                await ws.close()
            for task in reading:
                task.cancel()
            return ids, answers, signals

        ids, answers, signals = self.run_async(body())
        for to, answer in answers:
            self.assertEqual(answer, {"type": "error", "message": f"no participant {ids[to]} in the call"}, to)
        self.assertEqual(signals["lobby"], [], "signals that reached the participant in its lobby")
        self.assertEqual(signals["gone"], [], "signals that reached the participant that left")
        self.assertEqual([m["from"] for m in signals["member"]], [ids["sender"]])
        note("signals to a participant in its lobby or gone: 3 answered with an error, none delivered")



def http(port, request, timeout=15.0):
    """Sends raw bytes (a request, or what passes for one) and returns (seconds, the answer's first bytes)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(timeout)
        start = time.monotonic()
        if request:
            sock.sendall(request)
        try:
            answer = sock.recv(4096)
        except socket.timeout:
            answer = b"(no answer)"
        return time.monotonic() - start, answer


class Admission(unittest.TestCase):
    """What a TCP connection gets before it is a WebSocket: the connection guard, the Host check, the pages'
    headers, refusals a page can read, tokens."""

    def setUp(self):
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            s.stop()

    def serve(self, *options, env=None, preexec=None):
        server = Server(*options, env=env) if preexec is None else None
        if preexec is not None:
            # A server under a lower file limit: Popen with a preexec function.
            server = Server.__new__(Server)
            server.process = subprocess.Popen([BINARY, "serve", "--port", "0", *options], stdout=subprocess.PIPE,
                                              stderr=subprocess.STDOUT, text=True, env=env, preexec_fn=preexec)
            server.lines, server.port = started(server.process)
            server.pid = server.process.pid
            server.drain = threading.Thread(target=server._drain, daemon=True)
            server.drain.start()
        self.servers.append(server)
        return server

    def test_heads_that_never_end(self):
        """A head sent half (slowloris) and a TLS hello on the plain port are answered 408 at 10 s and closed; a
        head over 32 KiB (a 200 KB token in the query) is answered 431 at once; a Content-Length of -1, which
        the HTTP parser chokes on without answering, 400 at once. Each answer carries nosniff and the pages'
        Content-Security-Policy. A plain request beside them is served."""
        server = self.serve()
        answers = {}

        def attempt(name, data):
            answers[name] = http(server.port, data)
        threads = [threading.Thread(target=attempt, args=args) for args in [
            ("slowloris", b"GET / HTTP/1.1\r\nHost: localhost\r\nX-a: b\r\n"),
            ("tls", bytes.fromhex("160301002a0100002603035a") + bytes(40)),
            ("big", b"GET /v1/call?call=x&token=" + b"a" * 200_000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            ("length", b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n"),
        ]]
        for t in threads:
            t.start()
        time.sleep(0.5)
        seconds, ok = http(server.port, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        self.assertTrue(ok.startswith(b"HTTP/1.1 200"), ok)
        for t in threads:
            t.join(20)
        for name, status, within in [("slowloris", b"408", (9, 12)), ("tls", b"408", (9, 12)), ("big", b"431", (0, 2)),
                                     ("length", b"400", (0, 2))]:
            seconds, answer = answers[name]
            self.assertTrue(answer.startswith(b"HTTP/1.1 " + status), f"{name}: {answer[:80]!r}")
            self.assertTrue(within[0] <= seconds <= within[1], f"{name}: answered after {seconds:.1f} s")
            head = answer.split(b"\r\n\r\n")[0].lower()
            self.assertIn(b"x-content-type-options: nosniff", head, name)
            self.assertIn(b"content-security-policy: default-src 'self'", head, name)

    def test_dns_rebinding(self):
        """A request naming another host (a page whose name was rebound to 127.0.0.1) is refused with 421 and the
        flag that allows it, without repeating the name sent; with --allow-host that name is served; the
        server's own names always are."""
        server = self.serve()
        _, answer = http(server.port, b"GET / HTTP/1.1\r\nHost: attacker.example:8080\r\n\r\n")
        self.assertTrue(answer.startswith(b"HTTP/1.1 421"), answer[:80])
        self.assertIn(b"this server does not answer to the host this request names; start it with --allow-host and "
                      b"that name", answer)
        self.assertNotIn(b"attacker.example", answer, "the answer repeats the name the request sent")
        for host in (b"localhost", b"127.0.0.1:9", b"[::1]"):
            _, answer = http(server.port, b"GET /healthz HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
            self.assertTrue(answer.startswith(b"HTTP/1.1 200"), (host, answer[:80]))
        named = self.serve("--allow-host", "calls.example")
        _, answer = http(named.port, b"GET /healthz HTTP/1.1\r\nHost: calls.example\r\n\r\n")
        self.assertTrue(answer.startswith(b"HTTP/1.1 200"), answer[:80])

    def test_pages(self):
        """/app.js%00.html (the file system would read app.js, the type map would say HTML) is refused with 400;
        pages carry X-Content-Type-Options: nosniff and a Content-Security-Policy of the server's own origin."""
        server = self.serve()
        _, answer = http(server.port, b"GET /app.js%00.html HTTP/1.1\r\nHost: localhost\r\n\r\n")
        self.assertTrue(answer.startswith(b"HTTP/1.1 400"), answer[:80])
        _, answer = http(server.port, b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        head = answer.split(b"\r\n\r\n")[0].lower()
        self.assertIn(b"x-content-type-options: nosniff", head)
        self.assertIn(b"content-security-policy: default-src 'self'", head)

    def test_connection_caps(self):
        """Under a 512-descriptor limit, 520 idle sockets: past the cap (the limit less 64) each is answered 503
        and closed, the server spins no core (accept never fails), and once the idle ones are closed at the
        head timeout a request is served. One address past --max-connections-per-address gets 503 too."""
        import resource

        def limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512))
        server = self.serve("--max-connections-per-address", "10000", preexec=limit)
        socks = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(520)]
        time.sleep(1)
        cpu = server.cpu()
        time.sleep(3)
        spent = server.cpu() - cpu
        refused = 0
        for s in socks:
            s.settimeout(0.2)
            try:
                refused += s.recv(32).startswith(b"HTTP/1.1 503")
            except OSError:
                pass
        note(f"520 idle sockets under 512 descriptors: {refused} answered 503, {spent:.2f} s of CPU in 3 s")
        self.assertGreaterEqual(refused, 520 - 448)
        self.assertLess(spent, 0.5, "the server spins")
        time.sleep(8)  # the head timeout closes the idle ones
        for s in socks:
            s.close()
        _, answer = http(server.port, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        self.assertTrue(answer.startswith(b"HTTP/1.1 200"), answer[:80])
        few = self.serve("--max-connections-per-address", "5")
        held = [socket.create_connection(("127.0.0.1", few.port)) for _ in range(5)]
        time.sleep(0.3)
        _, answer = http(few.port, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        self.assertTrue(answer.startswith(b"HTTP/1.1 503"), answer[:80])
        self.assertIn(b"the most one address may", answer)
        for s in held:
            s.close()

    def test_refusals_a_page_can_read(self):
        """With invitations on, a WebSocket upgrade without a token opens and closes at once with 4401 and the
        reason (the WebSocket layer alone could only answer a bare 400, which a page's script cannot read);
        /v1/vad asks for a token of its own (`miccheck token --vad`) and opens with one."""
        env = dict(os.environ, MICCHECK_TOKEN_SECRET="s" * 32)
        server = self.serve(env=env)
        for path, reason in [("/v1/call?call=standup", "needs a join token"), ("/v1/vad", "miccheck token --vad")]:
            raw = RawSocket(server.port, path)
            code, text = raw.read_close()
            raw.close()
            self.assertEqual(code, 4401, path)
            self.assertIn(reason, text)
        token = subprocess.run([BINARY, "token", "--vad"], env=env, check=True, capture_output=True,
                               text=True).stdout.strip()
        raw = RawSocket(server.port, f"/v1/vad?token={token}")
        self.assertEqual(raw.read_text()["type"], "session.created")
        raw.close()

    def test_unthrottled_stream_is_paced(self):
        """A /v1/vad client sending audio as fast as the socket takes it is analysed no faster than the pace after
        a 2 s burst (the default is 4x real time, announced in session.created): at --max-audio-speed 1, 10 s of
        audio take at least 8 s; with --max-audio-speed 0 (batch clients) they take what the analysis takes."""
        with wave.open(WAV) as w:
            rate, pcm = w.getframerate(), w.readframes(w.getnframes())
        audio = (pcm * (10 * rate * 2 // len(pcm) + 1))[:10 * rate * 2]

        async def stream(port):
            async with websockets.connect(f"ws://127.0.0.1:{port}/v1/vad?sample_rate={rate}", max_size=1 << 20) as ws:
                created = json.loads(await ws.recv())
                start = time.monotonic()
                for i in range(0, len(audio), 6400):
                    await ws.send(audio[i:i + 6400])
                await ws.send(json.dumps({"type": "close_stream"}))
                async for message in ws:
                    if json.loads(message)["type"] == "session.closed":
                        return created["session"]["max_audio_speed"], time.monotonic() - start
        speed, _ = self.run_async(stream(self.serve().port))
        self.assertEqual(speed, 4)
        _, paced = self.run_async(stream(self.serve("--max-audio-speed", "1").port))
        _, free = self.run_async(stream(self.serve("--max-audio-speed", "0").port))
        note(f"10 s of audio sent unthrottled: analysed in {paced:.1f} s at 1x, {free:.1f} s unbounded")
        self.assertGreaterEqual(paced, 7.8)
        self.assertLess(free, paced - 2)

    def test_pace_credit_has_a_ceiling(self):
        """A /v1/vad stream that sends 20 ms of audio, then only keep_alive for 12 s, then 60 s of audio as fast as
        the socket takes it, at --max-audio-speed 4: its unused credit was capped at the 2 s burst, so the 60 s
        take at least (60 - 2) / 4 = 14.5 s to be analysed (with no ceiling, 12 s of waiting would have bought
        48 s of burst)."""
        with wave.open(VOICE) as w:
            rate, pcm = w.getframerate(), w.readframes(w.getnframes())
        burst = (pcm * (60 * rate * 2 // len(pcm) + 1))[:60 * rate * 2]
        server = self.serve("--max-audio-speed", "4", "--idle-timeout", "30")

        async def stream():
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/v1/vad?sample_rate={rate}",
                                          max_size=1 << 20) as ws:
                await ws.recv()
                closed = asyncio.get_running_loop().create_future()

                async def read():
                    async for message in ws:
                        if json.loads(message)["type"] == "session.closed" and not closed.done():
                            closed.set_result(time.monotonic())
                reading = asyncio.ensure_future(read())
                await ws.send(burst[:rate * 2 // 50])
                for _ in range(12):
                    await asyncio.sleep(1.0)
                    await ws.send(json.dumps({"type": "keep_alive"}))
                start = time.monotonic()
                for i in range(0, len(burst), 6400):
                    await ws.send(burst[i:i + 6400])
                await ws.send(json.dumps({"type": "close_stream"}))
                end = await asyncio.wait_for(closed, 40)
                reading.cancel()
                return end - start

        analysed = self.run_async(stream(), timeout=70)
        note(f"pace ceiling: 60 s of audio after 12 s of keep_alive analysed in {analysed:.1f} s at 4x "
             "(the floor: 14.5 s)")
        self.assertGreaterEqual(analysed, 14.0, "60 s of audio after a 12 s pause, at 4x real time")

    def test_address_prefix_cap(self):
        """Under `--max-connections-per-address 4 --ipv4-prefix 24`, idle connections from 127.0.0.2 to
        127.0.0.9 count as one address: the first four are held, the next four answered 503 "127.0.0.0/24
        holds 4 connections, the most one address may" (with nosniff and the pages' Content-Security-Policy).
        With the default prefix (/32) the same eight are held, and a fifth from 127.0.0.2 gets 503 naming the
        bare address."""
        page = ask(self.serve().port, b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        policy = page[1]["content-security-policy"]

        def connect(port, addresses):
            """Sockets from each address in turn, and what each was answered within 0.5 s (None: nothing)."""
            socks, answers = [], []
            for address in addresses:
                s = socket.socket()
                s.bind((address, 0))
                s.connect(("127.0.0.1", port))
                socks.append(s)
                time.sleep(0.05)
            time.sleep(0.3)
            for s in socks:
                s.settimeout(0.5)
                try:
                    answers.append(read_answer(s))
                except TimeoutError:
                    answers.append(None)
            return socks, answers

        held = []
        try:
            narrow = self.serve("--max-connections-per-address", "4", "--ipv4-prefix", "24")
            socks, answers = connect(narrow.port, [f"127.0.0.{n}" for n in range(2, 10)])
            held += socks
            self.assertEqual(answers[:4], [None] * 4, "the first four connections of 127.0.0.0/24")
            for answer in answers[4:]:
                self.assertIsNotNone(answer, "a connection past the cap was not answered")
                status, headers, body = answer
                self.assertEqual(status, 503)
                self.assertIn(b"127.0.0.0/24 holds 4 connections, the most one address may", body)
                self.assertEqual(headers.get("x-content-type-options"), "nosniff")
                self.assertEqual(headers.get("content-security-policy"), policy)
            wide = self.serve("--max-connections-per-address", "4")
            socks, answers = connect(wide.port, [f"127.0.0.{n}" for n in range(2, 10)])
            held += socks
            self.assertEqual(answers, [None] * 8, "eight addresses under the default prefix")
            socks, answers = connect(wide.port, ["127.0.0.2"] * 4)
            held += socks
            self.assertEqual(answers[:3], [None] * 3)
            self.assertIsNotNone(answers[3], "a fifth connection from 127.0.0.2 was not answered")
            self.assertEqual(answers[3][0], 503)
            self.assertIn(b"127.0.0.2 holds 4 connections, the most one address may", answers[3][2])
            note("per-address cap by prefix: 127.0.0.2-9 under /24: 4 held, 4 answered 503; under /32: 8 held")
        finally:
            for s in held:
                s.close()

    def test_error_answers_carry_the_headers(self):
        """Every error answer (400, 401, 403, 404, 421) carries X-Content-Type-Options: nosniff and the
        Content-Security-Policy the pages carry; the 421 and the 403 do not repeat the host or the origin the
        request named (a page could have it shown as the server's words). A WebSocket upgrade from that origin
        opens and closes with 4403 and the same sentence."""
        server = self.serve(env=token_env())
        status, headers, _ = ask(server.port, b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        self.assertEqual(status, 200)
        policy = headers["content-security-policy"]
        refused_host = (b"this server does not answer to the host this request names; start it with --allow-host and "
                        b"that name")
        refused_origin = b"pages from this origin may not connect; start the server with --allow-origin and that origin"
        cases = [
            (b"GET /app.js%00.html HTTP/1.1\r\nHost: localhost\r\n\r\n", 400, None, None),
            (b"GET /v1/calls/x HTTP/1.1\r\nHost: localhost\r\n\r\n", 401, None, None),
            (b"GET /v1/vad HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n\r\n", 403, refused_origin,
             b"evil.example"),
            (b"GET /no-such-page.html HTTP/1.1\r\nHost: localhost\r\n\r\n", 404, None, None),
            (b"GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n", 421, refused_host, b"attacker.example"),
        ]
        for request, expected, sentence, echoed in cases:
            answer = ask(server.port, request)
            self.assertIsNotNone(answer, request)
            status, headers, body = answer
            line = request.split(b"\r\n")[0]
            self.assertEqual(status, expected, line)
            self.assertEqual(headers.get("x-content-type-options"), "nosniff", line)
            self.assertEqual(headers.get("content-security-policy"), policy, line)
            if sentence:
                self.assertIn(sentence, body, line)
                self.assertNotIn(echoed, body, line)
        raw = RawSocket(server.port, "/v1/vad", headers="Origin: http://evil.example\r\n")
        closing = raw.read_close()
        raw.close()
        self.assertEqual(closing, (4403, refused_origin.decode()))
        note("error answers: 400, 401, 403, 404, 421 each carry nosniff and the pages' Content-Security-Policy")

    def test_kept_alive_heads_get_the_head_timeout(self):
        """On a kept-alive connection, after one whole `GET /healthz` and its answer: half a second head is
        answered 408 (or the connection closed) within the 10 s head timeout, not Hummingbird's 60 s between
        requests; a connection left idle after its answer is closed within the same 10 s."""
        server = self.serve()
        results = {}

        def after_one_request(name, then):
            with socket.create_connection(("127.0.0.1", server.port)) as s:
                s.settimeout(25)
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
                first = read_answer(s)
                start = time.monotonic()
                if then:
                    s.sendall(then)
                try:
                    answer = read_answer(s)
                    if answer is None:
                        answer = "closed"
                except TimeoutError:
                    answer = "no answer"
                results[name] = first, answer, time.monotonic() - start

        threads = [threading.Thread(target=after_one_request, args=args) for args in
                   [("half", b"GET /healthz HTTP/1.1\r\nHost: loc"), ("idle", None)]]
        for t in threads:
            t.start()
        for t in threads:
            t.join(40)
        for name, (first, answer, seconds) in results.items():
            self.assertEqual(first and first[0], 200, name)
            if name == "half" and isinstance(answer, tuple):
                status, headers, _ = answer
                self.assertEqual(status, 408, f"half a head: {answer}")
                self.assertEqual(headers.get("x-content-type-options"), "nosniff")
                self.assertIn("content-security-policy", headers)
            else:
                self.assertEqual(answer, "closed", name)
            self.assertTrue(8.5 <= seconds <= 13, f"{name}: answered or closed after {seconds:.1f} s")
        note("kept-alive connections: half a second head " +
             ("answered 408" if isinstance(results["half"][1], tuple) else str(results["half"][1])) +
             f" after {results['half'][2]:.1f} s; an idle one closed after {results['idle'][2]:.1f} s")
        self.assertEqual(len(results), 2)

    def test_refusals_name_what_is_wrong(self):
        """A /v1/vad token on /v1/call, a call's invitation on /v1/vad, and a token signed with the secret whose
        role is "admin" are refused with what is wrong: a WebSocket upgrade closes at once with 4401 and the
        sentence; GET /v1/calls/ID (and a plain GET /v1/vad) answers 401 with it in its JSON."""
        server = self.serve(env=token_env())
        vad = mint("--vad")
        call = mint("--call", "c1", "--name", "Ada")
        now = int(time.time())
        admin = signed({"call": "c1", "name": "Ada", "role": "admin", "iat": now, "exp": now + 3600})
        for_vad = "this token is for /v1/vad, not a call's invitation"
        for_call = "this token is a call's invitation, not one for /v1/vad (miccheck token --vad)"
        role = 'the join token\'s role "admin" is not one MicCheck knows (host, speaker, listener)'
        for path, reason in [(f"/v1/call?call=c1&token={vad}", for_vad), (f"/v1/vad?token={call}", for_call),
                             (f"/v1/call?call=c1&token={admin}", role)]:
            raw = RawSocket(server.port, path)
            closing = raw.read_close()
            raw.close()
            self.assertEqual(closing, (4401, reason), path.split("token=")[0])
        for path, reason in [(f"/v1/calls/c1?token={vad}", for_vad), (f"/v1/vad?token={call}", for_call),
                             (f"/v1/calls/c1?token={admin}", role)]:
            status, _, body = ask(server.port, f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            self.assertEqual(status, 401, path.split("token=")[0])
            self.assertIn(reason, strings_in(json.loads(body)), path.split("token=")[0])
        # The tokens themselves are good where they belong.
        raw = RawSocket(server.port, f"/v1/call?call=c1&token={call}")
        self.assertEqual(raw.read_text()["type"], "welcome")
        raw.close()
        status, _, _ = ask(server.port, f"GET /v1/calls/c1?token={call} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
        self.assertEqual(status, 200)

    def run_async(self, coroutine, timeout=60):
        return asyncio.run(asyncio.wait_for(coroutine, timeout))

def main():
    global BINARY
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    BINARY = sys.argv[1]
    result = unittest.main(argv=[sys.argv[0]] + sys.argv[2:], exit=False, verbosity=2).result
    failed = len({id(test) for test, _ in result.failures + result.errors})
    for line in FIGURES:
        print(line)
    print(f"security: {result.testsRun - failed} passed, {failed} failed")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
