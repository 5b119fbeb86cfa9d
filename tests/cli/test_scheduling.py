"""Scheduling end to end: -R (select, span, rusage), -n min,max, job
arrays and -w dependencies, through bsub, bjobs and bkill."""

from tests.lib.xcecluster import virtual_names, wait_for


def _reasons(cluster, label):
    r = cluster.run("bjobs", "-p", str(label))
    assert r.rc == 0, r
    return r.out


def _wait_reason(cluster, label, text):
    return wait_for(lambda: text in _reasons(cluster, label),
                    what=f"pend reason {text!r} for {label}")


def _exec_hosts(cluster, label):
    r = cluster.run("bjobs", "-noheader", "-o", "exec_host", str(label))
    return r.out.strip()


def _rows(cluster, *args):
    r = cluster.run("bjobs", "-noheader", "-w", *args)
    return [line.split() for line in r.out.splitlines()]


# ----------------------------------------------------------------- -R and -n
def test_span_hosts_1_puts_all_slots_on_one_host(make_cluster):
    cluster = make_cluster(mxj=4)
    jobid = cluster.submit("-n", "4", "-R", "span[hosts=1]", "-o", "s.out",
                           "echo $LSB_MCPU_HOSTS")
    cluster.wait_stat(jobid, "DONE")
    host, count = (cluster.root / "s.out").read_text().split()[:2]
    assert count == "4"


def test_select_no_host_satisfies_pends_with_host_reason(cluster):
    jobid = cluster.submit("-R", "select[hname==nosuchhost]", "true")
    _wait_reason(cluster, jobid,
                 " Job's resource requirements not satisfied: 1 host;")
    assert cluster.stat(jobid) == "PEND"
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "Job's resource requirements not satisfied" in r.joined


def test_select_on_host_facts_runs_where_satisfied(cluster):
    jobid = cluster.submit("-R", "select[ncpus>=1 && maxmem>0] order[-mem]",
                           "true")
    cluster.wait_stat(jobid, "DONE")


def test_ptile_beyond_one_host_pends_on_spanning(make_cluster):
    cluster = make_cluster(mxj=4)
    fits = cluster.submit("-n", "2", "-R", "span[ptile=2]", "true")
    cluster.wait_stat(fits, "DONE")
    jobid = cluster.submit("-n", "4", "-R", "span[ptile=2]", "true")
    _wait_reason(cluster, jobid,
                 " Not enough hosts to meet the job's spanning requirement;")
    assert cluster.stat(jobid) == "PEND"


def test_block_with_n_not_a_multiple_runs_with_a_final_partial_block(
        make_cluster):
    """-n 3 with span[block=2] on two 2-slot hosts: a block of 2 on one
    host and the last slot on the other, not a pend for ever."""
    cluster = make_cluster(virtual_hosts=virtual_names(2), mxj=2)
    jobid = cluster.submit("-n", "3", "-R", "span[block=2]", "-o", "b.out",
                           "echo $LSB_MCPU_HOSTS")
    cluster.wait_stat(jobid, "DONE")
    words = (cluster.root / "b.out").read_text().split()[:4]
    per_host = dict(zip(words[::2], words[1::2]))
    assert sorted(per_host) == virtual_names(2), words
    assert sorted(per_host.values()) == ["1", "2"], words


def test_rusage_mem_beyond_the_host_pends_with_reservation_reason(cluster):
    jobid = cluster.submit("-R", "rusage[mem=999999999999]", "true")
    _wait_reason(cluster, jobid, " Job requirements for reserving "
                 "resource (mem) not satisfied: 1 host;")


def test_n_min_max_starts_with_the_slots_that_fit(make_cluster):
    cluster = make_cluster(mxj=4)
    blocker = cluster.submit("sleep 60")
    cluster.wait_stat(blocker, "RUN")
    jobid = cluster.submit("-n", "2,4", "-o", "n.out",
                           "echo $LSB_DJOB_NUMPROC")
    cluster.wait_stat(jobid, "DONE")
    assert (cluster.root / "n.out").read_text().split()[0] == "3"
    too_many = cluster.submit("-n", "4,4", "true")
    _wait_reason(cluster, too_many, " Not enough job slot(s): 1 host;")
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(too_many, "DONE")


def test_bad_resreq_is_refused(cluster):
    r = cluster.run("bsub", "-R", "select[mem>]", "true")
    assert r.rc != 0
    assert r.err.endswith(". Job not submitted.\n")


