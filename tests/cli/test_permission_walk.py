"""The permission table (xce.model.permissions), walked row by row as two
real users and root: the owner, another user, the same user as the
ADMINISTRATORS of the job's queue, and root (a cluster administrator).

For every action the real command is run against a job of the first user
in the state the action needs; where the table allows it, the command's
own success output is expected, else LSF's refusal (255, "Job <N>: User
permission denied").  Run under the real-users lock.
"""

import os
import socket
import sqlite3
import tempfile
from dataclasses import dataclass

import pytest
from xce.model import permissions as perm

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("pw")
QADM = "qadm"          # the queue whose ADMINISTRATORS is the second user
HEADER = ("MSG_ID FROM       POST_TIME      MESSAGE                        "
          "ATTACHMENT\n")


users = users_fixture(NAMES)


@pytest.fixture(scope="module")
def shared(users):
    queues = (f"  {QADM}:\n    ADMINISTRATORS: [{users[1].name}]\n"
              "  other:\n    PRIORITY: 20\n")
    with shared_cluster("xce-pw-", mxj=40, extra_queues=queues) as c:
        yield c


@dataclass
class Actor:
    role: str           # who they are to the job, as the table says
    user: object        # TestUser, or None for root
    queue: str          # the queue of the job they act on

    @property
    def name(self):
        return self.user.name if self.user else "root"

    def holds(self, roles):
        mine = {"owner": (perm.OWNER,), "other": (),
                "queue admin": (perm.QUEUE_ADMIN,),
                "cluster admin": (perm.CLUSTER_ADMIN,)}[self.role]
        return perm.ANYONE in roles or any(r in roles for r in mine)


def actors(users):
    owner, other = users
    return [Actor("owner", owner, "normal"), Actor("other", other, "normal"),
            Actor("queue admin", other, QADM),
            Actor("cluster admin", None, "normal")]


class Walk:
    """Jobs of the owner in a given state, and commands as any actor."""

    def __init__(self, cluster, owner):
        self.c, self.owner = cluster, owner
        fd, self.attached = tempfile.mkstemp(prefix="xce-pw-", suffix=".txt")
        os.write(fd, b"attached text\n")
        os.close(fd)
        os.chmod(self.attached, 0o644)

    def run(self, actor, *argv, env=None):
        user = actor.user
        return self.c.run(*argv, user=user.name if user else None,
                          cwd=user.home if user else tempfile.gettempdir(),
                          env=env)

    def as_owner(self, *argv):
        r = self.c.run(*argv, user=self.owner.name, cwd=self.owner.home)
        assert r.rc == 0, r
        return r

    def job(self, state, queue):
        """A job of the owner in *queue*: held, pending, running (with
        output), stopped, done, or running with a message (and an
        attachment) posted by its owner."""
        argv = {"held": ["-H", "sleep 300"],
                "pending": ["-R", "select[mem>1000000000000]", "true"],
                "done": ["true"]}.get(state, ["echo peeked; sleep 300"])
        out = self.as_owner("bsub", "-q", queue, *argv).out
        jobid = int(out.split("<", 1)[1].split(">", 1)[0])
        want = {"held": "PSUSP", "pending": "PEND", "done": "DONE"}.get(
            state, "RUN")
        self.c.wait_stat(jobid, want)
        if state == "stopped":
            self.as_owner("bstop", str(jobid))
            self.c.wait_stat(jobid, "USUSP")
        if state == "posted":
            self.as_owner("bpost", "-d", "note", "-a", self.attached,
                          str(jobid))
        return jobid


@dataclass
class Probe:
    state: str
    argv: object        # (walk, actor, jobid) -> argv
    ok: object          # (walk, actor, jobid, result): asserts success
    env: object = None  # (walk, jobid) -> extra environment


def _exactly(rc, out, err=""):
    """The check of a command whose whole output is known."""
    def check(w, a, j, r):
        assert (r.rc, r.out, r.err) == (rc, out.format(j=j),
                                        err.format(j=j)), r
    return check


def _done(text):
    return _exactly(0, text)


def _read_ok(prefix, naming=""):
    """The check of a report: it starts with *prefix* and names *naming*
    (its folded lines joined: bjobs -l, bhist -l and bacct -l fold)."""
    def check(w, a, j, r):
        assert (r.rc, r.err) == (0, ""), r
        assert r.joined.startswith(prefix.format(j=j)), r
        assert naming.format(j=j) in r.joined, r
    return check


def _saved(w, a, j, r):
    _exactly(0, f"Attachment of message <0> saved in <{_save_path(a)}>.\n"
             )(w, a, j, r)
    with open(_save_path(a)) as f:
        assert f.read() == "attached text\n"


def _save_path(actor):
    home = actor.user.home if actor.user else tempfile.gettempdir()
    return os.path.join(home, f"saved-by-{actor.name}-{os.getpid()}.txt")


def _job_env(w, j):
    return {"LSB_JOBID": str(j), "LSB_JOBINDEX": "0"}


