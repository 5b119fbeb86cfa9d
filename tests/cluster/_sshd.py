"""One real sshd per test host: keys, config, launch and readiness."""

import shutil
import socket
import subprocess
import time
from pathlib import Path

from tests.cluster import _netns
from tests.cluster._netns import SBIN_PATH


class SshdError(RuntimeError):
    pass


def sshd_binary():
    return shutil.which("sshd", path=SBIN_PATH)


def keygen_binary():
    return shutil.which("ssh-keygen", path=SBIN_PATH)


def keygen(path, comment):
    """Fresh ed25519 key pair at PATH and PATH.pub; return the public line."""
    subprocess.run([keygen_binary(), "-q", "-t", "ed25519", "-N", "", "-C", comment,
                    "-f", str(path)], check=True, capture_output=True)
    return Path(f"{path}.pub").read_text().strip()


def write_config(path, addr, port, host_key, keys_rel, keys_abs):
    """sshd_config for one host.

    Authorized keys: first a per-run file in the user's home (readable by the
    user, which is who sshd reads it as), then a per-run absolute file that
    only root can reach; root's entry lives there, so the real /root is never
    touched.  StrictModes is off because the keys sit under a temp tree.
    """
    Path(path).write_text(f"""\
ListenAddress {addr}
Port {port}
HostKey {host_key}
PidFile none
AuthorizedKeysFile {keys_rel} {keys_abs}
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
AllowTcpForwarding yes
MaxStartups 100:30:200
MaxSessions 50
Subsystem sftp internal-sftp
""")


def start_in_netns(netns, hostname, config, log):
    """sshd -D inside NETNS with its own UTS namespace named HOSTNAME.

    ip netns exec, unshare and sh all exec, so the Popen pid is sshd's own.
    A new session keeps a Ctrl-C at the terminal from killing the hosts
    before teardown runs.
    """
    script = 'hostname "$0" && exec "$1" -D -e -f "$2"'
    argv = [_netns.ip_binary(), "netns", "exec", netns, "unshare", "--uts",
            "/bin/sh", "-c", script, hostname, sshd_binary(), str(config)]
    with open(log, "ab") as out:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def start_plain(config, log):
    """sshd -D in the root namespace (loopback mode)."""
    argv = [sshd_binary(), "-D", "-e", "-f", str(config)]
    with open(log, "ab") as out:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def wait_ready(proc, addr, port, log, timeout=30.0):
    """Poll until ADDR:PORT accepts a connection; fail fast if sshd died."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            tail = Path(log).read_text(errors="replace")[-2000:]
            raise SshdError(f"sshd for {addr}:{port} exited {proc.returncode}:\n{tail}")
        try:
            socket.create_connection((addr, port), timeout=1.0).close()
            return
        except (ConnectionRefusedError, socket.timeout, OSError):
            if time.monotonic() > deadline:
                raise SshdError(f"sshd on {addr}:{port} not listening after {timeout} s")
        time.sleep(0.002)


def free_port(addr):
    """A port the kernel reports free on ADDR right now (loopback mode)."""
    with socket.socket() as s:
        s.bind((addr, 0))
        return s.getsockname()[1]
