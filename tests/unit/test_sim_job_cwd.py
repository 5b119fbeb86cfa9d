"""xce sim submits through the controller's admit, so a trace job gets
the working directory the live controller would give it: the cluster's
DEFAULT_JOB_CWD (or its profile's JOB_CWD) when it has none of its own,
and is refused as live when that directory is too long."""

import pytest

from xce.controller.submit import Rejected

from tests.lib.simsite import sim_cluster


def _cluster(tmp_path, params):
    return sim_cluster(tmp_path, f"parameters: {params}\n"
                       "queues:\n  normal:\n    PRIORITY: 30\n"
                       "applications:\n  a1:\n    JOB_CWD: /apps/%J\n",
                       "1x2")


def _spec(**kw):
    return {"command": "true", "cwd": "/", "subcwd": "/", "nslots": [1, 1],
            **kw}


def test_a_trace_job_gets_the_configured_directory(tmp_path):
    cl = _cluster(tmp_path, "{DEFAULT_JOB_CWD: /scratch/%U/%J}")
    job = cl.submit(_spec(), "ann")
    assert (job["spec"]["cwd"], job["spec"]["conf_cwd"]) == (
        "/scratch/%U/%J", "/scratch/%U/%J")
    job = cl.submit(_spec(app="a1"), "ann")
    assert job["spec"]["cwd"] == "/apps/%J"
    job = cl.submit(_spec(specified_cwd="/own"), "ann")
    assert job["spec"]["cwd"] == "/own" and "conf_cwd" not in job["spec"]


def test_one_too_long_is_refused_as_live(tmp_path):
    cl = _cluster(tmp_path, "{DEFAULT_JOB_CWD: " + "d" * 4000 + "}")
    with pytest.raises(Rejected) as e:
        cl.submit(_spec(subcwd="/" + "s" * 200), "ann")
    assert str(e.value).startswith("DEFAULT_JOB_CWD: the working directory")
