#!/usr/bin/env python3
"""Load and delay of `miccheck serve`'s /v1/vad on loopback: N streams sent in real time, each a WAV file's
16-bit PCM in blocks of B ms, from one client process (asyncio, `websockets` from PyPI).

Event delay: from the moment the block holding the deciding frame (the event's audio_ms plus the model's
30 ms look-ahead) was sent, to the moment its speech_started arrived: what the server adds beyond the
detector's own latency. Also: the server's CPU per stream (from /proc), its memory per connection (RSS
with the streams open less before), and whether every event was on time (delay under 100 ms).

With --adversary, each count of honest streams runs twice in one invocation: alone, then beside attackers
from a second process (--adversaries K of each kind, Guides/Security.md): clients sending JSON nested 511
deep, clients sending a text frame then 100,000 empty continuation frames, /v1/call participants that never
read while another sends them 32 KiB session descriptions, and /v1/vad streams that send PCM as fast as the
socket takes it, and in one call (adversary-flood-*): speakers toggling their devices as fast as their
sockets take it and listeners looping join/leave (reconnecting when they are closed). Reported for the
honest streams: levels expected (one per 100 ms of audio) and received, speech_started events beside the
run without attackers, the event delay (p99 target: 100 ms), and the server's CPU and memory.

Honest in that call, in both runs: --slow-readers participants that join, stream the WAV in real time (20 ms
blocks; it must be 16 kHz) and read what they are sent no faster than --slow-read-rate bytes a second (a
4 KiB SO_RCVBUF and paced reads on a raw socket), and a prober that toggles its camera twice a second.
Reported for the slow readers: how many were cut (must be 0), their meters (`microphone`, one per 100 ms of
audio) received and the longest gaps between them, the delay of the prober's toggles as they read them,
and how many of the flooders' updates reached them.

With --presence URL (or `private`: a cluster of scripts/postgres-server.sh in a temporary folder), two
nodes share presence through that PostgreSQL: everything above goes to node 1, and an observer in the call
on node 2 measures the prober's cross-node delay (p99 target: 50 ms) and counts the flood's updates.

It needs `websockets` from PyPI: .build/presence-venv/bin/python (made by `bash scripts/presence-tests.sh`;
--presence private needs its Debian postgresql too) or .build/security-venv/bin/python.

usage: bench-serve.py MICCHECK_BINARY [--streams 1,100,500] [--block-ms 20] [--seconds 20] [--wav FILE]
                      [--adversary [--streams 100] [--adversaries 2] [--slow-readers 4]
                       [--slow-read-rate 32768] [--presence URL|private]]
"""
import argparse
import asyncio
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import wave

import websockets

from serve_process import ServeProcess, proc_stats

LOOKAHEAD_MS = 30
VAD_DELAY_TARGET_MS = 100  # p99 of the honest /v1/vad streams' event delay
CROSS_NODE_TARGET_MS = 50  # p99 of a presence change from node 1 to node 2
PROBE_INTERVAL = 0.5  # seconds between the prober's camera toggles (under any presence budget)
PRESENCE_RATE, PRESENCE_BURST = 5, 20  # serve's --presence-changes-per-second default, and its burst (4x)


