"""xce sim as an administrator runs it: the installed command, a trace
file, the summary on standard output, warnings on standard error."""

import json
import re
import subprocess
import sys
from pathlib import Path

XCE = Path(sys.executable).parent / "xce"

# Job 1 takes 2 of the 4 slots for 100 s; job 2 wants all 4 and waits for
# job 1, then is killed at its 40 s estimate; job 4 fits at once (the
# default queue starts what fits); job 5 wants more than the cluster has.
TRACE = """\
; MaxProcs: 4
1 0 -1 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1
2 10 -1 50 4 -1 -1 4 40 -1 1 2 2 -1 -1 -1 -1 -1
3 this line is not a job
4 20 -1 30 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1
5 30 -1 30 9 -1 -1 9 100 -1 1 1 1 -1 -1 -1 -1 -1
"""


def sim(*args, input=None):
    done = subprocess.run([str(XCE), "sim", *args], capture_output=True,
                          text=True, input=input, timeout=120)
    return done.returncode, done.stdout, done.stderr


def _trace(tmp_path, text=TRACE):
    path = tmp_path / "small.swf"
    path.write_text(text)
    return str(path)


def test_json_summary_is_the_last_line(tmp_path):
    code, out, err = sim("--workload", _trace(tmp_path), "--hosts", "2x2",
                         "--json")
    assert code == 0
    s = json.loads(out.splitlines()[-1])
    assert (s["jobs"], s["mean_wait_s"], s["makespan_s"]) == (3, 30.0, 140.0)
    # (100 x 2 + 40 x 4 + 30 x 1) slot-seconds over 4 slots x 140 s.
    assert abs(s["utilization"] - 390 / 560) < 1e-9
    # bsld: job 1 and 4 ran at once (1), job 2 (90 + 40) / 40.
    assert abs(s["mean_bounded_slowdown"] - (1 + 3.25 + 1) / 3) < 1e-9
    assert s["killed_at_run_limit"] == 1
    assert [w["job"] for w in s["longest_waits"]][:1] == [2]
    assert s["per_user"]["u2"]["mean_wait_s"] == 90.0
    assert s["ungrouped"] == {"g1": 2, "g2": 1}


def test_bad_lines_and_a_job_larger_than_the_cluster_are_reported(tmp_path):
    code, out, err = sim("--workload", _trace(tmp_path), "--hosts", "2x2")
    assert code == 0
    assert err.splitlines() == [
        f"xce sim: warning: {tmp_path}/small.swf: 1 trace line(s) skipped "
        "(lines 4): 7 fields, not 18",
        # SWF groups 1 and 2 (g1, g2) are no user groups of --hosts' site
        "xce sim: warning: 3 job(s) replayed without their trace's user "
        "group, which the configuration does not define (g1, g2)",
        "xce sim: job 5 (trace line 6, 9 processors): Too many processors "
        "requested"]
    assert out.startswith("jobs ") and "rejected" in out
    assert "longest waits" in out


def test_bad_hosts_and_a_config_that_does_not_load(tmp_path):
    trace = _trace(tmp_path)
    code, out, err = sim("--workload", trace, "--hosts", "100by1")
    assert (code, out) == (255, "")
    assert err == ("xce sim: --hosts 100by1: expected NxS, e.g. 100x1 "
                   "(N hosts of S slots)\n")
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "xce.yaml").write_text("queues:\n  normal:\n    PRIORITY: x\n")
    code, out, err = sim("--workload", trace, "--envdir", str(etc))
    assert (code, out) == (255, "")
    assert err.startswith(f"xce sim: {etc}/xce.yaml:3: ")


def test_a_missing_workload(tmp_path):
    code, out, err = sim("--workload", str(tmp_path / "none.swf"),
                         "--hosts", "1x1")
    assert (code, out) == (255, "")
    assert err == (f"xce sim: {tmp_path}/none.swf: No such file or "
                   "directory\n")


