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


class Server:
    """One `miccheck serve --port 0` with `options`; its output is kept (a thread drains it)."""

    def __init__(self, *options, env=None):
        self.process = subprocess.Popen([BINARY, "serve", "--port", "0", *options], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, env=env)
        first = self.process.stdout.readline()
        self.lines = [first]
        match = re.search(r":(\d+)/", first)
        if not match:
            raise AssertionError(f"serve did not start: {first!r} {self.process.stdout.read()}")
        self.port = int(match.group(1))
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

    def __init__(self, port, path, rcvbuf=None, timeout=10.0):
        self.sock = socket.socket()
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
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


FIGURES = []


def note(line):
    """A figure worth seeing beside the verdict (printed at the end)."""
    FIGURES.append(line)


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

        async def attacker(message, closes):
            for _ in range(46):
                async with websockets.connect(f"ws://127.0.0.1:{server.port}/v1/vad") as ws:
                    await ws.send(message)
                    closes.append(await closed_with(ws))

        async def attack(message):
            closes = []
            cpu = server.cpu()
            await asyncio.gather(*(attacker(message, closes) for _ in range(8)))
            return closes, server.cpu() - cpu

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
            first = server.process.stdout.readline()
            server.lines = [first]
            server.port = int(re.search(r":(\d+)/", first).group(1))
            server.pid = server.process.pid
            server.drain = threading.Thread(target=server._drain, daemon=True)
            server.drain.start()
        self.servers.append(server)
        return server

    def test_heads_that_never_end(self):
        """A head sent half (slowloris) and a TLS hello on the plain port are answered 408 at 10 s and closed; a
        head over 32 KiB (a 200 KB token in the query) is answered 431 at once; a Content-Length of -1, which
        the HTTP parser chokes on without answering, 400 at once. A plain request beside them is served."""
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

    def test_dns_rebinding(self):
        """A request naming another host (a page whose name was rebound to 127.0.0.1) is refused with 421 and the
        flag that allows it; with --allow-host that name is served; the server's own names always are."""
        server = self.serve()
        _, answer = http(server.port, b"GET / HTTP/1.1\r\nHost: attacker.example:8080\r\n\r\n")
        self.assertTrue(answer.startswith(b"HTTP/1.1 421"), answer[:80])
        self.assertIn(b"--allow-host attacker.example", answer)
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
        token = subprocess.run([BINARY, "token", "--vad"], env=env, check=True, capture_output=True, text=True).stdout.strip()
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
