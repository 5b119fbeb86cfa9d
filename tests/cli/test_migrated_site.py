"""A migrated LSF site starts, and its commands show what the LSF files say."""

import subprocess
from pathlib import Path

import pytest

from tests.lib.xcecluster import BIN, Cluster, wait_for

HERE = Path(__file__).resolve().parent
SITE = HERE.parent / "unit" / "data" / "lsf" / "site"
CORPUS = HERE.parents[2] / "shared" / "lsf-config-corpus"


def _migrated(tmp_path, source):
    c = Cluster(tmp_path)
    r = subprocess.run([str(BIN / "xce-migrate"), "--from", str(source),
                        "--to", str(c.envdir)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return c


def _started(c):
    c.start(wait_hosts=False)
    wait_for(lambda: c.run("bqueues").rc == 0, what="the store")
    return c


def test_hand_made_site_queues_hosts_and_limits(tmp_path):
    c = _started(_migrated(tmp_path, SITE))
    try:
        r = c.run("bqueues")
        rows = {line.split()[0]: line.split() for line in r.out.splitlines()[1:]}
        assert {q: rows[q][1] for q in rows} == {
            "short": "40", "normal": "30", "night": "10"}
        assert r.out.splitlines()[1].startswith("short ")     # by priority
        assert rows["normal"][4] == "10"                       # JL/U
        r = c.run("bhosts", "-w")
        states = {line.split()[0]: line.split()[1]
                  for line in r.out.splitlines()[1:]}
        assert "client1" not in states          # a client host runs no jobs
        assert states["alpha01"] in ("unavail", "unreach")
        assert {"node001", "node004", "alpha02"} <= set(states)
        r = c.run("bparams")
        assert "Default Queues:  normal" in r.out
        r = c.run("bqueues", "-l", "normal")
        assert "node001" in r.out and "guest" not in r.out.split("USERS:")[1]
    finally:
        c.stop()


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the LSF config corpus "
                    "(../shared/lsf-config-corpus) is not beside the repo")
def test_corpus_site_starts_with_its_queues(tmp_path):
    c = _started(_migrated(tmp_path, CORPUS / "tmetsch__mesos_openlava" /
                           "etc"))
    try:
        r = c.run("bqueues", "-w")
        prios = {l.split()[0]: l.split()[1] for l in r.out.splitlines()[1:]}
        assert prios == {"priority": "43", "normal": "30"}
        r = c.run("bhosts", "-w")
        assert r.out.splitlines()[1].split()[:2] in (["node1", "unavail"],
                                                     ["node1", "unreach"])
        assert "My cluster name is openlava" in c.run("lsid").out
    finally:
        c.stop()