PROBES = {
    "bkill": Probe("running", lambda w, a, j: ["bkill", str(j)],
                   _done("Job <{j}> is being terminated\n")),
    "bstop": Probe("running", lambda w, a, j: ["bstop", str(j)],
                   _done("Job <{j}> is being stopped\n")),
    "bresume": Probe("stopped", lambda w, a, j: ["bresume", str(j)],
                     _done("Job <{j}> is being resumed\n")),
    "bmod": Probe("held", lambda w, a, j: ["bmod", "-J", "renamed", str(j)],
                  _done("Parameters of job <{j}> are being changed\n")),
    "bswitch": Probe("held", lambda w, a, j: ["bswitch", "other", str(j)],
                     _done("Job <{j}> is switched to queue <other>\n")),
    "brequeue": Probe("running", lambda w, a, j: ["brequeue", str(j)],
                      _done("Job <{j}> is being requeued\n")),
    "btop": Probe("held", lambda w, a, j: ["btop", str(j)],
                  _exactly(0, "", "Job <{j}> has been moved to position 1 "
                           "from top.\n")),
    "bbot": Probe("held", lambda w, a, j: ["bbot", str(j)],
                  _exactly(0, "", "Job <{j}> has been moved to position 1 "
                           "from bottom.\n")),
    "bpost": Probe("running", lambda w, a, j: ["bpost", "-d", "hi", str(j)],
                   _done("Job <{j}>: Message <0> posted.\n")),
    "bpost -a": Probe("running", lambda w, a, j: ["bpost", "-i", "1", "-a",
                                                  w.attached, str(j)],
                      _done("Job <{j}>: Message <1> posted.\n")),
    "bstatus -d": Probe("running", lambda w, a, j: ["bstatus", "-d", "st",
                                                    str(j)], _done("")),
    "bread": Probe("posted", lambda w, a, j: ["bread", str(j)],
                   _read_ok("JOBID: {j}\n" + HEADER)),
    "bread -a": Probe("posted", lambda w, a, j: ["bread", "-a",
                                                 _save_path(a), str(j)],
                      _saved),
    "bstatus": Probe("posted", lambda w, a, j: ["bstatus", str(j)],
                     _read_ok("JOBID    FROM       UPDATE_TIME    STATUS\n"
                              "{j} ")),
    "bpeek": Probe("running", lambda w, a, j: ["bpeek", str(j)],
                   _done("<< output from stdout >>\npeeked\n")),
    "bjobs -l": Probe("running", lambda w, a, j: ["bjobs", "-l", str(j)],
                      _read_ok("\nJob <{j}>, User <")),
    "bhist -l": Probe("done", lambda w, a, j: ["bhist", "-l", str(j)],
                      _read_ok("\nJob <{j}>, User <")),
    "bacct -l": Probe("done", lambda w, a, j: ["bacct", "-l", str(j)],
                      _read_ok("Accounting information about jobs that "
                               "are: \n", "\nJob <{j}>, User <")),
    "bjdepinfo": Probe("held", lambda w, a, j: ["bjdepinfo", str(j)],
                       _done("Job <{j}> has no parent job dependencies.\n")),
    "xce explain": Probe("pending", lambda w, a, j: ["xce", "explain",
                                                     str(j)],
                         _read_ok("Job <{j}>, User <")),
    "blaunch": Probe("running", lambda w, a, j: ["blaunch",
                                                 socket.gethostname(),
                                                 "true"],
                     _done(""), env=_job_env),
}

# What a refused command prints: LSF's words, the job named.
REFUSED = {"blaunch": "blaunch: Job <{j}>: User permission denied\n",
           "bmod": "Job <{j}>: User permission denied. Job not modified.\n",
           "btop": "{j}: User permission denied\n",
           "bbot": "{j}: User permission denied\n"}


def test_every_row_of_the_table_has_a_probe():
    assert set(PROBES) == set(perm.TABLE)


@pytest.mark.parametrize("action", list(perm.TABLE))
def test_each_action_is_allowed_exactly_to_the_roles_the_table_names(
        shared, users, action):
    walk, probe = Walk(shared, users[0]), PROBES[action]
    roles = perm.roles_of(action)
    for actor in actors(users):
        jobid = walk.job(probe.state, actor.queue)
        env = probe.env(walk, jobid) if probe.env else None
        r = walk.run(actor, *probe.argv(walk, actor, jobid), env=env)
        where = f"{action} by {actor.role} ({actor.name}): {r}"
        if actor.holds(roles):
            try:
                probe.ok(walk, actor, jobid, r)
            except AssertionError:
                pytest.fail(f"allowed by the table, yet {where}")
        else:
            refusal = REFUSED.get(action, "Job <{j}>: User permission "
                                  "denied\n").format(j=jobid)
            assert (r.rc, r.out, r.err) == (255, "", refusal), where
        _kill(walk, jobid)


def _kill(walk, jobid):
    """Free the slot: the next probe needs one."""
    walk.c.run("bkill", str(jobid))
    wait_for(lambda: walk.c.stat(jobid) in ("EXIT", "DONE", None),
             what=f"job {jobid} to end")


def test_an_attached_file_is_kept_out_of_the_store_for_its_owner_alone(
        shared, users):
    owner, other = users
    walk = Walk(shared, owner)
    jobid = walk.job("posted", "normal")
    db = sqlite3.connect(f"file:{shared.spool / 'store' / 'xce.db'}?mode=ro",
                         uri=True)
    try:
        row = db.execute("SELECT attachment, data FROM job_messages WHERE "
                         "jobid=? AND msg_id=0", (jobid,)).fetchone()
    finally:
        db.close()
    assert row == (walk.attached, None)
    kept = shared.spool / "attachments" / f"{jobid}.0.0"
    st = os.stat(kept)
    assert (st.st_uid, st.st_mode & 0o777) == (owner.uid, 0o600)
    r = shared.run("cat", str(kept), user=other.name, cwd=other.home)
    assert r.rc != 0 and "Permission denied" in r.err
    _kill(walk, jobid)
