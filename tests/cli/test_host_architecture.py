"""A host with no model in xce.yaml takes the model whose lsf.shared
ARCHITECTURE strings (host_architectures) match its CPU, and its type is
the one its agent detects: lshosts shows them, select[] places by them and
its model's CPU factor is its own."""

import platform
import socket

from xce.agent import hostinfo

HOST = socket.gethostname()
MODELS = f"""\
host_models:
  Other: 1.0
  Matched: 2.5
host_architectures:
  Other: [no_such_cpu]
  Matched: [{platform.machine()}]
"""


def test_detected_model_and_type_are_shown_and_selected(make_cluster):
    cluster = make_cluster(mxj=1, extra=MODELS)
    detected_type = hostinfo.host_type(platform.system(), platform.machine())
    r = cluster.run("lshosts", "-w")
    assert r.rc == 0, r
    cells = r.out.splitlines()[1].split()
    assert cells[:4] == [HOST, detected_type, "Matched", "2.5"], r
    r = cluster.run("bhosts", "-R", "select[model == Other]")
    assert (r.rc, r.err) == (255, "Not enough host(s) currently eligible\n")
    job = cluster.submit(
        "-R", f"select[model == Matched && type == {detected_type}]", "true")
    cluster.wait_stat(job, "DONE")
