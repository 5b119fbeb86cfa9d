"""--help, -h and an unknown option of bpost, bread, bjdepinfo and lsadmin:
usage on stdout with exit 0, LSF's illegal-option message with exit 255."""

import pytest

COMMANDS = ("bpost", "bread", "bjdepinfo", "lsadmin")


@pytest.mark.parametrize("name", COMMANDS)
def test_help_and_usage(cluster, name):
    r = cluster.run(name, "--help")
    assert r.rc == 0 and r.out.startswith(f"Usage: {name} "), r
    assert cluster.run(name, "-h").rc == 0
    r = cluster.run(name, "-Z")
    assert r.rc == 255 and "illegal option -- Z" in r.err
