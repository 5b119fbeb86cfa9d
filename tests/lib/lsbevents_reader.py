"""An lsb.events reader written from LSF's documents alone: IBM's
lsb.events(5) for LSF 10.1, LSBLIB's event-log structures and, for
JOB_NEW, whose file order differs from both, records LSF wrote and
LSBLIB's own reader.

Like lsbacct_reader, it knows nothing of xce's writer: each record type has
its documented field list, walked field by field, counted lists taken by
their count, and fields that LSF writes only under a bit of an options
field (JOB_MODIFY2) taken only when the bit is set.  ``read_record``
raises ValueError when a field is missing or of the wrong type, when
fields are left over, or for a record type it has no layout for.
"""

from tests.lib.lsbacct_reader import D, F, S, _typed, split

# Conditional field: ("?", options field, bit, name, type).
HEAD = [("version", S), ("eventTime", D)]
_CLUSTERS = [("srcCluster", S), ("srcJobId", D), ("dstCluster", S),
             ("dstJobId", D)]
_LIMITS = [(f"rLimits{n}", D) for n in range(11)]
_REMOTE_CTRL = [("rmtJobCtrlStage", D), ("#numRmtCtrlResult", "remote")]

LAYOUTS = {
    # JOB_NEW in the order LSF writes it, not that of LSBLIB's jobNewLog
    # structure: a JOB_NEW written by LSF 9.1.3 (87 fields, a plain batch
    # job) and LSBLIB's own readJobNew (published by Platform in 2007)
    # agree on it.  niosPort comes only with SUB_INTERACTIVE; rsvId,
    # jobGroup, extsched, warningAction, sla and licenseProject only under
    # their options2 bits (the 9.1.3 record has two numbers between
    # userPriority and options3); of notifyCmd and jobDescription, each
    # under an options3 bit, it has one string: notifyCmd, written
    # whatever its bit as the other fields of LSF 7.0 are, jobDescription
    # under SUB3_JOB_DESCRIPTION (bsub -Jd).  After the cluster ids come
    # flow_id, subcwd, outdir, dcTmpls, dcVmActions (jobNewLog's order;
    # subcwd is the record's submission directory), the network request
    # and three more fields of the 9.1.3 record, unnamed here.
    "JOB_NEW": [
        ("jobId", D), ("userId", D), ("options", D), ("numProcessors", D),
        ("submitTime", D), ("beginTime", D), ("termTime", D),
        ("sigValue", D), ("chkpntPeriod", D), ("restartPid", D),
        ("userName", S), *_LIMITS, ("hostSpec", S), ("hostFactor", F),
        ("umask", D), ("queue", S), ("resReq", S), ("fromHost", S),
        ("cwd", S), ("chkpntDir", S), ("inFile", S), ("outFile", S),
        ("errFile", S), ("subHomeDir", S), ("jobFile", S),
        ("#numAskedHosts", [("askedHost", S)]),
        ("dependCond", S), ("preExecCmd", S), ("jobName", S),
        ("command", S),
        ("#nxf", [("subFn", S), ("execFn", S), ("xfOptions", D)]),
        ("mailUser", S), ("projectName", S),
        ("?", "options", 0x4000000, "niosPort", D),
        ("maxNumProcessors", D), ("schedHostType", S), ("loginShell", S),
        ("timeEvent", S), ("userGroup", S), ("exceptList", S),
        ("options2", D), ("idx", D), ("inFileSpool", S),
        ("commandSpool", S), ("jobSpoolDir", S), ("userPriority", D),
        ("?", "options2", 0x8000, "rsvId", S),
        ("?", "options2", 0x40000, "jobGroup", S),
        ("?", "options2", 0x100000, "extsched", S),
        ("warningTimePeriod", D),
        ("?", "options2", 0x4000, "warningAction", S),
        ("?", "options2", 0x80000, "sla", S),
        ("SLArunLimit", D),
        ("?", "options2", 0x200000, "licenseProject", S),
        ("options3", D), ("app", S), ("postExecCmd", S),
        ("runtimeEstimation", D), ("requeueEValues", S),
        ("initChkpntPeriod", D), ("migThreshold", D), ("notifyCmd", S),
        ("?", "options3", 0x2000000, "jobDescription", S),
        ("#submitEXT", [("key", S), ("value", S)]),
        ("options4", D), ("#numAskedClusters", [("askedCluster", S)]),
        *_CLUSTERS, ("flow_id", S), ("subcwd", S), ("outdir", S),
        ("dcTmpls", S), ("dcVmActions", S), ("networkOptions", D),
        ("nInstance", D), ("nProtocol", D), ("protocols", S),
        ("unnamed1", S), ("unnamed2", D), ("unnamed3", S)],
    "JOB_START": [
        ("jobId", D), ("jStatus", D), ("jobPid", D), ("jobPGid", D),
        ("hostFactor", F), ("#numExHosts", [("execHost", S)]),
        ("queuePreCmd", S), ("queuePostCmd", S), ("jFlags", D),
        ("userGroup", S), ("idx", D), ("additionalInfo", S),
        ("duration4PreemptBackfill", D), ("jFlags2", D),
        ("effectiveResReq", S), *_CLUSTERS,
        ("#num_network", [("networkID", S), ("num_window", D)]),
        ("affinity", S), ("nextStatusNo", D), ("combinedCpuFrequency", D),
        ("#numAllocSlots", [("allocSlot", S)])],
    "JOB_START_ACCEPT": [("jobId", D), ("jobPid", D), ("jobPGid", D),
                         ("idx", D)],
    # JOB_EXECUTE as LSF 9.1.3 writes it (the structure's position is not
    # where jobExecuteLog has it): after SLAscaledRunLimit come
    # execRusage and duration4PreemptBackfill, a number (INFINIT_INT in
    # that record), the cluster ids, a string and a number, unnamed here.
    "JOB_EXECUTE": [
        ("jobId", D), ("execUid", D), ("jobPGid", D), ("execCwd", S),
        ("execHome", S), ("execUsername", S), ("jobPid", D), ("idx", D),
        ("additionalInfo", S), ("SLAscaledRunLimit", D),
        ("execRusage", S), ("duration4PreemptBackfill", D),
        ("unnamedInt", D), *_CLUSTERS, ("unnamedStr", S),
        ("unnamedInt2", D)],
    "JOB_STATUS": [
        ("jobId", D), ("jStatus", D), ("reason", D), ("subreasons", D),
        ("cpuTime", F), ("endTime", D), ("ru", "rusage"), ("jFlags", D),
        ("exitStatus", D), ("idx", D), ("exitInfo", D),
        ("#numhRusages", [("hostname", S), ("mem", D), ("swap", D),
                          ("utime", D), ("stime", D)]),
        ("maxMem", D), ("avgMem", D), *_CLUSTERS, ("maskedJStatus", D)],
    "JOB_SIGNAL": [("jobId", D), ("userId", D), ("runCount", D),
                   ("signalSymbol", S), ("idx", D), ("userName", S),
                   *_CLUSTERS],
    "JOB_MODIFY2": [
        ("jobIdStr", S), ("options", D), ("options2", D),
        ("delOptions", D), ("userId", D), ("userName", S),
        ("submitTime", D), ("umask", D), ("numProcessors", D),
        ("beginTime", D), ("termTime", D), ("sigValue", D),
        ("restartPid", D),
        ("?", "options", 0x1, "jobName", S),
        ("?", "options", 0x2, "queue", S),
        ("?", "options", 0x4, "#numAskedHosts", [("askedHost", S)]),
        ("?", "options", 0x40000, "resReq", S),
        *_LIMITS,
        ("?", "options", 0x10000, "hostSpec", S),
        ("?", "options", 0x20000, "dependCond", S),
        ("subHomeDir", S),
        ("?", "options", 0x8, "inFile", S),
        ("?", "options", 0x10, "outFile", S),
        ("?", "options", 0x20, "errFile", S),
        ("?", "options", 0x80000, "#nxf", [("subFn", S), ("execFn", S),
                                            ("xfOptions", D)]),
        ("jobFile", S), ("fromHost", S), ("cwd", S),
        ("?", "options", 0x100000, "preExecCmd", S),
        ("?", "options", 0x400000, "mailUser", S),
        ("?", "options", 0x2000000, "projectName", S),
        ("niosPort", D), ("maxNumProcessors", D),
        ("?", "options", 0x200000, "loginShell", S),
        ("schedHostType", S), ("delOptions2", D),
        ("?", "options2", 0x200, "userPriority", D),
        ("rsvId", S), ("extsched", S), ("warningTimePeriod", D),
        ("warningAction", S), ("jobGroup", S), ("sla", S),
        ("licenseProject", S), ("options3", D), ("delOptions3", D),
        ("app", S), ("apsString", S), ("postExecCmd", S),
        ("runtimeEstimation", D), ("requeueEValues", S),
        ("resizeNotifyCmd", S), ("jobDescription", S)],
    # MultiCluster remote job control: a stage, then a counted list of
    # results (cluster, control id, the jobs that succeeded, those that
    # failed with their reasons).
    "JOB_SWITCH": [("userId", D), ("jobId", D), ("queue", S), ("idx", D),
                   ("userName", S), *_CLUSTERS, *_REMOTE_CTRL],
    "JOB_REQUEUE": [("jobId", D), ("idx", D)],
    "JOB_MOVE": [("userId", D), ("jobId", D), ("position", D),
                 ("base", D), ("idx", D), ("userName", S), *_REMOTE_CTRL],
    "JOB_EXT_MSG": [("jobId", D), ("idx", D), ("msgIdx", D), ("userId", D),
                    ("dataSize", D), ("postTime", D), ("dataStatus", D),
                    ("desc", S), ("userName", S)],
    "MBD_START": [("master", S), ("cluster", S), ("numHosts", D),
                  ("numQueues", D)],
    "QUEUE_CTRL": [("opCode", D), ("queue", S), ("userId", D),
                   ("userName", S), ("message", S)],
    "HOST_CTRL": [("opCode", D), ("host", S), ("userId", D),
                  ("userName", S), ("message", S)],
}

