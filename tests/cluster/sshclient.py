"""paramiko client for test hosts: strict host keys under the logical name,
the real address in the socket (test-hosts.md, section 1b)."""

import socket

import paramiko

CONNECT_TIMEOUT = 20.0       # an sshd of a loaded machine may greet late
USER_TIMEOUT_MS = 5000      # kernel gives up on unacknowledged data after this


def connect(hs, name, user="root", timeout=CONNECT_TIMEOUT, key=None):
    """An authenticated SSHClient to host NAME of HostSet HS.

    Passing sock= with hostname=NAME makes paramiko check the host key
    against known_hosts under NAME (or [NAME]:port), never the address."""
    addr, port = hs.hosts[name]
    key = key or paramiko.Ed25519Key.from_private_key_file(str(hs.client_key))
    client = paramiko.SSHClient()
    client.load_host_keys(str(hs.known_hosts))
    client.set_missing_host_key_policy(paramiko.RejectPolicy())
    sock = socket.create_connection((addr, port), timeout=timeout)
    try:
        # NODELAY: connect 69 -> 25 ms; USER_TIMEOUT: a dead peer is noticed.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, USER_TIMEOUT_MS)
        client.connect(name, port=port, username=user, pkey=key, sock=sock,
                       timeout=timeout, banner_timeout=timeout, auth_timeout=timeout,
                       allow_agent=False, look_for_keys=False)
    except BaseException:
        client.close()
        sock.close()
        raise
    client.get_transport().set_keepalive(2)
    return client


def run(client, command, timeout=30.0):
    """Run COMMAND; return (exit status, stdout, stderr) as text.
    The exit status is -1 if the command was killed by a signal or the
    connection was lost (paramiko does not tell the two apart)."""
    stdin, stdout, stderr = client.exec_command(command, timeout=timeout)
    stdin.close()
    out, err = stdout.read().decode(), stderr.read().decode()
    return stdout.channel.recv_exit_status(), out, err
