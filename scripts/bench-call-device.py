#!/usr/bin/env python3
"""What one `miccheck serve` node spends on call participants whose pages analyse their own microphones
(`/v1/call?analysis=device`: no audio reaches the server, only JSON), and whether it holds N of them.

For each N in --participants, a fresh server (its file limit raised to the hard limit, its per-address
limits lifted: every participant comes from 127.0.0.1) takes N participants in calls of --call-size,
opened at --connect-rate a second by --workers client processes (one asyncio loop each, a lean WebSocket
client on asyncio's protocols, no per-connection task), each a call page's flow as the SDK sends it: on
the welcome, `devices` (microphone on) and `speaking: false`, then `join`; `keep_alive` every 4 s (the
SDK's KEEP_ALIVE_MS); pongs to the server's pings. Once everyone is in, for --seconds:

- in each call, round(--call-size x --speaking-share) turns run at once: a member who is not speaking and
  whose microphone is on speaks for 2 to 6 s (`speaking: true`, stated again every 0.5 s as the SDK's
  RESTATE_MS, then `speaking: false` once), a pause of 0.3 to 1.5 s, the next;
- each participant turns its microphone off for 2 s once every --toggle-every seconds (`devices`), at a
  random phase, never while speaking;
- every participant reads and parses all it is sent.

Reported per N: participants connected and joined, refusals (no welcome) and disconnections (the ramp's
and the hold's) with their close codes and reasons, participants open when the hold starts and ends; the
server's CPU over the hold (% of one core; per participant open, the mean of the hold's start and end;
participants per core at that rate), its CPU in the ramp (% of a core, and per participant opened: a join
with the keep-alives and ticks of those already in), its RSS at the hold's start less at rest (KiB per
open connection); messages the clients received a second; the presence delay, from a speaker's
`speaking: true` to each other member's `updated` showing it speaking (p50/p99/max); speakers the server
stalled (an `updated` saying a speaker stopped while it still spoke: a restatement more than 1 s late);
and the clients' own figures, so that a run the client limited shows: their CPU in the ramp and the hold
(% of a core, all workers) and the lateness of a 100 ms timer in their loops in the hold (p99/max).
Server and client share the machine's cores.

The server's connections are bounded by its file limit: past the hard limit less 64, participants are
refused (503), and the summary says so. Only the standard library is needed.

usage: bench-call-device.py MICCHECK_BINARY [--participants 1000,5000,20000] [--call-size 8] [--seconds 60]
                            [--speaking-share 0.25] [--toggle-every 60] [--connect-rate 300] [--workers 4]
"""
import argparse, asyncio, json, random, resource, struct, subprocess, sys, time

from serve_process import ServeProcess, proc_stats

KEEP_ALIVE_S = 4.0  # the SDK's KEEP_ALIVE_MS (sdk/connection.js)
RESTATE_S = 0.5  # the SDK's RESTATE_MS (sdk/client.js)
TURN_S, PAUSE_S = (2.0, 6.0), (0.3, 1.5)  # a speaking turn, and the pause before the next in its slot
MUTED_S = 2.0  # how long a participant's microphone stays off when it toggles it
ANSWER_TIMEOUT_S = 20.0  # from connecting to the welcome
LAG_PROBE_S = 0.1
SETTLE_S = 3.0  # between the last join and the hold
REST_S = 2.0  # the server's CPU at rest is measured over this, before anyone connects
FD_RESERVE = 64  # what the server keeps of its file limit for itself (serve's own default margin)


def frame(text):
    """A masked client text frame (RFC 6455 5.2) with a zero mask key (the payload goes as it is)."""
    payload = text.encode()
    n = len(payload)
    length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
    return b"\x81" + length + b"\0\0\0\0" + payload


def control(opcode, payload):
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


KEEP_ALIVE = frame('{"type":"keep_alive"}')
SPEAKING = {s: frame(json.dumps({"type": "speaking", "speaking": s})) for s in (True, False)}
DEVICES = {a: frame(json.dumps({"type": "devices", "audio": a, "video": False})) for a in (True, False)}


def pick(xs, q):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 1) if xs else None


def tally(counter, key):
    counter[key] = counter.get(key, 0) + 1


# MARK: the client (a worker process)

