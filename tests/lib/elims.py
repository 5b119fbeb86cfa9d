"""Elims for end-to-end tests on virtual hosts: one script that reports,
once a second, the load update string its host's values file holds
(``values.<host>`` beside it; XCE_HOST names the virtual host), so a
test changes what a host reports by rewriting that file.

params() gives the cluster the elims' directory and a short
XCE_LOAD_PASS_INTERVAL, so a job waiting for a reported value starts
within a second of the report rather than up to 5 s later."""

# Seconds between load-driven passes in these tests (default 5).
LOAD_PASS_INTERVAL = 0.2

READS_VALUES = """#!/bin/sh
d=$(dirname "$0")
while :; do
  [ -f "$d/values.$XCE_HOST" ] && { cat "$d/values.$XCE_HOST" || exit 1; }
  sleep 1
done
"""


def serverdir(directory, scripts, values):
    """LSF_SERVERDIR at *directory* with *scripts* ({name: text}, made
    executable) and each host's values file ({host: load string})."""
    directory.mkdir()
    for name, text in scripts.items():
        (directory / name).write_text(text)
        (directory / name).chmod(0o755)
    for host, line in values.items():
        report(directory, host, line)
    return directory


def report(directory, host, line):
    """What *host*'s elim reports from its next second on."""
    path = directory / f"values.{host}"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(line + "\n")
    tmp.replace(path)


def params(directory):
    """The parameters (xce.yaml lines) of a cluster whose hosts run the
    elims of *directory*."""
    return (f"  LSF_SERVERDIR: {directory}\n"
            f"  XCE_LOAD_PASS_INTERVAL: {LOAD_PASS_INTERVAL}")