# --------------------------------------------------------------------- arrays
def test_array_elements_run_with_index_and_name(cluster):
    r = cluster.run("bsub", "-J", "arr[1-5:2,8]", "-o", "out.%J.%I",
                    "echo idx=$LSB_JOBINDEX name=$LSB_JOBNAME")
    assert r.rc == 0
    assert r.out.count("is submitted") == 1
    jobid = int(r.out.split("<")[1].split(">")[0])
    for idx in (1, 3, 5, 8):
        cluster.wait_stat(f"{jobid}[{idx}]", "DONE")
        text = (cluster.root / f"out.{jobid}.{idx}").read_text()
        assert text.startswith(f"idx={idx} name=arr[{idx}]\n")
    # Finished jobs are listed in the order they finished (bjobs(1)):
    # the elements may end in any order.
    rows = sorted(_rows(cluster, "-a", str(jobid)),
                  key=lambda row: int(row[0].split("[")[1][:-1]))
    assert [row[0] for row in rows] == [f"{jobid}[{i}]" for i in (1, 3, 5, 8)]
    assert [row[-4] for row in rows] == [f"arr[{i}]" for i in (1, 3, 5, 8)]


def test_bkill_element_then_whole_array(make_cluster):
    cluster = make_cluster(mxj=4)
    jobid = cluster.submit("-J", "k[1-3]", "sleep 60")
    for idx in (1, 2, 3):
        cluster.wait_stat(f"{jobid}[{idx}]", "RUN")
    r = cluster.run("bkill", f"{jobid}[2]")
    assert (r.rc, r.out) == (0, f"Job <{jobid}[2]> is being terminated\n")
    cluster.wait_stat(f"{jobid}[2]", "EXIT")
    assert cluster.stat(f"{jobid}[1]") == "RUN"
    r = cluster.run("bkill", str(jobid))
    assert (r.rc, r.out) == (0, f"Job <{jobid}> is being terminated\n")
    for idx in (1, 3):
        cluster.wait_stat(f"{jobid}[{idx}]", "EXIT")


def test_array_running_limit(make_cluster):
    cluster = make_cluster(mxj=4)
    jobid = cluster.submit("-J", "lim[1-4]%2", "sleep 60")
    cluster.wait_stat(f"{jobid}[1]", "RUN")
    cluster.wait_stat(f"{jobid}[2]", "RUN")
    _wait_reason(cluster, f"{jobid}[3]",
                 " The job array has reached its running element limit;")
    stats = [row[2] for row in _rows(cluster, str(jobid))]
    assert stats == ["RUN", "RUN", "PEND", "PEND"]
    cluster.run("bkill", f"{jobid}[1]")
    cluster.wait_stat(f"{jobid}[3]", "RUN")
    assert cluster.stat(f"{jobid}[4]") == "PEND"
    cluster.run("bkill", str(jobid))


def test_array_bad_specs_are_refused(make_cluster):
    cluster = make_cluster(extra_params="  MAX_JOB_ARRAY_SIZE: 10")
    r = cluster.run("bsub", "-J", "a[1-11]", "true")
    assert (r.rc, r.err) == (255, "Job array index too large. "
                             "Job not submitted.\n")
    r = cluster.run("bsub", "-J", "a[5-1]", "true")
    assert r.err == "Job array index error. Job not submitted.\n"
    r = cluster.run("bsub", "-J", "a[1]x", "true")
    assert r.err == "Bad job name. Job not submitted.\n"


# --------------------------------------------------------------- dependencies
def test_done_dependency_waits_then_runs(make_cluster):
    cluster = make_cluster(mxj=4)
    # The first job runs until the test has seen the second one wait.
    go = cluster.root / "first.go"
    first = cluster.submit(f"while [ ! -e {go} ]; do sleep 0.1; done")
    second = cluster.submit("-w", f"done({first})", "true")
    _wait_reason(cluster, second, " Job dependency condition not satisfied;")
    r = cluster.run("bjobs", "-l", str(second))
    assert f"Dependency Condition <done({first})>" in r.joined, r
    assert cluster.stat(second) == "PEND"
    go.write_text("")
    cluster.wait_stat(second, "DONE")
    assert cluster.stat(first) == "DONE"


def test_exit_and_ended_dependencies_with_codes(make_cluster):
    cluster = make_cluster(mxj=4)
    failing = cluster.submit("-J", "failing", "exit 3")
    cluster.wait_stat(failing, "EXIT")
    on_code = cluster.submit("-w", f"exit({failing}, 3)", "true")
    on_gt = cluster.submit("-w", "exit(failing, >2) && ended(failing)",
                           "true")
    never = cluster.submit("-w", f"done({failing})", "true")
    wrong_code = cluster.submit("-w", f"exit({failing}, 4)", "true")
    cluster.wait_stat(on_code, "DONE")
    cluster.wait_stat(on_gt, "DONE")
    _wait_reason(cluster, never,
                 " Dependency condition invalid or never satisfied;")
    _wait_reason(cluster, wrong_code,
                 " Dependency condition invalid or never satisfied;")


def test_dependency_on_an_array_element(make_cluster):
    cluster = make_cluster(mxj=4)
    arr = cluster.submit("-J", "deps[1-2]", "true")
    after = cluster.submit("-w", f"done({arr}[2]) && done(deps)", "true")
    cluster.wait_stat(after, "DONE")


