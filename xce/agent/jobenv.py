"""The environment a job runs with: its submission environment plus LSF's variables."""

import pwd


def lsf_variables(msg, jobdir, hostfile):
    """LSB_* and LS_* variables for one dispatched job."""
    hosts = msg["hosts"]
    counts = {}
    for h in hosts:
        counts[h] = counts.get(h, 0) + 1
    env = {
        "LSB_JOBID": str(msg["job"]),
        "LSB_JOBINDEX": str(msg.get("idx", 0)),
        "LSB_JOBNAME": msg["name"],
        "LSB_QUEUE": msg["queue"],
        "LSB_HOSTS": " ".join(hosts),
        "LSB_MCPU_HOSTS": " ".join(f"{h} {n}" for h, n in counts.items()),
        "LSB_DJOB_HOSTFILE": hostfile,
        "LSB_DJOB_NUMPROC": str(len(hosts)),
        "LSB_MAX_NUM_PROCESSORS": str(len(hosts)),
        "LSB_SUBCWD": msg["subcwd"],
        "LS_SUBCWD": msg["subcwd"],
        "LSB_SUB_HOST": msg["from_host"],
        "LSB_EXECHOSTS": " ".join(counts),
        "LSB_JOBFILENAME": f"{jobdir}.job",
        "LSB_OUTPUTFILE": msg["stdout"],
        "LSB_BATCH_JID": str(msg["job"]),
        "LSFUSER": msg["user"],
    }
    if msg.get("stderr"):
        env["LSB_ERRORFILE"] = msg["stderr"]
    if msg.get("restart"):
        env["LSB_RESTART"] = "Y"
    if msg.get("outdir"):
        # bsub -outdir; the wrapper creates it (spawn.WRAPPER).
        env["LSB_OUTDIR"] = msg["outdir"]
    if msg.get("requeue_exit"):         # bsub -Q or REQUEUE_EXIT_VALUES
        env["LSB_EXIT_REQUEUE"] = msg["requeue_exit"]
    return env


def job_environment(msg, jobdir, hostfile):
    env = {k: v for k, v in (msg.get("env") or {}).items()
           if isinstance(v, str) and "\0" not in k + v and "=" not in k}
    try:
        pw = pwd.getpwnam(msg["user"])
        home, shell = pw.pw_dir, pw.pw_shell
    except KeyError:
        home, shell = "/", "/bin/sh"
    env.update(HOME=home, USER=msg["user"], LOGNAME=msg["user"],
               PWD=msg["cwd"])
    env.setdefault("SHELL", shell)
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.pop("LSB_OUTDIR", None)     # only the job's own -outdir
    env.update(lsf_variables(msg, jobdir, hostfile))
    # A GPU job's devices on this host (CUDA_VISIBLE_DEVICES ...), as the
    # controller worked them out; replaces any from the submission.
    env.update({k: v for k, v in (msg.get("gpu_env") or {}).items()
                if isinstance(k, str) and isinstance(v, str)})
    return env, home