class Worker:
    """One process's participants and their figures; `window`: the hold, on time.monotonic()."""

    def __init__(self, loop):
        self.loop = loop
        self.window = (float("inf"), float("inf"))
        self.refused, self.disconnected = {}, {}
        self.connected = self.joined = self.received = self.received_bytes = self.sent = 0
        self.delays, self.lags, self.stalls, self.turns = [], [], 0, 0
        self.stopping = False  # the run is over: the connections that end now are the client's doing

    def in_window(self, now):
        return self.window[0] <= now < self.window[1]


class Call:
    """A call's members, all in one worker, and its speaking turns."""

    def __init__(self, worker, name, size, slots):
        self.worker, self.name, self.size, self.slots = worker, name, size, slots
        self.members = []
        self.speaking_since = {}  # participant id -> when it sent speaking: true

    def member_joined(self):
        if sum(m.joined for m in self.members) == self.size:
            for _ in range(self.slots):
                self.worker.loop.call_later(random.uniform(*PAUSE_S), self.next_turn)

    def next_turn(self):
        free = [m for m in self.members if m.joined and m.open and m.audio and not m.speaking]
        if not free:
            self.worker.loop.call_later(random.uniform(*PAUSE_S), self.next_turn)
            return
        speaker = random.choice(free)
        speaker.speak(True)
        self.worker.loop.call_later(random.uniform(*TURN_S), self.end_turn, speaker)

    def end_turn(self, speaker):
        if speaker.open:
            speaker.speak(False)
        self.worker.loop.call_later(random.uniform(*PAUSE_S), self.next_turn)


class Participant(asyncio.Protocol):
    """One call page analysing its own microphone, as the SDK's client speaks to the server."""

    def __init__(self, call, name, toggle_every):
        self.call, self.worker, self.name, self.toggle_every = call, call.worker, name, toggle_every
        self.transport, self.buffer, self.fragments = None, bytearray(), []
        self.upgraded = self.open = self.joined = self.speaking = False
        self.audio, self.id, self.closed_by = True, None, None
        self.timers = {}  # what is due: keep_alive, toggle, back_on, restate
        self.answered = asyncio.get_running_loop().create_future()

    def connection_made(self, transport):
        self.transport = transport
        transport.write((f"GET /v1/call?call={self.call.name}&analysis=device HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n").encode())

    def send(self, data):
        if self.open:
            self.transport.write(data)
            if self.worker.in_window(time.monotonic()):
                self.worker.sent += 1

    def later(self, key, seconds, fn):
        self.timers[key] = self.worker.loop.call_later(seconds, fn)

    def every(self, key, seconds, fn, first):
        def fire():
            if self.open:
                self.later(key, seconds, fire)
                fn()
        self.later(key, first, fire)

    def data_received(self, data):
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end])
            del self.buffer[:end + 4]
            if not head.startswith(b"HTTP/1.1 101"):
                line = head.split(b"\r\n")[0].decode(errors="replace")
                body = bytes(self.buffer[:120]).decode(errors="replace")
                self.fail(f"{line} {body}".strip()[:100])
                self.transport.close()
                return
            self.upgraded = self.open = True
        while len(self.buffer) >= 2:
            b0, b1 = self.buffer[0], self.buffer[1]
            n, at = b1 & 0x7F, 2
            if n == 126:
                if len(self.buffer) < 4:
                    return
                n, at = struct.unpack_from(">H", self.buffer, 2)[0], 4
            elif n == 127:
                if len(self.buffer) < 10:
                    return
                n, at = struct.unpack_from(">Q", self.buffer, 2)[0], 10
            if len(self.buffer) < at + n:
                return
            payload = bytes(self.buffer[at:at + n])
            del self.buffer[:at + n]
            self.frame(b0 & 0x80, b0 & 0x0F, payload)

    def frame(self, fin, opcode, payload):
        if opcode == 0x9:
            self.send(control(0xA, payload))
        elif opcode == 0x8:
            code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
            self.closed_by = f"close {code} {payload[2:].decode(errors='replace')}"[:100]
            if self.open:
                self.transport.write(control(0x8, payload[:2]))
            self.transport.close()
        elif opcode in (0x1, 0x0):
            self.fragments.append(payload)
            if fin:
                self.message(b"".join(self.fragments))
                self.fragments = []

    def message(self, payload):
        now = time.monotonic()
        w = self.worker
        m = json.loads(payload)
        if w.in_window(now):
            w.received += 1
            w.received_bytes += len(payload)
        kind = m["type"]
        if kind == "welcome":
            self.id = m["id"]
            self.answered.set_result(None)
            w.connected += 1
            self.send(DEVICES[True])
            self.send(SPEAKING[False])
            self.send(frame(json.dumps({"type": "join", "name": self.name})))
            self.every("keep_alive", KEEP_ALIVE_S, lambda: self.send(KEEP_ALIVE), random.uniform(0, KEEP_ALIVE_S))
        elif kind == "joined" and m["participant"]["id"] == self.id and not self.joined:
            self.joined = True
            w.joined += 1
            self.every("toggle", self.toggle_every, self.toggle, random.uniform(0, self.toggle_every))
            self.call.member_joined()
        elif kind == "updated":
            who = m["participant"]
            if who["id"] == self.id:
                if self.speaking and not who["speaking"] and self.audio and w.in_window(now):
                    w.stalls += 1
            elif who["speaking"] and who["id"] in self.call.speaking_since and w.in_window(now):
                w.delays.append((now - self.call.speaking_since[who["id"]]) * 1000)

    def speak(self, speaking):
        self.speaking = speaking
        self.send(SPEAKING[speaking])
        if speaking:
            self.call.speaking_since[self.id] = time.monotonic()
            if self.worker.in_window(time.monotonic()):
                self.worker.turns += 1
            self.later("restate", RESTATE_S, self.restate)
        else:
            self.call.speaking_since.pop(self.id, None)
            self.timers.pop("restate").cancel()

    def restate(self):
        if self.open and self.speaking:
            self.send(SPEAKING[True])
            self.later("restate", RESTATE_S, self.restate)

    def toggle(self):
        if self.speaking:  # not mid-sentence: a little later
            self.later("toggle_deferred", 1.0, self.toggle)
            return
        self.audio = False
        self.send(DEVICES[False])

        def back_on():
            self.audio = True
            self.send(DEVICES[True])
        self.later("back_on", MUTED_S, back_on)

    def fail(self, why):
        tally(self.worker.refused, why)
        if not self.answered.done():
            self.answered.set_result(why)

    def connection_lost(self, exc):
        was_open, self.open = self.open, False
        for t in self.timers.values():
            t.cancel()
        if not self.answered.done():
            self.fail(self.closed_by or f"lost before the welcome: {exc or 'EOF'}")
        elif was_open and not self.worker.stopping:
            tally(self.worker.disconnected, self.closed_by or f"lost: {exc or 'EOF'}")


