"""Cluster information: queues, hosts, users and groups, applications, limits, parameters and lsid."""
