"""xce: an LSF-compatible batch system."""

__version__ = "0.1.0"
# The LSF release whose behaviour and formats xce reproduces.
LSF_COMPAT_VERSION = "10.1.0.13"
