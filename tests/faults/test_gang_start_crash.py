"""A controller killed around a gang's dispatch restarts with the gang all
started or all pending, never split: the pass commits the four START
events in one transaction.

The controller runs in a child process (in-memory spool and agent links,
a real store) until the turn whose commit holds the gang's STARTs; there
it dies with os._exit, which leaves the store exactly as a SIGKILL would:
before the transaction, inside it (the STARTs written, no COMMIT), or
after it (committed, no start message sent).  A controller restarted on
the same store then tells what survived."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from xce.config.load import load
from xce.controller.main import Controller
from xce.store.reader import Reader

from tests.lib.fake_controller import FakeAgentLink, FakeSpool
from tests.unit.test_gang_controller import HOSTS, SITE, _hello, _spec

ROOT = Path(__file__).resolve().parents[2]

# The child: three members pend (3 of 4 ready); the fourth's submission
# makes the pass start all four, and the commit of that turn dies at
# the point named by argv[2].
CHILD = r"""
import os, sys
from xce.config.load import load
from xce.controller.main import Controller
from xce.store import writer
from tests.unit.test_gang_controller import _hello, _spec, HOSTS, GANG
from tests.lib.fake_controller import FakeAgentLink, FakeSpool
from tests.unit.test_gang_controller import HOSTS, SITE, _hello, _spec

etc, where = sys.argv[1], sys.argv[2]
ctl = Controller(load(etc), etc, spool=FakeSpool(), link_for=FakeAgentLink)
ctl.start()
ctl.run_once(1000.0, inbox=[(h, [_hello(h)]) for h in HOSTS])
ctl.spool.put("jobgroup", {"op": "add", "path": GANG}, uid=0)
ctl.spool.put("gang", {"op": "set", "path": GANG, "size": 4}, uid=0)
ctl.run_once(1001.0)
for _ in range(3):
    ctl.spool.put("submit", {"spec": _spec()}, uid=0)
ctl.run_once(1002.0)
assert [j["stat"] for j in ctl.jobs.values()] == ["PEND"] * 3


class Dying:
    # The store's connection, dying once the STARTs are in the open
    # transaction.
    def __init__(self, db):
        self.db = db

    def __getattr__(self, name):
        return getattr(self.db, name)

    def executemany(self, sql, rows):
        rows = list(rows)
        found = self.db.executemany(sql, rows)
        if "INSERT INTO events" in sql and \
                any(r[2] == "START" for r in rows):
            os._exit(9)
        return found


real = writer.Store.commit
def commit(self):
    starts = any(e[1] == "START" for e in self._events)
    if starts and where == "before":
        os._exit(9)
    if starts and where == "inside":
        self.db = Dying(self.db)
    real(self)
    if starts and where == "after":
        os._exit(9)

writer.Store.commit = commit
ctl.spool.put("submit", {"spec": _spec()}, uid=0)
ctl.run_once(1003.0)
os._exit(3)     # not reached: the commit died
"""


def _killed_at(tmp_path, where):
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "xce.yaml").write_text(SITE)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", CHILD, str(etc), where],
                         cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 9, run.stderr
    return etc


def _restarted(etc):
    ctl = Controller(load(etc), etc, spool=FakeSpool(),
                     link_for=FakeAgentLink)
    ctl.start()
    return ctl


def _events(ctl):
    with Reader(ctl.store.path) as reader:
        return [(kind, jobid) for _, kind, jobid, _, _ in reader.events()
                if kind in ("SUBMIT", "START")]


@pytest.mark.parametrize("where", ["before", "inside"])
def test_killed_before_the_gangs_starts_commit_restarts_all_pending(
        tmp_path, where):
    ctl = _restarted(_killed_at(tmp_path, where))
    # The turn died whole: no START, and the fourth submission is not
    # in the store (its spool request would be taken again).
    assert _events(ctl) == [("SUBMIT", 1), ("SUBMIT", 2), ("SUBMIT", 3)]
    assert {k: j["stat"] for k, j in ctl.jobs.items()} == {
        (1, 0): "PEND", (2, 0): "PEND", (3, 0): "PEND"}
    # The request taken again: the four start together.
    ctl.run_once(1010.0, inbox=[(h, [_hello(h)]) for h in HOSTS])
    ctl.spool.put("submit", {"spec": _spec()}, uid=0)
    ctl.run_once(1011.0)
    assert sorted(j["exec_hosts"] for j in ctl.jobs.values()
                  if j["stat"] == "RUN") == list(HOSTS)
    ctl.store.close()


def test_killed_after_the_gangs_starts_commit_restarts_all_started(tmp_path):
    ctl = _restarted(_killed_at(tmp_path, "after"))
    assert [kind for kind, _ in _events(ctl)].count("START") == 4
    assert {j["stat"] for j in ctl.jobs.values()} == {"RUN"}
    assert sorted(j["exec_hosts"] for j in ctl.jobs.values()) == list(HOSTS)
    # No agent got its start before the kill: each is sent again once
    # its agent says it does not have it, the same attempt for all.
    ctl.run_once(1010.0, inbox=[(h, [_hello(h)]) for h in HOSTS])
    sent = [(m["job"], m["attempt"]) for link in ctl.links.values()
            for m in link.sent if m.get("op") == "start"]
    assert sorted(sent) == [(1, 1), (2, 1), (3, 1), (4, 1)], sent
    assert {j["stat"] for j in ctl.jobs.values()} == {"RUN"}
    ctl.store.close()
