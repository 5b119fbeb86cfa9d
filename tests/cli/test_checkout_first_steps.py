"""A newcomer's first steps in a checkout: the README's first commands and
hints, and make status on a cluster that is not running."""

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_make_status_of_a_stopped_cluster_says_so_and_succeeds(make_cluster):
    cluster = make_cluster(start=False)
    # -o install: the test runs the commands installed already.
    done = subprocess.run(
        ["make", "-s", "-o", "install", "status",
         f"ENVDIR={cluster.envdir}"], cwd=REPO, capture_output=True,
        text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, ""), done
    assert done.stdout == ("xce-controller: stopped\n"
                           "xce is not running (start it with: make run)\n")


def test_make_status_of_a_running_cluster_names_its_daemons(make_cluster):
    cluster = make_cluster()
    done = subprocess.run(
        ["make", "-s", "-o", "install", "status",
         f"ENVDIR={cluster.envdir}"], cwd=REPO, capture_output=True,
        text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, ""), done
    assert done.stdout.startswith("xce-controller: running (pid ")


def test_readme_starts_with_make_run_and_test_then_says_how_to_read_the_man_pages_and_pick_a_cluster():
    text = (REPO / "README.md").read_text()
    first_block = re.search(r"```sh\n(.*?)```", text, re.S).group(1)
    commands = [line.split()[:2] for line in first_block.splitlines()
                if not line.lstrip().startswith("#")]
    assert commands == [["make", "run"], ["make", "test"]]
    top = text[:text.index("## ")]      # before the first section
    assert "man -l man/man1/bsub.1" in top
    assert 'MANPATH="$PWD/man:"' in top
    assert "XCE_ENVDIR" in top
    assert (REPO / "man" / "man1" / "bsub.1").is_file()
