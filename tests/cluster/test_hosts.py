"""The test-host infrastructure itself: SSH, identity, cuts, users, teardown."""

import json
import os
import pwd
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import paramiko
import pytest

from tests.cluster import _netns, _procs, _registry, hosts, sshclient, users

REPO = Path(__file__).resolve().parents[2]
MODES = ["netns", "loopback"]


@pytest.fixture
def can_build():
    reason = hosts.unavailable_reason()
    if reason:
        pytest.skip(reason)


def _needs_mode(mode):
    reason = mode == "netns" and _netns.probe(f"xt{os.getpid()}x9p")
    if reason:
        pytest.skip(f"namespaces unavailable: {reason}")


def _connect_before(hs, name, deadline, **kw):
    """Connect, retrying until DEADLINE (monotonic): a restored link may
    need a moment before the bridge forwards again."""
    while True:
        try:
            return sshclient.connect(hs, name, timeout=2, **kw)
        except (OSError, paramiko.SSHException):
            if time.monotonic() > deadline:
                raise


def test_every_host_answers_ssh_with_strict_host_key_checking(ssh_hosts):
    for name in ssh_hosts.hosts:
        with sshclient.connect(ssh_hosts, name) as client:
            assert sshclient.run(client, "echo up") == (0, "up\n", "")


def test_known_hosts_names_hosts_by_logical_name_only(ssh_hosts):
    lines = Path(ssh_hosts.known_hosts).read_text().splitlines()
    pinned = {line.split()[0] for line in lines}
    expected = {n if p == 22 else f"[{n}]:{p}" for n, (_, p) in ssh_hosts.hosts.items()}
    assert pinned == expected


def test_a_host_presenting_another_hosts_key_is_rejected(ssh_hosts):
    addr1, port1 = ssh_hosts.hosts["xh1"]
    port2 = ssh_hosts.hosts["xh2"][1]
    client = paramiko.SSHClient()
    client.load_host_keys(str(ssh_hosts.known_hosts))
    client.set_missing_host_key_policy(paramiko.RejectPolicy())
    sock = socket.create_connection((addr1, port1), timeout=5)
    key = paramiko.Ed25519Key.from_private_key_file(str(ssh_hosts.client_key))
    with pytest.raises(paramiko.BadHostKeyException), client:
        # xh1's sshd answers, but the client expects xh2's key under xh2's name.
        client.connect("xh2", port=port2, username="root", pkey=key, sock=sock, timeout=5,
                       allow_agent=False, look_for_keys=False)


def test_an_unknown_client_key_is_refused(ssh_hosts):
    stranger = paramiko.Ed25519Key.generate() if hasattr(paramiko.Ed25519Key, "generate") \
        else paramiko.RSAKey.generate(2048)
    with pytest.raises(paramiko.AuthenticationException):
        sshclient.connect(ssh_hosts, "xh1", key=stranger)


def test_hostname_inside_each_host_is_its_logical_name(needs_netns):
    for name in needs_netns.hosts:
        with sshclient.connect(needs_netns, name) as client:
            assert sshclient.run(client, "hostname") == (0, f"{name}\n", "")
        assert needs_netns.run(name, ["hostname"]).stdout == f"{name}\n"


def test_hosts_resolve_each_other_by_logical_name(needs_netns):
    addr2 = needs_netns.hosts["xh2"][0]
    res = needs_netns.run("xh1", ["getent", "hosts", "xh2"])
    assert (res.returncode, res.stdout.split()) == (0, [addr2, "xh2"])


def test_root_home_on_each_host_is_its_own_empty_directory(needs_netns):
    homes = set()
    for name in needs_netns.hosts:
        with sshclient.connect(needs_netns, name) as client:
            rc, out, err = sshclient.run(client, 'echo "$HOME"; ls -A "$HOME"')
        assert (rc, err) == (0, "")
        homes.add(out)
        assert len(out.splitlines()) == 1     # nothing listed: no .bashrc to slow ssh down
    assert len(homes) == len(needs_netns.hosts)