async def stream(port, pcm, rate, block_ms, seconds, delays, counts, start_at, tolerate=False):
    """tolerate: a stream the server closes or drops is counted (counts["streams_cut"]), not raised."""
    if tolerate:
        try:
            return await stream(port, pcm, rate, block_ms, seconds, delays, counts, start_at)
        except (OSError, asyncio.TimeoutError, websockets.ConnectionClosed, websockets.InvalidHandshake) as e:
            counts["streams_cut"] = counts.get("streams_cut", 0) + 1
            why = counts.setdefault("cut_because", {})
            why[str(e)[:80]] = why.get(str(e)[:80], 0) + 1
            return
    block = rate * block_ms // 1000 * 2
    sent = []  # (audio end ms, wall time)
    async with websockets.connect(f"ws://127.0.0.1:{port}/v1/vad?sample_rate={rate}", max_size=1 << 20) as ws:
        await ws.recv()

        async def reader():
            async for message in ws:
                now = time.perf_counter()
                event = json.loads(message)
                counts[event["type"]] = counts.get(event["type"], 0) + 1
                if event["type"] == "speech_started":
                    deciding = event["audio_ms"] + LOOKAHEAD_MS
                    for end_ms, wall in sent:
                        if end_ms >= deciding:
                            delays.append((now - wall) * 1000)
                            break

        task = asyncio.create_task(reader())
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        t0 = time.perf_counter()
        total = int(seconds * rate) * 2
        i = 0
        while i < total:
            chunk = pcm[i % len(pcm): i % len(pcm) + block]
            i += len(chunk)
            due = t0 + i / 2 / rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            await ws.send(chunk)
            sent.append((i / 2 / rate * 1000, time.perf_counter()))
            if len(sent) > 200:
                del sent[:100]
        await ws.send(json.dumps({"type": "close_stream"}))
        await task


def pick(xs, q):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 1) if xs else None


# MARK: the honest side of the flooded call (this process: its figures are the honest clients' view)

class Paced:
    """A StreamReader read no faster than `rate` bytes a second (no burst: a backlog drains at the rate)."""

    def __init__(self, reader, rate):
        self.reader, self.rate, self.due = reader, rate, 0.0

    async def readexactly(self, n):
        out = b""
        while len(out) < n:
            wait = self.due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            chunk = await self.reader.read(min(n - len(out), 1024))
            if not chunk:
                raise asyncio.IncompleteReadError(out, n)
            out += chunk
            self.due = max(self.due, time.perf_counter()) + len(chunk) / self.rate
        return out


def probe_delay(toggles, seen, video, now):
    """The delay (ms) of the prober's toggle to `video` that this client sees now; None for a repeat."""
    if seen.get("video") == video:
        return None
    seen["video"] = video
    for j in range(seen.get("next", 0), len(toggles)):
        if toggles[j][1] == video:
            seen["next"] = j + 1
            return (now - toggles[j][0]) * 1000
    return None


async def slow_reader(port, call, i, pcm, rate, seconds, start_at, read_rate, toggles, prober, out):
    """An honest participant behind a slow link: joins, streams real-time audio in 20 ms blocks, reads at
    `read_rate` bytes a second. `out`: its figures; out["cut"] says why the server cut it, if it did."""
    out.update(cut=None, meters=[], event_delays=[], flood_updates=0, looper_events=0, bytes=0)
    done = [False]
    try:
        reader, writer = await raw_open(port, f"/v1/call?call={call}", rcvbuf=4096, limit=2048)
    except (OSError, ConnectionError, asyncio.IncompleteReadError) as e:
        out["cut"] = f"upgrade: {e}"[:80]
        return
    paced = Paced(reader, read_rate)
    writer.write(frame(0x1, json.dumps({"type": "devices", "audio": True, "video": False}).encode()))
    writer.write(frame(0x1, json.dumps({"type": "join", "name": f"Reader {i}"}).encode()))

    async def speak():
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        block = rate // 50 * 2
        t0 = time.perf_counter()
        for k in range(int(seconds * 50)):
            if writer.is_closing():
                return
            chunk = pcm[(k * block) % len(pcm):(k * block) % len(pcm) + block]
            writer.write(frame(0x2, chunk + b"\0" * (block - len(chunk))))
            await asyncio.sleep(max(0.0, t0 + (k + 1) * 0.02 - time.perf_counter()))

    async def read():
        seen, loopers = {}, set()
        while True:
            opcode, payload = await read_frame(paced)
            now = time.perf_counter()
            out["bytes"] += len(payload) + 2
            if opcode == 0x8:
                if not done[0]:
                    code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
                    out["cut"] = f"{code} {payload[2:].decode(errors='replace')}"[:80]
                return
            if opcode == 0x9:
                writer.write(frame(0xA, payload))
                continue
            if opcode != 0x1:
                continue
            m = json.loads(payload)
            if m["type"] == "microphone":
                if now >= start_at and not done[0]:
                    out["meters"].append(now)
            elif m["type"] == "updated":
                who = m["participant"]
                if who["id"] == prober.get("id"):
                    d = probe_delay(toggles, seen, who["video"], now)
                    if d is not None:
                        out["event_delays"].append(d)
                elif who.get("name") == "Flooder":
                    out["flood_updates"] += 1
            elif m["type"] == "joined" and m["participant"].get("name") == "Looper":
                loopers.add(m["participant"]["id"])
                out["looper_events"] += 1
            elif m["type"] == "left" and m["id"] in loopers:
                out["looper_events"] += 1

    reading = asyncio.create_task(read())
    speaking = asyncio.create_task(speak())
    try:
        await asyncio.wait_for(asyncio.shield(speaking), max(0.0, start_at - time.perf_counter()) + seconds + 5)
        await asyncio.sleep(1)  # what was sent last, read at the pace
        done[0] = True
    except asyncio.TimeoutError:
        done[0] = True
    if reading.done() and out["cut"] is None and reading.exception() is not None:
        out["cut"] = f"{type(reading.exception()).__name__} {reading.exception()}"[:80]
    reading.cancel()
    speaking.cancel()
    await asyncio.gather(reading, speaking, return_exceptions=True)
    if out["cut"] is None and writer.is_closing():
        out["cut"] = "the connection went"
    if not writer.is_closing():
        writer.write(frame(0x8, struct.pack(">H", 1000)))
    writer.close()


