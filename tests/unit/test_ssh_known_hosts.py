"""A host reached over SSH without a known_hosts file to check its key
against: the link failure says which file is missing and what to do, not
the bare FileNotFoundError text."""

from types import SimpleNamespace

import paramiko
import pytest

from xce.controller import sshlink


def test_a_missing_known_hosts_file_is_named_with_the_way_out(tmp_path):
    missing = tmp_path / "no_such_known_hosts"
    conf = SimpleNamespace(name="node7", address="127.0.0.1", port=1,
                           ssh_timeout=1.0, known_hosts=str(missing),
                           key_file=None, user=None)
    with pytest.raises(paramiko.SSHException) as caught:
        sshlink.connect(conf)
    text = sshlink._describe(caught.value)
    assert text == (f"no known_hosts file {missing} to check the host key "
                    f"of node7 against: add it (ssh-keyscan node7 >> "
                    f"{missing}) or name another in the host's known_hosts")