def test_hosts_keep_their_own_passwd_when_the_machines_users_change(needs_netns):
    # useradd and userdel replace /etc/passwd, which takes the hosts' bind
    # mounts of their own away; make_users and remove_users bind them again.
    name = f"xu{os.getpid()}p"
    users.make_users([name])
    users.remove_users([name])
    for host in needs_netns.hosts:
        with sshclient.connect(needs_netns, host) as client:
            rc, out, err = sshclient.run(client, 'echo "$HOME"')
        assert (rc, out, err) == (0, f"{needs_netns.base / host / 'root'}\n", "")


def test_openssh_client_reaches_hosts_through_the_generated_config(ssh_hosts):
    res = subprocess.run(["ssh", "-F", str(ssh_hosts.ssh_config), "xh3", "echo", "via-openssh"],
                         capture_output=True, text=True, timeout=30)
    assert (res.returncode, res.stdout, res.stderr) == (0, "via-openssh\n", "")


def test_many_parallel_connections_are_accepted(ssh_hosts):
    def one(_):
        with sshclient.connect(ssh_hosts, "xh1") as client:
            return sshclient.run(client, "echo ok")[0]
    with ThreadPoolExecutor(20) as pool:
        assert list(pool.map(one, range(20))) == [0] * 20


def test_a_cut_host_times_out_and_answers_again_after_restore(needs_netns):
    hs = needs_netns
    with sshclient.connect(hs, "xh2"):
        pass                               # the neighbour entry is fresh: a cut is a black hole
    hs.cut("xh2")
    try:
        with pytest.raises(TimeoutError):
            sshclient.connect(hs, "xh2", timeout=2)
        with sshclient.connect(hs, "xh1") as client:     # the others are unaffected
            assert sshclient.run(client, "true")[0] == 0
    finally:
        hs.restore("xh2")
    with _connect_before(hs, "xh2", time.monotonic() + 30) as client:
        assert sshclient.run(client, "hostname") == (0, "xh2\n", "")


def test_cut_is_refused_on_loopback_hosts_with_the_reason(can_build, tmp_path):
    with hosts.build_hosts(2, tmp_path, mode="loopback") as hs:
        assert hs.mode == "loopback"
        assert all(a.startswith("127.") for a, _ in hs.hosts.values())
        assert len({p for _, p in hs.hosts.values()}) == 2
        for name in hs.hosts:
            with sshclient.connect(hs, name) as client:
                assert sshclient.run(client, "echo up") == (0, "up\n", "")
        with pytest.raises(hosts.HostsError, match="no link to cut"):
            hs.cut("xh1")


def _start_detached_sleep(hs, name):
    """A process that outlives its SSH session, as an agent would; its pid."""
    with sshclient.connect(hs, name) as client:
        rc, out, _ = sshclient.run(client, "sleep 300 </dev/null >/dev/null 2>&1 & echo $!")
    assert rc == 0
    return int(out)


def _assert_all_gone(rec, pids):
    hosts_ = rec["hosts"].values()
    assert _registry.leftovers(rec) == []
    assert not {h["netns"] for h in hosts_ if h.get("netns")} & set(_netns.list_netns())
    mine = {h.get("veth") for h in hosts_} | {rec.get("bridge")}
    assert not mine & set(_netns.list_links())
    assert [p for p in pids if _procs.alive(p)] == []
    assert not any(Path(p).exists() for p in [rec["base"]] + [h.get("etc") or rec["base"]
                                                               for h in hosts_])
    assert not (_registry.state_dir() / f"{rec['tag']}.json").exists()


@pytest.mark.parametrize("mode", MODES)
def test_teardown_leaves_no_namespace_link_process_or_file(can_build, tmp_path, mode):
    _needs_mode(mode)
    hs = hosts.build_hosts(2, tmp_path, mode=mode)
    sleeper = _start_detached_sleep(hs, "xh1")
    rec = hs.record()
    pids = [h["sshd"] for h in rec["hosts"].values()] + [sleeper]
    assert all(_procs.alive(p) for p in pids)
    hs.teardown()
    _assert_all_gone(rec, pids)
    assert os.listdir(tmp_path) == []


CRASHING_RUN = """
import json, os, sys
from tests.cluster import hosts
hs = hosts.build_hosts(2, sys.argv[1], mode=sys.argv[2])
print(json.dumps(hs.record()), flush=True)
sys.stdin.read()               # stay alive (not stale) until the test has looked
os._exit(0)                    # then die without teardown, like a killed test run
"""