async def open_one(worker, p, port):
    step = "no connection"
    try:
        await asyncio.wait_for(worker.loop.create_connection(lambda: p, "127.0.0.1", port), ANSWER_TIMEOUT_S)
        step = "no welcome"
        await asyncio.wait_for(asyncio.shield(p.answered), ANSWER_TIMEOUT_S)
    except asyncio.TimeoutError:
        p.fail(f"{step} within {ANSWER_TIMEOUT_S:.0f} s")
    except OSError as e:
        p.fail(f"{type(e).__name__} {e}"[:100])
    if p.answered.result() is not None:
        p.open = False  # a failure to answer, not a disconnection
        if p.transport:
            p.transport.abort()


async def work(spec):
    """A worker: opens its calls' participants at its share of the rate and says so on stdout (a JSON line),
    takes the hold's window on stdin (a JSON line), and after it prints its figures (a JSON line)."""
    loop = asyncio.get_running_loop()
    worker = Worker(loop)
    calls = [Call(worker, name, size, spec["slots"]) for name, size in spec["calls"]]
    participants = []
    for call in calls:
        for _ in range(call.size):
            p = Participant(call, f"P{len(participants)}-{call.name[-6:]}", spec["toggle_every"])
            call.members.append(p)
            participants.append(p)
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)

    async def probe_lag():
        due = loop.time()
        while True:
            due += LAG_PROBE_S
            await asyncio.sleep(max(0.0, due - loop.time()))
            late = loop.time() - due
            if worker.in_window(time.monotonic()):
                worker.lags.append(late * 1000)
            due = max(due, loop.time() - LAG_PROBE_S)
    prober = asyncio.create_task(probe_lag())
    opening, t0 = [], loop.time()
    for k, p in enumerate(participants):
        await asyncio.sleep(max(0.0, t0 + k / spec["rate"] - loop.time()))
        opening.append(asyncio.create_task(open_one(worker, p, spec["port"])))
    await asyncio.gather(*opening)
    deadline = loop.time() + ANSWER_TIMEOUT_S  # the joins' answers
    while worker.joined < worker.connected and loop.time() < deadline:
        await asyncio.sleep(0.1)
    ramp = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"connected": worker.connected, "joined": worker.joined,
                      "ramp_cpu_s": ramp.ru_utime + ramp.ru_stime}), flush=True)
    worker.window = tuple(json.loads(await stdin.readline())["window"])
    await asyncio.sleep(max(0.0, worker.window[0] - time.monotonic()))
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    open_at_start = sum(p.open for p in participants)
    await asyncio.sleep(max(0.0, worker.window[1] - time.monotonic()))
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    worker.stopping = True
    prober.cancel()
    still_open = sum(p.open for p in participants)
    for p in participants:
        if p.transport:
            p.transport.abort()
    await asyncio.sleep(0.2)
    print(json.dumps({
        "connected": worker.connected, "joined": worker.joined, "open_at_start": open_at_start,
        "open_at_end": still_open,
        "refused": worker.refused, "disconnected": worker.disconnected, "received": worker.received,
        "received_bytes": worker.received_bytes, "sent": worker.sent, "turns": worker.turns,
        "stalls": worker.stalls, "delays": [round(d, 2) for d in worker.delays],
        "lags": [round(d, 2) for d in worker.lags],
        "cpu_s": cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime,
    }), flush=True)


