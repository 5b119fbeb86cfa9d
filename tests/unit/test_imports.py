"""User commands import nothing heavy: no paramiko, psutil, ruamel, daemon code."""

import subprocess
import sys

import pytest

USER_COMMANDS = ["bsub", "bjobs", "bkill", "bstop", "bresume", "bqueues",
                 "bhosts", "bparams", "lsid", "lsclusters", "badmin", "bhist",
                 "bacct", "bmod", "bswitch", "brequeue", "btop", "bbot",
                 "bpeek", "bwait", "busers", "bugroup", "bmgroup", "bapp",
                 "blimits", "lshosts", "lsload", "bpost", "bread", "bstatus",
                 "bjdepinfo", "lsadmin", "blaunch", "xce_explain", "lsinfo"]
# click too: LSF commands parse with xce.cli.lsfargs (click is for xce's
# own tools: xce, xce-migrate and the daemons).
HEAVY = ("paramiko", "psutil", "ruamel", "xce.controller", "xce.agent",
         "tabulate", "filelock", "msgspec", "click")

PROBE = """
import importlib, sys
importlib.import_module({module!r})
heavy = sorted(m for m in sys.modules if m.split('.')[0] in {top!r}
               or m.startswith(('xce.controller', 'xce.agent')))
print(' '.join(heavy))
"""


@pytest.mark.parametrize("command", USER_COMMANDS)
def test_command_imports_are_light(command):
    module = f"xce.cli.{command}"
    tops = tuple(h for h in HEAVY if "." not in h)
    out = subprocess.run([sys.executable, "-c",
                          PROBE.format(module=module, top=tops)],
                         capture_output=True, text=True)
    if "ModuleNotFoundError" in out.stderr and module in out.stderr:
        pytest.skip(f"{command} is not written yet")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_the_probe_sees_a_heavy_import():
    out = subprocess.run([sys.executable, "-c", PROBE.format(
        module="xce.agent.hostinfo", top=("psutil",))],
        capture_output=True, text=True)
    assert "psutil" in out.stdout
