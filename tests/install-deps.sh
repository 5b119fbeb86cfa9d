#!/bin/sh
# Install what the test suite needs on a fresh Debian machine.
# Idempotent: packages already present are not fetched again, and the
# apt index is refreshed at most once per run (only if something is missing).
set -eu

# time: GNU time measures each job's peak memory (xce-agent(8)).
# msmtp: a real sendmail-compatible program for LSB_MAILPROG's tests.
# podman, runc, busybox-static: a real container runtime and a root file
# system to run in it, for application profiles' CONTAINER (no image
# registry is needed); catatonit: the small init `podman run --init`
# starts as the container's process 1 (only recommended by podman, so
# --no-install-recommends leaves it out); uidmap: newuidmap/newgidmap,
# without which a user's (rootless) podman cannot start a container.
PKGS="openssh-server iproute2 util-linux procps passwd groff-base time msmtp
      podman runc busybox-static catatonit uidmap"

missing=""
for p in $PKGS; do
    # dpkg-query exits non-zero, or reports a non-installed state, when absent
    st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$st" = "installed" ] || missing="$missing $p"
done

if [ -n "$missing" ]; then
    # Another apt run may hold the dpkg lock; wait for it rather than fail.
    apt-get update -q -o DPkg::Lock::Timeout=300
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        -o DPkg::Lock::Timeout=300 --no-install-recommends $missing
fi

# sshd refuses to start without its privilege-separation directory.
mkdir -p /run/sshd
chmod 0755 /run/sshd
