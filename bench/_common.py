"""What every benchmark shares: a throw-away cluster, timing, and output.

Figures are printed as ``name value unit`` lines on stdout; progress notes
go to stderr so ``run_all.py | grep`` keeps only figures.
"""

import contextlib
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    # tests/lib and the xce package are imported from the checkout.
    sys.path.insert(0, str(REPO))

from tests.lib.xcecluster import BIN, Cluster, wait_for  # noqa: E402

__all__ = ["BIN", "Cluster", "wait_for"]   # wait_for: for the benches

# Generous: the store polls below cover bulk work on a 2-core machine.
LONG = 600.0


def emit(name, value, unit):
    print(f"{name} {value:.3f} {unit}" if isinstance(value, float)
          else f"{name} {value} {unit}", flush=True)


def note(text):
    print(f"# {text}", file=sys.stderr, flush=True)


def median_ms(seconds):
    return statistics.median(seconds) * 1000.0


# XCE_BENCH_PROFILE=DIR: run every controller and agent under cProfile
# (see profhook/sitecustomize.py); each writes DIR/<daemon>-<pid>.prof.
PROFILE_ENV = "XCE_BENCH_PROFILE"
PROFILE_HOOK = Path(__file__).resolve().parent / "profhook"


def _profile_daemons(clu, outdir):
    outdir.mkdir(parents=True, exist_ok=True)
    clu.env[PROFILE_ENV] = str(outdir.resolve())
    path = clu.env.get("PYTHONPATH")
    clu.env["PYTHONPATH"] = str(PROFILE_HOOK) + (f":{path}" if path else "")


def _terminate(signum, frame):
    # SystemExit unwinds through cluster()'s finally: daemons get stopped.
    sys.exit(128 + signum)


@contextlib.contextmanager
def cluster(mxj=None, start=True, root=None, **kw):
    """A cluster on a fresh temp dir; always stopped and removed on exit.
    More keywords go to Cluster (e.g. virtual_hosts)."""
    signal.signal(signal.SIGTERM, _terminate)
    tmp = Path(root) if root else Path(tempfile.mkdtemp(prefix="xce-bench-"))
    clu = Cluster(tmp, name="benchclu", mxj=mxj, **kw)
    # Measure commands as installed, with bytecode cached: an environment
    # with PYTHONDONTWRITEBYTECODE recompiles every xce module on each
    # command (~10 ms of bsub's time).  The cache lives in the temp dir so
    # nothing is written into the source tree.
    clu.env.pop("PYTHONDONTWRITEBYTECODE", None)
    clu.env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    if os.environ.get(PROFILE_ENV):
        _profile_daemons(clu, Path(os.environ[PROFILE_ENV]))
    try:
        if start:
            clu.start()
        yield clu
    finally:
        try:
            clu.stop()
        finally:
            if root is None:
                shutil.rmtree(tmp, ignore_errors=True)


def command(clu, *argv, check=True):
    """Run one installed command as a user would; return (seconds, stdout)."""
    elapsed, _, out = timed(clu, *argv, check=check)
    return elapsed, out


def timed(clu, *argv, check=True):
    """Run one installed command; return (wall seconds, CPU seconds, stdout).

    CPU is the child's user+system time: on a shared machine the wall time
    carries other people's load, the CPU time much less of it."""
    cmd = [str(BIN / argv[0]), *argv[1:]]
    before = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=clu.env, cwd=clu.root, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - t0
    cpu = _children_cpu() - before      # the one child reaped meanwhile
    if check and proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: rc={proc.returncode} "
                           f"{proc.stderr.strip()}")
    return elapsed, cpu, proc.stdout


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def has_command(name):
    """True when the installed entry point can be imported (badmin may not yet)."""
    if not (BIN / name).exists():
        return False
    probe = subprocess.run([str(BIN / name), "--help"], capture_output=True,
                           stdin=subprocess.DEVNULL)
    return probe.returncode == 0


def env_for(clu):
    """Point this process's xce libraries at *clu* (Site() reads XCE_ENVDIR)."""
    os.environ["XCE_ENVDIR"] = str(clu.envdir)


def instructions(clu, *argv, runs=3, check=True):
    """Median instructions one installed command executes, counted by
    ``valgrind --tool=callgrind`` (None without valgrind).  Unlike times,
    the count hardly moves with other people's load on the machine: it is
    the figure to compare two versions by."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    counts = []
    with tempfile.TemporaryDirectory(prefix="xce-callgrind-") as tmp:
        out = os.path.join(tmp, "callgrind.out")
        for _ in range(runs):
            proc = subprocess.run(
                [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}",
                 str(BIN / argv[0]), *argv[1:]], env=clu.env, cwd=clu.root,
                capture_output=True, text=True, stdin=subprocess.DEVNULL)
            if check and proc.returncode != 0:
                raise RuntimeError(f"{' '.join(argv)} under callgrind: "
                                   f"rc={proc.returncode} {proc.stderr[-500:]}")
            counts.append(_callgrind_total(out))
    return int(statistics.median(counts))


def _callgrind_total(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no instruction total in {path}")