def test_unknown_job_and_bad_syntax_are_refused(cluster):
    r = cluster.run("bsub", "-w", "done(99999)", "true")
    assert (r.rc, r.out) == (255, "")
    assert r.err == "done(99999): No matching job found. Job not submitted.\n"
    r = cluster.run("bsub", "-w", "done(nosuchname)", "true")
    assert r.err == ("done(nosuchname): No matching job found. "
                     "Job not submitted.\n")
    r = cluster.run("bsub", "-w", "done(1", "true")
    assert r.err == ("done(1: Dependency condition syntax error. "
                     "Job not submitted.\n")


def test_finished_jobs_still_answer_dependencies_after_a_restart(cluster):
    failed = cluster.submit("-J", "early", "exit 2")
    cluster.wait_stat(failed, "EXIT")
    cluster.kill_controller()
    cluster.proc.wait()
    cluster.start()
    on_exit = cluster.submit("-w", "exit(early, 2)", "true")
    cluster.wait_stat(on_exit, "DONE")
    never = cluster.submit("-w", f"done({failed})", "true")
    _wait_reason(cluster, never,
                 " Dependency condition invalid or never satisfied;")


def test_dependent_array_elements_follow_their_own_element(make_cluster):
    cluster = make_cluster(mxj=4)
    first = cluster.submit("-J", "one[1-2]", "-o", "one.%I",
                           "test $LSB_JOBINDEX = 1")
    second = cluster.submit("-J", "two[1-2]", "-w", "done(one[*])", "true")
    cluster.wait_stat(f"{second}[1]", "DONE")
    cluster.wait_stat(f"{first}[2]", "EXIT")
    _wait_reason(cluster, f"{second}[2]",
                 " Dependency condition invalid or never satisfied;")


def test_name_filters_reach_array_elements(make_cluster):
    cluster = make_cluster(mxj=4)
    jobid = cluster.submit("-J", "named[1-2]", "sleep 60")
    cluster.wait_stat(f"{jobid}[2]", "RUN")
    rows = _rows(cluster, "-J", "named")
    assert [row[0] for row in rows] == [f"{jobid}[1]", f"{jobid}[2]"]
    rows = _rows(cluster, "-J", "named[2]")
    assert [row[0] for row in rows] == [f"{jobid}[2]"]
    r = cluster.run("bkill", "-J", "named", "0")
    assert r.rc == 0
    for idx in (1, 2):
        cluster.wait_stat(f"{jobid}[{idx}]", "EXIT")


def test_one_to_one_dependency_needs_arrays_of_one_size(cluster):
    cluster.submit("-J", "three[1-3]", "-H", "true")
    r = cluster.run("bsub", "-J", "two[1-2]", "-w", "done(three[*])", "true")
    assert (r.rc, r.err) == (255, "Dependent arrays do not have the same "
                             "size. Job not submitted.\n")


def test_queue_res_req_is_applied_with_its_own_reason(make_cluster):
    cluster = make_cluster(extra_queues=(
        "  picky:\n    PRIORITY: 20\n"
        "    RES_REQ: select[hname==nosuchhost] span[hosts=1]\n"))
    jobid = cluster.submit("-q", "picky", "true")
    _wait_reason(cluster, jobid,
                 " Queue's resource requirements not satisfied: 1 host;")


def test_type_local_means_the_submission_hosts_type(cluster):
    runs = cluster.submit("-R", "select[type==local]", "true")
    cluster.wait_stat(runs, "DONE")
    pends = cluster.submit("-R", "select[type!=local]", "true")
    _wait_reason(cluster, pends,
                 " Job's resource requirements not satisfied: 1 host;")


def test_one_host_span_beyond_every_host_pends_per_host(make_cluster):
    """span[hosts=1] and no host with the slots: LSF's host-based reason,
    with the number of hosts."""
    cluster = make_cluster(virtual_hosts=virtual_names(2), mxj=2,
                           start=False)
    cluster.start(timeout=60)
    jobid = cluster.submit("-n", "3", "-R", "span[hosts=1]", "true")
    _wait_reason(cluster, jobid, " Not enough processors to meet the "
                 "job's spanning requirement: 2 hosts;")
    assert cluster.stat(jobid) == "PEND"


def test_queue_span_failure_names_the_queues_requirement(make_cluster):
    """span[hosts=1] from the queue's RES_REQ: LSF's queue wording
    (PEND_QUE_NO_SPAN), in bjobs -p and -p1; the user gave no span[]."""
    cluster = make_cluster(virtual_hosts=virtual_names(2), mxj=2,
                           start=False, extra_queues=(
                               "  onehost:\n    PRIORITY: 20\n"
                               "    RES_REQ: span[hosts=1]\n"))
    cluster.start(timeout=60)
    jobid = cluster.submit("-q", "onehost", "-n", "3", "true")
    text = (" Not enough processors to meet the queue's spanning "
            "requirement: 2 hosts;")
    _wait_reason(cluster, jobid, text)
    r = cluster.run("bjobs", "-p1", str(jobid))
    assert (r.rc, r.err) == (0, "")
    assert r.out.splitlines()[2] == text