async def honest_call(port, port2, call, pcm, rate, seconds, start_at, readers, read_rate):
    """The flooded call's honest members: `readers` slow readers and a prober on node 1 that toggles its
    camera every PROBE_INTERVAL, and with `port2` an observer on node 2. Their figures, when `seconds` are up."""
    toggles, prober, observed = [], {}, {"delays": [], "flood_updates": 0}
    url = f"ws://127.0.0.1:{port}/v1/call?call={call}"
    outs = [{} for _ in range(readers)]
    tasks = [asyncio.create_task(slow_reader(port, call, i, pcm, rate, seconds, start_at, read_rate, toggles,
                                             prober, outs[i])) for i in range(readers)]

    async def drain(ws, record=None):
        try:
            async for message in ws:
                if record:
                    record(json.loads(message), time.perf_counter())
        except websockets.ConnectionClosed:
            pass

    async def quiet(ws):  # an observer says nothing, but must not look idle
        try:
            while True:
                await asyncio.sleep(1)
                await ws.send(b"\0" * 640)
        except websockets.ConnectionClosed:
            pass
    helpers = []
    observer = None
    async with websockets.connect(url, max_size=1 << 22) as ws:
        prober["id"] = json.loads(await ws.recv())["id"]
        await ws.send(json.dumps({"type": "join", "name": "Prober"}))
        helpers.append(asyncio.create_task(drain(ws)))
        if port2:
            observer = await websockets.connect(f"ws://127.0.0.1:{port2}/v1/call?call={call}", max_size=1 << 22)
            await observer.recv()
            await observer.send(json.dumps({"type": "join", "name": "Observer"}))
            seen = {}

            def record(m, now):
                if m["type"] != "updated":
                    return
                who = m["participant"]
                if who["id"] == prober["id"]:
                    d = probe_delay(toggles, seen, who["video"], now)
                    if d is not None:
                        observed["delays"].append(d)
                elif who.get("name") == "Flooder":
                    observed["flood_updates"] += 1
            helpers += [asyncio.create_task(drain(observer, record)), asyncio.create_task(quiet(observer))]
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        video = False
        for k in range(int(seconds / PROBE_INTERVAL)):
            await asyncio.sleep(max(0.0, start_at + PROBE_INTERVAL / 2 + k * PROBE_INTERVAL - time.perf_counter()))
            video = not video
            toggles.append((time.perf_counter(), video))
            await ws.send(json.dumps({"type": "devices", "audio": False, "video": video}))
        await asyncio.gather(*tasks)
        await asyncio.sleep(0.5)
        for h in helpers:
            h.cancel()
        if observer:
            await observer.close()
    meters = [len(o["meters"]) for o in outs]
    gaps = [(b - a) * 1000 for o in outs for a, b in zip(o["meters"], o["meters"][1:])]
    delays = [d for o in outs for d in o["event_delays"]]
    return {
        "slow_readers": readers, "slow_read_bytes_per_second": read_rate,
        "slow_readers_cut": sum(o["cut"] is not None for o in outs),
        "slow_readers_cut_because": sorted({o["cut"] for o in outs if o["cut"]}),
        "slow_reader_meters_expected": readers * int(seconds * 10), "slow_reader_meters": sum(meters),
        "slow_reader_meter_gap_p99_ms": pick(gaps, 0.99), "slow_reader_meter_gap_max_ms": pick(gaps, 1.0),
        "prober_toggles": len(toggles), "slow_reader_event_delays": len(delays),
        "slow_reader_event_delay_median_ms": pick(delays, 0.5), "slow_reader_event_delay_p99_ms": pick(delays, 0.99),
        "slow_reader_event_delay_max_ms": pick(delays, 1.0),
        "slow_reader_bytes_read_per_second": round(sum(o["bytes"] for o in outs) / max(1, readers) / seconds),
        "flood_updates_seen_per_reader": round(sum(o["flood_updates"] for o in outs) / max(1, readers), 1),
        "looper_joins_and_leaves_seen_per_reader": round(sum(o["looper_events"] for o in outs) / max(1, readers), 1),
    } | ({} if not port2 else {
        "cross_node_delays": len(observed["delays"]),
        "cross_node_delay_median_ms": pick(observed["delays"], 0.5),
        "cross_node_delay_p99_ms": pick(observed["delays"], 0.99),
        "cross_node_delay_max_ms": pick(observed["delays"], 1.0),
        "flood_updates_seen_on_node_2": observed["flood_updates"],
    })


