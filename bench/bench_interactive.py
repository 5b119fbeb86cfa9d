"""Interactive jobs on an idle one-host cluster.  Medians over serial runs:
  interactive_true       wall time of ``bsub -I true``, from launch to its
                         exit: submit, dispatch, the relay calling back,
                         the job, its status coming back.
  interactive_keystroke  one key typed into ``bsub -Is cat`` until its
                         echo is back on bsub's terminal (bsub -> relay ->
                         the job's pseudo-terminal -> relay -> bsub).
"""

import os
import subprocess
import sys
import time

import pexpect

from _common import BIN, cluster, emit, median_ms, note

RUNS = 20
KEYS = 200
WARMUP = 2


def true_once(clu):
    t0 = time.perf_counter()
    proc = subprocess.run([str(BIN / "bsub"), "-I", "true"], env=clu.env,
                          cwd=clu.root, stdin=subprocess.DEVNULL,
                          capture_output=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"bsub -I true: rc={proc.returncode} "
                           f"{proc.stderr.decode(errors='replace')}")
    return elapsed


def keystrokes(clu):
    child = pexpect.spawn(str(BIN / "bsub"), ["-Is", "cat"], env=clu.env,
                          cwd=str(clu.root), timeout=30)
    try:
        child.expect(rb"<<Starting on \S+>>\r?\n")
        # Raw on both ends: the job's terminal echoes the key, cat adds
        # nothing until a line ends, so each key comes back once.
        child.sendline(b"")
        child.expect(b"\n")
        times = []
        for i in range(KEYS):
            key = bytes([ord("a") + i % 26])
            t0 = time.perf_counter()
            os.write(child.child_fd, key)
            child.expect_exact(key)
            times.append(time.perf_counter() - t0)
        child.sendcontrol("d")
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
        return times
    finally:
        child.close(force=True)


def main():
    with cluster() as clu:
        for _ in range(WARMUP):
            true_once(clu)
        runs = [true_once(clu) for _ in range(RUNS)]
        note(f"bsub -I true: {RUNS} runs, min {min(runs) * 1000:.1f} ms, "
             f"max {max(runs) * 1000:.1f} ms")
        emit("interactive_true_median", median_ms(runs), "ms")
        keys = keystrokes(clu)
        note(f"keystroke echo: {KEYS} keys, min {min(keys) * 1000:.2f} ms, "
             f"max {max(keys) * 1000:.2f} ms")
        emit("interactive_keystroke_median", median_ms(keys), "ms")


if __name__ == "__main__":
    sys.exit(main())
