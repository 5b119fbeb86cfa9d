"""badmin: queue, host and daemon control, reconfig, showstatus, mbdrestart."""
