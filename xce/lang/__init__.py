"""The little languages of LSF that xce reads: resource requirements
(`-R`, RES_REQ), dependency expressions (`-w`), units of limits, and the
boolean-expression core the first two share.

Pure and stdlib-only: no I/O, no clock, no other xce package.  Commands,
the configuration loader and the scheduler all import from here, so the
same text means the same thing wherever it is read.
"""