async def run(port, pid, n, pcm, rate, block_ms, seconds, adversaries=None, call=None):
    """adversaries: None, the plain benchmark; 0, with the figures of --adversary but no attackers; K, beside
    K attackers of each kind. call: with adversaries, {"readers", "read_rate", "port2", "name"} of the
    flooded call's honest side."""
    delays, counts = [], {}
    cpu0, rss0 = proc_stats(pid)
    start_at = time.perf_counter() + 2 + n * 0.004
    tasks = [asyncio.create_task(stream(port, pcm, rate, block_ms, seconds, delays, counts, start_at,
                                        tolerate=adversaries is not None)) for _ in range(n)]
    if adversaries is not None:
        attackers = subprocess.Popen([sys.executable, __file__, "--adversary-worker", str(port), str(seconds + 2),
                                      str(adversaries), call["name"]], stdout=subprocess.PIPE,
                                     text=True) if adversaries else None
        honest = asyncio.create_task(honest_call(port, call["port2"], call["name"], pcm, rate, seconds, start_at,
                                                 call["readers"], call["read_rate"]))
        peak = [rss0]

        async def sample():
            while True:
                peak[0] = max(peak[0], proc_stats(pid)[1])
                await asyncio.sleep(0.25)
        sampler = asyncio.create_task(sample())
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()) + seconds / 2)
    _, rss_open = proc_stats(pid)
    await asyncio.gather(*tasks)
    cpu1, _ = proc_stats(pid)
    if adversaries is not None:
        counts["call"] = await honest
    delays.sort()
    pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))] if delays else float("nan")
    return {
        "streams": n, "block_ms": block_ms, "seconds": seconds, "speech_started": len(delays),
        "delay_median_ms": round(pick(0.5), 1), "delay_p99_ms": round(pick(0.99), 1),
        "delay_max_ms": round(delays[-1], 1) if delays else None,
        "on_time": sum(d < 100 for d in delays) / len(delays) if delays else None,
        "server_cpu_percent_of_a_core_per_stream": round((cpu1 - cpu0) / (seconds + 2) / n * 100, 3),
        "server_rss_kib_per_connection": round((rss_open - rss0) / n, 1),
        "levels": counts.get("level", 0),
    } | ({} if adversaries is None
         else adversary_figures(attackers, sampler, peak, rss0, cpu1 - cpu0, seconds, n, counts))


