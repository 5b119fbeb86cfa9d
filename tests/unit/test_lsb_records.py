"""The lsb.events records of job changes (bmod, bswitch, brequeue, btop/bbot,
bpost, signals) and the rotation rules' pure parts."""

import json

from xce.store import lsbrotate
from xce.store.lsbfiles import records
from xce.store.schema import JOB_COLUMNS

JOB = {"jobid": 7, "idx": 0, "user": "nobody-here", "stat": "PEND"}


def _lines(kind, data, jobid=7, idx=0, t=1700000000.5):
    row = (1, t, kind, jobid, idx, json.dumps(data)) + tuple(
        JOB.get(c) for c in JOB_COLUMNS)
    events, acct = [], []
    records(row, events, acct)
    assert acct == []
    return [line.rstrip("\n") for line in events]


def test_every_record_has_type_version_and_time_first():
    for kind, data in (("SWITCH", {"queue": "night", "by": "ann"}),
                       ("REQUEUE", {"stat": "PEND", "by": "ann"}),
                       ("MOVE", {"seq": 3, "position": 2, "top": True}),
                       ("MODIFY", {"set": {"name": "x"}, "unset": []}),
                       ("JOB_MSG", {"msg_id": 1, "user": "ann"}),
                       ("SIGNAL", {"signal": "KILL", "by": "ann"})):
        for line in _lines(kind, data):
            words = line.split(" ")
            assert words[0].startswith('"JOB_') and words[0].endswith('"')
            assert words[1:3] == ['"10.1"', "1700000000"], line


def test_switch_requeue_and_move_fields():
    assert _lines("SWITCH", {"queue": "night", "by": "root"}) == [
        '"JOB_SWITCH" "10.1" 1700000000 0 7 "night" 0 "root"']
    assert _lines("REQUEUE", {"stat": "PEND", "by": "root"}, idx=3) == [
        '"JOB_REQUEUE" "10.1" 1700000000 7 3',
        '"JOB_STATUS" "10.1" 1700000000 7 1 0 0 0.0000 0 0 0 3 0 0']
    # base: 1 to the top (btop), 2 to the bottom (bbot)
    assert _lines("MOVE", {"position": 2, "top": False, "by": "root"}) == [
        '"JOB_MOVE" "10.1" 1700000000 0 7 2 2 0 "root"']
    assert _lines("MOVE", {"position": 1, "top": True, "by": "root"})[0] \
        .split()[5:7] == ["1", "1"]


def test_modify_writes_the_fields_its_options_name():
    line = _lines("MODIFY", {
        "set": {"name": "new name", "queue": "night", "runlimit": 10,
                "user_priority": 5, "nslots": [2, 4]},
        "unset": ["memlimit"], "by": "root"}, idx=2)[0]
    words = line.split(" ")
    assert words[3] == '"7[2]"'
    assert (int(words[4]), int(words[5]), int(words[6])) == (0x03, 0x200, 0)
    assert words[8] == '"root"' and words[11] == "2"      # numProcessors
    assert words[16:19] == ['"new', 'name"', '"night"']
    limits = words[19:30]
    assert limits[9] == "600" and limits[5] == "-2"   # -W 10, -Mn
    assert words[-1] == "5" and words[-2] == "0"      # priority, delOptions2
    assert words[-4] == "4"                           # maxNumProcessors


def test_modify_removals_set_del_options():
    words = _lines("MODIFY", {"set": {}, "unset": ["name", "stdout",
                                                   "user_priority"]})[0]
    words = words.split(" ")
    assert (int(words[4]), int(words[6])) == (0, 0x01 | 0x10)
    assert words[-1] == str(0x200)                    # delOptions2


def test_bpost_is_an_ext_msg_record():
    assert _lines("JOB_MSG", {"msg_id": 3, "user": "root",
                              "text": 'say "hi"', "size": 12}) == [
        '"JOB_EXT_MSG" "10.1" 1700000000 7 0 3 0 12 1700000000 0 '
        '"say ""hi""" "root"']


def test_signal_names_the_user_who_sent_it():
    assert _lines("SIGNAL", {"signal": "USR1", "by": "root"}) == [
        '"JOB_SIGNAL" "10.1" 1700000000 7 0 0 "USR1" 0 "root"']


def test_rotation_limits_from_params():
    assert lsbrotate.Limits.from_params({}) == lsbrotate.Limits(1000, 0, 0)
    got = lsbrotate.Limits.from_params({"MAX_JOB_NUM": 5,
                                        "ACCT_ARCHIVE_SIZE": "2",
                                        "ACCT_ARCHIVE_AGE": 1})
    assert got == lsbrotate.Limits(5, 2, 1)
    assert not got.acct_due(0, 0, 10 ** 9)            # empty: never
    assert got.acct_due(2049, 10 ** 9, 10 ** 9)       # over 2 KB
    assert got.acct_due(10, 0, 86401)                 # older than a day
    assert not got.acct_due(10, 0, 86400)


def test_state_line_is_fixed_width_and_reads_old_positions():
    state = lsbrotate.LogState(seq=12, events_size=300, finished=4)
    line = state.line()
    assert len(line) == lsbrotate.STATE_WIDTH and line.endswith(b"\n")
    assert lsbrotate.LogState.parse(line.decode()) == state
    old = lsbrotate.LogState.parse("42                  \n")
    assert (old.seq, old.events_size, old.rotating) == (42, -1, "-")
    assert lsbrotate.LogState.parse("garbage") is None


def test_shift_goes_on_from_the_gap_a_crash_left(tmp_path):
    for n in (1, 2, 4, 5):          # .3 had become .4 when the crash came
        (tmp_path / f"lsb.events.{n}").write_text(str(n))
    lsbrotate.shift_archives(str(tmp_path), "lsb.events")
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == {
        "lsb.events.2": "1", "lsb.events.3": "2", "lsb.events.4": "4",
        "lsb.events.5": "5"}


def test_a_log_of_an_older_xce_goes_on_where_it_was(tmp_path):
    """A position alone in .xce-seq: nothing is cut, the finished jobs
    already in lsb.events count towards MAX_JOB_NUM."""
    from xce.store.lsbfiles import EventFiles
    from xce.store.writer import Store
    logdir = tmp_path / "logdir"
    logdir.mkdir()
    old = ('# 0\n"JOB_STATUS" "10.1" 5 1 64 0 0 0.0000 5 0 0 0 0 0\n'
           '"JOB_STATUS" "10.1" 6 2 4 0 0 0.0000 0 0 0 0 0 0\n')
    (logdir / "lsb.events").write_text(old)
    (logdir / ".xce-seq").write_text(f"{7:<20d}\n")
    store = Store(tmp_path / "xce.db")
    files = EventFiles(logdir, store.db, now=1000)
    try:
        assert (files.state.seq, files.state.finished) == (7, 1)
        assert files.state.acct_begun == 1000
        assert files.state.events_size == len(old)
        assert (logdir / "lsb.events").read_text() == old
    finally:
        files.close()
        store.close()
