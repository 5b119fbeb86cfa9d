"""A migrated LSF site starts, and its commands show what the LSF files say."""

import socket
import subprocess
from pathlib import Path

import pytest

from tests.lib.xcecluster import BIN, Cluster, wait_for

HERE = Path(__file__).resolve().parent
SITE = HERE.parent / "unit" / "data" / "lsf" / "site"
CORPUS = HERE.parents[2] / "shared" / "lsf-config-corpus"
ODD = HERE.parent / "unit" / "data" / "lsf" / "odd"


def _migrated(tmp_path, source):
    c = Cluster(tmp_path)
    r = subprocess.run([str(BIN / "xce-migrate"), "--from", str(source),
                        "--to", str(c.envdir)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    c.spool = c.envdir / "spool"        # a migrated spool is in its envdir
    c.report = r.stdout
    return c


def _corpus_sets():
    if not CORPUS.is_dir():
        return []
    return sorted({str(p.parent.relative_to(CORPUS)) for p in CORPUS.rglob(
        "*") if p.is_file() and p.name != "SOURCES.md"})


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
        # As configured, as LSF shows them (a group followed by '/').
        assert "\nUSERS:  all ~guest\nHOSTS:  hg_compute/ alpha01+2 " \
            "others\n" in r.out, r.out
        r = c.run("bqueues", "-m", "node001", "normal")
        assert r.rc == 0 and "normal" in r.out, r
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


@pytest.mark.parametrize("source", [str(ODD)] + [
    str(CORPUS / name) for name in _corpus_sets()])
def test_every_migrated_file_set_starts_a_controller(tmp_path, source):
    c = _started(_migrated(tmp_path, source))
    try:
        r = c.run("bqueues")
        assert r.rc == 0 and len(r.out.splitlines()) > 1, r
        assert c.proc.poll() is None, c.log_tail()
    finally:
        c.stop()


def test_bad_input_is_reported_with_file_and_line_and_the_rest_starts(
        tmp_path):
    c = _migrated(tmp_path, ODD)
    assert "  lsb.queues:5 " in c.report            # syntax error
    assert "lsb.queues:6         queue normal BOGUS_KEY = 7: not a key" \
        in c.report                                  # unknown key
    assert "lsb.queues:4" in c.report                # value xce cannot take
    assert "lsb.resources:4      limit daytime SLOTS = [200 8:00-18:00]" \
        in c.report                                  # time-based: carried
    _started(c)
    try:
        r = c.run("bqueues", "-w")
        assert [line.split()[0] for line in r.out.splitlines()[1:]] == [
            "normal", "night"]
        r = c.run("bhosts", "-w")
        rows = {line.split()[0]: line.split()
                for line in r.out.splitlines()[1:]}
        assert set(rows) == {"odd01", "odd02", "odd03", "odd04"}  # no model
        # lsb.hosts MXJ by LSF's precedence: the host's own row, then its
        # group's, its model's, its type's, then default (bhosts MAX).
        assert {h: rows[h][3] for h in rows} == {
            "odd01": "4", "odd02": "2", "odd03": "8", "odd04": "3"}
    finally:
        c.stop()


def _one_host_site(tmp_path, name):
    source = tmp_path / name
    source.mkdir()
    (source / "lsf.shared").write_text(
        f"Begin Cluster\nClusterName\n{name}\nEnd Cluster\n")
    (source / f"lsf.cluster.{name}").write_text(
        "Begin Host\nHOSTNAME  model  type  server\n"
        f"{socket.gethostname()}  !  !  1\nEnd Host\n")
    (source / "lsb.queues").write_text(
        "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n")
    return source


def test_one_host_site_runs_jobs_with_no_set_up(tmp_path):
    c = _migrated(tmp_path, _one_host_site(tmp_path, "solo"))
    assert "launch: auto" in (c.envdir / "xce.yaml").read_text()
    c.start()                       # its agent says hello: started locally
    try:
        jobid = c.submit("echo ran here")
        c.wait_stat(jobid, "DONE")
        r = c.run("bhosts", "-w")
        assert r.out.splitlines()[1].split()[:2] == [socket.gethostname(),
                                                     "ok"]
    finally:
        c.stop()


def test_two_sites_migrated_side_by_side_keep_their_own_stores(tmp_path):
    sites = []
    for name in ("east", "west"):
        root = tmp_path / name
        root.mkdir()
        sites.append(_migrated(root, _one_host_site(root, name)))
    east, west = sites
    assert east.spool != west.spool
    for site in sites:
        conf = (site.envdir / "lsf.conf").read_text()
        assert f"XCE_SPOOL_DIR={site.envdir / 'spool'}\n" in conf
    try:
        east.start()     # inside: a start that fails leaves a controller
        jobid = east.submit("true")
        east.wait_stat(jobid, "DONE")
    finally:
        east.stop()
    try:
        west.start()
        r = west.run("bjobs", "-a")
        assert (r.out, r.err) == ("", "No job found\n"), r
        assert "My cluster name is west" in west.run("lsid").out
    finally:
        west.stop()
