"""Files that make up a test host's identity and who may log in to it."""

import json
import os
import pwd
import shutil
import subprocess
from pathlib import Path

from tests.cluster import _netns, _registry

ETC_FILES = ("passwd", "hosts")


def write_etc(etc_dir, root_home, plan):
    """Per-host /etc files.  `ip netns exec` bind-mounts /etc/netns/NS/* over
    /etc/* for what it starts, so inside the host:
    - passwd gives root an empty home: Debian's bash sources ~/.bashrc for
      every ssh command, and the real root's costs about 125 ms per exec;
    - hosts maps every logical host name to its address.
    Users must exist before this copy is made."""
    with _registry.locked():      # /etc/netns is shared with other runs
        etc_dir.mkdir(parents=True, exist_ok=True)
    lines = []
    for line in Path("/etc/passwd").read_text().splitlines():
        f = line.split(":")
        if len(f) == 7 and f[0] == "root":
            f[5] = str(root_home)
        lines.append(":".join(f))
    (etc_dir / "passwd").write_text("\n".join(lines) + "\n")
    hosts = ["127.0.0.1 localhost"] + [f"{a} {x}" for x, (a, _) in plan.items()]
    (etc_dir / "hosts").write_text("\n".join(hosts) + "\n")


def rebind_etc():
    """Bind the /etc files of every running namespace host (of any test
    session) again where they were lost.  A file renamed over or removed in
    the root namespace takes the bind mounts on it away in every other mount
    namespace (Linux 3.18 on): after a useradd or userdel anywhere, a host's
    sshd would read the machine's /etc/passwd (root's home /root, with its
    .bashrc).  Called after every change of test users."""
    nsenter = shutil.which("nsenter", path=_netns.SBIN_PATH) or "nsenter"
    for path in _registry.state_dir().glob("*.json"):
        try:
            rec = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        for h in rec.get("hosts", {}).values():
            if h.get("netns") and h.get("etc") and _registry.is_our_sshd(h):
                for name in ETC_FILES:
                    _rebind(nsenter, h["sshd"], Path(h["etc"]) / name, name)


def _rebind(nsenter, pid, mine, name):
    try:
        if Path(f"/proc/{pid}/root/etc/{name}").read_bytes() == mine.read_bytes():
            return      # still ours
    except OSError:
        return          # the host is going away
    subprocess.run([nsenter, "-t", str(pid), "-m", "mount", "--bind", str(mine),
                    f"/etc/{name}"], capture_output=True, timeout=30)


def write_client_files(hs):
    """known_hosts pinned to the logical names, and an OpenSSH client config.

    paramiko looks a key up under "name", or "[name]:port" when the port is
    not 22; HostKeyAlias makes the OpenSSH client use the same spelling."""
    known, config = [], []
    for name, (addr, port) in hs.hosts.items():
        pub = (hs.base / name / "host_ed25519.pub").read_text().split()
        alias = name if port == 22 else f"[{name}]:{port}"
        known.append(f"{alias} {pub[0]} {pub[1]}")
        config += [f"Host {name}", f"  HostName {addr}", f"  Port {port}",
                   f"  HostKeyAlias {alias}", ""]
    config += ["Host *", "  User root", f"  IdentityFile {hs.client_key}",
               "  IdentitiesOnly yes", f"  UserKnownHostsFile {hs.base / 'known_hosts'}",
               "  GlobalKnownHostsFile /dev/null", "  StrictHostKeyChecking yes",
               "  BatchMode yes", "  ConnectTimeout 5"]
    (hs.base / "known_hosts").write_text("\n".join(known) + "\n")
    (hs.base / "ssh_config").write_text("\n".join(config) + "\n")
    return hs.base / "known_hosts", hs.base / "ssh_config"


def authorize(hs, client_pub, users):
    """Let the client key log in as each of USERS; return (files, dirs) created
    outside the work directory, for teardown.

    root's entry goes to <base>/authorized/root, which only root can read.
    A user's goes to ~/.ssh/xce-<tag>.keys in the real home, because sshd
    reads authorized keys as the user and the work directory is private."""
    (hs.base / "authorized").mkdir()
    files, dirs = [], []
    for user in users:
        (hs.base / "authorized" / user).write_text(client_pub + "\n")
        if user == "root":
            continue
        pw = pwd.getpwnam(user)
        sshdir = Path(pw.pw_dir) / ".ssh"
        if not sshdir.exists():
            sshdir.mkdir(mode=0o700)
            os.chown(sshdir, pw.pw_uid, pw.pw_gid)
            dirs.append(str(sshdir))
        keys = sshdir / f"xce-{hs.tag}.keys"
        keys.write_text(client_pub + "\n")
        os.chown(keys, pw.pw_uid, pw.pw_gid)
        files.append(str(keys))
    return files, dirs