def adversary_figures(attackers, sampler, peak, rss0, cpu, seconds, n, counts):
    sampler.cancel()
    out, _ = attackers.communicate(timeout=60) if attackers else ("", None)
    return {
        "adversaries": json.loads(out.strip().splitlines()[-1]) if out.strip() else None,
        "levels_expected": n * int(seconds * 10), "speech_started_events": counts.get("speech_started", 0),
        "streams_cut": counts.get("streams_cut", 0), "cut_because": counts.get("cut_because", {}),
        "server_cpu_percent_of_a_core": round(cpu / (seconds + 2) * 100, 1),
        "server_rss_mib_peak_over_start": round((peak[0] - rss0) / 1024, 1),
    } | counts["call"]


# MARK: the attackers (a process of their own, so that their work does not delay the honest client's loop)

NESTED = '{"type":"keep_alive","a":' + "[" * 510 + "]" * 510 + "}"


def frame(opcode, payload=b"", fin=True):
    """A masked client frame (RFC 6455 5.2) with a zero mask key (the payload goes as it is)."""
    n = len(payload)
    length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
    return bytes([(0x80 if fin else 0) | opcode]) + length + b"\0\0\0\0" + payload


async def raw_open(port, path, rcvbuf=None, limit=2 ** 16):
    """limit: what the StreamReader buffers before it stops reading the socket (twice that, in fact)."""
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=limit)
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head[:40])
    return reader, writer


async def read_frame(reader):
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", await reader.readexactly(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", await reader.readexactly(8))[0]
    return b0 & 0x0F, await reader.readexactly(n)