# MARK: the server and the run

def raise_file_limit():
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Server(ServeProcess):
    """One `miccheck serve` for N participants from one address."""

    def __init__(self, binary, n):
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        self.max_connections = min(n + FD_RESERVE, files - FD_RESERVE)
        super().__init__(binary, "--max-connections", str(self.max_connections), "--max-connections-per-address",
                         str(self.max_connections), "--joins-per-minute-per-address", "0",
                         preexec_fn=raise_file_limit)

    def stop(self):
        super().stop(patience=30)  # thousands of connections to close


def run(a, n):
    server = Server(a.binary, n)
    workers = []
    try:
        time.sleep(1)
        cpu_rest, rss_rest = proc_stats(server.pid)
        time.sleep(REST_S)
        cpu_rest_end, _ = proc_stats(server.pid)
        sizes = [min(a.call_size, n - i) for i in range(0, n, a.call_size)]
        calls = [(f"bench-{n}-{i}", size) for i, size in enumerate(sizes)]
        slots = round(a.call_size * a.speaking_share)
        count = min(a.workers, len(calls))
        for w in range(count):
            spec = {"port": server.port, "calls": calls[w::count], "slots": slots, "rate": a.connect_rate / count,
                    "toggle_every": a.toggle_every}
            workers.append(subprocess.Popen([sys.executable, __file__, "--worker", json.dumps(spec)],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                            preexec_fn=raise_file_limit))
        ramp_start = time.monotonic()
        ready = [json.loads(w.stdout.readline()) for w in workers]
        ramp_s = time.monotonic() - ramp_start
        cpu_ready, _ = proc_stats(server.pid)
        start = time.monotonic() + SETTLE_S
        window = (start, start + a.seconds)
        for w in workers:
            w.stdin.write(json.dumps({"window": window}) + "\n")
            w.stdin.flush()
        time.sleep(max(0.0, window[0] - time.monotonic()))
        cpu0, rss0 = proc_stats(server.pid)
        peak = 0
        while time.monotonic() < window[1]:
            time.sleep(min(1.0, max(0.0, window[1] - time.monotonic())))
            peak = max(peak, proc_stats(server.pid)[1])
        cpu1, rss1 = proc_stats(server.pid)
        results = [json.loads(w.stdout.readline()) for w in workers]
    finally:
        for w in workers:
            w.kill()
            w.wait()
        server.stop()
    total = lambda key: sum(r[key] for r in results)
    merged = lambda key: {k: sum(r[key].get(k, 0) for r in results) for k in {k for r in results for k in r[key]}}
    delays = [d for r in results for d in r["delays"]]
    lags = [d for r in results for d in r["lags"]]
    joined, opened = total("joined"), total("open_at_start")
    held = (opened + total("open_at_end")) / 2  # the participants the hold's CPU is shared by
    cpu = (cpu1 - cpu0) / a.seconds * 100
    ramp_cpu = (cpu_ready - cpu_rest_end) / ramp_s * 100
    return {
        "participants": n, "call_size": a.call_size, "speaking_slots_per_call": slots, "seconds": a.seconds,
        "server_max_connections": server.max_connections, "client_workers": len(workers),
        "ramp_s": round(ramp_s, 1), "connected": total("connected"), "joined": joined,
        "open_at_hold_start": opened, "open_at_end": total("open_at_end"), "refused": merged("refused"),
        "disconnected": merged("disconnected"),
        "server_cpu_percent_of_a_core_in_ramp": round(ramp_cpu, 1),
        "client_cpu_percent_of_a_core_in_ramp": round(sum(r["ramp_cpu_s"] for r in ready) / ramp_s * 100, 1),
        "server_cpu_percent_of_a_core_at_rest": round((cpu_rest_end - cpu_rest) / REST_S * 100, 1),
        "server_cpu_percent_of_a_core": round(cpu, 1),
        "server_cpu_percent_per_participant": round(cpu / held, 5) if held else None,
        "participants_per_core": round(held / (cpu / 100)) if cpu > 0 else None,
        "server_cpu_ms_per_connect_and_join": round((cpu_ready - cpu_rest_end) / joined * 1000, 3) if joined else None,
        "server_rss_mib_at_rest": round(rss_rest / 1024, 1), "server_rss_mib_at_hold_start": round(rss0 / 1024, 1),
        "server_rss_mib_at_end": round(rss1 / 1024, 1), "server_rss_mib_peak": round(peak / 1024, 1),
        "server_rss_kib_per_connection": round((rss0 - rss_rest) / opened, 1) if opened else None,
        "turns": total("turns"), "received_per_s": round(total("received") / a.seconds),
        "received_per_participant_per_s": round(total("received") / a.seconds / held, 2) if held else None,
        "received_kib_per_s": round(total("received_bytes") / a.seconds / 1024, 1),
        "sent_per_s": round(total("sent") / a.seconds),
        "presence_delays": len(delays), "presence_delay_p50_ms": pick(delays, 0.5),
        "presence_delay_p99_ms": pick(delays, 0.99), "presence_delay_max_ms": pick(delays, 1.0),
        "speakers_stalled": total("stalls"),
        "client_cpu_percent_of_a_core": round(total("cpu_s") / a.seconds * 100, 1),
        "client_loop_lag_p99_ms": pick(lags, 0.99), "client_loop_lag_max_ms": pick(lags, 1.0),
        "server_log_tail": [line.rstrip() for line in server.lines[2:]][-5:],
    }


