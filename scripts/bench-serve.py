#!/usr/bin/env python3
"""Load and delay of `miccheck serve`'s /v1/vad on loopback: N streams sent in real time, each a WAV file's
16-bit PCM in blocks of B ms, from one client process (asyncio, `websockets` from PyPI).

Event delay: from the moment the block holding the deciding frame (the event's audio_ms plus the model's
30 ms look-ahead) was sent, to the moment its speech_started arrived: what the server adds beyond the
detector's own latency. Also: the server's CPU per stream (from /proc), its memory per connection (RSS
with the streams open less before), and whether every event was on time (delay under 100 ms).

usage: bench-serve.py MICCHECK_BINARY [--streams 1,100,500] [--block-ms 20] [--seconds 20] [--wav FILE]
"""
import argparse
import asyncio
import json
import os
import re
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


async def stream(port, pcm, rate, block_ms, seconds, delays, counts, start_at):
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


async def run(port, pid, n, pcm, rate, block_ms, seconds):
    delays, counts = [], {}
    cpu0, rss0 = proc_stats(pid)
    start_at = time.perf_counter() + 2 + n * 0.004
    tasks = [asyncio.create_task(stream(port, pcm, rate, block_ms, seconds, delays, counts, start_at))
             for _ in range(n)]
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
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--streams", default="1,100,500")
    p.add_argument("--block-ms", type=int, default=20)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--wav", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus",
                                                 "clean_01_asterisk-en-allison.wav"))
    a = p.parse_args()
    with wave.open(a.wav) as w:
        rate, pcm = w.getframerate(), w.readframes(w.getnframes())
    server = subprocess.Popen([a.binary, "serve", "--port", "0", "--idle-timeout", "60"], stdout=subprocess.PIPE,
                              text=True)
    port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
    try:
        for n in [int(x) for x in a.streams.split(",")]:
            print(json.dumps(asyncio.run(run(port, server.pid, n, pcm, rate, a.block_ms, a.seconds))), flush=True)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
