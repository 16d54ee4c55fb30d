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
socket takes it. Reported for the honest streams: levels expected (one per 100 ms of audio) and received,
speech_started events beside the run without attackers, the event delay, and the server's CPU and memory.

usage: bench-serve.py MICCHECK_BINARY [--streams 1,100,500] [--block-ms 20] [--seconds 20] [--wav FILE]
                      [--adversary [--streams 100] [--adversaries 2]]
"""
import argparse
import asyncio
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time
import wave

import websockets

LOOKAHEAD_MS = 30


def proc_stats(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    with open(f"/proc/{pid}/status") as f:
        rss = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
    return ticks / os.sysconf("SC_CLK_TCK"), rss


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


async def run(port, pid, n, pcm, rate, block_ms, seconds, adversaries=None):
    """adversaries: None, the plain benchmark; 0, with the figures of --adversary but no attackers; K, beside
    K attackers of each kind."""
    delays, counts = [], {}
    cpu0, rss0 = proc_stats(pid)
    start_at = time.perf_counter() + 2 + n * 0.004
    tasks = [asyncio.create_task(stream(port, pcm, rate, block_ms, seconds, delays, counts, start_at,
                                        tolerate=adversaries is not None)) for _ in range(n)]
    if adversaries is not None:
        attackers = subprocess.Popen([sys.executable, __file__, "--adversary-worker", str(port), str(seconds + 2),
                                      str(adversaries)], stdout=subprocess.PIPE, text=True) if adversaries else None
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
    }


# MARK: the attackers (a process of their own, so that their work does not delay the honest client's loop)

NESTED = '{"type":"keep_alive","a":' + "[" * 510 + "]" * 510 + "}"


def frame(opcode, payload=b"", fin=True):
    """A masked client frame (RFC 6455 5.2) with a zero mask key (the payload goes as it is)."""
    n = len(payload)
    length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
    return bytes([(0x80 if fin else 0) | opcode]) + length + b"\0\0\0\0" + payload


async def raw_open(port, path, rcvbuf=None):
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
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


async def attack(port, seconds, k):
    """k clients of each kind until `seconds` have passed; what each achieved, counted."""
    deadline = time.monotonic() + seconds
    stats = {"nested_closed_1008": 0, "continuation_floods_closed_1009": 0, "never_readers_dropped": 0,
             "never_reader_descriptions": 0, "unthrottled_audio_s": 0.0, "errors": 0}
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

    await asyncio.gather(*(f() for _ in range(k) for f in (nested, continuations, unthrottled)),
                         *(never_reader(i) for i in range(k)))
    return stats


def main():
    if sys.argv[1:2] == ["--adversary-worker"]:
        port, seconds, k = int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
        print(json.dumps(asyncio.run(attack(port, seconds, k))), flush=True)
        return 0
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--streams", default="1,100,500")
    p.add_argument("--block-ms", type=int, default=20)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--adversary", action="store_true",
                   help="each count of streams alone, then beside attackers (default streams: 100)")
    p.add_argument("--adversaries", type=int, default=2, help="attackers of each kind (with --adversary)")
    p.add_argument("--wav", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus",
                                                 "clean_01_asterisk-en-allison.wav"))
    a = p.parse_args()
    if a.adversary and "--streams" not in " ".join(sys.argv):
        a.streams = "100"
    with wave.open(a.wav) as w:
        rate, pcm = w.getframerate(), w.readframes(w.getnframes())
    server = subprocess.Popen([a.binary, "serve", "--port", "0", "--idle-timeout", "60"], stdout=subprocess.PIPE,
                              text=True)
    port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
    try:
        for n in [int(x) for x in a.streams.split(",")]:
            alone = asyncio.run(run(port, server.pid, n, pcm, rate, a.block_ms, a.seconds, 0 if a.adversary else None))
            print(json.dumps(alone), flush=True)
            if a.adversary:
                beside = asyncio.run(run(port, server.pid, n, pcm, rate, a.block_ms, a.seconds, a.adversaries))
                print(json.dumps(beside), flush=True)
                print(json.dumps({
                    "streams": n, "levels_expected": beside["levels_expected"],
                    "levels_alone": alone["levels"], "levels_beside_adversaries": beside["levels"],
                    "levels_lost": beside["levels_expected"] - beside["levels"],
                    "streams_cut_alone": alone["streams_cut"], "streams_cut_beside_adversaries": beside["streams_cut"],
                    "speech_started_alone": alone["speech_started_events"],
                    "speech_started_beside_adversaries": beside["speech_started_events"],
                    "delay_p99_ms_alone": alone["delay_p99_ms"],
                    "delay_p99_ms_beside_adversaries": beside["delay_p99_ms"],
                    "server_cpu_percent_of_a_core": beside["server_cpu_percent_of_a_core"],
                    "server_rss_mib_peak_over_start": beside["server_rss_mib_peak_over_start"],
                }), flush=True)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