def summary(rows):
    cols = [("participants", "participants"), ("joined", "joined"), ("refused", "refused"),
            ("disconnected", "cut"), ("open_at_end", "open at end"), ("server_cpu_percent_of_a_core", "srv CPU %"),
            ("server_cpu_percent_per_participant", "CPU %/part"), ("participants_per_core", "part/core"),
            ("server_cpu_ms_per_connect_and_join", "ms/join"), ("server_rss_kib_per_connection", "KiB/conn"),
            ("received_per_s", "msgs rx/s"), ("presence_delay_p50_ms", "delay p50"),
            ("presence_delay_p99_ms", "delay p99"), ("speakers_stalled", "stalls"),
            ("client_cpu_percent_of_a_core", "client CPU %"), ("client_loop_lag_p99_ms", "lag p99")]
    value = lambda r, k: sum(r[k].values()) if isinstance(r[k], dict) else r[k]
    table = [[h for _, h in cols]] + [[str(value(r, k)) for k, _ in cols] for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(cols))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in table)


def main():
    if sys.argv[1:2] == ["--worker"]:
        asyncio.run(work(json.loads(sys.argv[2])))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\nusage:")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("binary")
    p.add_argument("--participants", default="1000,5000,20000")
    p.add_argument("--call-size", type=int, default=8)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--speaking-share", type=float, default=0.25,
                   help="a call's members speaking at once, as a share of --call-size (its turns' slots)")
    p.add_argument("--toggle-every", type=float, default=60, help="seconds between a participant's mute toggles")
    p.add_argument("--connect-rate", type=float, default=300, help="participants opened a second, all workers")
    p.add_argument("--workers", type=int, default=4, help="client processes")
    a = p.parse_args()
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    rows = []
    for n in [int(x) for x in a.participants.split(",")]:
        if n + FD_RESERVE > files:
            print(f"note: the hard file limit ({files}) lets the server hold {files - FD_RESERVE} connections: "
                  f"of {n} participants, {n - files + FD_RESERVE} are refused (503)", flush=True)
        row = run(a, n)
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
