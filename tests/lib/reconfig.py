"""A bad edit of a running cluster's xce.yaml that `badmin reconfig` must
refuse: the shared steps of the tests that check a key's validation end
to end."""

import re


def assert_reconfig_refuses(cluster, old, new, error):
    """Replace OLD by NEW in xce.yaml; reconfig must fail with exit 255,
    nothing on stdout, and a `xce.yaml:LINE: ` error matching the regex
    ERROR before LSF's closing line.  The controller keeps running on
    the configuration it had (the caller checks what that means)."""
    yaml = cluster.envdir / "xce.yaml"
    text = yaml.read_text()
    assert old in text, old
    yaml.write_text(text.replace(old, new))
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 255 and r.out == "", r
    assert re.search(r"xce\.yaml:\d+: " + error, r.err), r.err
    assert r.err.endswith("Reconfiguration aborted.\n"), r.err
    return r
