"""`miccheck serve` as a child process of a benchmark: on a port of its own choosing (read from its first
line), its log (stdout and stderr) kept by a thread so that it never blocks on a pipe. scripts/bench-serve.py
and scripts/bench-call-device.py start theirs with it, and read its CPU and memory with proc_stats."""
import os
import re
import subprocess
import threading


def proc_stats(pid):
    """CPU seconds (user and system) and RSS (KiB) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    with open(f"/proc/{pid}/status") as f:
        rss = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
    return ticks / os.sysconf("SC_CLK_TCK"), rss


class ServeProcess:
    def __init__(self, binary, *arguments, preexec_fn=None):
        command = [binary, "serve", "--port", "0", *arguments]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        preexec_fn=preexec_fn)
        self.pid = self.process.pid
        # The address is not always the first line (a log line may come before it): read up to it.
        self.lines, match = [], None
        while not match:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"the server did not start: {''.join(self.lines)[-2000:]!r}")
            self.lines.append(line)
            match = re.search(r"serving http://[^ ]+:(\d+)/", line)
        self.port = int(match.group(1))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def count(self, text):
        """The lines of its log that hold `text`."""
        return sum(text in line for line in list(self.lines))

    def stop(self, patience=10):
        """Terminates it; kills it if it has not ended within `patience` seconds."""
        self.process.terminate()
        try:
            self.process.wait(patience)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