@pytest.mark.parametrize("mode", MODES)
def test_leftovers_of_a_crashed_run_are_removed_at_start(can_build, tmp_path, mode):
    _needs_mode(mode)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-c", CRASHING_RUN, str(tmp_path), mode],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    try:
        rec = json.loads(proc.stdout.readline())
        assert _registry.leftovers(rec) != []
        assert rec["tag"] not in hosts.cleanup_stale()     # its owner is alive
        assert _registry.leftovers(rec) != []
    finally:
        proc.communicate("", timeout=60)
    pids = [h["sshd"] for h in rec["hosts"].values()]
    hosts.cleanup_stale()      # a parallel run may do it first; either way it is gone
    _assert_all_gone(rec, pids)


@pytest.mark.parametrize("mode", MODES)
def test_test_users_log_in_as_themselves_with_the_shared_group(can_build, tmp_path, mode):
    _needs_mode(mode)
    names = [f"xu{os.getpid()}a", f"xu{os.getpid()}b"]
    made = users.make_users(names)
    try:
        with hosts.build_hosts(1, tmp_path, users=names, mode=mode) as hs:
            for u in made:
                with sshclient.connect(hs, "xh1", user=u.name) as client:
                    rc, out, err = sshclient.run(client, "id -un; id -Gn; pwd")
                assert (rc, err) == (0, "")
                name, groups, cwd = out.splitlines()
                assert (name, cwd) == (u.name, u.home)
                assert users.GROUP in groups.split()
    finally:
        users.remove_users(names)
    for u in made:
        with pytest.raises(KeyError):
            pwd.getpwnam(u.name)
        assert not Path(u.home).exists()


def test_without_namespaces_hosts_fall_back_to_loopback_and_say_why(
        can_build, tmp_path, monkeypatch):
    monkeypatch.setattr(_netns, "probe", lambda name: "simulated: ip netns add failed")
    with hosts.build_hosts(1, tmp_path) as hs:
        assert hs.mode == "loopback"
        assert "simulated: ip netns add failed" in hs.why_no_cut
        with sshclient.connect(hs, "xh1") as client:
            assert sshclient.run(client, "echo up") == (0, "up\n", "")


def test_without_root_hosts_are_unavailable_with_a_reason(monkeypatch):
    monkeypatch.setattr(hosts.os, "geteuid", lambda: 1000)
    assert "root" in hosts.unavailable_reason()


def test_commands_run_inside_a_host_see_its_network_only(needs_netns):
    own, other = needs_netns.hosts["xh1"][0], needs_netns.hosts["xh2"][0]
    res = needs_netns.run("xh1", ["ip", "-o", "-4", "addr", "show", "dev", "eth0"])
    assert res.returncode == 0 and f" {own}/" in res.stdout and other not in res.stdout


# Alone: any other make_users (another worker's) would remove the dead
# creator's user before this test has looked at it.
@pytest.mark.xdist_group("machine")
def test_users_left_by_a_dead_creator_are_removed_by_the_next_make_users(can_build):
    name = f"xu{os.getpid()}s"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-c",
                    f"from tests.cluster import users; users.make_users([{name!r}])"],
                   check=True, env=env, timeout=60)
    home = pwd.getpwnam(name).pw_dir            # the creator exited without removing it
    live = users.make_users([f"xu{os.getpid()}t"])
    try:
        with pytest.raises(KeyError):
            pwd.getpwnam(name)
        assert not Path(home).exists()
        assert pwd.getpwnam(live[0].name)          # ours, with a live creator, stays
    finally:
        users.remove_users([live[0].name])


@pytest.mark.parametrize("mode", MODES)
def test_a_crashed_host_refuses_connections_until_booted(can_build, tmp_path, mode):
    _needs_mode(mode)
    with hosts.build_hosts(1, tmp_path, mode=mode) as hs:
        sleeper = _start_detached_sleep(hs, "xh1")
        hs.crash("xh1")
        assert not _procs.alive(sleeper)
        with pytest.raises(ConnectionRefusedError):
            sshclient.connect(hs, "xh1")
        hs.boot("xh1")
        with sshclient.connect(hs, "xh1") as client:
            assert sshclient.run(client, "echo back") == (0, "back\n", "")