# lsfRusage when ru is 1: 19 figures (ru_utime ... ru_exutime).
RUSAGE = 19


def read_record(line):
    """{"type": ..., field: value, ...} of one lsb.events line."""
    fields = split(line)
    if not fields:
        raise ValueError("an empty record")
    kind = fields[0]
    if kind not in LAYOUTS:
        raise ValueError(f"no documented layout for {kind!r}")
    rest = fields[1:]
    record = {"type": kind}

    def take(name, type_):
        if not rest:
            raise ValueError(f"{kind}: not enough fields to get value "
                             f"for {name}.")
        return _typed(name, type_, rest.pop(0))

    for entry in HEAD + LAYOUTS[kind]:
        if entry[0] == "?":
            _, flags, bit, *entry = entry
            if not record[flags] & bit:
                continue
        name, type_ = entry
        if type_ == "rusage":
            record[name] = take(name, D)
            if record[name]:
                record["lsfRusage"] = [take("lsfRusage", F)
                                       for _ in range(RUSAGE)]
        elif type_ == "remote":
            count = record[name[1:]] = take(name[1:], D)
            record[name[1:] + "[]"] = [_remote_result(take)
                                       for _ in range(count)]
        elif name.startswith("#"):
            count = record[name[1:]] = take(name[1:], D)
            record[name[1:] + "[]"] = [
                tuple(take(n, k) for n, k in type_) for _ in range(count)]
        else:
            record[name] = take(name, type_)
    if rest:
        raise ValueError(f"{kind}: {len(rest)} extra fields left over: "
                         f"{rest}")
    return record


def _remote_result(take):
    """One rmtJobCtrlRecord: rmtCluster, rmtJobCtrlId, numSuccJobId and
    the ids, numFailJobId and the ids, then a failReason per failure."""
    cluster, ctrl_id = take("rmtCluster", S), take("rmtJobCtrlId", S)
    succeeded = [take("succJobId", D)
                 for _ in range(take("numSuccJobId", D))]
    failed = [take("failJobId", D) for _ in range(take("numFailJobId", D))]
    reasons = [take("failReason", D) for _ in failed]
    return cluster, ctrl_id, succeeded, list(zip(failed, reasons))


def read_file(path):
    """The records of one lsb.events file (its "# ..." header left out)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip() and not line.startswith("#"):
                try:
                    out.append(read_record(line))
                except ValueError as e:
                    raise ValueError(f"{path}:{n}: {e}: {line!r}") from None
    return out
