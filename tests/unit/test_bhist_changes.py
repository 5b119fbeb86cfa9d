"""bhist -l's lines for a bmod: LSF's words, values set before removals."""

from xce.client.history.changes import modify_lines
from xce.client.history.long import event_lines


def test_set_then_removed_in_lsf_order():
    lines = modify_lines({"set": {"stdout": "o.txt", "stdout_mode": "w",
                                  "queue": "short", "runlimit": 30,
                                  "description": "nightly"},
                          "unset": ["runlimit_host", "pre_exec", "nslots"]})
    assert lines == ["Parameters of Job are changed:",
                     "    Job queue changes to : short;",
                     "    Output file change to : o.txt;",
                     "    run limit changes to : 30 (minutes);",
                     "    Job description changes to : nightly;",
                     "    Pre exec command is disabled;",
                     "    Minimal num of processors is removed;"]


def test_a_limit_removed_takes_its_host_spec_silently():
    assert modify_lines({"set": {}, "unset": [
        "runlimit", "runlimit_host", "cpulimit", "cpulimit_host"]})[1:] == [
        "    bmod -cn used. CPU limit set to queue CPU limit;",
        "    bmod -Wn used. Run limit set to queue run limit;"]
    assert modify_lines({"set": {}, "unset": ["runlimit_host"]})[1:] == [
        "    No host specification;"]


def test_an_estimate_removed_takes_its_host_spec_silently():
    # bmod -Wen after -We 10/hostA: one line, not the raw field name.
    assert modify_lines({"set": {}, "unset": [
        "estimate", "estimate_host"]})[1:] == [
        "    Runtime estimate is removed;"]
    assert modify_lines({"set": {"estimate": 10, "estimate_host": "hostA"},
                         "unset": []})[1:] == [
        "    Host specification change to: hostA;",
        "    Runtime estimate changes to : 10 (minutes);"]


def test_a_key_without_words_is_still_shown():
    assert modify_lines({"set": {"newthing": [1, 2]},
                         "unset": ["oldthing"]})[1:] == [
        "    newthing changes to : 1 2;", "    oldthing is removed;"]


def test_the_stamp_is_on_the_first_line_only():
    out = event_lines({}, {}, "", 0, "MODIFY",
                      {"set": {"mail_begin": True}, "unset": ["mail_notify"]})
    assert out[0].endswith(": Parameters of Job are changed:")
    assert out[1:] == ["    Job will send mail to user when job begins;",
                       "    No mail will be sent to user when job ends;"]


def test_a_fractional_limit_keeps_its_decimals():
    # bmod -W 0.02 / -c 0.05 (XCE_FRACTIONAL_RUNLIMIT): the decimals the
    # shared limit display keeps, not 0; whole minutes stay LSF's 30.
    assert modify_lines({"set": {"runlimit": 0.02, "cpulimit": 0.05},
                         "unset": []})[1:] == [
        "    CPU limit changes to : 0.05 (minutes);",
        "    run limit changes to : 0.02 (minutes);"]
    assert modify_lines({"set": {"runlimit": 1.5}, "unset": []})[1:] == [
        "    run limit changes to : 1.5 (minutes);"]
    assert modify_lines({"set": {"runlimit": 30.0}, "unset": []})[1:] == [
        "    run limit changes to : 30 (minutes);"]
