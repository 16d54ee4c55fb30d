#!/usr/bin/env python3
"""Presence across two `miccheck serve` nodes on one PostgreSQL (loopback), measured:

1. Cross-node delay of a transition: a participant on node 1 toggles (the same path as a speaking
   transition from the presence update on: one transaction, NOTIFY, the other node's fan-out); the delay
   is from its message leaving the client to the change arriving at a participant on node 2. The same
   change arriving back at a second participant on node 1 is shown beside it.
2. Capacity: pgbench drives transitions of MEMBERS members (in calls of 8) straight into the database at
   rising rates while the probe above keeps measuring, until the probe's p99 passes 500 ms or pgbench
   cannot keep the rate. Every notification reaches both nodes, which read and drop those of calls they do
   not follow, as a real deployment's nodes would.
3. The query plans of the statements that scale with members: a member's change, a node's lease renewal,
   the reaper's search.

The cluster runs with fsync off unless MICCHECK_PG_FSYNC=on (a database that flushes every commit, as a
production one does).

usage: bench-presence.py MICCHECK_BINARY [--members 10000] [--rates 250,500,1000,2000,4000] [--seconds 10]
       [--probes 200]
Run it through `bash scripts/presence-tests.sh`'s environment (Debian's postgresql, `websockets`):
  .build/presence-venv/bin/python scripts/bench-presence.py .build/release/miccheck
"""
import argparse
import asyncio
import os
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests", "Presence"))
import presence_nodes as pn  # noqa: E402

PGBENCH = os.path.join(sorted(d for d in (os.path.join("/usr/lib/postgresql", v, "bin")
                                          for v in os.listdir("/usr/lib/postgresql"))
                              if os.path.exists(os.path.join(d, "pgbench")))[-1], "pgbench")

TRANSITION = """\\set c random(1, :calls)
\\set m random(1, 8)
SELECT miccheck_update(call, id, name, audio, video, NOT speaking) FROM miccheck_members
 WHERE call = 'bench-' || :c AND id = 'm' || :m;
"""


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


async def probe(a, b, watcher, count, interval=0.05):
    """Toggles A's camera `count` times; returns the delays (ms) to B on the other node and to the watcher
    on A's own node."""
    remote, local = [], []
    for _ in range(count):
        video = a.video = not getattr(a, "video", False)
        sent = await a.send({"type": "devices", "audio": True, "video": video})
        t, _ = await b.wait(pn.changed("updated", a.id, video=video), timeout=10, after=sent)
        remote.append((t - sent) * 1000)
        t, _ = await watcher.wait(pn.changed("updated", a.id, video=video), timeout=10, after=sent)
        local.append((t - sent) * 1000)
        await asyncio.sleep(interval)
    return remote, local


def summary(xs):
    return f"median {statistics.median(xs):.1f} ms, p99 {percentile(xs, 99):.1f} ms, max {max(xs):.1f} ms"


async def main_async(args):
    cluster = pn.Cluster()
    nodes = [pn.Node(cluster.url), pn.Node(cluster.url)]
    try:
        a = await pn.Client(nodes[0], "probe", "Ada").open()
        w = await pn.Client(nodes[0], "probe", "Wes").open()
        b = await pn.Client(nodes[1], "probe", "Bob").open()
        for c in (a, w, b):
            await c.send({"type": "join", "name": c.name})
        await b.wait(pn.changed("joined", a.id))
        await a.wait(pn.changed("joined", b.id))

        print("## Cross-node delay of a transition, idle database")
        remote, local = await probe(a, b, w, args.probes)
        print(f"- node 1 -> node 2: {summary(remote)} ({len(remote)} transitions)")
        print(f"- node 1 -> node 1 (through the database too): {summary(local)}")

        calls = args.members // 8
        cluster.psql("SELECT miccheck_renew('bench', 3600)")
        cluster.psql(f"""SELECT count(miccheck_join('bench-' || c, 'm' || m, 'bench', 'M', true, false, false))
                         FROM generate_series(1, {calls}) c, generate_series(1, 8) m""")
        cluster.psql("VACUUM ANALYZE")
        script = os.path.join(cluster.dir, "transition.sql")
        with open(script, "w") as f:
            f.write(TRANSITION)
        print(f"\n## Capacity: {calls * 8} members in {calls} calls, transitions driven by pgbench")
        print("| transitions/s asked | done | pgbench latency avg | probe node1->node2 median | p99 | max |")
        print("|---|---|---|---|---|---|")
        url = cluster.url.split("?")[0]
        for rate in args.rates:
            bench = await asyncio.create_subprocess_exec(
                PGBENCH, "-n", "-f", script, "-D", f"calls={calls}", "-c", "8", "-j", "2", "-T", str(args.seconds),
                "-R", str(rate), url, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            await asyncio.sleep(1)
            delays = []
            deadline = time.monotonic() + args.seconds - 2
            while time.monotonic() < deadline:
                d, _ = await probe(a, b, w, 1, interval=0.1)
                delays += d
            out = (await bench.communicate())[0].decode()
            tps = re.search(r"tps = ([\d.]+)", out)
            lat = re.search(r"latency average = ([\d.]+) ms", out)
            done = float(tps.group(1)) if tps else 0
            print(f"| {rate} | {done:.0f} | {lat.group(1) if lat else '?'} ms | {statistics.median(delays):.1f} ms | "
                  f"{percentile(delays, 99):.1f} ms | {max(delays):.1f} ms |", flush=True)
            if percentile(delays, 99) > 500 or done < 0.9 * rate:
                print("- stops here: " + ("the probe passed 500 ms at p99" if percentile(delays, 99) > 500
                                          else "pgbench could not keep the rate"))
                break

        print("\n## Query plans")
        for title, sql in [
            ("a member's change (inside miccheck_update)",
             "UPDATE miccheck_members SET speaking = NOT speaking WHERE call = 'bench-1' AND id = 'm1'"),
            ("a node's lease renewal (every third of the lease): its row, then its members counted",
             "INSERT INTO miccheck_nodes AS n (node, lease_until) VALUES ('bench', now() + interval '10 s') "
             "ON CONFLICT (node) DO UPDATE SET lease_until = EXCLUDED.lease_until"),
            ("", "SELECT count(*) FROM miccheck_members WHERE node = 'bench'"),
            ("the reaper's search", "SELECT m.call, m.id FROM miccheck_nodes d "
                                    "JOIN miccheck_members m ON m.node = d.node "
                                    "WHERE d.lease_until < now() ORDER BY m.call, m.id"),
            ("a snapshot", "SELECT c.version, m.id FROM miccheck_calls c LEFT JOIN miccheck_members m ON m.call = c.id "
                           "WHERE c.id = 'bench-1' ORDER BY m.seq"),
        ]:
            plan = cluster.psql(f"BEGIN; EXPLAIN (ANALYZE, COSTS OFF, TIMING ON) {sql}; ROLLBACK")
            print(f"\n{title}:\n```\n{plan}\n```" if title else f"```\n{plan}\n```")
        for c in (a, w, b):
            await c.close()
    except BaseException:
        for i, n in enumerate(nodes):
            print(f"--- node {i + 1}'s log\n{n.log()[-3000:]}", file=sys.stderr)
        raise
    finally:
        for n in nodes:
            n.stop()
        cluster.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--rates", default="250,500,1000,2000,4000,8000")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--probes", type=int, default=200)
    args = parser.parse_args()
    args.rates = [int(r) for r in args.rates.split(",")]
    pn.BINARY = args.binary
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    loop.run_until_complete(main_async(args))


if __name__ == "__main__":
    main()