async def attack(port, seconds, k, call):
    """k clients of each kind until `seconds` have passed; what each achieved, counted. call: the call of the
    presence flooders and the join/leave loopers."""
    deadline = time.monotonic() + seconds
    stats = {"nested_closed_1008": 0, "continuation_floods_closed_1009": 0, "never_readers_dropped": 0,
             "never_reader_descriptions": 0, "unthrottled_audio_s": 0.0, "errors": 0,
             "presence_toggles_sent": 0, "flooders_closed": 0, "looper_joins_sent": 0, "looper_connections": 0,
             "loopers_closed_1008_joins": 0, "call_closed_because": {}}
    url = f"ws://127.0.0.1:{port}/v1/call?call={call}"

    def closed(ws):
        if ws is not None and ws.close_code is not None:
            why = f"{ws.close_code} {ws.close_reason}"[:80]
            stats["call_closed_because"][why] = stats["call_closed_because"].get(why, 0) + 1

    async def drain(ws):
        try:
            async for _ in ws:
                pass
        except websockets.ConnectionClosed:
            pass

    async def flooder():
        """A speaker toggling its camera as fast as its socket takes it (reading what it is sent)."""
        while time.monotonic() < deadline:
            ws = None
            try:
                async with websockets.connect(url, max_size=1 << 22) as ws:
                    await ws.recv()
                    await ws.send(json.dumps({"type": "join", "name": "Flooder"}))
                    drainer = asyncio.create_task(drain(ws))
                    video = False
                    while time.monotonic() < deadline:
                        video = not video
                        await ws.send(json.dumps({"type": "devices", "audio": True, "video": video}))
                        stats["presence_toggles_sent"] += 1
                        if stats["presence_toggles_sent"] % 16 == 0:
                            await asyncio.sleep(0)  # a send the socket takes at once does not yield
                    drainer.cancel()
            except websockets.ConnectionClosed:
                stats["flooders_closed"] += 1
                closed(ws)
            except (OSError, websockets.InvalidHandshake):
                stats["errors"] += 1
                await asyncio.sleep(0.1)

    async def join_looper():
        """A participant joining and leaving as fast as the server answers (each join, then each leave, seen
        come back before the next); closed, it connects again."""
        async def until(ws, done):
            while not done(json.loads(await asyncio.wait_for(ws.recv(), max(1.0, deadline - time.monotonic())))):
                pass
        while time.monotonic() < deadline:
            ws = None
            try:
                async with websockets.connect(url, max_size=1 << 22) as ws:
                    stats["looper_connections"] += 1
                    me = json.loads(await ws.recv())["id"]
                    while time.monotonic() < deadline:
                        await ws.send(json.dumps({"type": "join", "name": "Looper"}))
                        stats["looper_joins_sent"] += 1
                        await until(ws, lambda m: m["type"] == "joined" and m["participant"]["id"] == me)
                        await ws.send(json.dumps({"type": "leave"}))
                        await until(ws, lambda m: m["type"] == "left" and m["id"] == me)
            except websockets.ConnectionClosed:
                stats["loopers_closed_1008_joins"] += ws is not None and ws.close_code == 1008 \
                    and "joins a minute" in (ws.close_reason or "")
                closed(ws)
            except asyncio.TimeoutError:  # the run's end, waiting for an answer
                pass
            except (OSError, websockets.InvalidHandshake):
                stats["errors"] += 1
                await asyncio.sleep(0.1)
    pcm = b"\x10\x00\xf0\xff" * 8000  # 1 s of 16 kHz PCM per message, a square wave

    async def nested():
        while time.monotonic() < deadline:
            ws = None
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/v1/vad") as ws:
                    await ws.send(NESTED)
                    async for _ in ws:
                        pass
            except websockets.ConnectionClosed:
                pass
            except OSError:
                stats["errors"] += 1
            if ws is not None and ws.close_code == 1008:
                stats["nested_closed_1008"] += 1

    async def continuations():
        empty = frame(0x0, fin=False) * 1000
        while time.monotonic() < deadline:
            try:
                reader, writer = await raw_open(port, "/v1/vad")
                writer.write(frame(0x1, b'{"type":', fin=False))
                try:
                    for _ in range(100):
                        writer.write(empty)
                        await asyncio.wait_for(writer.drain(), 2)
                except (ConnectionError, asyncio.TimeoutError):
                    pass
                while True:
                    opcode, payload = await asyncio.wait_for(read_frame(reader), 5)
                    if opcode == 0x8:
                        stats["continuation_floods_closed_1009"] += payload[:2] == b"\x03\xf1"
                        break
                writer.close()
            except (OSError, EOFError, asyncio.IncompleteReadError, asyncio.TimeoutError):
                stats["errors"] += 1
                await asyncio.sleep(0.1)

    async def never_reader(i):
        sdp = ("v=0\r\n" + ("a=x-padding:" + "p" * 60 + "\r\n") * 500)[:32768]
        round_ = 0
        while time.monotonic() < deadline:
            round_ += 1
            call = f"adversary-{i}-{round_}"
            try:
                reader, writer = await raw_open(port, f"/v1/call?call={call}", rcvbuf=4096)
                _, welcome = await read_frame(reader)
                me = json.loads(welcome)["id"]
                writer.write(frame(0x1, json.dumps({"type": "join", "name": "Reader"}).encode()))
                while True:  # its own join, then it never reads again
                    _, payload = await read_frame(reader)
                    m = json.loads(payload)
                    if m["type"] == "joined" and m["participant"]["id"] == me:
                        break

                async def silence():
                    while True:
                        writer.write(frame(0x2, b"\0" * 640))
                        await asyncio.sleep(0.2)
                quiet = asyncio.create_task(silence())
                async with websockets.connect(f"ws://127.0.0.1:{port}/v1/call?call={call}", max_size=1 << 22) as ws:
                    await ws.send(json.dumps({"type": "join", "name": "Sender"}))
                    left = []

                    async def watch():
                        async for message in ws:
                            m = json.loads(message)
                            if m["type"] == "left" and m["id"] == me:
                                left.append(1)
                    watcher = asyncio.create_task(watch())
                    text = json.dumps({"type": "signal", "to": me,
                                       "data": {"description": {"type": "offer", "sdp": sdp}}})
                    while not left and time.monotonic() < deadline:
                        await ws.send(text)
                        stats["never_reader_descriptions"] += 1
                        await asyncio.sleep(0.005)
                    stats["never_readers_dropped"] += bool(left)
                    watcher.cancel()
                quiet.cancel()
                writer.transport.abort()
            except (OSError, EOFError, asyncio.IncompleteReadError, websockets.ConnectionClosed):
                stats["errors"] += 1
                await asyncio.sleep(0.1)

    async def unthrottled():
        while time.monotonic() < deadline:
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/v1/vad", max_size=1 << 22) as ws:
                    async def drain():
                        async for _ in ws:
                            pass
                    drainer = asyncio.create_task(drain())
                    while time.monotonic() < deadline:
                        await ws.send(pcm)
                        stats["unthrottled_audio_s"] += 1
                    drainer.cancel()
            except (OSError, websockets.ConnectionClosed):
                stats["errors"] += 1
                await asyncio.sleep(0.1)

    await asyncio.gather(*(f() for _ in range(k) for f in (nested, continuations, unthrottled, flooder, join_looper)),
                         *(never_reader(i) for i in range(k)))
    return stats


