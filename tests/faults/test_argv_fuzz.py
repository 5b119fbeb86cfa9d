"""A seeded campaign of argument vectors across every command of setup.cfg
against a running cluster: no command prints a traceback, none hangs, no
job bsub submits runs one of bsub's option words as its command, and the
controller and agent survive.  Most vectors run in this process
(each command's main(), see tests/lib/argvfuzz.py); a sample runs as real
processes, which also checks that what runs in process is what a user
gets.  XCE_FUZZ_SEED and XCE_FUZZ_VECTORS change the campaign; a failure
prints the seed, the command and the vector to replay it."""

import os
import random
import re
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.lib import argvfuzz
from tests.lib.xcecluster import Cluster

SEED = int(os.environ.get("XCE_FUZZ_SEED", "20261201"))
VECTORS = int(os.environ.get("XCE_FUZZ_VECTORS", "10000"))
PROCESSES = int(os.environ.get("XCE_FUZZ_PROCESSES", "48"))


@pytest.fixture
def fuzz_cluster(tmp_path, monkeypatch):
    """A cluster whose jobs end at once, with a directory of the files the
    vocabulary names; the campaign runs in that directory."""
    c = Cluster(tmp_path / "c", mxj=4,
                extra_params="  MAX_JOB_ARRAY_SIZE: 5\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / "script.sh").write_text("#BSUB -n 1\ntrue\n")
    (work / "out.txt").write_text("")
    (work / "outdir").mkdir()
    (work / "lsfconf").mkdir()
    (work / "lsfconf" / "lsb.params").write_text(
        "Begin Parameters\nCLEAN_PERIOD = -1\nEnd Parameters\n")
    monkeypatch.chdir(work)
    for key, value in c.env.items():
        if key in ("XCE_ENVDIR", "PATH"):
            monkeypatch.setenv(key, value)
    try:
        yield c.start()
    finally:
        c.stop()


def _campaign(cluster, commands, rnd, count):
    figures = Counter()
    failures = []
    for n in range(count):
        command = commands[n % len(commands)]
        argv = argvfuzz.vector(rnd, command)
        began = time.monotonic()
        outcome = argvfuzz.run_in_process(command, argv)
        figures[f"seconds {command.name}"] += time.monotonic() - began
        figures["vectors"] += 1
        figures[f"exit {outcome.code}"] += 1
        printed = argvfuzz.TRACEBACK in outcome.err + outcome.out
        if outcome.traceback or printed:
            figures["tracebacks"] += 1
            failures.append((command.name, argv, outcome.traceback or
                             outcome.err[-2000:]))
        if outcome.hung:
            figures["hung"] += 1
            failures.append((command.name, argv, "ran past 5 s"))
        if command.name == "bsub" and outcome.code == 0 and \
                "--" not in argv:       # after --, the user's own words
            wrong = _command_is_an_option(cluster, command, outcome.out)
            if wrong:
                failures.append((command.name, argv, wrong))
        if n % 500 == 0 and cluster.proc.poll() is not None:
            break
    return figures, failures


def _command_is_an_option(cluster, command, out):
    """What is wrong when the job bsub submitted runs one of bsub's option
    words as its command (the words were read as something else)."""
    found = re.search(r"Job <(\d+)>", out)
    if not found:
        return None
    words = cluster.stored_job(int(found.group(1)))["spec"]["command"].split()
    if words and words[0] in argvfuzz.option_words(command):
        return f"job command starts with the option word {words[0]}"
    return None


def _processes(cluster, commands, rnd, count):
    """A sample as real processes, four at a time (the machine's cores
    wait on the controller and on Python's start-up more than they run)."""
    vectors = [(commands[n % len(commands)].name,
                argvfuzz.vector(rnd, commands[n % len(commands)]))
               for n in range(count)]

    def one(item):
        name, argv = item
        return name, argv, cluster.run(name, *map(os.fsencode, argv),
                                       timeout=30)
    figures = Counter()
    failures = []
    with ThreadPoolExecutor(4) as pool:
        for name, argv, r in pool.map(one, vectors):
            figures["processes"] += 1
            if argvfuzz.TRACEBACK in r.err:
                figures["process tracebacks"] += 1
                failures.append((name, argv, r.err[-2000:]))
    return figures, failures


def test_argument_vectors_print_no_traceback_and_crash_nothing(
        fuzz_cluster):
    cluster = fuzz_cluster
    commands = argvfuzz.commands()
    rnd = random.Random(SEED)
    started = time.monotonic()
    figures, failures = _campaign(cluster, commands, rnd, VECTORS)
    in_process = time.monotonic() - started
    more, more_failures = _processes(cluster, commands, rnd, PROCESSES)
    figures.update(more)
    failures += more_failures
    crashes = int(cluster.proc.poll() is not None)
    agent_gone = int(cluster.agent_pid() is None)
    print(f"\nargv fuzz: seed {SEED}, {len(commands)} commands, "
          f"{figures['vectors']} vectors in process in {in_process:.1f} s, "
          f"{figures['processes']} as processes in "
          f"{time.monotonic() - started - in_process:.1f} s")
    print("argv fuzz: exit codes " + ", ".join(
        f"{k[5:]}: {v}" for k, v in sorted(figures.items())
        if k.startswith("exit ")))
    print(f"argv fuzz: tracebacks printed by commands "
          f"{figures['tracebacks'] + figures['process tracebacks']}, "
          f"commands hung {figures['hung']}, controller crashes {crashes}, "
          f"agent lost {agent_gone}")
    slowest = sorted((v, k[8:]) for k, v in figures.items()
                     if k.startswith("seconds "))[-5:]
    print("argv fuzz: slowest commands " + ", ".join(
        f"{name} {seconds:.1f} s" for seconds, name in reversed(slowest)))
    kinds = {}
    for name, argv, what in failures:
        kinds.setdefault((name, what.strip().splitlines()[-1][:120]), argv)
    for (name, last), argv in sorted(kinds.items()):
        print(f"--- {name} {argv!r} (seed {SEED}): {last}")
    assert figures["vectors"] >= min(VECTORS, 10000)
    assert not failures, f"{len(failures)} failures, first: {failures[0]}"
    assert crashes == 0 and agent_gone == 0, cluster.log_tail()
