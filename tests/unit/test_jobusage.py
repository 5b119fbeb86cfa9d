"""A job's usage over its hosts: its own report plus its blaunch tasks'."""

from functools import partial

from xce.controller import jobusage

from tests.lib.builders import job_row
from tests.lib.fake_controller import FakeController


# Job 5, running: the job whose usage the tests report.
_running = partial(job_row, 5, "RUN", attempt=1)


def test_each_host_counts_once_with_its_last_report():
    ctl, job = FakeController(), _running()
    assert jobusage.report(ctl, job, jobusage.MAIN, 1.0, 100) == (1.0, 100)
    assert jobusage.report(ctl, job, "h2", 2.0, 50) == (3.0, 150)
    assert jobusage.report(ctl, job, "h2", 2.5, 40) == (3.5, 140)
    assert jobusage.report(ctl, job, jobusage.MAIN, 1.5, 10) == (4.0, 50)


def test_cpu_never_goes_down_after_a_controller_restart():
    # cpu_time as the store has it, tasks included
    ctl, job = FakeController(), _running(cpu_time=9.0)
    assert jobusage.report(ctl, job, jobusage.MAIN, 1.0, 0)[0] == 9.0


def test_a_new_attempt_starts_from_nothing():
    ctl = FakeController()
    jobusage.report(ctl, _running(attempt=1), "h2", 5.0, 10)
    assert jobusage.report(ctl, _running(attempt=2), jobusage.MAIN,
                           1.0, 1) == (1.0, 1)


def test_the_final_figures_add_the_other_hosts_and_forget_the_job():
    ctl, job = FakeController(), _running(max_mem=300)
    jobusage.report(ctl, job, jobusage.MAIN, 1.0, 100)
    jobusage.report(ctl, job, "h2", 2.0, 50)
    jobusage.report(ctl, job, "h3", 0.5, 50)
    assert jobusage.at_finish(ctl, job, 1.2, 120) == (3.7, 300)
    assert jobusage.at_finish(ctl, job, 1.2, None) == (1.2, 300)


def test_parts_of_jobs_that_ended_without_a_report_are_swept():
    ctl = FakeController()
    ctl.jobs = {}
    for n in range(jobusage.PURGE_EVERY - 1):
        job = dict(_running(), jobid=n)
        ctl.jobs[(n, 0)] = job
        jobusage.report(ctl, job, "h2", 1.0, 1)
    live = ctl.jobs[(0, 0)]
    ctl.jobs = {(0, 0): live}           # the others were removed (bkill -r)
    jobusage.report(ctl, dict(_running(), jobid=10 ** 6), "h2", 1.0, 1)
    assert set(ctl.usage.parts) == {(0, 0), (10 ** 6, 0)}
