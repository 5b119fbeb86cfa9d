"""bsub -pack throughput: 10,000 submissions from one pack file.

Wall time of one ``bsub -pack`` as the user sees it (parsing every line,
one spooled request, the controller accepting all jobs in one turn, the
per-line output).  A one-slot host is kept busy so the jobs stay pending
and the scheduling pass over them is part of the figure.
Target (issue 6): >= 2,000 jobs/s.
"""

import sys

from _common import cluster, command, emit, note

JOBS = 10_000


def main(jobs=JOBS):
    with cluster(mxj=1) as clu:
        command(clu, "bsub", "sleep", "600")
        pack = clu.root / "bench.pack"
        pack.write_text("".join(f"-J pack{i} -o /dev/null true\n"
                                for i in range(jobs)))
        seconds, out = command(clu, "bsub", "-pack", str(pack))
    summary = out.splitlines()[-1]
    if summary != f"{jobs} lines parsed, {jobs} jobs submitted, " \
            "0 errors found.":
        raise RuntimeError(f"unexpected summary: {summary}")
    note(f"bsub -pack: {jobs} jobs in {seconds:.2f} s")
    emit("bsub_pack_jobs_per_s", jobs / seconds, "jobs/s")


if __name__ == "__main__":
    sys.exit(main())
