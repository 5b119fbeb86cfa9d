"""xce sim: the production scheduler replaying a workload in virtual time."""