# MARK: the servers

class Server(ServeProcess):
    """One `miccheck serve` (with --presence, a node sharing presence through that PostgreSQL)."""

    def __init__(self, binary, presence=None):
        super().__init__(binary, "--idle-timeout", "60", *(["--presence", presence] if presence else []))


class PrivateCluster:
    """A PostgreSQL of scripts/postgres-server.sh in a temporary folder (--presence private)."""

    def __init__(self):
        self.script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "postgres-server.sh")
        self.dir = tempfile.mkdtemp(prefix="miccheck-bench-pg-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        subprocess.run(["bash", self.script, "start", self.dir, str(port)], check=True)
        self.url = subprocess.run(["bash", self.script, "url", self.dir], check=True, capture_output=True,
                                  text=True).stdout.strip()

    def close(self):
        subprocess.run(["bash", self.script, "stop", self.dir])
        shutil.rmtree(self.dir, ignore_errors=True)


def main():
    if sys.argv[1:2] == ["--adversary-worker"]:
        port, seconds, k, call = int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
        print(json.dumps(asyncio.run(attack(port, seconds, k, call))), flush=True)
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\nusage:")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("binary")
    p.add_argument("--streams", default="1,100,500")
    p.add_argument("--block-ms", type=int, default=20)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--adversary", action="store_true",
                   help="each count of streams alone, then beside attackers (default streams: 100)")
    p.add_argument("--adversaries", type=int, default=2, help="attackers of each kind (with --adversary)")
    p.add_argument("--slow-readers", type=int, default=4,
                   help="honest /v1/call participants that read slowly, in the flooded call (with --adversary)")
    p.add_argument("--slow-read-rate", type=int, default=32768,
                   help="bytes a second each slow reader reads (with --adversary)")
    p.add_argument("--presence", metavar="URL",
                   help="two nodes sharing presence through this PostgreSQL (`private`: a cluster of "
                        "scripts/postgres-server.sh in a temporary folder), with --adversary")
    p.add_argument("--wav", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus",
                                                 "clean_01_asterisk-en-allison.wav"))
    a = p.parse_args()
    if a.presence and not a.adversary:
        p.error("--presence goes with --adversary")
    if a.adversary and "--streams" not in " ".join(sys.argv):
        a.streams = "100"
    with wave.open(a.wav) as w:
        rate, pcm = w.getframerate(), w.readframes(w.getnframes())
    if a.adversary and a.slow_readers and rate != 16000:
        p.error(f"the slow readers stream the WAV to /v1/call, which takes 16 kHz: {a.wav} is {rate} Hz")
    cluster = PrivateCluster() if a.presence == "private" else None
    url = cluster.url if cluster else a.presence
    servers = []
    try:
        servers.append(Server(a.binary, url))
        if url:
            servers.append(Server(a.binary, url))
        port, pid = servers[0].port, servers[0].pid
        port2 = servers[1].port if url else None
        for n in [int(x) for x in a.streams.split(",")]:
            call = {"readers": a.slow_readers, "read_rate": a.slow_read_rate, "port2": port2}
            alone = asyncio.run(run(port, pid, n, pcm, rate, a.block_ms, a.seconds, 0 if a.adversary else None,
                                    call | {"name": f"adversary-flood-{n}-alone"}))
            print(json.dumps(alone), flush=True)
            if a.adversary:
                beside = asyncio.run(run(port, pid, n, pcm, rate, a.block_ms, a.seconds, a.adversaries,
                                         call | {"name": f"adversary-flood-{n}-beside"}))
                print(json.dumps(beside), flush=True)
                both = lambda key: {f"{key}_alone": alone.get(key), f"{key}_beside_adversaries": beside.get(key)}
                print(json.dumps({
                    "streams": n, "levels_expected": beside["levels_expected"],
                    "levels_alone": alone["levels"], "levels_beside_adversaries": beside["levels"],
                    "levels_lost": beside["levels_expected"] - beside["levels"],
                    "streams_cut_alone": alone["streams_cut"], "streams_cut_beside_adversaries": beside["streams_cut"],
                    "speech_started_alone": alone["speech_started_events"],
                    "speech_started_beside_adversaries": beside["speech_started_events"],
                    "delay_p99_ms_alone": alone["delay_p99_ms"],
                    "delay_p99_ms_beside_adversaries": beside["delay_p99_ms"],
                    "delay_p99_target_ms": VAD_DELAY_TARGET_MS,
                    "delay_p99_within_target": all(r["delay_p99_ms"] is not None and r["delay_p99_ms"]
                                                   <= VAD_DELAY_TARGET_MS for r in (alone, beside)),
                    "server_cpu_percent_of_a_core": beside["server_cpu_percent_of_a_core"],
                    "server_rss_mib_peak_over_start": beside["server_rss_mib_peak_over_start"],
                    "slow_readers": a.slow_readers, "slow_read_bytes_per_second": a.slow_read_rate,
                    **both("slow_readers_cut"),
                    "slow_readers_cut_because": alone["slow_readers_cut_because"] + beside["slow_readers_cut_because"],
                    "slow_reader_meters_expected": beside["slow_reader_meters_expected"],
                    **both("slow_reader_meters"), **both("slow_reader_meter_gap_p99_ms"),
                    **both("slow_reader_meter_gap_max_ms"), **both("slow_reader_event_delay_p99_ms"),
                    **both("slow_reader_event_delay_max_ms"),
                    "flood_toggles_sent": (beside["adversaries"] or {}).get("presence_toggles_sent"),
                    "flood_updates_seen_per_reader": beside["flood_updates_seen_per_reader"],
                    "flood_updates_bound": a.adversaries * (PRESENCE_BURST + PRESENCE_RATE * (a.seconds + 2)),
                    "flooder_connections_closed": (beside["adversaries"] or {}).get("flooders_closed"),
                    "looper_joins_sent": (beside["adversaries"] or {}).get("looper_joins_sent"),
                    "looper_connections": (beside["adversaries"] or {}).get("looper_connections"),
                    "loopers_closed_1008_joins": (beside["adversaries"] or {}).get("loopers_closed_1008_joins"),
                    "looper_joins_and_leaves_seen_per_reader": beside["looper_joins_and_leaves_seen_per_reader"],
                } | ({} if not port2 else {
                    **both("cross_node_delay_p99_ms"), **both("cross_node_delay_max_ms"),
                    "cross_node_delay_target_ms": CROSS_NODE_TARGET_MS,
                    "flood_updates_seen_on_node_2": beside["flood_updates_seen_on_node_2"],
                    "database_write_failures_logged": sum(s.count("a write to the database failed") for s in servers),
                    "database_lost_logged": sum(s.count("lost the database") for s in servers),
                    # a repair: members written back, every snapshot read again (a write failed, or a lease
                    # renewal counted fewer of the node's members than it holds)
                    "database_resyncs_logged": sum(s.count("in step with the database") for s in servers),
                })), flush=True)
    finally:
        for s in servers:
            s.stop()
        if cluster:
            cluster.close()


if __name__ == "__main__":
    sys.exit(main())
