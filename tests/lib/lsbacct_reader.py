"""An lsb.acct reader written from IBM's lsb.acct(5) for LSF 10.1 alone.

It knows nothing of xce's writer: it splits a line the way LSF's files are
quoted (blank separated, strings in double quotes, an inner quote
doubled), then walks the documented JOB_FINISH layout field by field,
taking each counted list (askedHosts, execHosts, submitEXT, hostRusage,
networkAlloc, allocSlots, index ranges, gRusage, storage, finishKVP) by
its count.  ``read_record`` raises ValueError when a field is missing or
has the wrong type, or when fields are left over, as the strict accounting
parsers in the field do.
"""

import csv

S, D, F = "%s", "%d", "%f"

# (name, type) in LSF 10.1's order; ("#name", n_fields) is a count field
# followed by that many groups, each group of n_fields typed fields.
JOB_FINISH = [
    ("version", S), ("eventTime", D), ("jobId", D), ("userId", D),
    ("options", D), ("numProcessors", D), ("submitTime", D),
    ("beginTime", D), ("termTime", D), ("startTime", D), ("userName", S),
    ("queue", S), ("resReq", S), ("dependCond", S), ("preExecCmd", S),
    ("fromHost", S), ("cwd", S), ("inFile", S), ("outFile", S),
    ("errFile", S), ("jobFile", S),
    ("#numAskedHosts", [("askedHost", S)]),
    ("#numExHosts", [("execHost", S)]),
    ("jStatus", D), ("hostFactor", F), ("jobName", S), ("command", S),
    ("ru_utime", F), ("ru_stime", F), ("ru_maxrss", F), ("ru_ixrss", F),
    ("ru_ismrss", F), ("ru_idrss", F), ("ru_isrss", F), ("ru_minflt", F),
    ("ru_majflt", F), ("ru_nswap", F), ("ru_inblock", F), ("ru_oublock", F),
    ("ru_ioch", F), ("ru_msgsnd", F), ("ru_msgrcv", F), ("ru_nsignals", F),
    ("ru_nvcsw", F), ("ru_nivcsw", F), ("ru_exutime", F),
    ("mailUser", S), ("projectName", S), ("exitStatus", D),
    ("maxNumProcessors", D), ("loginShell", S), ("timeEvent", S),
    ("idx", D), ("maxRMem", D), ("maxRSwap", D), ("inFileSpool", S),
    ("commandSpool", S), ("rsvId", S), ("sla", S), ("exceptMask", D),
    ("additionalInfo", S), ("exitInfo", D), ("warningAction", S),
    ("warningTimePeriod", D), ("chargedSAAP", S), ("licenseProject", S),
    ("app", S), ("postExecCmd", S), ("runtimeEstimation", D),
    ("jgroup", S), ("requeueEValues", S), ("options2", D),
    ("resizeNotifyCmd", S), ("lastResizeTime", D), ("rsvIdLong", S),
    ("jobDescription", S),
    ("#submitEXT", [("key", S), ("value", S)]),
    ("#numHostRusage", [("hostname", S), ("mem", D), ("swap", D),
                        ("utime", D), ("stime", D)]),
    ("options3", D), ("runLimit", D), ("avgMem", D),
    ("effectiveResReq", S), ("srcCluster", S), ("srcJobId", D),
    ("dstCluster", S), ("dstJobId", D), ("forwardTime", D), ("flow_id", S),
    ("acJobWaitTime", D), ("totalProvisionTime", D), ("outdir", S),
    ("runTime", D), ("subcwd", S),
    ("#num_network", [("networkID", S), ("num_window", D)]),
    ("affinity", S), ("serial_job_energy", F), ("cpi", F), ("gips", F),
    ("gbs", F), ("gflops", F),
    ("#numAllocSlots", [("allocSlot", S)]),
    ("ineligiblePendTime", D),
    ("#indexRangeCnt", [("start", D), ("end", D), ("step", D)]),
    ("requeueTime", D),
    ("#numGPURusages", "gpu"),
    ("#storageInfoC", [("storageInfoV", S)]),
    ("#numKVP", [("key", S), ("value", S)]),
]
# flow_id is documented as %d, but LSF 10.1 writes it as a string ("" in
# its JOB_FINISH records), and so it is read here.

# Names of every plain (not counted) field, for field-count checks.
PLAIN = [name for name, kind in JOB_FINISH if not name.startswith("#")]


def split(line):
    """The fields of one record line."""
    return next(csv.reader([line.rstrip("\n")], delimiter=" ",
                           quotechar='"', doublequote=True, strict=True))


def _typed(name, kind, text):
    try:
        if kind == D:
            return int(text)
        if kind == F:
            return float(text)
    except ValueError:
        raise ValueError(f"{name}({kind})={text!r} is not a number")
    return text


def read_record(line):
    """{"type": ..., field: value, ...} of one JOB_FINISH line."""
    fields = split(line)
    if not fields or fields[0] != "JOB_FINISH":
        raise ValueError(f"not a JOB_FINISH record: {fields[:1]}")
    rest = fields[1:]
    record = {"type": "JOB_FINISH"}

    def take(name, kind):
        if not rest:
            raise ValueError(f"Not enough fields to get value for {name}.")
        return _typed(name, kind, rest.pop(0))

    for name, kind in JOB_FINISH:
        if not name.startswith("#"):
            record[name] = take(name, kind)
            continue
        count = take(name[1:], D)
        record[name[1:]] = count
        groups = []
        for _ in range(count):
            if kind == "gpu":           # hostname, numKVP, then its pairs
                host = take("gpu hostname", S)
                pairs = [(take("key", S), take("value", S))
                         for _ in range(take("numKVP", D))]
                groups.append((host, pairs))
            else:
                groups.append(tuple(take(n, k) for n, k in kind))
        record[name[1:] + "[]"] = groups
    if rest:
        raise ValueError(f"{len(rest)} extra fields left over: {rest}")
    return record
