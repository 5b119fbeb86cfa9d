"""What a host's elims cost its agent: the runner's parse rate of load
update strings, and the CPU the agent spends on a flooding elim before
it kills it.

    python bench/bench_elim.py
prints ``name value unit`` lines.
"""

import os
import selectors
import tempfile
import time
from pathlib import Path

from _common import emit, note
from xce.agent import elim

DEFS = {f"r{i}": {"type": "Numeric", "interval": 15, "dynamic": True}
        for i in range(20)}


def parse_rate(lines=20000):
    """Load update strings of 20 resources parsed per second."""
    runner = elim.ElimRunner(selectors.DefaultSelector(), "bench")
    runner.defs = DEFS
    e = elim._Elim("elim.bench")
    line = ("20 " + " ".join(f"r{i} {i}.5" for i in range(20)) + "\n")
    data = line.encode() * 100
    start = time.process_time()
    for _ in range(lines // 100):
        runner._feed(e, data, 1.0)
    spent = time.process_time() - start
    return lines / spent


def flood_cpu():
    """CPU seconds the runner spends on `yes` until it kills it."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "elim.flood"
        path.write_text("#!/bin/sh\nexec yes 1 r1 5\n")
        path.chmod(0o755)
        sel = selectors.DefaultSelector()
        runner = elim.ElimRunner(sel, "bench")
        runner.configure({"serverdir": d, "resources": DEFS})
        start, wall = time.process_time(), time.monotonic()
        runner.run_timers()
        while runner.by_fd and time.monotonic() - wall < 30:
            for key, _ in sel.select(0.1):
                runner.readable(key.fd)
        spent = time.process_time() - start
        for pid in list(runner.by_pid):
            os.waitpid(pid, 0)
        return spent, time.monotonic() - wall


def main():
    note("parsing 20-resource load update strings")
    emit("elim_parse_rate", parse_rate(), "strings/s")
    note("a flooding elim until it is killed")
    cpu, wall = flood_cpu()
    emit("elim_flood_agent_cpu", cpu, "s")
    emit("elim_flood_until_killed", wall, "s")


if __name__ == "__main__":
    main()
