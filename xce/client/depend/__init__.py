"""Job dependencies: bjdepinfo's walk and table, and bwait."""