def test_plot_draws_the_curves_into_a_file(tmp_path):
    png = tmp_path / "replay.png"
    code, out, err = sim("--workload", _trace(tmp_path), "--hosts", "2x2",
                         "--json", "--plot", str(png))
    assert code == 0 and json.loads(out.splitlines()[-1])["jobs"] == 3
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_stepper_reads_its_commands_from_standard_input(tmp_path):
    trace = _trace(tmp_path)
    plain = sim("--workload", trace, "--hosts", "2x2")
    stepped = sim("--workload", trace, "--hosts", "2x2", "-i",
                  input="continue\n")
    assert stepped == plain
    code, out, err = sim("--workload", trace, "--hosts", "2x2", "-i",
                         input="step\nwhat\nquit\n")
    assert code == 0
    assert out.splitlines()[:2] == [
        "time 0: submit 1; start 1 on h0001 h0001",
        "commands: step [n], continue, break job N|time T|event KIND, "
        "info job N|host NAME|queue NAME, trace on|off [job...], quit"]


def test_progress_goes_to_standard_error_only(tmp_path):
    trace = _trace(tmp_path)
    code, out, err = sim("--workload", trace, "--hosts", "2x2", "--json",
                         "--progress")
    assert code == 0 and json.loads(out.splitlines()[-1])["jobs"] == 3
    assert "replaying" in err
    assert "replaying" not in sim("--workload", trace, "--hosts", "2x2")[2]


def test_an_lsf_configuration_directory_is_migrated_on_the_fly(tmp_path):
    lsf = Path(__file__).resolve().parents[1] / "unit" / "data" / "lsf" / \
        "site"
    code, out, err = sim("--workload", _trace(tmp_path), "--envdir",
                         str(lsf), "--json")
    assert code == 0, err
    s = json.loads(out.splitlines()[-1])
    assert s["jobs"] + len(s["rejected"]) == 4
    code, out, err = sim("--workload", _trace(tmp_path), "--envdir",
                         str(tmp_path))
    assert (code, out) == (255, "")
    assert err.endswith("no LSF configuration files (lsf.conf, lsf.shared, "
                        "lsf.cluster.<name>, lsb.*) found\n")
    # A directory name too long to look at: one line, no traceback.
    long = str(tmp_path / ("a" * 300))
    code, out, err = sim("--workload", _trace(tmp_path), "--envdir", long)
    assert (code, out, err) == (255, "", f"xce sim: {long}/xce.yaml: cannot "
                                "read: File name too long\n")


def test_a_host_whose_jobs_fail_fast_is_closed_in_the_summary(tmp_path):
    """Trace status 0 (failed) jobs exit; past GLOBAL_EXIT_RATE their host
    is closed as the controller closes it, and the rest never start."""
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "xce.yaml").write_text(
        "cluster: {name: sim}\nparameters: {DEFAULT_QUEUE: normal, "
        "GLOBAL_EXIT_RATE: 1, JOB_EXIT_RATE_DURATION: 1}\n"
        "queues:\n  normal:\n    PRIORITY: 30\n")
    trace = "".join(f"{n} 0 -1 10 1 -1 -1 1 10 -1 {st} 1 1 -1 -1 -1 -1 -1\n"
                    for n, st in ((1, 0), (2, 0), (3, 1)))
    code, out, err = sim("--workload", _trace(tmp_path, trace), "--envdir",
                         str(etc), "--hosts", "1x1", "--json")
    assert code == 0, err
    s = json.loads(out.splitlines()[-1])
    assert s["hosts_closed"] == [{"host": "h0001", "time_s": 20.0}]
    assert (s["failed"], s["never_finished"]) == (2, [3])
    code, out, err = sim("--workload", _trace(tmp_path, trace), "--envdir",
                         str(etc), "--hosts", "1x1")
    assert re.search(r"^hosts closed by exit rate\s+h0001$", out, re.M)
    assert re.search(r"^failed \(trace status 0\)\s+2$", out, re.M)

