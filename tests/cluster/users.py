"""Real unprivileged test users, for multi-user tests.

    users = make_users(["xceu1", "xceu2"])   # before build_hosts(..., users=...)
    ...
    remove_users(["xceu1", "xceu2"])

Every test user is in the supplementary group GROUP, which is also how a
leftover from a crashed run is told apart from a real account: an existing
user in GROUP is replaced, any other existing user is an error.  The comment
field names the creating process (pid and start time); make_users first
removes test users whose creator is gone.  Homes live
under a world-traversable temp directory so jobs running as the user can
reach them.  Test sessions and xdist workers create users at the same
time: a machine-wide lock makes each make_users and remove_users whole
(another's groupdel of an empty GROUP must not fall between our groupadd
and useradd), and each ends by binding the running namespace hosts' own
/etc files again (a replaced /etc/passwd takes them away).
"""

import grp
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.cluster import _hostfiles, _procs, _registry
from tests.cluster._netns import SBIN_PATH

GROUP = "xcetest"
COMMENT = "xce test user"
HOME_PREFIX = "xce-users-"
NAME_OK = re.compile(r"^[a-z_][a-z0-9_-]{0,30}$")
LOCK_RETRY_SECONDS = 30     # useradd fails at once if another one holds /etc/passwd


@dataclass(frozen=True)
class TestUser:
    name: str
    uid: int
    gid: int
    home: str
    groups: tuple


def _shadow_tool(argv):
    """Run a shadow-utils command, retrying while another holds its lock."""
    deadline = time.monotonic() + LOCK_RETRY_SECONDS
    while True:
        tool = shutil.which(argv[0], path=SBIN_PATH) or argv[0]
        res = subprocess.run([tool, *argv[1:]], capture_output=True, text=True)
        busy = "lock" in res.stderr or "try again" in res.stderr
        if res.returncode == 0 or not busy or time.monotonic() > deadline:
            return res
        time.sleep(0.05)


def _in_group(name, group):
    try:
        return name in grp.getgrnam(group).gr_mem
    except KeyError:
        return False


def _exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def make_users(names, group=GROUP, home_root=None):
    """Create users NAMES (own primary group, plus GROUP); return TestUsers.

    The password field is '*': no password login, yet not "locked" in the
    sense that makes sshd (UsePAM no) refuse key logins, as '!' would."""
    bad = [n for n in names if not NAME_OK.match(n)]
    if bad:
        raise ValueError(f"bad user names: {bad}")
    with _registry.locked("users"):
        try:
            return _make_users(names, group, home_root)
        finally:
            _hostfiles.rebind_etc()     # useradd replaced /etc/passwd


def _make_users(names, group, home_root):
    clash = [n for n in names if _exists(n) and not _in_group(n, group)]
    if clash:
        raise RuntimeError(f"users {clash} exist and are not test users (group {group})")
    _remove_stale_users(group)
    _remove_users([n for n in names if _exists(n)], group)   # leftovers of a crash
    if home_root is None:
        home_root = tempfile.mkdtemp(prefix=HOME_PREFIX)
    os.chmod(home_root, 0o755)
    try:
        for name in names:
            _add_user(name, group, Path(home_root) / name)
    except BaseException:
        _remove_users([n for n in names if _exists(n)], group)
        if Path(home_root).name.startswith(HOME_PREFIX):
            shutil.rmtree(home_root, ignore_errors=True)
        raise
    return [_describe(n) for n in names]


def _add_user(name, group, home):
    res = _shadow_tool(["groupadd", "-f", group])
    if res.returncode != 0:
        raise RuntimeError(f"groupadd {group}: {res.stderr.strip()}")
    res = _shadow_tool(["useradd", "--create-home", "--home-dir", str(home), "--shell", "/bin/sh",
                        "--user-group", "--groups", group, "--password", "*",
                        "--comment", f"{COMMENT} {os.getpid()} {_procs.start_time(os.getpid())}",
                        name])
    if res.returncode != 0:
        raise RuntimeError(f"useradd {name}: {res.stderr.strip()}")


def _describe(name):
    pw = pwd.getpwnam(name)
    groups = tuple(os.getgrouplist(name, pw.pw_gid))
    return TestUser(name, pw.pw_uid, pw.pw_gid, pw.pw_dir, groups)


def remove_users(names, group=GROUP):
    """Remove test users NAMES with their homes, then GROUP once it is empty.
    Users that are not in GROUP are left alone."""
    with _registry.locked("users"):
        try:
            _remove_users(names, group)
        finally:
            _hostfiles.rebind_etc()


def _remove_users(names, group):
    for name in names:
        if not _exists(name):
            continue
        if not _in_group(name, group):
            raise RuntimeError(f"refusing to remove {name}: not in group {group}")
        pw = pwd.getpwnam(name)
        home = Path(pw.pw_dir)
        _kill_user_processes(pw.pw_uid)
        # --force: init reaps orphans lazily here, and userdel would refuse
        # while a zombie of the user's last ssh session is still listed.
        res = _shadow_tool(["userdel", "--force", "--remove", name])
        # userdel exits 12 when only the mail spool was missing
        if res.returncode not in (0, 12):
            raise RuntimeError(f"userdel {name}: {res.stderr.strip()}")
        shutil.rmtree(home, ignore_errors=True)
        if home.parent.name.startswith(HOME_PREFIX):
            try:
                home.parent.rmdir()     # the temp root make_users created, once empty
            except OSError:
                pass
    _remove_group_if_empty(group)


def _uid_of(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("Uid:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def _kill_user_processes(uid, timeout=15.0):
    """SIGKILL what still runs as UID (a test user's jobs and sessions) and
    poll until only zombies are left.  The uid belongs to a test user only."""
    pids = [int(p) for p in os.listdir("/proc") if p.isdigit() and _uid_of(p) == uid]
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + timeout
    while any(_procs.alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.005)


def remove_stale_users(group=GROUP):
    """Remove test users in GROUP whose creating process is gone; their names."""
    with _registry.locked("users"):
        try:
            return _remove_stale_users(group)
        finally:
            _hostfiles.rebind_etc()


def _remove_stale_users(group):
    stale = []
    for name in _members(group):
        f = pwd.getpwnam(name).pw_gecos.split()
        if f[:3] != COMMENT.split() or len(f) != 5 or not f[3].isdigit():
            continue        # not made by make_users: leave it alone
        pid, start = int(f[3]), f[4]
        if not _procs.alive(pid) or str(_procs.start_time(pid)) != start:
            stale.append(name)
    _remove_users(stale, group)
    return stale


def _members(group):
    try:
        return list(grp.getgrnam(group).gr_mem)
    except KeyError:
        return []


def _remove_group_if_empty(group):
    try:
        members = grp.getgrnam(group).gr_mem
    except KeyError:
        return
    if not members:
        _shadow_tool(["groupdel", group])
