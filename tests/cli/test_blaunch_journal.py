"""A host that only runs blaunch tasks keeps its agent's journal bounded:
each task exit the controller acknowledges counts towards compaction as
an acknowledged job does (xce-agent-journal(5)).

The agent's compaction threshold is made small by a sitecustomize module
put on its PYTHONPATH (as tests/faults/test_start_go_crash.py does for
the controller), so that a few dozen tasks show it."""

import os

HOOK = '''
import os, sys
_ARGV = " ".join(getattr(sys, "orig_argv", []))
if "xce.cli.xce_agent" in _ARGV or "xce-agent" in _ARGV:
    from xce.agent import journal
    journal.COMPACT_AFTER = int(os.environ["XCE_TEST_COMPACT_AFTER"])
'''
TASKS = 40
EVERY = 5


def test_acknowledged_task_exits_compact_the_agents_journal(make_cluster):
    cluster = make_cluster(start=False)
    hook = cluster.root / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    path = cluster.env.get("PYTHONPATH")
    cluster.env["PYTHONPATH"] = str(hook) + (f":{path}" if path else "")
    cluster.env["XCE_TEST_COMPACT_AFTER"] = str(EVERY)
    cluster.start()
    done = cluster.root / "done"
    jobid = cluster.submit(
        f"i=0; while [ $i -lt {TASKS} ]; do "
        f"blaunch -z \"$LSB_HOSTS\" true || exit 9; i=$((i+1)); done; "
        f"echo ok >{done}")
    assert cluster.wait_stat(jobid, "DONE", "EXIT", timeout=120) == "DONE"
    assert done.read_text() == "ok\n"
    [journal] = cluster.spool.glob("agents/*/journal")
    lines = journal.read_text().splitlines()
    # Three records a task (spawned, ended, acknowledged): without
    # compaction that is 120 lines; with it, at most the last few tasks'
    # and the job's own.
    assert sum('"t":"task' in x for x in lines) <= 3 * EVERY, lines
    assert len(lines) <= 3 * EVERY + 4, lines
    assert os.path.getsize(journal) < 20000
